package retail

import "github.com/voiceeval/schematools/examples/tau2/tau2tools"

// Cancellation reasons: the two values cancel_pending_order accepts.
const (
	ReasonNoLongerNeeded   = "no longer needed"
	ReasonOrderedByMistake = "ordered by mistake"
)

// FindUserIDByNameZipParams are the arguments of find_user_id_by_name_zip.
type FindUserIDByNameZipParams struct {
	FirstName string `json:"first_name" jsonschema_description:"The customer's first name, for example 'John'."`
	LastName  string `json:"last_name" jsonschema_description:"The customer's last name, for example 'Doe'."`
	Zip       string `json:"zip" jsonschema_description:"The zip code of the customer's address, for example '12345'."`
}

// FindUserIDByEmailParams are the arguments of find_user_id_by_email.
type FindUserIDByEmailParams struct {
	Email string `json:"email" jsonschema_description:"The user's email address, for example 'something@example.com'."`
}

// GetOrderDetailsParams are the arguments of get_order_details.
type GetOrderDetailsParams struct {
	OrderID string `json:"order_id" jsonschema_description:"The order's id, for example '#W0000000'; note the '#' it starts with."`
}

// GetProductDetailsParams are the arguments of get_product_details.
type GetProductDetailsParams struct {
	ProductID string `json:"product_id" jsonschema_description:"The product's id, for example '6086499569'. A product id is not an item id."`
}

// GetItemDetailsParams are the arguments of get_item_details.
type GetItemDetailsParams struct {
	ItemID string `json:"item_id" jsonschema_description:"The item's id, for example '1008292230'. An item id is not a product id."`
}

// GetUserDetailsParams are the arguments of get_user_details, shared with
// the airline domain.
type GetUserDetailsParams = tau2tools.GetUserDetailsParams

// ListAllProductTypesParams are the (no) arguments of
// list_all_product_types.
type ListAllProductTypesParams struct{}

// CancelPendingOrderParams are the arguments of cancel_pending_order. The
// model is offered the two reasons as an enum (cancelPendingOrderProperties,
// an explicit override); as in the Python original, any other string
// passes validation and the tool refuses it itself ("Invalid reason"),
// after looking at the order.
type CancelPendingOrderParams struct {
	OrderID string `json:"order_id"`
	Reason  string `json:"reason"`
}

// cancelPendingOrderProperties is what cancel_pending_order presents: the
// reason is offered as an enum the argument checks do not enforce (the
// tool checks it, after the order), as NeMo presents and checks it.
var cancelPendingOrderProperties = map[string]any{
	"order_id": map[string]any{"type": "string", "description": "The order's id, for example '#W0000000'."},
	"reason": map[string]any{"type": "string", "enum": []any{ReasonNoLongerNeeded, ReasonOrderedByMistake},
		"description": "Why the order is cancelled: 'no longer needed' or 'ordered by mistake'."},
}

// ExchangeDeliveredOrderItemsParams are the arguments of
// exchange_delivered_order_items.
type ExchangeDeliveredOrderItemsParams struct {
	OrderID         string   `json:"order_id" jsonschema_description:"The order's id, for example '#W0000000'."`
	ItemIDs         []string `json:"item_ids" jsonschema_description:"The ids of the items to exchange, for example '1008292230'; an item the order holds twice may be listed twice."`
	NewItemIDs      []string `json:"new_item_ids" jsonschema_description:"The ids of the items to exchange them for, position by position; each must be another option of the same product."`
	PaymentMethodID string   `json:"payment_method_id" jsonschema_description:"The payment method that pays, or receives, the price difference, for example 'gift_card_0000000' or 'credit_card_0000000'."`
}

// Address is a postal address, as an order or a user holds it.
type Address struct {
	Address1 string `json:"address1" jsonschema_description:"The first line of the address, for example '123 Main St'."`
	Address2 string `json:"address2" jsonschema_description:"The second line of the address, for example 'Apt 1', or ''."`
	City     string `json:"city" jsonschema_description:"The city, for example 'San Francisco'."`
	State    string `json:"state" jsonschema_description:"The state, for example 'CA'."`
	Country  string `json:"country" jsonschema_description:"The country, for example 'USA'."`
	Zip      string `json:"zip" jsonschema_description:"The zip code, for example '12345'."`
}

// ModifyPendingOrderAddressParams are the arguments of
// modify_pending_order_address: the order and its new shipping address.
type ModifyPendingOrderAddressParams struct {
	OrderID string `json:"order_id" jsonschema_description:"The order's id, for example '#W0000000'."`
	Address
}

// ModifyPendingOrderItemsParams are the arguments of
// modify_pending_order_items.
type ModifyPendingOrderItemsParams struct {
	OrderID         string   `json:"order_id" jsonschema_description:"The order's id, for example '#W0000000'."`
	ItemIDs         []string `json:"item_ids" jsonschema_description:"The ids of the items to change, for example '1008292230'; an item the order holds twice may be listed twice."`
	NewItemIDs      []string `json:"new_item_ids" jsonschema_description:"The ids of the items to change them to, position by position; each must be another option of the same product."`
	PaymentMethodID string   `json:"payment_method_id" jsonschema_description:"The payment method that pays, or is refunded, the price difference, for example 'gift_card_0000000' or 'credit_card_0000000'."`
}

// ModifyPendingOrderPaymentParams are the arguments of
// modify_pending_order_payment.
type ModifyPendingOrderPaymentParams struct {
	OrderID         string `json:"order_id" jsonschema_description:"The order's id, for example '#W0000000'."`
	PaymentMethodID string `json:"payment_method_id" jsonschema_description:"The payment method to pay the order with instead, for example 'gift_card_0000000' or 'credit_card_0000000'."`
}

// ModifyUserAddressParams are the arguments of modify_user_address: the
// user and their new default address.
type ModifyUserAddressParams struct {
	UserID string `json:"user_id" jsonschema_description:"The user's id, for example 'sara_doe_496'."`
	Address
}

// ReturnDeliveredOrderItemsParams are the arguments of
// return_delivered_order_items.
type ReturnDeliveredOrderItemsParams struct {
	OrderID         string   `json:"order_id" jsonschema_description:"The order's id, for example '#W0000000'."`
	ItemIDs         []string `json:"item_ids" jsonschema_description:"The ids of the items to return, for example '1008292230'; an item the order holds twice may be listed twice."`
	PaymentMethodID string   `json:"payment_method_id" jsonschema_description:"Where the refund goes: the order's original payment method or a gift card, for example 'gift_card_0000000' or 'credit_card_0000000'."`
}
