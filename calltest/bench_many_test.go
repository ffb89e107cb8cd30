package calltest_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/voiceeval/schematools/calltest"
)

// manyCalls is a step of n calls to "a" whose argument "n" is j%2, so half
// the calls meet an Equals("n", 1) check, and the last call is to "b".
func manyCalls(n int) calltest.Step {
	calls := make([]calltest.Call, n)
	for j := range calls {
		calls[j] = calltest.Call{Name: "a", Arguments: map[string]any{"n": j % 2}}
	}
	calls[n-1].Name = "b"
	return calltest.Step{Calls: calls}
}

// BenchmarkCheckManyCalls: k expectations against n calls (a looping
// agent), in the default superset mode.
func BenchmarkCheckManyCalls(b *testing.B) {
	for _, size := range []struct{ k, n int }{{1, 200}, {1, 1600}, {1, 10000}, {5, 1600}, {5, 10000}, {20, 10000}} {
		b.Run(fmt.Sprintf("expect=%d/calls=%d", size.k, size.n), func(b *testing.B) {
			test := calltest.Test{Name: "t", History: history, AnyCallMatches: true}
			for i := range size.k {
				e := calltest.Expectation{Tool: "a", Params: []calltest.ParamCheck{calltest.Equals("n", i%2)}}
				test.Expect = append(test.Expect, e)
			}
			step := manyCalls(size.n)
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				res, err := calltest.Check(ctx, test, step, nil)
				if err != nil || res.Status != calltest.Pass {
					b.Fatal(err, res)
				}
			}
		})
	}
}
