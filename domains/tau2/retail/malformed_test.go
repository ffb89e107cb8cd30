package retail_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/voiceeval/schematools/domains/tau2/retail"
	"github.com/voiceeval/schematools/internal/pyvalue"
)

// Where the DB does not have the shape of the tau2 data model, the Python
// tools raise; the port returns the exception as a Go error, changes
// nothing, and never panics.
func TestMalformedDB(t *testing.T) {
	order := func(db map[string]any) map[string]any {
		return db["orders"].(map[string]any)["#W4776164"].(map[string]any)
	}
	user := func(db map[string]any) map[string]any {
		return db["users"].(map[string]any)["yusuf_rossi_9620"].(map[string]any)
	}
	tests := []struct {
		name    string
		breakDB func(db map[string]any)
		key     string
		args    map[string]any
		want    string
	}{
		{"an order that is not an object", func(db map[string]any) { db["orders"].(map[string]any)["#W4776164"] = "x" },
			retail.KeyCancelPendingOrder, map[string]any{"order_id": "#W4776164", "reason": "no longer needed"}, "'str' object has no attribute 'get'"},
		{"a balance that is not a number", func(db map[string]any) {
			user(db)["payment_methods"].(map[string]any)["gift_card_7245904"].(map[string]any)["balance"] = "lots"
		}, retail.KeyCancelPendingOrder, map[string]any{"order_id": "#W4776164", "reason": "no longer needed"}, "balance: a number was expected, not str"},
		{"an amount that is not a number", func(db map[string]any) {
			order(db)["payment_history"].([]any)[0].(map[string]any)["amount"] = "368.01"
		}, retail.KeyCancelPendingOrder, map[string]any{"order_id": "#W4776164", "reason": "no longer needed"}, "unsupported operand type(s) for +: 'float' and 'str'"},
		{"a history that is not a list", func(db map[string]any) { order(db)["payment_history"] = map[string]any{"a": 1} },
			retail.KeyModifyPendingOrderPayment, map[string]any{"order_id": "#W4776164", "payment_method_id": "paypal_3022415"}, "a list was expected for 'payment_history', not 'dict'"},
		{"a null history, extended", func(db map[string]any) { order(db)["payment_history"] = nil },
			retail.KeyCancelPendingOrder, map[string]any{"order_id": "#W4776164", "reason": "no longer needed"}, "'NoneType' object has no attribute 'extend'"},
		{"a price that is not a number", func(db map[string]any) { order(db)["items"].([]any)[0].(map[string]any)["price"] = "cheap" },
			retail.KeyModifyPendingOrderItems, map[string]any{"order_id": "#W4776164", "item_ids": ids("6469567736"), "new_item_ids": ids("2439754078"), "payment_method_id": "paypal_3022415"},
			"could not convert string to float: 'cheap'"},
		// CPython's float() strips only its own whitespace, which \x1c is
		// not (str.strip() does strip it): the private copy read 1.5.
		{"a price after a separator character", func(db map[string]any) { order(db)["items"].([]any)[0].(map[string]any)["price"] = "\x1c1.5" },
			retail.KeyModifyPendingOrderItems, map[string]any{"order_id": "#W4776164", "item_ids": ids("6469567736"), "new_item_ids": ids("2439754078"), "payment_method_id": "paypal_3022415"},
			`could not convert string to float: '\x1c1.5'`},
		// repr() escapes what CPython 3.11's Unicode 14 does not know
		// (U+1F6DC came with Unicode 15): the private copy printed it.
		{"a price of a Unicode 15 character", func(db map[string]any) { order(db)["items"].([]any)[0].(map[string]any)["price"] = "\U0001F6DC" },
			retail.KeyModifyPendingOrderItems, map[string]any{"order_id": "#W4776164", "item_ids": ids("6469567736"), "new_item_ids": ids("2439754078"), "payment_method_id": "paypal_3022415"},
			`could not convert string to float: '\U0001f6dc'`},
		{"a null price", func(db map[string]any) { order(db)["items"].([]any)[0].(map[string]any)["price"] = nil },
			retail.KeyModifyPendingOrderItems, map[string]any{"order_id": "#W4776164", "item_ids": ids("6469567736"), "new_item_ids": ids("2439754078"), "payment_method_id": "paypal_3022415"},
			"float() argument must be a string or a real number, not 'NoneType'"},
		{"a status that is a number", func(db map[string]any) { order(db)["status"] = 3 },
			retail.KeyModifyPendingOrderAddress, map[string]any{"order_id": "#W4776164", "address1": "", "address2": "", "city": "", "state": "", "country": "", "zip": ""},
			"argument of type 'int' is not iterable"},
		{"a name that is not a string", func(db map[string]any) { user(db)["name"].(map[string]any)["first_name"] = 7 },
			retail.KeyFindUserIDByNameZip, map[string]any{"first_name": "Yusuf", "last_name": "Rossi", "zip": "19122"}, "'int' object has no attribute 'lower'"},
		{"users that are a list", func(db map[string]any) { db["users"] = []any{1} },
			retail.KeyFindUserIDByEmail, map[string]any{"email": "a"}, "'list' object has no attribute 'items'"},
		{"variants that are a list", func(db map[string]any) {
			db["products"].(map[string]any)["1656367028"].(map[string]any)["variants"] = []any{"77"}
		}, retail.KeyGetItemDetails, map[string]any{"item_id": "77"}, "list indices must be integers or slices, not str"},
		{"a product name that is not a string", func(db map[string]any) {
			db["products"].(map[string]any)["1656367028"].(map[string]any)["name"] = nil
		}, retail.KeyListAllProductTypes, map[string]any{}, "'<' not supported between instances of 'NoneType' and 'str'"},
		{"a user that is a list", func(db map[string]any) { db["users"].(map[string]any)["yusuf_rossi_9620"] = []any{} },
			retail.KeyModifyUserAddress, map[string]any{"user_id": "yusuf_rossi_9620", "address1": "", "address2": "", "city": "", "state": "", "country": "", "zip": ""},
			"list indices must be integers or slices, not str"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			db := newDB(t)
			tt.breakDB(db)
			f := newFixture(t, db)
			before := f.Hash(t)
			err := f.CallErr(t, tt.key, tt.args)
			var exc *pyvalue.Error
			assert.True(t, errors.As(err, &exc), "%v", err)
			assert.Equal(t, tt.want, err.Error())
			assert.Equal(t, before, f.Hash(t))
			assert.Empty(t, f.State.Actions())
		})
	}
}
