package retail_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/domains/tau2/retail"
	"github.com/voiceeval/schematools/internal/replaytest"
	"github.com/voiceeval/schematools/tool"
)

// refusal is a call a write tool must refuse with want, leaving the DB and
// the action log as they were.
type refusal struct {
	name string
	db   func(db map[string]any) // changes the test DB first, when set
	args map[string]any
	want any
}

func requireRefusals(t *testing.T, key string, tests []refusal) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			db := newDB(t)
			if tt.db != nil {
				tt.db(db)
			}
			f := newFixture(t, db)
			before := f.Hash(t)
			assert.Equal(t, tt.want, f.Call(t, key, tt.args))
			assert.Equal(t, before, f.Hash(t), "a refused call changed the DB")
			assert.Empty(t, f.State.Actions(), "a refused call recorded an action")
		})
	}
}

// with returns args with the given changes (nil deletes a key).
func with(args map[string]any, changes map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range args {
		out[k] = v
	}
	for k, v := range changes {
		if v == nil {
			delete(out, k)
			continue
		}
		out[k] = v
	}
	return out
}

func setStatus(id, status string) func(db map[string]any) {
	return func(db map[string]any) { db["orders"].(map[string]any)[id].(map[string]any)["status"] = status }
}

func setGiftCard(balance float64) func(db map[string]any) {
	return func(db map[string]any) {
		user := db["users"].(map[string]any)["yusuf_rossi_9620"].(map[string]any)
		user["payment_methods"].(map[string]any)["gift_card_7245904"].(map[string]any)["balance"] = balance
	}
}

func ids(v ...string) []any {
	out := make([]any, len(v))
	for i, s := range v {
		out[i] = s
	}
	return out
}

func TestCancelPendingOrder(t *testing.T) {
	f := newFixture(t, newDB(t))
	out := f.Call(t, retail.KeyCancelPendingOrder, map[string]any{"order_id": "w1111111", "reason": "ordered by mistake"})
	// Every payment is refunded; the gift card gets both of its payments
	// back, rounded to cents each time; the credit card the user no longer
	// has is skipped.
	history := `[{"transaction_type": "payment", "amount": 20.0, "payment_method_id": "gift_card_7245904"},
		{"transaction_type": "payment", "amount": 12.5, "payment_method_id": "gift_card_7245904"},
		{"transaction_type": "payment", "amount": 15.34, "payment_method_id": "credit_card_0000000"},
		{"transaction_type": "refund", "amount": 20.0, "payment_method_id": "gift_card_7245904"},
		{"transaction_type": "refund", "amount": 12.5, "payment_method_id": "gift_card_7245904"},
		{"transaction_type": "refund", "amount": 15.34, "payment_method_id": "credit_card_0000000"}]`
	replaytest.RequireJSON(t, history, out.(map[string]any)["payment_history"])
	assert.Equal(t, f.At(t, "orders", "#W1111111"), out)
	assert.Equal(t, "cancelled", f.At(t, "orders", "#W1111111", "status"))
	assert.Equal(t, "ordered by mistake", f.At(t, "orders", "#W1111111", "cancel_reason"))
	replaytest.RequireJSON(t, "72.5", f.At(t, "users", "yusuf_rossi_9620", "payment_methods", "gift_card_7245904", "balance"))
	replaytest.RequireJSON(t, `[{"action_type": "cancel_pending_order", "name": "cancel_pending_order",
		"arguments": {"order_id": "w1111111", "reason": "ordered by mistake"},
		"result": {"order_id": "w1111111", "status": "cancelled"}}]`, f.State.Actions())

	// One payment by gift card: the balance gets it back, as a float.
	f = newFixture(t, newDB(t))
	f.Call(t, retail.KeyCancelPendingOrder, map[string]any{"order_id": "#W4776164", "reason": "no longer needed"})
	replaytest.RequireJSON(t, "408.01", f.At(t, "users", "yusuf_rossi_9620", "payment_methods", "gift_card_7245904", "balance"))

	cancel := map[string]any{"order_id": "#W4776164", "reason": "no longer needed"}
	requireRefusals(t, retail.KeyCancelPendingOrder, []refusal{
		{name: "unknown order, named as given", args: with(cancel, map[string]any{"order_id": "#w0"}), want: notFound("Order #w0 not found")},
		{name: "processed", args: with(cancel, map[string]any{"order_id": "#W9711842"}), want: valueError("Non-pending order cannot be cancelled")},
		{name: "status must be exactly pending", args: with(cancel, map[string]any{"order_id": "#W6247578"}), want: valueError("Non-pending order cannot be cancelled")},
		{name: "invalid reason", args: with(cancel, map[string]any{"reason": "too expensive"}), want: valueError("Invalid reason")},
		{name: "the status is checked before the reason", args: map[string]any{"order_id": "#W9711842", "reason": "x"}, want: valueError("Non-pending order cannot be cancelled")},
		{name: "unknown user", db: setStatus("#W2222222", "pending"), args: with(cancel, map[string]any{"order_id": "#W2222222"}), want: notFound("User not found")},
	})
	// The reason is offered as an enum but validated as a string.
	f = newFixture(t, newDB(t))
	res := f.Call(t, retail.KeyCancelPendingOrder, map[string]any{"order_id": "#W4776164", "reason": 3})
	require.IsType(t, tool.ValidationResult{}, res)
	assert.Equal(t, "string_type", res.(tool.ValidationResult).Details[0].Type)
}

