package calltest_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/voiceeval/schematools/calltest"
	"github.com/voiceeval/schematools/tool"
)

// A test written in Go: the agent must book a table for six, and must not
// hand the call over. The agent's raw argument JSON is decoded with
// tool.DecodeArgs, as the tools decode it.
func ExampleCheck() {
	test := calltest.Test{
		Name:    "books for six",
		History: []calltest.Turn{{Role: "user", Message: "A table for six at eight, please."}},
		Expect: []calltest.Expectation{
			{Tool: "book_table", Params: []calltest.ParamCheck{calltest.Equals("party_size", 6), calltest.Matches("time", "^20:00$")}},
			{Tool: "transfer_to_human_agents", Absent: true},
		},
	}
	args, _ := tool.DecodeArgs([]byte(`{"party_size": "6", "time": "20:00"}`))
	res, _ := calltest.Check(context.Background(), test, calltest.Step{Calls: []calltest.Call{{Name: "book_table", Arguments: args}}}, nil)
	fmt.Println(res.Status)
	fmt.Println(res.Expectations[0].Reason)
	// Output:
	// fail
	// call 0 to book_table: expected exact 6 (number), got "6" (string)
}

// Repeat runs a test against an agent several times: a flaky agent shows
// in the pass rate, pass^k, and the failures grouped by reason.
func ExampleRepeat() {
	test := calltest.Test{
		Name:    "books for six",
		History: []calltest.Turn{{Role: "user", Message: "A table for six at eight, please."}},
		Expect:  []calltest.Expectation{{Tool: "book_table", Params: []calltest.ParamCheck{calltest.Equals("party_size", 6)}}},
	}
	n := 0
	agent := func(ctx context.Context, history []calltest.Turn) (calltest.Step, error) {
		n++
		size := 6
		if n%4 == 0 {
			size = 5 // every fourth run books for five
		}
		return calltest.Step{Calls: []calltest.Call{{Name: "book_table", Arguments: map[string]any{"party_size": size}}}}, nil
	}
	rep, _ := calltest.Repeat(context.Background(), agent, test, 8, 1, nil)
	lo, hi := rep.Wilson(1.96)
	fmt.Printf("%d/%d passed, pass^2 %.2f, 95%% CI [%.2f, %.2f]\n", rep.Passed, rep.Runs, rep.PassHatK(2), lo, hi)
	for _, runs := range rep.Failures {
		var reasons []string
		for _, e := range rep.Results[runs[0]].Expectations {
			if e.Status != calltest.Pass {
				reasons = append(reasons, e.Reason)
			}
		}
		fmt.Println(len(runs), "run(s):", reasons)
	}
	// Output:
	// 6/8 passed, pass^2 0.54, 95% CI [0.41, 0.93]
	// 2 run(s): [call 0 to book_table: expected exact 6 (number), got 5 (number)]
}

// ElevenLabs' test JSON is read as it is, one test per file.
func ExampleLoadSuite() {
	dir, err := os.MkdirTemp("", "suite")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	doc := `{
	  "type": "tool", "name": "order lookup",
	  "chat_history": [{"role": "user", "message": "Where is order ORD-12345678?", "time_in_call_secs": 0}],
	  "tool_call_parameters": {
	    "referenced_tool": {"id": "get_order", "type": "webhook"},
	    "parameters": [{"path": "order_id", "eval": {"type": "regex", "pattern": "^ORD-[0-9]{8}$"}}]
	  }
	}`
	if err := os.WriteFile(filepath.Join(dir, "order_lookup.json"), []byte(doc), 0o644); err != nil {
		panic(err)
	}
	tests, err := calltest.LoadSuite(dir)
	if err != nil {
		panic(err)
	}
	args, _ := tool.DecodeArgs([]byte(`{"order_id": "ORD-12345678"}`))
	res, _ := calltest.Check(context.Background(), tests[0], calltest.Step{Calls: []calltest.Call{{Name: "get_order", Arguments: args}}}, nil)
	fmt.Println(res.Status)
	// Output:
	// pass
}
