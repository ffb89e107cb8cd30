package evascript

import (
	"encoding/json"
	"testing"
)

// parsePaths never panics, and what it accepts is one Path per scenario
// id, each call with a tool and an arguments object.
func FuzzParsePaths(f *testing.F) {
	f.Add(goldPaths)
	f.Add([]byte(`{"scenario_id":"1","calls":[{"tool":"T","arguments":{}}]}`))
	f.Add([]byte("{\"scenario_id\":\"1\"}\n\n{\"scenario_id\":\"2\",\"calls\":null}"))
	f.Add([]byte(`{"scenario_id":"1","calls":[{"tool":"T","arguments":null}]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		paths, ids, err := parsePaths(b)
		if err != nil {
			return
		}
		if len(paths) != len(ids) {
			t.Fatalf("%d paths, %d ids", len(paths), len(ids))
		}
		for _, id := range ids {
			p := paths[id]
			if p.ScenarioID != id || id == "" {
				t.Fatalf("id %q holds %q", id, p.ScenarioID)
			}
			for _, c := range p.Calls {
				var args map[string]any
				if c.Tool == "" || json.Unmarshal(c.Arguments, &args) != nil || args == nil {
					t.Fatalf("%s: accepted call %+v", id, c)
				}
			}
		}
	})
}
