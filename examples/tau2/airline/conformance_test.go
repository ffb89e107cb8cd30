package airline_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/dbhash"
	"github.com/voiceeval/schematools/examples/tau2/airline"
	"github.com/voiceeval/schematools/internal/pyjson"
	"github.com/voiceeval/schematools/internal/sharedtest"
	"github.com/voiceeval/schematools/replay"
	"github.com/voiceeval/schematools/state"
)

// The conformance data lives in the shared directory and is read in place.
var (
	dbOnce    sync.Once
	sharedDB  map[string]any
	dbErr     error
	tasksOnce sync.Once
	allTasks  []replay.Task
	tasksErr  error
)

// airlineDB loads the tau2 airline DB (three shards keyed by file stem)
// once per test binary. Replays never modify it.
func airlineDB(t testing.TB) map[string]any {
	t.Helper()
	root := sharedtest.Path(t, "tau2")
	dbOnce.Do(func() { sharedDB, dbErr = state.LoadDB(root, "airline/db") })
	require.NoError(t, dbErr)
	return sharedDB
}

func airlineTasks(t testing.TB) []replay.Task {
	t.Helper()
	path := sharedtest.Path(t, "tau2", "airline", "tasks.json")
	tasksOnce.Do(func() { allTasks, tasksErr = replay.LoadTasks(path) })
	require.NoError(t, tasksErr)
	return allTasks
}

func taskByID(t testing.TB, id string) replay.Task {
	t.Helper()
	for _, task := range airlineTasks(t) {
		if task.ID == id {
			return task
		}
	}
	t.Fatalf("task %s is not in tasks.json", id)
	return replay.Task{}
}

// goldTask is one line of gold_replay_airline.train.jsonl, decoded with
// exact numbers (1.0 stays distinct from 1).
type goldTask struct {
	TaskID       string
	FinalDBHash  string
	PerAction    []goldAction
	Reference    any // reference_actions
	DiffFromInit any // final_db_diff_from_initial
	Errors       []any
}

type goldAction struct {
	Index     int
	Name      string
	Arguments any
	Result    any
	Records   []any
	HashAfter string
}

func loadGold(t *testing.T) []goldTask {
	t.Helper()
	data, err := os.ReadFile(sharedtest.Path(t, "conformance", "gold_replay_airline.train.jsonl"))
	require.NoError(t, err)
	var out []goldTask
	for line := range strings.SplitSeq(strings.TrimSpace(string(data)), "\n") {
		v, err := pyjson.Decode([]byte(line))
		require.NoError(t, err)
		m := v.(map[string]any)
		require.Equal(t, airline.Domain, m["domain"])
		g := goldTask{
			TaskID:       m["task_id"].(string),
			FinalDBHash:  m["final_db_hash"].(string),
			Reference:    m["reference_actions"],
			DiffFromInit: m["final_db_diff_from_initial"],
			Errors:       m["errors"].([]any),
		}
		for _, a := range m["per_action"].([]any) {
			am := a.(map[string]any)
			idx, err := am["index"].(json.Number).Int64()
			require.NoError(t, err)
			g.PerAction = append(g.PerAction, goldAction{
				Index:     int(idx),
				Name:      am["name"].(string),
				Arguments: am["arguments"],
				Result:    am["result"],
				Records:   am["records_appended"].([]any),
				HashAfter: am["db_hash_after"].(string),
			})
		}
		out = append(out, g)
	}
	return out
}

// tree returns v as the JSON tree Python would have produced: encoded
// with encoding/json (results are structs, DB values json.Number in
// Python's text), decoded with exact numbers.
func tree(t testing.TB, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	out, err := pyjson.Decode(b)
	require.NoError(t, err)
	return out
}

func pretty(v any) string {
	b, err := pyjson.Marshal(v, pyjson.Default)
	if err != nil {
		return fmt.Sprint(v)
	}
	if len(b) > 4000 {
		return string(b[:4000]) + "…"
	}
	return string(b)
}

