package replay_test

import (
	"context"
	"fmt"
	"github.com/voiceeval/schematools/state"

	"github.com/voiceeval/schematools/domains/coffee"
	"github.com/voiceeval/schematools/registry"
	"github.com/voiceeval/schematools/replay"
)

// Gold replay computes a task's expected DB by running its gold actions
// through the same tools the agent uses; the harness then compares the
// agent's DB hash with this one.
func ExampleGold() {
	reg := new(registry.Tools)
	if err := coffee.Register(reg); err != nil {
		panic(err)
	}
	task := replay.Task{ID: "latte-then-cancel", EvaluationCriteria: &replay.EvaluationCriteria{Actions: []replay.Action{
		{Name: "place_order", Arguments: map[string]any{"customer": "Ada", "items": []any{
			map[string]any{"item_id": "latte", "size": "large", "quantity": 2},
		}}},
		{Name: "cancel_order", Arguments: map[string]any{"order_id": "ORD-001", "reason": "changed my mind"}},
	}}}
	res, err := replay.Gold(context.Background(), replay.Scenario{
		Domain: coffee.Domain,
		Task:   task,
		DB:     state.NewSource(coffee.DB()),
		Tools:  replay.RegistryTools(reg, coffee.Domain, nil),
	})
	if err != nil {
		panic(err)
	}
	order := res.DB["orders"].(map[string]any)["ORD-001"].(map[string]any)
	fmt.Println(order["status"], order["cancel_reason"])
	for _, a := range res.Actions {
		fmt.Println(a["name"], a["side"])
	}
	fmt.Println(len(res.DBHash), len(res.Errors))
	// Output:
	// cancelled changed my mind
	// place_order agent
	// cancel_order agent
	// 64 0
}
