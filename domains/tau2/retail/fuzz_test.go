package retail_test

import (
	"testing"

	"github.com/voiceeval/schematools/domains/tau2/retail"
	"github.com/voiceeval/schematools/internal/replaytest"
)

// FuzzTools sends arbitrary arguments to every retail tool, on the test
// DB (see replaytest.FuzzTools): nothing panics, every result encodes, and a
// refused call leaves the DB and the action log as they were.
func FuzzTools(f *testing.F) {
	seeds := []string{
		`{}`, `{"first_name": "yusuf", "last_name": "ROSSI", "zip": "19122"}`, `{"email": "ivan.santos5925@example.com"}`,
		`{"order_id": "w4776164"}`, `{"product_id": "8310926033"}`, `{"item_id": "9690244451"}`, `{"user_id": "YUSUF_ROSSI_9620"}`,
		`{"order_id": "#W1111111", "reason": "no longer needed"}`, `{"order_id": "#W4776164", "reason": "other"}`,
		`{"order_id": "#W2378156", "item_ids": ["6469567736", "1151293680"], "new_item_ids": ["2439754078", "7706410293"], "payment_method_id": "gift_card_7245904"}`,
		`{"order_id": "#W4776164", "item_ids": ["6469567736", "6469567736"], "new_item_ids": ["2439754078", "2439754078"], "payment_method_id": "gift_card_7245904"}`,
		`{"order_id": "#W2378156", "item_ids": ["6469567736"], "payment_method_id": "credit_card_9513926"}`,
		`{"order_id": "#W4776164", "payment_method_id": "credit_card_9513926"}`,
		`{"order_id": "#W6247578", "address1": "a", "address2": "", "city": "c", "state": "s", "country": "x", "zip": "1"}`,
		`{"user_id": "ivan_santos_7021", "address1": "a", "address2": "", "city": "c", "state": "s", "country": "x", "zip": "75277"}`,
		`{"expression": "(2 + 3) * 4.5"}`, `{"summary": "x"}`, `{"order_id": 5, "item_ids": "x"}`,
	}
	replaytest.FuzzTools(f, retail.Domain, retail.Tools, newDB(f), seeds)
}
