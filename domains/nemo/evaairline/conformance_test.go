package evaairline_test

import (
	"context"
	"io/fs"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/dbhash"
	"github.com/voiceeval/schematools/domains/nemo/evaairline"
	"github.com/voiceeval/schematools/internal/conformance"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

// dataRoot is the NeMo data root the vectors were produced from
// (domains/nemo/nemodata, as nemodata.FS embeds it).
func dataRoot(t testing.TB) fs.FS { return os.DirFS(conformance.NemoDataDir(t)) }

// scriptState is a fresh state of scenario id, as the vectors' generator
// built one, with a notifier that records messages.
func scriptState(t testing.TB, root fs.FS, id string) (*state.Shared, *notifier, *tool.Set) {
	t.Helper()
	db, err := evaairline.LoadScenarioDB(root, id)
	require.NoError(t, err)
	n := &notifier{}
	st := evaairline.NewState(db, n)
	tools, err := evaairline.NewTools(st, nil)
	require.NoError(t, err)
	set, err := tool.NewSet(tools...)
	require.NoError(t, err)
	return st, n, set
}

// vectorMessages are a call's RTVI messages in the order Go sends them.
// The Python original schedules its action-applied push as a task, so the
// generator recorded a transfer's exit text before it; tool.Recorder sends
// action-applied synchronously, before the result and so before the exit
// signal (the order the harness needs). Action-applied messages come first,
// each kind in its order.
func vectorMessages(msgs []any) []any {
	out := []any{}
	for _, m := range msgs {
		if _, ok := m.(map[string]any)["data"]; ok {
			out = append(out, m)
		}
	}
	for _, m := range msgs {
		if _, ok := m.(map[string]any)["data"]; !ok {
			out = append(out, m)
		}
	}
	return out
}

// callCounts are the state's call counters of the names in want and of
// the two counters the tools use (read by counting one more: the test's
// last look at the state).
func callCounts(st *state.Shared, want map[string]any) map[string]any {
	out := map[string]any{}
	names := []string{"process_refund", "transfer_to_agent"}
	for k := range want {
		names = append(names, k)
	}
	for _, k := range names {
		if _, done := out[k]; done {
			continue
		}
		if n := st.NextCallIndex(k) - 1; n > 0 {
			out[k] = n
		}
	}
	return out
}

// TestCallScripts runs every call script of eva_airline_calls.jsonl,
// each from a fresh state loaded from its fixture, and requires for every
// call the delivered result (live path), the actions appended, the RTVI
// messages pushed and the DB hash after it; then the final action log,
// call counters and DB hash.
func TestCallScripts(t *testing.T) {
	root := dataRoot(t)
	scripts := readLines(t, "eva_airline_calls.jsonl")
	conformance.RequireRecords(t, len(scripts), "nemo", "eva_airline_calls.jsonl")
	var scriptsOK, calls, callsOK, raw int
	for _, sc := range scripts {
		id := sc["scenario_id"].(string)
		st, n, set := scriptState(t, root, id)
		h, err := st.Hash()
		require.NoError(t, err)
		ok := assert.Equal(t, sc["initial_db_hash"], h, "%s: initial hash", sc["seed"])
		for _, c := range sc["calls"].([]any) {
			call := c.(map[string]any)
			calls++
			if _, has := call["raw_result"]; has {
				raw++
			}
			where := sc["seed"].(string) + " call " + call["i"].(interface{ String() string }).String() + " " + call["tool"].(string)
			before := len(st.Actions())
			var result any
			delivered := 0
			require.NoError(t, set.Call(context.Background(), call["tool"].(string), call["arguments"].(map[string]any),
				func(r any) error { result = r; delivered++; return nil }, nil))
			good := delivered == 1
			if same, diff := sameJSON(result, call["result"]); !same {
				t.Errorf("%s: result%s", where, diff)
				good = false
			}
			appended := st.Actions()[before:]
			if same, diff := sameJSON(appended, call["actions_appended"]); !same {
				t.Errorf("%s: actions appended%s", where, diff)
				good = false
			}
			if same, diff := sameJSON(n.take(), vectorMessages(call["rtvi_messages"].([]any))); !same {
				t.Errorf("%s: RTVI messages%s", where, diff)
				good = false
			}
			h, err := st.Hash()
			require.NoError(t, err)
			if h != call["db_hash_after"] {
				t.Errorf("%s: DB hash %s, want %s", where, h, call["db_hash_after"])
				good = false
			}
			if good {
				callsOK++
			} else {
				ok = false
			}
		}
		if same, diff := sameJSON(st.Actions(), sc["final_actions"]); !same {
			t.Errorf("%s: final actions%s", sc["seed"], diff)
			ok = false
		}
		want := sc["final_call_counts"].(map[string]any)
		if same, diff := sameJSON(callCounts(st, want), want); !same {
			t.Errorf("%s: call counts%s", sc["seed"], diff)
			ok = false
		}
		h, err = st.Hash()
		require.NoError(t, err)
		if h != sc["final_db_hash"] {
			t.Errorf("%s: final DB hash %s, want %s", sc["seed"], h, sc["final_db_hash"])
			ok = false
		}
		if ok {
			scriptsOK++
		}
	}
	t.Logf("eva_airline call scripts: %d/%d scripts, %d/%d calls match exactly", scriptsOK, len(scripts), callsOK, calls)
	assert.Equal(t, len(scripts), scriptsOK)
	require.Positive(t, calls)
	assert.Equal(t, calls, callsOK)
	assert.Zero(t, raw, "eva tools return no empty result, so no call records a raw_result")
}

// TestGoldPaths replays each found gold path of eva_airline_gold_paths.jsonl
// from its fixture and requires the scenario's expected DB hash.
func TestGoldPaths(t *testing.T) {
	root := dataRoot(t)
	paths := readLines(t, "eva_airline_gold_paths.jsonl")
	conformance.RequireRecords(t, len(paths), "nemo", "eva_airline_gold_paths.jsonl")
	reached := 0
	for _, p := range paths {
		require.Equal(t, true, p["found"], p["scenario_id"])
		id := p["scenario_id"].(string)
		db, err := evaairline.LoadScenarioDB(root, id)
		require.NoError(t, err)
		st := evaairline.NewState(db, nil)
		var calls []evaairline.Call
		for _, c := range p["calls"].([]any) {
			m := c.(map[string]any)
			calls = append(calls, evaairline.Call{Tool: m["tool"].(string), Arguments: m["arguments"].(map[string]any)})
		}
		last, err := st.Hash()
		require.NoError(t, err)
		require.NoError(t, evaairline.Replay(context.Background(), st, calls, func(s evaairline.Step) error {
			last = s.DBHash
			return nil
		}))
		if assert.Equal(t, p["expected_db_hash"], last, id) && assert.Equal(t, p["final_db_hash"], last, id) {
			reached++
		}
		if same, diff := sameJSON(st.Actions(), p["final_actions"]); !same {
			t.Errorf("%s: final actions%s", id, diff)
		}
	}
	t.Logf("eva_airline gold paths: %d/%d reach the expected DB hash", reached, len(paths))
}

// TestScenarioHashes checks the initial DB hash (the fixture as loaded)
// and the expected DB hash (the dataset's ground truth) of each scenario of
// eva_airline_scenarios.jsonl.
func TestScenarioHashes(t *testing.T) {
	root := dataRoot(t)
	scenarios := readLines(t, "eva_airline_scenarios.jsonl")
	conformance.RequireRecords(t, len(scenarios), "nemo", "eva_airline_scenarios.jsonl")
	for _, s := range scenarios {
		id := s["scenario_id"].(string)
		require.Equal(t, evaairline.FixturePath(id), s["fixture"])
		db, err := evaairline.LoadScenarioDB(root, s["fixture"].(string))
		require.NoError(t, err)
		h, err := dbhash.Hash(db)
		require.NoError(t, err)
		assert.Equal(t, s["initial_db_hash"], h, "%s initial", id)
		assert.Equal(t, s["current_date"], db["_current_date"], id)
		exp, err := evaairline.ExpectedDB(root, id)
		require.NoError(t, err)
		h, err = dbhash.Hash(exp)
		require.NoError(t, err)
		assert.Equal(t, s["expected_db_hash"], h, "%s expected", id)
	}
}