func TestExchangeDeliveredOrderItems(t *testing.T) {
	f := newFixture(t, newDB(t))
	users := f.At(t, "users")
	out := f.Call(t, retail.KeyExchangeDeliveredOrderItems, map[string]any{"order_id": "#W2378156",
		"item_ids": ids("6469567736", "1151293680"), "new_item_ids": ids("2439754078", "7706410293"), "payment_method_id": "credit_card_9513926"})
	assert.Equal(t, f.At(t, "orders", "#W2378156"), out)
	order := out.(map[string]any)
	assert.Equal(t, "exchange requested", order["status"])
	replaytest.RequireJSON(t, `["1151293680", "6469567736"]`, order["exchange_items"])
	replaytest.RequireJSON(t, `["2439754078", "7706410293"]`, order["exchange_new_items"])
	assert.Equal(t, "credit_card_9513926", order["exchange_payment_method_id"])
	replaytest.RequireJSON(t, "-1.5", order["exchange_price_difference"])
	// Items, payments and balances do not change yet.
	replaytest.RequireJSON(t, `[{"transaction_type": "payment", "amount": 320.17, "payment_method_id": "credit_card_9513926"}]`, order["payment_history"])
	assert.Equal(t, "1151293680", order["items"].([]any)[0].(map[string]any)["item_id"])
	assert.Equal(t, users, f.At(t, "users"))
	replaytest.RequireJSON(t, `{"order_id": "#W2378156", "status": "exchange requested", "price_difference": -1.5}`, f.State.Actions()[0]["result"])

	// An item may be exchanged for itself; a gift card that covers the
	// difference is not debited.
	f = newFixture(t, newDB(t))
	f.Call(t, retail.KeyExchangeDeliveredOrderItems, map[string]any{"order_id": "#W2378156",
		"item_ids": ids("6469567736"), "new_item_ids": ids("6469567736"), "payment_method_id": "gift_card_7245904"})
	replaytest.RequireJSON(t, "0.0", f.At(t, "orders", "#W2378156", "exchange_price_difference"))
	replaytest.RequireJSON(t, "40.0", f.At(t, "users", "yusuf_rossi_9620", "payment_methods", "gift_card_7245904", "balance"))

	exchange := map[string]any{"order_id": "#W2378156", "item_ids": ids("6469567736"), "new_item_ids": ids("2439754078"), "payment_method_id": "credit_card_9513926"}
	requireRefusals(t, retail.KeyExchangeDeliveredOrderItems, []refusal{
		{name: "unknown order", args: with(exchange, map[string]any{"order_id": "W404"}), want: notFound("Order W404 not found")},
		{name: "not delivered", args: with(exchange, map[string]any{"order_id": "#W4776164"}), want: valueError("Non-delivered order cannot be exchanged")},
		{name: "more than the order holds", args: with(exchange, map[string]any{"item_ids": ids("6469567736", "6469567736"), "new_item_ids": ids("2439754078", "2439754078")}),
			want: valueError("Number of 6469567736 not found.")},
		{name: "not in the order", args: with(exchange, map[string]any{"item_ids": ids("123")}), want: valueError("Number of 123 not found.")},
		{name: "counts before lengths", args: with(exchange, map[string]any{"item_ids": ids("123"), "new_item_ids": ids()}), want: valueError("Number of 123 not found.")},
		{name: "lengths", args: with(exchange, map[string]any{"new_item_ids": ids("2439754078", "2439754078")}), want: valueError("The number of items to be exchanged should match.")},
		{name: "another product", args: with(exchange, map[string]any{"item_ids": ids("1151293680"), "new_item_ids": ids("2439754078")}),
			want: valueError("New item 2439754078 not found or available")},
		{name: "unavailable", args: with(exchange, map[string]any{"item_ids": ids("1151293680"), "new_item_ids": ids("9690244451")}),
			want: valueError("New item 9690244451 not found or available")},
		{name: "unknown user", args: with(exchange, map[string]any{"order_id": "#W2222222", "item_ids": ids(), "new_item_ids": ids()}), want: notFound("User not found")},
		{name: "unknown payment method", args: with(exchange, map[string]any{"payment_method_id": "paypal_0"}), want: notFound("Payment method not found")},
		{name: "gift card short", db: setGiftCard(1.0), args: with(exchange, map[string]any{"payment_method_id": "gift_card_7245904"}),
			want: valueError("Insufficient gift card balance to pay for the price difference")},
	})
}

