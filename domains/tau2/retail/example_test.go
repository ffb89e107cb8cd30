package retail_test

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/voiceeval/schematools/state"

	"github.com/voiceeval/schematools/dbhash"
	"github.com/voiceeval/schematools/domains/tau2/retail"
	"github.com/voiceeval/schematools/replay"
)

// The gold replay of a retail task, as a harness computes the expected DB
// of a scenario: the task's gold actions run through the Go tools on a
// copy of the DB, which is hashed as NeMo's get_dict_hash hashes it. The
// order id "w2378156" is normalised as NeMo normalises spoken ids; the
// write is recorded with the arguments as given and stamped with its side.
func Example() {
	db, _ := dbhash.Decode([]byte(`{
		"users": {"yusuf_rossi_9620": {"user_id": "yusuf_rossi_9620", "name": {"first_name": "Yusuf", "last_name": "Rossi"},
			"address": {"zip": "19122"}, "payment_methods": {"credit_card_9513926": {"source": "credit_card", "id": "credit_card_9513926"}}}},
		"orders": {"#W2378156": {"order_id": "#W2378156", "user_id": "yusuf_rossi_9620", "status": "delivered",
			"items": [{"item_id": "1151293680", "product_id": "1656367028", "price": 272.33}],
			"payment_history": [{"transaction_type": "payment", "amount": 272.33, "payment_method_id": "credit_card_9513926"}]}},
		"products": {}}`))
	var task replay.Task
	_ = json.Unmarshal([]byte(`{"id": "demo", "evaluation_criteria": {"actions": [
		{"action_id": "demo_0", "name": "find_user_id_by_name_zip", "arguments": {"first_name": "yusuf", "last_name": "rossi", "zip": "19122"}},
		{"action_id": "demo_1", "name": "return_delivered_order_items",
		 "arguments": {"order_id": "w2378156", "item_ids": ["1151293680"], "payment_method_id": "credit_card_9513926"}}]}}`), &task)

	res, err := replay.Gold(context.Background(), replay.Scenario{Domain: retail.Domain, Task: task, DB: state.NewSource(db.(map[string]any)), Tools: retail.Tools})
	if err != nil {
		panic(err)
	}
	for _, step := range res.Steps {
		out, _ := json.Marshal(step.Result)
		fmt.Printf("%s: %.70s\n", step.Name, out)
	}
	records, _ := json.Marshal(res.Actions)
	fmt.Println(string(records))
	fmt.Println(res.DB["orders"].(map[string]any)["#W2378156"].(map[string]any)["status"], len(res.DBHash))
	// Output:
	// find_user_id_by_name_zip: {"status":"success","user_id":"yusuf_rossi_9620"}
	// return_delivered_order_items: {"items":[{"item_id":"1151293680","price":272.33,"product_id":"1656367
	// [{"action_type":"return_delivered_order_items","arguments":{"item_ids":["1151293680"],"order_id":"w2378156","payment_method_id":"credit_card_9513926"},"name":"return_delivered_order_items","result":{"order_id":"w2378156","status":"return requested"},"side":"agent"}]
	// return requested 64
}
