package calltest_test

import (
	"context"
	"fmt"

	"github.com/voiceeval/schematools/calltest"
)

// A test written in Go: the agent must book a table for six, and must not
// hand the call over.
func ExampleCheck() {
	test := calltest.Test{
		Name:    "books for six",
		History: []calltest.Turn{{Role: "user", Message: "A table for six at eight, please."}},
		Expect: []calltest.Expectation{
			{Tool: "book_table", Params: []calltest.ParamCheck{
				calltest.Equals("party_size", 6),
				calltest.Matches("time", "^20:00$"),
			}},
			{Tool: "transfer_to_human_agents", Absent: true},
		},
	}
	args, _ := calltest.ParseArguments(`{"party_size": "6", "time": "20:00"}`)
	res, _ := calltest.Check(context.Background(), test, calltest.Step{Calls: []calltest.Call{{Name: "book_table", Arguments: args}}})
	fmt.Println(res.Status)
	fmt.Println(res.Expectations[0].Reason)
	// Output:
	// fail
	// call 0 to book_table: expected exact 6 (number), got "6" (string)
}

// ElevenLabs' test JSON is read as it is.
func ExampleLoadElevenLabs() {
	test, err := calltest.LoadElevenLabs([]byte(`{
	  "type": "tool", "name": "order lookup",
	  "chat_history": [{"role": "user", "message": "Where is order ORD-12345678?", "time_in_call_secs": 0}],
	  "tool_call_parameters": {
	    "referenced_tool": {"id": "get_order", "type": "webhook"},
	    "parameters": [{"path": "order_id", "eval": {"type": "regex", "pattern": "^ORD-[0-9]{8}$"}}]
	  }
	}`))
	if err != nil {
		panic(err)
	}
	args, _ := calltest.ParseArguments(`{"order_id": "ORD-12345678"}`)
	res, _ := calltest.Check(context.Background(), test, calltest.Step{Calls: []calltest.Call{{Name: "get_order", Arguments: args}}})
	fmt.Println(res.ConditionResult().Result)
	// Output:
	// success
}