func TestModifyPendingOrderItems(t *testing.T) {
	f := newFixture(t, newDB(t))
	out := f.Call(t, retail.KeyModifyPendingOrderItems, map[string]any{"order_id": "#W4776164",
		"item_ids": ids("6469567736", "1151293680"), "new_item_ids": ids("2439754078", "3616838507"), "payment_method_id": "gift_card_7245904"})
	assert.Equal(t, f.At(t, "orders", "#W4776164"), out)
	// Each changed item takes its own variant's price and options (NeMo's
	// fix); only the first of the two bottles changes.
	replaytest.RequireJSON(t, `[
		{"name": "Water Bottle", "product_id": "8310926033", "item_id": "2439754078", "price": 49.51, "options": {"capacity": "1000ml", "material": "stainless steel", "color": "red"}},
		{"name": "Water Bottle", "product_id": "8310926033", "item_id": "6469567736", "price": 47.84, "options": {"capacity": "1000ml", "material": "glass", "color": "blue"}},
		{"name": "Mechanical Keyboard", "product_id": "1656367028", "item_id": "3616838507", "price": 226.11, "options": {"switch type": "tactile", "backlight": "white", "size": "full size"}}]`,
		f.At(t, "orders", "#W4776164", "items"))
	assert.Equal(t, "pending (item modified)", f.At(t, "orders", "#W4776164", "status"))
	replaytest.RequireJSON(t, `[{"transaction_type": "payment", "amount": 368.01, "payment_method_id": "gift_card_7245904"},
		{"transaction_type": "refund", "amount": 44.55, "payment_method_id": "gift_card_7245904"}]`, f.At(t, "orders", "#W4776164", "payment_history"))
	replaytest.RequireJSON(t, "84.55", f.At(t, "users", "yusuf_rossi_9620", "payment_methods", "gift_card_7245904", "balance"))
	replaytest.RequireJSON(t, `{"order_id": "#W4776164", "price_difference": -44.55}`, f.State.Actions()[0]["result"])

	// Both bottles, paid by credit card: a payment of the difference.
	f = newFixture(t, newDB(t))
	f.Call(t, retail.KeyModifyPendingOrderItems, map[string]any{"order_id": "w4776164",
		"item_ids": ids("6469567736", "6469567736"), "new_item_ids": ids("2439754078", "2439754078"), "payment_method_id": "credit_card_9513926"})
	replaytest.RequireJSON(t, `{"transaction_type": "payment", "amount": 3.34, "payment_method_id": "credit_card_9513926"}`,
		f.At(t, "orders", "#W4776164", "payment_history").([]any)[1])
	items := f.At(t, "orders", "#W4776164", "items").([]any)
	assert.Equal(t, "2439754078", items[0].(map[string]any)["item_id"])
	assert.Equal(t, "2439754078", items[1].(map[string]any)["item_id"])
	replaytest.RequireJSON(t, "40.0", f.At(t, "users", "yusuf_rossi_9620", "payment_methods", "gift_card_7245904", "balance"))

	modify := map[string]any{"order_id": "#W4776164", "item_ids": ids("6469567736"), "new_item_ids": ids("2439754078"), "payment_method_id": "gift_card_7245904"}
	requireRefusals(t, retail.KeyModifyPendingOrderItems, []refusal{
		{name: "unknown order", args: with(modify, map[string]any{"order_id": "#W0"}), want: notFound("Order #W0 not found")},
		{name: "status must be exactly pending", args: with(modify, map[string]any{"order_id": "#W6247578"}), want: valueError("Non-pending order cannot be modified")},
		{name: "more than the order holds", args: with(modify, map[string]any{"item_ids": ids("1151293680", "1151293680"), "new_item_ids": ids("3616838507", "3616838507")}),
			want: valueError("1151293680 not found")},
		{name: "lengths", args: with(modify, map[string]any{"new_item_ids": ids()}), want: valueError("The number of items to be exchanged should match")},
		{name: "the same item", args: with(modify, map[string]any{"new_item_ids": ids("6469567736")}), want: valueError("The new item id should be different from the old item id")},
		{name: "another product", args: with(modify, map[string]any{"new_item_ids": ids("7706410293")}), want: valueError("New item 7706410293 not found or available")},
		{name: "unknown payment method", args: with(modify, map[string]any{"payment_method_id": "credit_card_0000000"}), want: notFound("Payment method not found")},
		{name: "gift card short", db: setGiftCard(1.0), args: modify, want: valueError("Insufficient gift card balance to pay for the new item")},
	})
}

