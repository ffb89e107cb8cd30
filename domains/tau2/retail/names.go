package retail

import "github.com/voiceeval/schematools/domains/tau2/tau2tools"

// Domain is the tool domain of the tau2 retail port.
const Domain = "tau2_retail"

// Keys are the tau2 (snake_case) names of the tools: gold actions name
// tools by them, and the write tools record them as action types.
const (
	KeyFindUserIDByNameZip         = "find_user_id_by_name_zip"
	KeyFindUserIDByEmail           = "find_user_id_by_email"
	KeyGetOrderDetails             = "get_order_details"
	KeyGetProductDetails           = "get_product_details"
	KeyGetItemDetails              = "get_item_details"
	KeyGetUserDetails              = "get_user_details"
	KeyListAllProductTypes         = "list_all_product_types"
	KeyCancelPendingOrder          = "cancel_pending_order"
	KeyExchangeDeliveredOrderItems = "exchange_delivered_order_items"
	KeyModifyPendingOrderAddress   = "modify_pending_order_address"
	KeyModifyPendingOrderItems     = "modify_pending_order_items"
	KeyModifyPendingOrderPayment   = "modify_pending_order_payment"
	KeyModifyUserAddress           = "modify_user_address"
	KeyReturnDeliveredOrderItems   = "return_delivered_order_items"
	KeyCalculate                   = tau2tools.KeyCalculate
	KeyTransferToHumanAgents       = tau2tools.KeyTransferToHumanAgents
)

// Names are the names the model sees and the registry keys on: the
// Python original's class names.
const (
	NameFindUserIDByNameZip         = "FindUserIdByNameZipTool"
	NameFindUserIDByEmail           = "FindUserIdByEmailTool"
	NameGetOrderDetails             = "GetOrderDetailsTool"
	NameGetProductDetails           = "GetProductDetailsTool"
	NameGetItemDetails              = "GetItemDetailsTool"
	NameGetUserDetails              = "GetUserDetailsTool"
	NameListAllProductTypes         = "ListAllProductTypesTool"
	NameCancelPendingOrder          = "CancelPendingOrderTool"
	NameExchangeDeliveredOrderItems = "ExchangeDeliveredOrderItemsTool"
	NameModifyPendingOrderAddress   = "ModifyPendingOrderAddressTool"
	NameModifyPendingOrderItems     = "ModifyPendingOrderItemsTool"
	NameModifyPendingOrderPayment   = "ModifyPendingOrderPaymentTool"
	NameModifyUserAddress           = "ModifyUserAddressTool"
	NameReturnDeliveredOrderItems   = "ReturnDeliveredOrderItemsTool"
	NameCalculate                   = tau2tools.NameCalculate
	NameTransferToHumanAgents       = tau2tools.NameTransferToHumanAgents
)

// ActionTypes returns the action types the domain's write tools record.
func ActionTypes() []string {
	return []string{
		KeyCancelPendingOrder,
		KeyExchangeDeliveredOrderItems,
		KeyModifyPendingOrderAddress,
		KeyModifyPendingOrderItems,
		KeyModifyPendingOrderPayment,
		KeyModifyUserAddress,
		KeyReturnDeliveredOrderItems,
		KeyTransferToHumanAgents,
	}
}
