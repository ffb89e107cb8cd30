package tau2test

import (
	"encoding/json"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/internal/pyjson"
	"github.com/voiceeval/schematools/internal/sharedtest"
	"github.com/voiceeval/schematools/replay"
	"github.com/voiceeval/schematools/state"
)

// loaded caches what the tests of one binary read from the shared data:
// a domain's DB (never modified: replays share it copy-on-write) and its
// tasks.
var loaded sync.Map // string -> *entry

type entry struct {
	once sync.Once
	v    any
	err  error
}

func cached(key string, load func() (any, error)) (any, error) {
	e, _ := loaded.LoadOrStore(key, &entry{})
	en := e.(*entry)
	en.once.Do(func() { en.v, en.err = load() })
	return en.v, en.err
}

// SharedDB loads a tau2 DB from the shared data once per test binary:
// rel is relative to the tau2 data root, as state.LoadDB takes it
// ("airline/db", "retail/db.json"). Callers must not modify it.
func SharedDB(t testing.TB, rel string) map[string]any {
	t.Helper()
	root := sharedtest.Path(t, "tau2")
	v, err := cached("db "+rel, func() (any, error) { return state.LoadDB(root, rel) })
	require.NoError(t, err)
	return v.(map[string]any)
}

// Tasks loads the tasks of the domain directory dir ("airline",
// "retail") once per test binary.
func Tasks(t testing.TB, dir string) []replay.Task {
	t.Helper()
	path := sharedtest.Path(t, "tau2", dir, "tasks.json")
	v, err := cached("tasks "+dir, func() (any, error) { return replay.LoadTasks(path) })
	require.NoError(t, err)
	return v.([]replay.Task)
}

// TaskByID returns the task of tasks with the given id.
func TaskByID(t testing.TB, tasks []replay.Task, id string) replay.Task {
	t.Helper()
	for _, task := range tasks {
		if task.ID == id {
			return task
		}
	}
	t.Fatalf("task %s is not in tasks.json", id)
	return replay.Task{}
}

// GoldTask is one line of a gold_replay_<domain>.train.jsonl file, decoded
// with exact numbers (1.0 stays distinct from 1).
type GoldTask struct {
	Domain       string
	TaskID       string
	FinalDBHash  string
	PerAction    []GoldAction
	Reference    any // reference_actions
	DiffFromInit any // final_db_diff_from_initial
	Errors       any // the replay errors the reference logged
}

// GoldAction is one action of a GoldTask.
type GoldAction struct {
	Index     int
	Name      string
	Arguments any
	Result    any
	Records   []any
	HashAfter string
}

// LoadGold reads the Python reference's gold replay of a domain's train
// split: conformance/gold_replay_<dir>.train.jsonl.
func LoadGold(t testing.TB, dir string) []GoldTask {
	t.Helper()
	data, err := os.ReadFile(sharedtest.Path(t, "conformance", "gold_replay_"+dir+".train.jsonl"))
	require.NoError(t, err)
	var out []GoldTask
	for line := range strings.SplitSeq(strings.TrimSpace(string(data)), "\n") {
		v, err := pyjson.Decode([]byte(line))
		require.NoError(t, err)
		m := v.(map[string]any)
		g := GoldTask{
			Domain:       m["domain"].(string),
			TaskID:       m["task_id"].(string),
			FinalDBHash:  m["final_db_hash"].(string),
			Reference:    m["reference_actions"],
			DiffFromInit: m["final_db_diff_from_initial"],
			Errors:       m["errors"],
		}
		for _, a := range m["per_action"].([]any) {
			am := a.(map[string]any)
			idx, err := am["index"].(json.Number).Int64()
			require.NoError(t, err)
			g.PerAction = append(g.PerAction, GoldAction{
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