// TestConformanceTrain replays the 30 tasks of the train split and
// requires, task by task, what the Python reference produced: the final DB
// hash, every action's raw result, the number of records each action
// appended, the whole record list, and the structured diff from the
// initial DB. Results and records are compared as JSON trees with exact
// numbers, and an int/float difference counts: the Go result must have an
// int where Python had an int and a float where it had a float.
func TestConformanceTrain(t *testing.T) {
	gold := loadGold(t)
	require.Len(t, gold, 30)
	db := airlineDB(t)
	initialHash, err := dbhash.Hash(db)
	require.NoError(t, err)

	for _, g := range gold {
		t.Run("task_"+g.TaskID, func(t *testing.T) {
			sc := replay.Scenario{Domain: airline.Domain, Task: taskByID(t, g.TaskID), DB: db, Tools: airline.Tools, ShareDB: true, SourceDBHash: initialHash}
			res, err := replay.Gold(context.Background(), sc)
			require.NoError(t, err)
			require.Len(t, res.Steps, len(g.PerAction))

			for i, step := range res.Steps {
				want := g.PerAction[i]
				got := tree(t, step.Result)
				if !exactEqual(want.Result, got) || step.RecordsAppended != len(want.Records) || step.Err != "" {
					t.Errorf("first differing action: #%d %s(%s)\nwant result: %s\n got result: %s (error %q)\nrecords appended: want %d, got %d",
						want.Index, want.Name, pretty(want.Arguments), pretty(want.Result), pretty(got), step.Err, len(want.Records), step.RecordsAppended)
					break
				}
			}
			require.Empty(t, res.Errors, "replay errors (the reference has %d)", len(g.Errors))
			require.Equal(t, g.Reference, tree(t, res.Actions), "reference_actions")

			if res.DBHash != g.FinalDBHash {
				sc.TraceHashes = true
				traced, err := replay.Gold(context.Background(), sc)
				require.NoError(t, err)
				for i, step := range traced.Steps {
					if step.DBHash != g.PerAction[i].HashAfter {
						t.Logf("DB hash first differs after action #%d %s(%s)", i, step.Name, pretty(step.Arguments))
						break
					}
				}
				ours := tree(t, dbhash.Compare(db, res.DB))
				t.Fatalf("final DB hash: want %s, got %s\nreference diff from the initial DB: %s\nour diff from the initial DB:       %s",
					g.FinalDBHash, res.DBHash, pretty(g.DiffFromInit), pretty(ours))
			}
			// The structured diff from the initial DB agrees too.
			require.Equal(t, g.DiffFromInit, tree(t, dbhash.Compare(db, res.DB)))
		})
	}
}

// exactEqual compares two JSON trees exactly: numbers must agree in value
// and in kind — 1.0 is not 1 — as their Python json.dumps texts would.
func exactEqual(a, b any) bool {
	ta, err1 := pyjson.Marshal(a, pyjson.Compact)
	tb, err2 := pyjson.Marshal(b, pyjson.Compact)
	return err1 == nil && err2 == nil && string(ta) == string(tb)
}

// TestReplayAllTasks replays all 50 tasks (train and the held-back test
// split) and checks what the Python reference's replay of them is known to
// give: no missing tool, no exception, no error result; 142 gold actions,
// 50 records; 26 DBs changed, the others exactly those listed.
func TestReplayAllTasks(t *testing.T) {
	db := airlineDB(t)
	tasks := airlineTasks(t)
	require.Len(t, tasks, 50)
	initialHash, err := dbhash.Hash(db)
	require.NoError(t, err)
	cache, err := dbhash.NewCache(db)
	require.NoError(t, err)
	scenarios := make([]replay.Scenario, len(tasks))
	plain := make([]replay.Scenario, len(tasks))
	for i, task := range tasks {
		scenarios[i] = replay.Scenario{Domain: airline.Domain, Task: task, DB: db, Tools: airline.Tools, ShareDB: true, SourceDBHash: initialHash, HashCache: cache, HashesOnly: true}
		plain[i] = replay.Scenario{Domain: airline.Domain, Task: task, DB: db, Tools: airline.Tools}
	}
	results, err := replay.GoldAll(context.Background(), scenarios, 0, nil)
	require.NoError(t, err)

	// Every task read and wrote the one shared DB copy-on-write, each write
	// copying only the tables it names: the source must be untouched, and
	// the hashes equal those of replays that copy and hash everything.
	after, err := dbhash.Hash(db)
	require.NoError(t, err)
	require.Equal(t, initialHash, after, "a write tool changed a table it did not name in WriteDB")
	full, err := replay.GoldAll(context.Background(), plain, 0, nil)
	require.NoError(t, err)
	for i := range results {
		require.Equal(t, full[i].DBHash, results[i].DBHash, "task %s", results[i].TaskID)
	}

	actions, records := 0, 0
	var unchanged []string
	for _, r := range results {
		for _, e := range r.Errors {
			t.Errorf("task %s: %s error at action %d (%s): %s", r.TaskID, e.Kind, e.Index, e.Name, e.Message)
		}
		actions += len(r.Steps)
		records += len(r.Actions)
		if r.DBHash == initialHash {
			unchanged = append(unchanged, r.TaskID)
		}
	}
	require.Equal(t, 142, actions)
	require.Equal(t, 50, records)
	want := []string{"0", "1", "2", "3", "4", "5", "6", "9", "10", "13", "26", "27", "28", "31", "34", "36", "38", "41", "43", "45", "46", "47", "48", "49"}
	require.ElementsMatch(t, want, unchanged, "tasks whose DB the replay leaves unchanged")
}
