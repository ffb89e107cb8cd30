package calltest_test

import (
	"context"
	"fmt"

	"github.com/voiceeval/schematools/agent"
	"github.com/voiceeval/schematools/calltest"
	"github.com/voiceeval/schematools/tool"
)

// A model behind the agent and the judge: one model call per run, its
// calls checked and never executed; the llm check asks the judge, whose
// answer must be a verdict. (provider/openai's Model is such an
// agent.Model; here functions stand in for it.)
func ExampleModelAgent() {
	model := agent.ModelFunc(func(context.Context, agent.Request) (agent.Response, error) {
		return agent.Response{Calls: []tool.ModelCall{{ID: "c1", Name: "cancel_order", Arguments: `{"order_id": "ORD-001", "reason": "took too long"}`}}}, nil
	})
	judge := agent.ModelFunc(func(context.Context, agent.Request) (agent.Response, error) {
		return agent.Response{Text: `{"verdict": "pass", "reason": "it is the reason the user gave"}`}, nil
	})
	test := calltest.Test{
		Name:    "cancels with the user's reason",
		History: []calltest.Turn{{Role: "user", Message: "Cancel ORD-001, it took too long."}},
		Expect: []calltest.Expectation{{Tool: "cancel_order", Params: []calltest.ParamCheck{
			calltest.ExactText("order_id", "ORD-001"),
			calltest.Judged("reason", "the reason the user gave"),
		}}},
	}
	opts := &calltest.Options{Judge: calltest.ModelJudge(judge, nil)}
	rep, _ := calltest.Repeat(context.Background(), calltest.ModelAgent(model, nil, nil), test, 3, 1, opts)
	fmt.Printf("%d/%d passed, pass^3 %.2f\n", rep.Passed, rep.Runs, rep.PassHatK(3))
	// Output:
	// 3/3 passed, pass^3 1.00
}
