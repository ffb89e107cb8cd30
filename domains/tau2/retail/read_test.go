package retail_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/domains/tau2/retail"
	"github.com/voiceeval/schematools/domains/tau2/tau2tools"
	"github.com/voiceeval/schematools/internal/replaytest"
)

func TestFindUserIDByNameZip(t *testing.T) {
	f := newFixture(t, newDB(t))
	tests := []struct {
		name, first, last, zip string
		want                   any
	}{
		{"exact", "Yusuf", "Rossi", "19122", retail.FoundUserResult{Status: "success", UserID: "yusuf_rossi_9620"}},
		{"names in any case", "yUSUF", "ROSSI", "19122", retail.FoundUserResult{Status: "success", UserID: "yusuf_rossi_9620"}},
		{"namesakes told apart by zip", "Ivan", "Santos", "94183", retail.FoundUserResult{Status: "success", UserID: "ivan_santos_7021"}},
		{"the zip is matched exactly", "Yusuf", "Rossi", " 19122", notFound("User not found")},
		{"wrong zip", "Yusuf", "Rossi", "19123", notFound("User not found")},
		{"unknown", "Noah", "Ito", "98178", notFound("User not found")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, f.Call(t, retail.KeyFindUserIDByNameZip, map[string]any{"first_name": tt.first, "last_name": tt.last, "zip": tt.zip}))
		})
	}
}

// Two users with the same name and zip (possible only after
// modify_user_address): the first in user-id order wins.
func TestFindUserIDByNameZipTie(t *testing.T) {
	f := newFixture(t, newDB(t))
	f.Call(t, retail.KeyModifyUserAddress, map[string]any{"user_id": "ivan_santos_7021", "address1": "a", "address2": "", "city": "Dallas",
		"state": "TX", "country": "USA", "zip": "75277"})
	assert.Equal(t, retail.FoundUserResult{Status: "success", UserID: "ivan_santos_6635"},
		f.Call(t, retail.KeyFindUserIDByNameZip, map[string]any{"first_name": "ivan", "last_name": "santos", "zip": "75277"}))
}

func TestFindUserIDByEmail(t *testing.T) {
	f := newFixture(t, newDB(t))
	assert.Equal(t, retail.FoundUserResult{Status: "success", UserID: "ivan_santos_7021"},
		f.Call(t, retail.KeyFindUserIDByEmail, map[string]any{"email": "Ivan.Santos5925@Example.com"}))
	assert.Equal(t, notFound("User not found"), f.Call(t, retail.KeyFindUserIDByEmail, map[string]any{"email": "silva7872@example.com"}))
	assert.Equal(t, notFound("User not found"), f.Call(t, retail.KeyFindUserIDByEmail, map[string]any{"email": ""}))
}

func TestGetOrderDetails(t *testing.T) {
	f := newFixture(t, newDB(t))
	order := f.At(t, "orders", "#W2378156")
	for _, id := range []string{"#W2378156", "#w2378156", "W2378156", "w2378156"} {
		assert.Equal(t, order, f.Call(t, retail.KeyGetOrderDetails, map[string]any{"order_id": id}), id)
	}
	// Messages name the id as given.
	assert.Equal(t, notFound("Order #9502126 not found"), f.Call(t, retail.KeyGetOrderDetails, map[string]any{"order_id": "#9502126"}))
	assert.Equal(t, notFound("Order w1 not found"), f.Call(t, retail.KeyGetOrderDetails, map[string]any{"order_id": "w1"}))
	assert.Equal(t, notFound("Order  not found"), f.Call(t, retail.KeyGetOrderDetails, map[string]any{"order_id": ""}))
	// The result is a copy.
	out := f.Call(t, retail.KeyGetOrderDetails, map[string]any{"order_id": "#W2378156"}).(map[string]any)
	out["status"] = "changed"
	assert.Equal(t, "delivered", f.At(t, "orders", "#W2378156", "status"))
}

func TestGetProductAndItemDetails(t *testing.T) {
	f := newFixture(t, newDB(t))
	assert.Equal(t, f.At(t, "products", "8310926033"), f.Call(t, retail.KeyGetProductDetails, map[string]any{"product_id": "8310926033"}))
	assert.Equal(t, notFound("Product 6086499569 not found"), f.Call(t, retail.KeyGetProductDetails, map[string]any{"product_id": "6086499569"}))
	// An item id is not a product id, and the other way round.
	assert.Equal(t, notFound("Product 6469567736 not found"), f.Call(t, retail.KeyGetProductDetails, map[string]any{"product_id": "6469567736"}))
	assert.Equal(t, notFound("Item 8310926033 not found"), f.Call(t, retail.KeyGetItemDetails, map[string]any{"item_id": "8310926033"}))

	item := f.Call(t, retail.KeyGetItemDetails, map[string]any{"item_id": "9690244451"})
	replaytest.RequireJSON(t, `{"item_id": "9690244451", "options": {"switch type": "clicky", "backlight": "RGB", "size": "60%"}, "available": false, "price": 236.51}`, item)
	assert.Equal(t, notFound("Item  not found"), f.Call(t, retail.KeyGetItemDetails, map[string]any{"item_id": ""}))
}

