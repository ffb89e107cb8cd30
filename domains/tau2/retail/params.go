package retail

import "github.com/voiceeval/schematools/domains/tau2/tau2tools"

// Cancellation reasons: the two values cancel_pending_order accepts.
const (
	ReasonNoLongerNeeded   = "no longer needed"
	ReasonOrderedByMistake = "ordered by mistake"
)

// FindUserIDByNameZipParams are the arguments of find_user_id_by_name_zip.
type FindUserIDByNameZipParams struct {
	FirstName string `json:"first_name"`
	LastName  string `json:"last_name"`
	Zip       string `json:"zip"`
}

// FindUserIDByEmailParams are the arguments of find_user_id_by_email.
type FindUserIDByEmailParams struct {
	Email string `json:"email"`
}

// GetOrderDetailsParams are the arguments of get_order_details.
type GetOrderDetailsParams struct {
	OrderID string `json:"order_id"`
}

// GetProductDetailsParams are the arguments of get_product_details.
type GetProductDetailsParams struct {
	ProductID string `json:"product_id"`
}

// GetItemDetailsParams are the arguments of get_item_details.
type GetItemDetailsParams struct {
	ItemID string `json:"item_id"`
}

// GetUserDetailsParams are the arguments of get_user_details, shared with
// the airline domain.
type GetUserDetailsParams = tau2tools.GetUserDetailsParams

// ListAllProductTypesParams are the (no) arguments of
// list_all_product_types.
type ListAllProductTypesParams struct{}

// CancelPendingOrderParams are the arguments of cancel_pending_order. The
// model is offered the two reasons as an enum (the original's schema,
// presented from tau2data); as in the Python original, any other string
// passes validation and the tool refuses it itself ("Invalid reason"),
// after looking at the order.
type CancelPendingOrderParams struct {
	OrderID string `json:"order_id"`
	Reason  string `json:"reason"`
}

// ExchangeDeliveredOrderItemsParams are the arguments of
// exchange_delivered_order_items.
type ExchangeDeliveredOrderItemsParams struct {
	OrderID         string   `json:"order_id"`
	ItemIDs         []string `json:"item_ids"`
	NewItemIDs      []string `json:"new_item_ids"`
	PaymentMethodID string   `json:"payment_method_id"`
}

// Address is a postal address, as an order or a user holds it.
type Address struct {
	Address1 string `json:"address1"`
	Address2 string `json:"address2"`
	City     string `json:"city"`
	State    string `json:"state"`
	Country  string `json:"country"`
	Zip      string `json:"zip"`
}

// ModifyPendingOrderAddressParams are the arguments of
// modify_pending_order_address: the order and its new shipping address.
type ModifyPendingOrderAddressParams struct {
	OrderID string `json:"order_id"`
	Address
}

// ModifyPendingOrderItemsParams are the arguments of
// modify_pending_order_items.
type ModifyPendingOrderItemsParams struct {
	OrderID         string   `json:"order_id"`
	ItemIDs         []string `json:"item_ids"`
	NewItemIDs      []string `json:"new_item_ids"`
	PaymentMethodID string   `json:"payment_method_id"`
}

// ModifyPendingOrderPaymentParams are the arguments of
// modify_pending_order_payment.
type ModifyPendingOrderPaymentParams struct {
	OrderID         string `json:"order_id"`
	PaymentMethodID string `json:"payment_method_id"`
}

// ModifyUserAddressParams are the arguments of modify_user_address: the
// user and their new default address.
type ModifyUserAddressParams struct {
	UserID string `json:"user_id"`
	Address
}

// ReturnDeliveredOrderItemsParams are the arguments of
// return_delivered_order_items.
type ReturnDeliveredOrderItemsParams struct {
	OrderID         string   `json:"order_id"`
	ItemIDs         []string `json:"item_ids"`
	PaymentMethodID string   `json:"payment_method_id"`
}