func TestModifyPendingOrderPayment(t *testing.T) {
	f := newFixture(t, newDB(t))
	out := f.Call(t, retail.KeyModifyPendingOrderPayment, map[string]any{"order_id": "#W4776164", "payment_method_id": "credit_card_9513926"})
	assert.Equal(t, f.At(t, "orders", "#W4776164"), out)
	replaytest.RequireJSON(t, `[{"transaction_type": "payment", "amount": 368.01, "payment_method_id": "gift_card_7245904"},
		{"transaction_type": "payment", "amount": 368.01, "payment_method_id": "credit_card_9513926"},
		{"transaction_type": "refund", "amount": 368.01, "payment_method_id": "gift_card_7245904"}]`, f.At(t, "orders", "#W4776164", "payment_history"))
	replaytest.RequireJSON(t, "408.01", f.At(t, "users", "yusuf_rossi_9620", "payment_methods", "gift_card_7245904", "balance"))
	replaytest.RequireJSON(t, `[{"action_type": "modify_pending_order_payment", "name": "modify_pending_order_payment",
		"arguments": {"order_id": "#W4776164", "payment_method_id": "credit_card_9513926"}, "result": {"order_id": "#W4776164"}}]`, f.State.Actions())

	// A status containing "pending" passes; a new gift card is debited.
	db := newDB(t)
	setGiftCard(100.0)(db)
	f = newFixture(t, db)
	f.Call(t, retail.KeyModifyPendingOrderPayment, map[string]any{"order_id": "#W6247578", "payment_method_id": "gift_card_7245904"})
	replaytest.RequireJSON(t, "52.16", f.At(t, "users", "yusuf_rossi_9620", "payment_methods", "gift_card_7245904", "balance"))

	change := map[string]any{"order_id": "#W6247578", "payment_method_id": "paypal_3022415"}
	requireRefusals(t, retail.KeyModifyPendingOrderPayment, []refusal{
		{name: "unknown order", args: with(change, map[string]any{"order_id": "#W0"}), want: notFound("Order #W0 not found")},
		{name: "processed", args: with(change, map[string]any{"order_id": "#W9711842"}), want: valueError("Non-pending order cannot be modified")},
		{name: "unknown payment method", args: with(change, map[string]any{"payment_method_id": "paypal_0"}), want: notFound("Payment method not found")},
		{name: "more than one payment", args: with(change, map[string]any{"order_id": "#W1111111"}), want: valueError("There should be exactly one payment for a pending order")},
		{name: "the payment method checked first", args: map[string]any{"order_id": "#W1111111", "payment_method_id": "paypal_0"}, want: notFound("Payment method not found")},
		{name: "the same method", args: with(change, map[string]any{"payment_method_id": "credit_card_9513926"}),
			want: valueError("The new payment method should be different from the current one")},
		{name: "gift card short", args: with(change, map[string]any{"payment_method_id": "gift_card_7245904"}),
			want: valueError("Insufficient gift card balance to pay for the order")},
	})
}

