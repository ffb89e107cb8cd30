package retail_test

import (
	"github.com/voiceeval/schematools/domains/tau2/internal/tau2test"
	"testing"

	"github.com/voiceeval/schematools/domains/tau2/retail"
	"github.com/voiceeval/schematools/internal/replaytest"
	"github.com/voiceeval/schematools/tool"
)

// testDBJSON is a small retail DB in the tau2 layout: two products, three
// users (two of them namesakes) and six orders, one per status the tools
// care about. Prices, amounts and gift card balances are floats, as in
// the real data.
const testDBJSON = `{
 "products": {
  "1656367028": {"name": "Mechanical Keyboard", "product_id": "1656367028", "variants": {
   "1151293680": {"item_id": "1151293680", "options": {"switch type": "linear", "backlight": "RGB", "size": "full size"}, "available": true, "price": 272.33},
   "7706410293": {"item_id": "7706410293", "options": {"switch type": "clicky", "backlight": "none", "size": "full size"}, "available": true, "price": 269.16},
   "9690244451": {"item_id": "9690244451", "options": {"switch type": "clicky", "backlight": "RGB", "size": "60%"}, "available": false, "price": 236.51},
   "3616838507": {"item_id": "3616838507", "options": {"switch type": "tactile", "backlight": "white", "size": "full size"}, "available": true, "price": 226.11}}},
  "8310926033": {"name": "Water Bottle", "product_id": "8310926033", "variants": {
   "6469567736": {"item_id": "6469567736", "options": {"capacity": "1000ml", "material": "glass", "color": "blue"}, "available": true, "price": 47.84},
   "2439754078": {"item_id": "2439754078", "options": {"capacity": "1000ml", "material": "stainless steel", "color": "red"}, "available": true, "price": 49.51}}}
 },
 "users": {
  "yusuf_rossi_9620": {"user_id": "yusuf_rossi_9620", "name": {"first_name": "Yusuf", "last_name": "Rossi"},
   "address": {"address1": "763 Broadway", "address2": "Suite 135", "city": "Philadelphia", "country": "USA", "state": "PA", "zip": "19122"},
   "email": "yusuf.rossi7301@example.com",
   "payment_methods": {
    "credit_card_9513926": {"source": "credit_card", "id": "credit_card_9513926", "brand": "mastercard", "last_four": "2478"},
    "gift_card_7245904": {"source": "gift_card", "id": "gift_card_7245904", "balance": 40.0},
    "paypal_3022415": {"source": "paypal", "id": "paypal_3022415"}},
   "orders": ["#W2378156", "#W4776164", "#W6247578", "#W9711842", "#W1111111", "#W2222222"]},
  "ivan_santos_6635": {"user_id": "ivan_santos_6635", "name": {"first_name": "Ivan", "last_name": "Santos"},
   "address": {"address1": "477 Park Avenue", "address2": "Suite 558", "city": "Dallas", "country": "USA", "state": "TX", "zip": "75277"},
   "email": "ivan.santos3158@example.com", "payment_methods": {"paypal_6151711": {"source": "paypal", "id": "paypal_6151711"}}, "orders": []},
  "ivan_santos_7021": {"user_id": "ivan_santos_7021", "name": {"first_name": "Ivan", "last_name": "Santos"},
   "address": {"address1": "847 River Road", "address2": "Suite 431", "city": "San Francisco", "country": "USA", "state": "CA", "zip": "94183"},
   "email": "ivan.santos5925@example.com", "payment_methods": {"paypal_5543657": {"source": "paypal", "id": "paypal_5543657"}}, "orders": []}
 },
 "orders": {
  "#W2378156": {"order_id": "#W2378156", "user_id": "yusuf_rossi_9620",
   "address": {"address1": "763 Broadway", "address2": "Suite 135", "city": "Philadelphia", "country": "USA", "state": "PA", "zip": "19122"},
   "items": [
    {"name": "Mechanical Keyboard", "product_id": "1656367028", "item_id": "1151293680", "price": 272.33, "options": {"switch type": "linear", "backlight": "RGB", "size": "full size"}},
    {"name": "Water Bottle", "product_id": "8310926033", "item_id": "6469567736", "price": 47.84, "options": {"capacity": "1000ml", "material": "glass", "color": "blue"}}],
   "status": "delivered", "fulfillments": [{"tracking_id": ["843053632392"], "item_ids": ["1151293680", "6469567736"]}],
   "payment_history": [{"transaction_type": "payment", "amount": 320.17, "payment_method_id": "credit_card_9513926"}]},
  "#W4776164": {"order_id": "#W4776164", "user_id": "yusuf_rossi_9620",
   "address": {"address1": "763 Broadway", "address2": "Suite 135", "city": "Philadelphia", "country": "USA", "state": "PA", "zip": "19122"},
   "items": [
    {"name": "Water Bottle", "product_id": "8310926033", "item_id": "6469567736", "price": 47.84, "options": {"capacity": "1000ml", "material": "glass", "color": "blue"}},
    {"name": "Water Bottle", "product_id": "8310926033", "item_id": "6469567736", "price": 47.84, "options": {"capacity": "1000ml", "material": "glass", "color": "blue"}},
    {"name": "Mechanical Keyboard", "product_id": "1656367028", "item_id": "1151293680", "price": 272.33, "options": {"switch type": "linear", "backlight": "RGB", "size": "full size"}}],
   "status": "pending", "fulfillments": [],
   "payment_history": [{"transaction_type": "payment", "amount": 368.01, "payment_method_id": "gift_card_7245904"}]},
  "#W6247578": {"order_id": "#W6247578", "user_id": "yusuf_rossi_9620",
   "address": {"address1": "763 Broadway", "address2": "Suite 135", "city": "Philadelphia", "country": "USA", "state": "PA", "zip": "19122"},
   "items": [{"name": "Water Bottle", "product_id": "8310926033", "item_id": "6469567736", "price": 47.84, "options": {"capacity": "1000ml", "material": "glass", "color": "blue"}}],
   "status": "pending (item modified)", "fulfillments": [],
   "payment_history": [{"transaction_type": "payment", "amount": 47.84, "payment_method_id": "credit_card_9513926"}]},
  "#W9711842": {"order_id": "#W9711842", "user_id": "yusuf_rossi_9620",
   "address": {"address1": "763 Broadway", "address2": "Suite 135", "city": "Philadelphia", "country": "USA", "state": "PA", "zip": "19122"},
   "items": [{"name": "Water Bottle", "product_id": "8310926033", "item_id": "6469567736", "price": 47.84, "options": {"capacity": "1000ml", "material": "glass", "color": "blue"}}],
   "status": "processed", "fulfillments": [{"tracking_id": ["123"], "item_ids": ["6469567736"]}],
   "payment_history": [{"transaction_type": "payment", "amount": 47.84, "payment_method_id": "paypal_3022415"}]},
  "#W1111111": {"order_id": "#W1111111", "user_id": "yusuf_rossi_9620",
   "address": {"address1": "763 Broadway", "address2": "Suite 135", "city": "Philadelphia", "country": "USA", "state": "PA", "zip": "19122"},
   "items": [{"name": "Water Bottle", "product_id": "8310926033", "item_id": "6469567736", "price": 47.84, "options": {"capacity": "1000ml", "material": "glass", "color": "blue"}}],
   "status": "pending", "fulfillments": [],
   "payment_history": [
    {"transaction_type": "payment", "amount": 20.0, "payment_method_id": "gift_card_7245904"},
    {"transaction_type": "payment", "amount": 12.5, "payment_method_id": "gift_card_7245904"},
    {"transaction_type": "payment", "amount": 15.34, "payment_method_id": "credit_card_0000000"}]},
  "#W2222222": {"order_id": "#W2222222", "user_id": "nobody_1",
   "address": {"address1": "1 Main St", "address2": "", "city": "Austin", "country": "USA", "state": "TX", "zip": "78701"},
   "items": [], "status": "delivered", "fulfillments": [], "payment_history": []}
 }
}`

// newDB returns a fresh copy of the test DB, read as Python's json.loads
// reads it (exact numbers).
func newDB(t testing.TB) map[string]any { return replaytest.DecodeDB(t, testDBJSON) }

// newFixture binds the 16 tools to a fresh state holding db.
func newFixture(t testing.TB, db map[string]any) *tau2test.Fixture {
	t.Helper()
	return tau2test.NewFixture(t, retail.Domain, retail.Tools, db)
}

func notFound(msg string) tool.FailureResult   { return tool.Failure("not_found", msg) }
func valueError(msg string) tool.FailureResult { return tool.Failure("value_error", msg) }
