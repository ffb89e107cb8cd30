package state_test

import (
	"fmt"

	"github.com/voiceeval/schematools/state"
)

// A scenario's tools share one state: the DB they read and write, the
// action log, and the notifier that carries their server messages.
func ExampleShared() {
	st := state.New()
	st.SetDomain("coffee")
	st.SetDB(map[string]any{"orders": map[string]any{}})

	// A write tool changes the DB under the lock and records what it did.
	_ = st.Update(func(db map[string]any) error {
		db["orders"].(map[string]any)["ORD-001"] = map[string]any{"status": "placed"}
		return nil
	})
	st.AppendAction(state.NewAction("place_order", map[string]any{"item": "latte"}, map[string]any{"order_id": "ORD-001"}))

	// A harness reads copies, never the live data.
	fmt.Println(st.Snapshot()["orders"])
	fmt.Println(st.Actions()[0].Type(), st.Domain())

	// A new scenario clears the state in place.
	st.Reset()
	fmt.Println(st.HasDB(), len(st.Actions()))
	// Output:
	// map[ORD-001:map[status:placed]]
	// place_order coffee
	// false 0
}

// LoadDB reads a DB from a single JSON file or a directory of shards, and
// refuses paths that leave the data root.
func ExampleLoadDB() {
	_, err := state.LoadDB("testdata", "../../etc/passwd")
	fmt.Println(err)
	// Output:
	// state: load DB "../../etc/passwd": path escapes the data root
}