func TestGetUserDetails(t *testing.T) {
	f := newFixture(t, newDB(t))
	out := f.Call(t, retail.KeyGetUserDetails, map[string]any{"user_id": "Yusuf_Rossi_9620"})
	assert.Equal(t, f.At(t, "users", "yusuf_rossi_9620"), out)
	assert.Contains(t, replaytest.Canon(t, out), `"balance":40.0`, "gift card balances stay floats")
	assert.Equal(t, notFound("User Nobody_1 not found"), f.Call(t, retail.KeyGetUserDetails, map[string]any{"user_id": "Nobody_1"}))
}

func TestListAllProductTypes(t *testing.T) {
	f := newFixture(t, newDB(t))
	assert.Equal(t, retail.ProductTypesResult{Status: "success", ProductTypes: `{"Mechanical Keyboard": "1656367028", "Water Bottle": "8310926033"}`},
		f.Call(t, retail.KeyListAllProductTypes, map[string]any{}))

	// Python's json.dumps: sorted keys, non-ASCII escaped.
	db := newDB(t)
	db["products"].(map[string]any)["1"] = map[string]any{"name": "Écharpe", "product_id": "1"}
	f = newFixture(t, db)
	assert.Equal(t, retail.ProductTypesResult{Status: "success",
		ProductTypes: `{"Mechanical Keyboard": "1656367028", "Water Bottle": "8310926033", "\u00c9charpe": "1"}`},
		f.Call(t, retail.KeyListAllProductTypes, map[string]any{}))
}

// Every tool that reads the DB answers db_not_initialized when there is
// none, or an empty one; calculate and the transfer never read it.
func TestDBNotLoaded(t *testing.T) {
	args := map[string]map[string]any{
		retail.KeyFindUserIDByNameZip:         {"first_name": "a", "last_name": "b", "zip": "c"},
		retail.KeyFindUserIDByEmail:           {"email": "a"},
		retail.KeyGetOrderDetails:             {"order_id": "#W2378156"},
		retail.KeyGetProductDetails:           {"product_id": "1"},
		retail.KeyGetItemDetails:              {"item_id": "1"},
		retail.KeyGetUserDetails:              {"user_id": "a"},
		retail.KeyListAllProductTypes:         {},
		retail.KeyCancelPendingOrder:          {"order_id": "#W4776164", "reason": "no longer needed"},
		retail.KeyExchangeDeliveredOrderItems: {"order_id": "#W2378156", "item_ids": []any{}, "new_item_ids": []any{}, "payment_method_id": "x"},
		retail.KeyModifyPendingOrderAddress:   {"order_id": "#W4776164", "address1": "", "address2": "", "city": "", "state": "", "country": "", "zip": ""},
		retail.KeyModifyPendingOrderItems:     {"order_id": "#W4776164", "item_ids": []any{}, "new_item_ids": []any{}, "payment_method_id": "x"},
		retail.KeyModifyPendingOrderPayment:   {"order_id": "#W4776164", "payment_method_id": "x"},
		retail.KeyModifyUserAddress:           {"user_id": "a", "address1": "", "address2": "", "city": "", "state": "", "country": "", "zip": ""},
		retail.KeyReturnDeliveredOrderItems:   {"order_id": "#W2378156", "item_ids": []any{}, "payment_method_id": "x"},
	}
	for _, db := range []map[string]any{nil, {}} {
		f := newFixture(t, db)
		for key, a := range args {
			assert.Equal(t, tau2tools.DBNotInitialized(), f.Call(t, key, a), key)
		}
		assert.Equal(t, tau2tools.CalculateResult{Status: "success", Result: "3.33"}, f.Call(t, retail.KeyCalculate, map[string]any{"expression": "10 / 3"}))
		assert.Equal(t, tau2tools.StatusResult{Status: "success", Message: "Transfer successful"},
			f.Call(t, retail.KeyTransferToHumanAgents, map[string]any{"summary": "wants a refund"}))
		require.Len(t, f.State.Actions(), 1, "only the transfer records")
	}
}