func TestReturnDeliveredOrderItems(t *testing.T) {
	f := newFixture(t, newDB(t))
	out := f.Call(t, retail.KeyReturnDeliveredOrderItems, map[string]any{"order_id": "#W2378156",
		"item_ids": ids("6469567736", "1151293680"), "payment_method_id": "credit_card_9513926"})
	assert.Equal(t, f.At(t, "orders", "#W2378156"), out)
	assert.Equal(t, "return requested", f.At(t, "orders", "#W2378156", "status"))
	replaytest.RequireJSON(t, `["1151293680", "6469567736"]`, f.At(t, "orders", "#W2378156", "return_items"))
	assert.Equal(t, "credit_card_9513926", f.At(t, "orders", "#W2378156", "return_payment_method_id"))
	replaytest.RequireJSON(t, `{"order_id": "#W2378156", "status": "return requested"}`, f.State.Actions()[0]["result"])

	// A gift card may take the refund instead of the original method.
	f = newFixture(t, newDB(t))
	f.Call(t, retail.KeyReturnDeliveredOrderItems, map[string]any{"order_id": "#W2378156", "item_ids": ids("6469567736"), "payment_method_id": "gift_card_7245904"})
	assert.Equal(t, "gift_card_7245904", f.At(t, "orders", "#W2378156", "return_payment_method_id"))

	ret := map[string]any{"order_id": "#W2378156", "item_ids": ids("6469567736"), "payment_method_id": "credit_card_9513926"}
	requireRefusals(t, retail.KeyReturnDeliveredOrderItems, []refusal{
		{name: "unknown order", args: with(ret, map[string]any{"order_id": "#W0"}), want: notFound("Order #W0 not found")},
		{name: "not delivered", args: with(ret, map[string]any{"order_id": "#W4776164"}), want: valueError("Non-delivered order cannot be returned")},
		{name: "unknown user", args: with(ret, map[string]any{"order_id": "#W2222222"}), want: notFound("User not found")},
		{name: "unknown payment method", args: with(ret, map[string]any{"payment_method_id": "paypal_0"}), want: notFound("Payment method not found")},
		{name: "not the original method", args: with(ret, map[string]any{"payment_method_id": "paypal_3022415"}),
			want: valueError("Payment method should be the original payment method")},
		{name: "the method is checked before the items", args: with(ret, map[string]any{"item_ids": ids("999"), "payment_method_id": "paypal_3022415"}),
			want: valueError("Payment method should be the original payment method")},
		{name: "more than the order holds", args: with(ret, map[string]any{"item_ids": ids("6469567736", "6469567736")}), want: valueError("Some item not found")},
	})
}

func TestModifyAddresses(t *testing.T) {
	address := map[string]any{"address1": "1 New St", "address2": "", "city": "Boston", "state": "MA", "country": "USA", "zip": "02101"}
	stored := `{"address1": "1 New St", "address2": "", "city": "Boston", "state": "MA", "country": "USA", "zip": "02101"}`

	f := newFixture(t, newDB(t))
	// "pending (item modified)" counts as pending here.
	out := f.Call(t, retail.KeyModifyPendingOrderAddress, with(address, map[string]any{"order_id": "#w6247578"}))
	assert.Equal(t, f.At(t, "orders", "#W6247578"), out)
	replaytest.RequireJSON(t, stored, f.At(t, "orders", "#W6247578", "address"))
	replaytest.RequireJSON(t, `[{"action_type": "modify_pending_order_address", "name": "modify_pending_order_address",
		"arguments": {"order_id": "#w6247578", "address1": "1 New St", "address2": "", "city": "Boston", "state": "MA", "country": "USA", "zip": "02101"},
		"result": {"order_id": "#w6247578"}}]`, f.State.Actions())

	out = f.Call(t, retail.KeyModifyUserAddress, with(address, map[string]any{"user_id": "Yusuf_Rossi_9620"}))
	assert.Equal(t, f.At(t, "users", "yusuf_rossi_9620"), out)
	replaytest.RequireJSON(t, stored, f.At(t, "users", "yusuf_rossi_9620", "address"))
	replaytest.RequireJSON(t, `{"user_id": "Yusuf_Rossi_9620"}`, f.State.Actions()[1]["result"])

	requireRefusals(t, retail.KeyModifyPendingOrderAddress, []refusal{
		{name: "unknown order", args: with(address, map[string]any{"order_id": "#W0"}), want: notFound("Order #W0 not found")},
		{name: "processed", args: with(address, map[string]any{"order_id": "#W9711842"}), want: valueError("Non-pending order cannot be modified")},
	})
	requireRefusals(t, retail.KeyModifyUserAddress, []refusal{
		{name: "unknown user, named as given", args: with(address, map[string]any{"user_id": "Nobody_1"}), want: notFound("User Nobody_1 not found")},
	})
	// Every field of the address is required.
	res := f.Call(t, retail.KeyModifyUserAddress, with(address, map[string]any{"user_id": "yusuf_rossi_9620", "zip": nil}))
	require.IsType(t, tool.ValidationResult{}, res)
	assert.Equal(t, "zip", res.(tool.ValidationResult).Details[0].Field)
}
