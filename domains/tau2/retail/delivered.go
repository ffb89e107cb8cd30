package retail

import (
	"github.com/voiceeval/schematools/domains/internal/pynum"
	"github.com/voiceeval/schematools/domains/tau2/tau2tools"
	"github.com/voiceeval/schematools/internal/pyvalue"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

// NewExchangeDeliveredOrderItems builds exchange_delivered_order_items
// (ExchangeDeliveredOrderItemsTool). It checks, in this order: the order
// exists (not_found "Order <id> not found") and its status is exactly
// "delivered" (value_error "Non-delivered order cannot be exchanged"); the
// order holds every item of item_ids as often as it is listed (value_error
// "Number of <item id> not found."); there are as many new ids (value_error
// "The number of items to be exchanged should match."); then each pair —
// the old item in the order (value_error "Item <id> not found"), the new
// one an available variant of the old item's product (value_error "New
// item <id> not found or available"); the user exists (not_found "User not
// found") and has the payment method (not_found "Payment method not
// found"); a gift card covers a positive difference (value_error
// "Insufficient gift card balance to pay for the price difference").
//
// The difference is round(Σ new price − old price, 2), computed with
// float(). Nothing is paid yet: the order gets "status": "exchange
// requested", exchange_items and exchange_new_items (each sorted),
// exchange_payment_method_id and exchange_price_difference. The result is
// a copy of the order; the recorded result is {"order_id", "status",
// "price_difference"}.
func NewExchangeDeliveredOrderItems(opts *tool.Options) (*tool.Typed[ExchangeDeliveredOrderItemsParams], error) {
	return tau2tools.NewRecordWriteTool(Domain, NameExchangeDeliveredOrderItems, recorder, []string{tableOrders}, exchangeItems, opts)
}

func exchangeItems(w *state.Writer, p ExchangeDeliveredOrderItemsParams) (any, state.Action, error) {
	order, failure, err := deliveredOrder(w, p.OrderID, "Non-delivered order cannot be exchanged")
	if failure != nil || err != nil {
		return failure, nil, err
	}
	items, err := itemsOf(order)
	if err != nil {
		return nil, nil, err
	}
	if failure := itemCountsFailure(items, p.ItemIDs, p.NewItemIDs,
		func(id string) string { return "Number of " + id + " not found." }, "The number of items to be exchanged should match."); failure != nil {
		return failure, nil, nil
	}
	_, diff, failure, err := priceSwaps(w.DB, items, p.ItemIDs, p.NewItemIDs, false)
	if failure != nil || err != nil {
		return failure, nil, err
	}
	_, method, failure, err := payerOf(w.DB, order, p.PaymentMethodID)
	if failure != nil || err != nil {
		return failure, nil, err
	}
	if isGiftCard(method) {
		if failure, err := giftCardShort(method, pyvalue.FloatNum(diff), "Insufficient gift card balance to pay for the price difference"); failure != nil || err != nil {
			return failure, nil, err
		}
	}
	o := w.Order()
	o.Set(order, "status", statusExchange)
	o.Set(order, "exchange_items", sortedIDs(p.ItemIDs))
	o.Set(order, "exchange_new_items", sortedIDs(p.NewItemIDs))
	o.Set(order, "exchange_payment_method_id", p.PaymentMethodID)
	o.Set(order, "exchange_price_difference", pynum.DBNumber(pyvalue.FloatNum(diff)))
	return order, state.NewAction(KeyExchangeDeliveredOrderItems, tool.ModelDump(p),
		map[string]any{"order_id": p.OrderID, "status": statusExchange, "price_difference": pynum.DBNumber(pyvalue.FloatNum(diff))}), nil
}

// NewReturnDeliveredOrderItems builds return_delivered_order_items
// (ReturnDeliveredOrderItemsTool). It checks, in this order: the order
// exists (not_found "Order <id> not found") and its status is exactly
// "delivered" (value_error "Non-delivered order cannot be returned"); the
// user exists (not_found "User not found") and has the payment method
// (not_found "Payment method not found"), which is a gift card or the
// method of the first payment of the order (value_error "Payment method
// should be the original payment method"); the order holds every item of
// item_ids as often as it is listed (value_error "Some item not found").
// The order then gets "status": "return requested", return_items (sorted)
// and return_payment_method_id; nothing is refunded yet. The result is a
// copy of the order; the recorded result is {"order_id", "status"}.
func NewReturnDeliveredOrderItems(opts *tool.Options) (*tool.Typed[ReturnDeliveredOrderItemsParams], error) {
	return tau2tools.NewRecordWriteTool(Domain, NameReturnDeliveredOrderItems, recorder, []string{tableOrders}, returnItems, opts)
}

func returnItems(w *state.Writer, p ReturnDeliveredOrderItemsParams) (any, state.Action, error) {
	order, failure, err := deliveredOrder(w, p.OrderID, "Non-delivered order cannot be returned")
	if failure != nil || err != nil {
		return failure, nil, err
	}
	_, method, failure, err := payerOf(w.DB, order, p.PaymentMethodID)
	if failure != nil || err != nil {
		return failure, nil, err
	}
	original, err := firstPaymentMethod(order)
	if err != nil {
		return nil, nil, err
	}
	if !isGiftCard(method) && !pyvalue.Equal(original, p.PaymentMethodID) {
		return tau2tools.ValueError("Payment method should be the original payment method"), nil, nil
	}
	items, err := itemsOf(order)
	if err != nil {
		return nil, nil, err
	}
	if _, missing := missingItem(p.ItemIDs, items); missing {
		return tau2tools.ValueError("Some item not found"), nil, nil
	}
	o := w.Order()
	o.Set(order, "status", statusReturn)
	o.Set(order, "return_items", sortedIDs(p.ItemIDs))
	o.Set(order, "return_payment_method_id", p.PaymentMethodID)
	return order, state.NewAction(KeyReturnDeliveredOrderItems, tool.ModelDump(p),
		map[string]any{"order_id": p.OrderID, "status": statusReturn}), nil
}

// deliveredOrder looks the order up, for changing, and checks that its status is exactly
// "delivered"; refused is the value_error message otherwise.
func deliveredOrder(w *state.Writer, id, refused string) (map[string]any, any, error) {
	order, failure, err := ownOrder(w, id)
	if failure != nil || err != nil {
		return nil, failure, err
	}
	if !pyvalue.Equal(order["status"], statusDelivered) {
		return nil, tau2tools.ValueError(refused), nil
	}
	return order, nil, nil
}

// firstPaymentMethod is Python's ((order.get("payment_history") or
// [{}])[0]).get("payment_method_id"): the method of the order's first
// payment, nil when it has none.
func firstPaymentMethod(order map[string]any) (any, error) {
	history, err := tau2tools.GetListOr(order, "payment_history")
	if err != nil || len(history) == 0 {
		return nil, err
	}
	first, err := tau2tools.AsDict(history[0])
	if err != nil {
		return nil, err
	}
	return first["payment_method_id"], nil
}
