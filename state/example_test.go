package state_test

import (
	"fmt"

	"github.com/voiceeval/schematools/state"
)

// A scenario's tools share one state: the DB they read and write, the
// action log, and the notifier that carries their server messages.
func ExampleShared() {
	st := state.New()
	st.StartScenario("coffee", nil)
	st.SetDB(map[string]any{"orders": map[string]any{}})

	// A write tool changes the DB under the lock and records what it did.
	_ = st.UpdateTables(nil, func(db map[string]any) error {
		db["orders"].(map[string]any)["ORD-001"] = map[string]any{"status": "placed"}
		return nil
	})
	st.AppendAction(state.NewAction("place_order", map[string]any{"item": "latte"}, map[string]any{"order_id": "ORD-001"}))

	// A harness reads copies, never the live data.
	fmt.Println(st.Snapshot()["orders"])
	fmt.Println(st.Actions()[0]["action_type"], st.Domain())

	// A new scenario clears the state in place.
	st.StartScenario("retail", nil)
	fmt.Println(st.Snapshot() == nil, len(st.Actions()), st.Domain())
	// Output:
	// map[ORD-001:map[status:placed]]
	// place_order coffee
	// true 0 retail
}

// LoadDB reads a DB from a single JSON file or a directory of shards, and
// refuses paths that leave the data root.
func ExampleLoadDB() {
	_, err := state.LoadDB("testdata", "../../etc/passwd")
	fmt.Println(err)
	// Output:
	// state: load DB "../../etc/passwd": path escapes the data root
}

// A Writer changes single records of a DB shared copy-on-write: the
// Source stays as it was, and the records the write did not touch stay
// shared.
func ExampleWriter() {
	src := state.NewSource(map[string]any{"orders": map[string]any{
		"#1": map[string]any{"status": "pending"},
		"#2": map[string]any{"status": "pending"},
	}})
	st := state.New()
	st.Share(src)

	err := st.UpdateTables([]string{}, func(db map[string]any) error { // copy no table up front
		w := state.OrderOf(db).Writer(db, "orders")
		order, err := w.Own("orders", "#1")
		if err != nil {
			return err
		}
		order["status"] = "cancelled"
		return w.Put("orders", "#3", map[string]any{"status": "pending"})
	})
	if err != nil {
		panic(err)
	}
	fmt.Println(src.Verify()) // the shared DB is as it was
	fmt.Println(st.Snapshot()["orders"])
	// Output:
	// <nil>
	// map[#1:map[status:cancelled] #2:map[status:pending] #3:map[status:pending]]
}
