package evaairline_test

import (
	"context"
	"log/slog"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/domains/nemo/evaairline"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

// BenchmarkCallScripts replays all 132 eva call scripts (1,875 calls) per
// iteration, each from a fresh state (a copy of its fixture, loaded once),
// through the live path, hashing the DB after every call as the vectors do.
func BenchmarkCallScripts(b *testing.B) {
	root := dataRoot(b)
	scripts := readLines(b, "eva_airline_calls.jsonl")
	type script struct {
		db    map[string]any
		calls []evaairline.Call
	}
	dbs := map[string]map[string]any{}
	var all []script
	for _, sc := range scripts {
		id := sc["scenario_id"].(string)
		if dbs[id] == nil {
			db, err := evaairline.LoadScenarioDB(root, id)
			require.NoError(b, err)
			dbs[id] = db
		}
		s := script{db: dbs[id]}
		for _, c := range sc["calls"].([]any) {
			m := c.(map[string]any)
			s.calls = append(s.calls, evaairline.Call{Tool: m["tool"].(string), Arguments: m["arguments"].(map[string]any)})
		}
		all = append(all, s)
	}
	ctx := context.Background()
	// AssignSeatTool's expected ValueError is logged by the live path: keep
	// the benchmark's output to its figures.
	saved := slog.Default()
	slog.SetDefault(slog.New(slog.DiscardHandler))
	defer slog.SetDefault(saved)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for _, s := range all {
			st := evaairline.NewState(state.Clone(s.db).(map[string]any), &notifier{})
			tools, err := evaairline.NewTools(st, nil)
			if err != nil {
				b.Fatal(err)
			}
			set, err := tool.NewSet(tools...)
			if err != nil {
				b.Fatal(err)
			}
			for _, c := range s.calls {
				if err := set.Call(ctx, c.Tool, c.Arguments, func(any) error { return nil }, nil); err != nil {
					b.Fatal(err)
				}
				if _, err := st.Hash(); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
}
