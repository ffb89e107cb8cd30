package calltest_test

import (
	"context"
	"testing"

	"github.com/voiceeval/schematools/calltest"
)

// BenchmarkCheck: one test with five parameter checks against a step of
// three calls.
func BenchmarkCheck(b *testing.B) {
	test := one("book_table",
		calltest.Equals("party_size", 6),
		calltest.ExactText("time", "20:00"),
		calltest.Matches("name", "^Ada"),
		calltest.Present("items.0.sku"),
		calltest.Near("price", 10.5, 0.01),
	)
	test.AnyCallMatches = true
	step := calltest.Step{Calls: []calltest.Call{
		call("lookup", `{"id": "x"}`),
		call("book_table", `{"party_size": 6, "time": "20:00", "name": "Ada Lovelace", "items": [{"sku": "A1"}], "price": 10.5}`),
		call("end", `{}`),
	}}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		res, err := calltest.Check(ctx, test, step, nil)
		if err != nil || res.Status != calltest.Pass {
			b.Fatal(err, res)
		}
	}
}
