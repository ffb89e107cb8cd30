package retail

import (
	"fmt"
	"github.com/voiceeval/schematools/domains/internal/pynum"
	"math"

	"github.com/voiceeval/schematools/domains/tau2/tau2tools"
	"github.com/voiceeval/schematools/internal/pyvalue"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

var recorder = tool.Recorder{ActionTypes: ActionTypes()}

// NewCancelPendingOrder builds cancel_pending_order (CancelPendingOrderTool).
// It checks, in this order: the order exists (not_found "Order <id> not
// found"); its status is exactly "pending" (value_error "Non-pending order
// cannot be cancelled"); the reason is "no longer needed" or "ordered by
// mistake" (value_error "Invalid reason" — checked here, not by argument
// validation, as in the Python original); the order's user exists
// (not_found "User not found").
//
// Then every entry of the payment history is refunded: a refund
// {transaction_type: "refund", amount, payment_method_id} is appended for
// each, and a gift card of the user gets the amount back,
// round(balance + amount, 2); a payment method the user no longer has is
// skipped. The order gets "status": "cancelled" and "cancel_reason". The
// result is a copy of the order; the recorded result is {"order_id": <id
// as given>, "status": "cancelled"}.
func NewCancelPendingOrder(opts *tool.Options) (*tool.Typed[CancelPendingOrderParams], error) {
	return tau2tools.NewRecordWriteTool(Domain, NameCancelPendingOrder, recorder, []string{tableOrders, tableUsers}, cancelOrder, opts)
}

func cancelOrder(w *state.Writer, p CancelPendingOrderParams) (any, state.Action, error) {
	order, failure, err := ownOrder(w, p.OrderID)
	if failure != nil || err != nil {
		return failure, nil, err
	}
	if !pyvalue.Equal(order["status"], statusPending) {
		return tau2tools.ValueError("Non-pending order cannot be cancelled"), nil, nil
	}
	if p.Reason != ReasonNoLongerNeeded && p.Reason != ReasonOrderedByMistake {
		return tau2tools.ValueError("Invalid reason"), nil, nil
	}
	user, failure, err := userOf(w.DB, order)
	if failure != nil || err != nil {
		return failure, nil, err
	}
	history, err := tau2tools.GetListOr(order, "payment_history")
	if err != nil {
		return nil, nil, err
	}
	refunds := make([]any, 0, len(history))
	balances := map[string]any{} // gift card id -> its balance after the refunds so far
	for _, entry := range history {
		payment, err := tau2tools.AsDict(entry)
		if err != nil {
			return nil, nil, err
		}
		id := payment["payment_method_id"]
		amount, ok := payment["amount"]
		if !ok {
			amount = pynum.DBNumber(pyvalue.IntNum(0))
		}
		refunds = append(refunds, w.Order().Keep(map[string]any{"transaction_type": transactionRefund, "amount": state.Clone(amount), "payment_method_id": state.Clone(id)},
			transactionKeys...))
		methods, err := tau2tools.PaymentMethods(user)
		if err != nil {
			return nil, nil, err
		}
		methodV, err := tau2tools.GetKey(methods, id)
		if err != nil {
			return nil, nil, err
		}
		if methodV == nil {
			continue // a method the user no longer has: skipped
		}
		method, err := tau2tools.AsDict(methodV)
		if err != nil || !isGiftCard(method) {
			if err != nil {
				return nil, nil, err
			}
			continue
		}
		key := id.(string) // only a string finds a method
		if balance, seen := balances[key]; seen {
			method = map[string]any{"balance": balance} // the card as the refunds so far left it
		}
		refund, err := operand(amount, "+")
		if err != nil {
			return nil, nil, err
		}
		if balances[key], err = balancePlus(method, refund); err != nil {
			return nil, nil, err
		}
	}
	if v, ok := order["payment_history"]; ok {
		if _, isList := v.([]any); !isList {
			return nil, nil, tau2tools.Raise("AttributeError", "'%s' object has no attribute 'extend'", pyvalue.TypeName(v))
		}
	}

	for id, balance := range balances {
		if err := setBalance(w, order, id, balance); err != nil {
			return nil, nil, err
		}
	}
	o := w.Order()
	o.Set(order, "status", statusCancelled)
	o.Set(order, "cancel_reason", p.Reason)
	o.Set(order, "payment_history", append(history, refunds...))
	return order, state.NewAction(KeyCancelPendingOrder, tool.ModelDump(p),
		map[string]any{"order_id": p.OrderID, "status": statusCancelled}), nil
}

// operand reads an amount from the DB for Python arithmetic with a
// balance; anything but a number is the TypeError Python raises for op.
func operand(v any, op string) (pyvalue.Num, error) {
	n, ok := pyvalue.NumOf(v)
	if !ok {
		return n, tau2tools.Raise("TypeError", "unsupported operand type(s) for %s: 'float' and '%s'", op, pyvalue.TypeName(v))
	}
	return n, nil
}

// NewModifyPendingOrderItems builds modify_pending_order_items
// (ModifyPendingOrderItemsTool). It checks, in this order: the order
// exists (not_found "Order <id> not found") and its status is exactly
// "pending" (value_error "Non-pending order cannot be modified"); the
// order holds every item of item_ids as often as it is listed (value_error
// "<item id> not found"); there are as many new ids (value_error "The
// number of items to be exchanged should match"); then each pair — a new
// id different from the old one (value_error "The new item id should be
// different from the old item id"), the old item in the order, the new one
// an available variant of the same product (see exchange); the user exists
// (not_found "User not found") and has the payment method (not_found
// "Payment method not found"); a gift card covers a positive difference
// (value_error "Insufficient gift card balance to pay for the new item").
//
// The difference is round(Σ new price − old price, 2). A payment
// {transaction_type: "payment" when it is positive, else "refund", amount:
// |difference|, payment_method_id} is appended to the history, and a gift
// card's balance becomes round(balance − difference, 2). Each pair then
// changes the first order item still holding the old id to the new id,
// with the price and options of its own variant — NeMo's fix of tau2,
// which gave every changed item the last variant's price and options. The
// status becomes "pending (item modified)". The result is a copy of the
// order; the recorded result is {"order_id", "price_difference"}.
func NewModifyPendingOrderItems(opts *tool.Options) (*tool.Typed[ModifyPendingOrderItemsParams], error) {
	return tau2tools.NewRecordWriteTool(Domain, NameModifyPendingOrderItems, recorder, []string{tableOrders, tableUsers}, modifyItems, opts)
}

func modifyItems(w *state.Writer, p ModifyPendingOrderItemsParams) (any, state.Action, error) {
	order, failure, err := ownOrder(w, p.OrderID)
	if failure != nil || err != nil {
		return failure, nil, err
	}
	if !pyvalue.Equal(order["status"], statusPending) {
		return tau2tools.ValueError("Non-pending order cannot be modified"), nil, nil
	}
	items, err := itemsOf(order)
	if err != nil {
		return nil, nil, err
	}
	if failure := itemCountsFailure(items, p.ItemIDs, p.NewItemIDs,
		func(id string) string { return id + " not found" }, "The number of items to be exchanged should match"); failure != nil {
		return failure, nil, nil
	}
	swaps, diff, failure, err := priceSwaps(w.DB, items, p.ItemIDs, p.NewItemIDs, true)
	if failure != nil || err != nil {
		return failure, nil, err
	}
	_, method, failure, err := payerOf(w.DB, order, p.PaymentMethodID)
	if failure != nil || err != nil {
		return failure, nil, err
	}
	var balance any
	if isGiftCard(method) {
		if failure, err := giftCardShort(method, pyvalue.FloatNum(diff), "Insufficient gift card balance to pay for the new item"); failure != nil || err != nil {
			return failure, nil, err
		}
		if balance, err = balancePlus(method, pyvalue.FloatNum(-diff)); err != nil {
			return nil, nil, err
		}
	}
	history, err := tau2tools.SetDefaultList(order, "payment_history")
	if err != nil {
		return nil, nil, err
	}

	kind := transactionRefund
	if diff > 0 {
		kind = transactionPayment
	}
	o := w.Order()
	o.Set(order, "payment_history", append(history, o.Keep(map[string]any{
		"transaction_type": kind, "amount": pynum.DBNumber(pyvalue.FloatNum(math.Abs(diff))), "payment_method_id": p.PaymentMethodID,
	}, transactionKeys...)))
	if balance != nil {
		if err := setBalance(w, order, p.PaymentMethodID, balance); err != nil {
			return nil, nil, err
		}
	}
	for _, s := range swaps {
		if item := firstItem(items, s.oldID); item != nil {
			item["item_id"] = s.newID
			item["price"] = state.Clone(s.variant["price"])
			item["options"] = o.Clone(s.variant["options"]) // the variant's dict, in its order
		}
	}
	o.Set(order, "status", statusItemsModified)
	return order, state.NewAction(KeyModifyPendingOrderItems, tool.ModelDump(p),
		map[string]any{"order_id": p.OrderID, "price_difference": pynum.DBNumber(pyvalue.FloatNum(diff))}), nil
}

// giftCardShort returns the value_error message when the gift card's
// (balance or 0) is less than amount, nil when it covers it.
func giftCardShort(method map[string]any, amount pyvalue.Num, message string) (any, error) {
	balance, err := balanceOf(method)
	if err != nil {
		return nil, err
	}
	if pynum.Less(balance, amount) {
		return tau2tools.ValueError(message), nil
	}
	return nil, nil
}

// NewModifyPendingOrderPayment builds modify_pending_order_payment
// (ModifyPendingOrderPaymentTool). It checks, in this order: the order
// exists (not_found "Order <id> not found") and its status contains
// "pending" — "pending (item modified)" passes (value_error "Non-pending
// order cannot be modified"); the user exists (not_found "User not found")
// and has the new payment method (not_found "Payment method not found");
// the history is exactly one payment (value_error "There should be exactly
// one payment for a pending order"); the new method is not that payment's
// (value_error "The new payment method should be different from the
// current one"); a new gift card covers the amount (value_error
// "Insufficient gift card balance to pay for the order").
//
// The history becomes [the payment, a payment of the amount with the new
// method, a refund of it to the old one]; a new gift card is debited and
// an old gift card credited, each balance rounded to cents. The result is
// a copy of the order; the recorded result is {"order_id"}.
func NewModifyPendingOrderPayment(opts *tool.Options) (*tool.Typed[ModifyPendingOrderPaymentParams], error) {
	return tau2tools.NewRecordWriteTool(Domain, NameModifyPendingOrderPayment, recorder, []string{tableOrders, tableUsers}, modifyPayment, opts)
}

func modifyPayment(w *state.Writer, p ModifyPendingOrderPaymentParams) (any, state.Action, error) {
	order, failure, err := pendingOrder(w, p.OrderID)
	if failure != nil || err != nil {
		return failure, nil, err
	}
	user, method, failure, err := payerOf(w.DB, order, p.PaymentMethodID)
	if failure != nil || err != nil {
		return failure, nil, err
	}
	history, err := tau2tools.GetListOr(order, "payment_history")
	if err != nil {
		return nil, nil, err
	}
	onePayment := len(history) == 1
	var paid map[string]any
	if onePayment {
		if paid, err = tau2tools.AsDict(history[0]); err != nil {
			return nil, nil, err
		}
		onePayment = pyvalue.Equal(paid["transaction_type"], transactionPayment)
	}
	if !onePayment {
		return tau2tools.ValueError("There should be exactly one payment for a pending order"), nil, nil
	}
	oldID := paid["payment_method_id"]
	if pyvalue.Equal(oldID, p.PaymentMethodID) {
		return tau2tools.ValueError("The new payment method should be different from the current one"), nil, nil
	}
	amount, ok := paid["amount"]
	if !ok {
		amount = pynum.DBNumber(pyvalue.IntNum(0))
	}
	var newBalance, oldBalance any
	if isGiftCard(method) {
		charge, err := comparand(amount)
		if err != nil {
			return nil, nil, err
		}
		if failure, err := giftCardShort(method, charge, "Insufficient gift card balance to pay for the order"); failure != nil || err != nil {
			return failure, nil, err
		}
		if newBalance, err = balancePlus(method, charge.Neg()); err != nil {
			return nil, nil, err
		}
	}
	methods, err := tau2tools.PaymentMethods(user)
	if err != nil {
		return nil, nil, err
	}
	oldV, err := tau2tools.GetKey(methods, oldID)
	if err != nil {
		return nil, nil, err
	}
	if oldV != nil {
		oldMethod, err := tau2tools.AsDict(oldV)
		if err != nil {
			return nil, nil, err
		}
		if isGiftCard(oldMethod) {
			refund, err := operand(amount, "+")
			if err != nil {
				return nil, nil, err
			}
			if oldBalance, err = balancePlus(oldMethod, refund); err != nil {
				return nil, nil, err
			}
		}
	}

	o := w.Order()
	o.Set(order, "payment_history", []any{history[0],
		o.Keep(map[string]any{"transaction_type": transactionPayment, "amount": state.Clone(amount), "payment_method_id": p.PaymentMethodID}, transactionKeys...),
		o.Keep(map[string]any{"transaction_type": transactionRefund, "amount": state.Clone(amount), "payment_method_id": state.Clone(oldID)}, transactionKeys...),
	})
	if newBalance != nil {
		if err := setBalance(w, order, p.PaymentMethodID, newBalance); err != nil {
			return nil, nil, err
		}
	}
	if oldBalance != nil {
		if err := setBalance(w, order, oldID.(string), oldBalance); err != nil { // found, so a string
			return nil, nil, err
		}
	}
	return order, state.NewAction(KeyModifyPendingOrderPayment, tool.ModelDump(p),
		map[string]any{"order_id": p.OrderID}), nil
}

// comparand reads an amount from the DB for a comparison with a gift card
// balance; anything but a number is the TypeError Python raises.
func comparand(v any) (pyvalue.Num, error) {
	n, ok := pyvalue.NumOf(v)
	if !ok {
		return n, tau2tools.Raise("TypeError", "'<' not supported between instances of 'float' and '%s'", pyvalue.TypeName(v))
	}
	return n, nil
}

// pendingOrder looks the order up, for changing, and checks that its
// status contains "pending", as the address and payment changes do: an
// unknown order is not_found "Order <id> not found", another status
// value_error "Non-pending order cannot be modified".
func pendingOrder(w *state.Writer, id string) (map[string]any, any, error) {
	order, failure, err := ownOrder(w, id)
	if failure != nil || err != nil {
		return nil, failure, err
	}
	pending, err := tau2tools.PyIn(statusPending, order["status"])
	if err != nil {
		return nil, nil, err
	}
	if !pending {
		return nil, tau2tools.ValueError("Non-pending order cannot be modified"), nil
	}
	return order, nil, nil
}

// setBalance stores a gift card's new balance: the card id of the user of
// the order, in the write's own copy of the user.
func setBalance(w *state.Writer, order map[string]any, id string, balance any) error {
	user, err := ownUser(w, order["user_id"])
	if err != nil {
		return err
	}
	methods, err := tau2tools.PaymentMethods(user)
	if err != nil {
		return err
	}
	method, ok := methods[id].(map[string]any)
	if !ok {
		return fmt.Errorf("retail: gift card %s vanished during the write", id)
	}
	method["balance"] = balance
	return nil
}
