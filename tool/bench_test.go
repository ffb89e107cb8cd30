package tool_test

import (
	"context"
	"testing"

	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

type lookupParams struct {
	OrderID  string `json:"order_id" validate:"min=3"`
	Customer string `json:"customer"`
	Limit    int    `json:"limit,omitempty" validate:"omitempty,min=1,max=50"`
}

type lookupResult struct {
	OrderID string `json:"order_id"`
	Status  string `json:"status"`
}

// BenchmarkCall measures one live call of a typed tool with three
// parameters: argument checks, validator rules, the function, the
// empty-result check and delivery.
func BenchmarkCall(b *testing.B) {
	tl, err := tool.New("lookup_order", "Look up an order.",
		func(_ context.Context, _ *state.Shared, p lookupParams) (any, error) {
			return lookupResult{OrderID: p.OrderID, Status: "placed"}, nil
		}, nil)
	if err != nil {
		b.Fatal(err)
	}
	args := map[string]any{"order_id": "ORD-001", "customer": "Ada", "limit": 10.0}
	ctx := context.Background()
	var sink any
	deliver := func(v any) error { sink = v; return nil }
	b.ReportAllocs()
	for b.Loop() {
		if err := tool.Call(ctx, tl, args, deliver, nil); err != nil {
			b.Fatal(err)
		}
	}
	if sink.(lookupResult).Status != "placed" {
		b.Fatal("unexpected result")
	}
}

// BenchmarkCallJSON adds decoding the model's raw argument bytes.
func BenchmarkCallJSON(b *testing.B) {
	tl, err := tool.New("lookup_order", "Look up an order.",
		func(_ context.Context, _ *state.Shared, p lookupParams) (any, error) {
			return lookupResult{OrderID: p.OrderID, Status: "placed"}, nil
		}, nil)
	if err != nil {
		b.Fatal(err)
	}
	raw := []byte(`{"order_id":"ORD-001","customer":"Ada","limit":10}`)
	ctx := context.Background()
	deliver := func(any) error { return nil }
	b.ReportAllocs()
	for b.Loop() {
		if err := tool.CallJSON(ctx, tl, raw, deliver, nil); err != nil {
			b.Fatal(err)
		}
	}
}
