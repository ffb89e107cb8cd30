package replay_test

import (
	"context"
	"testing"

	"github.com/voiceeval/schematools/domains/coffee"
	"github.com/voiceeval/schematools/internal/conformance"
	"github.com/voiceeval/schematools/registry"
	"github.com/voiceeval/schematools/replay"
	"github.com/voiceeval/schematools/state"
)

// BenchmarkGoldCoffee replays a three-action coffee task on a shared
// Source: tool building, invocation, copy-on-write, recording and the
// final hash.
func BenchmarkGoldCoffee(b *testing.B) {
	reg := new(registry.Tools)
	if err := coffee.Register(reg); err != nil {
		b.Fatal(err)
	}
	sc := replay.Scenario{
		Domain: coffee.Domain,
		DB:     state.NewSource(coffee.DB()),
		Tools:  replay.RegistryTools(reg, coffee.Domain, nil),
		Task: replay.Task{ID: "bench", EvaluationCriteria: &replay.EvaluationCriteria{Actions: []replay.Action{
			{Name: "get_menu"},
			{Name: "place_order", Arguments: map[string]any{"customer": "Ada", "items": []any{map[string]any{"item_id": "latte", "size": "large", "quantity": 2}}}},
			{Name: "cancel_order", Arguments: map[string]any{"order_id": "ORD-001", "reason": "changed my mind"}},
		}}},
	}
	b.ReportAllocs()
	for b.Loop() {
		res, err := replay.Gold(context.Background(), sc)
		if err != nil || len(res.Errors) > 0 {
			b.Fatal(err, res.Errors)
		}
	}
}

// BenchmarkCloneAirline deep-copies the tau2 airline DB, which every gold
// replay does first.
func BenchmarkCloneAirline(b *testing.B) {
	db, err := state.LoadDB(conformance.Tau2Dir(b), "airline/db")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		_ = state.Clone(db)
	}
}
