package tau2test

import (
	"os"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/internal/conformance"
	"github.com/voiceeval/schematools/internal/replaytest"
	"github.com/voiceeval/schematools/replay"
	"github.com/voiceeval/schematools/state"
)

// loaded caches what the tests of one binary read from the tau2 data:
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

// SharedDB loads a tau2 DB from domains/tau2/tau2data once per test binary:
// rel is relative to the tau2 data root, as state.LoadDB takes it
// ("airline/db", "retail/db.json"). Callers must not modify it.
func SharedDB(t testing.TB, rel string) map[string]any {
	t.Helper()
	root := conformance.Tau2Dir(t)
	v, err := cached("db "+rel, func() (any, error) { return state.LoadDB(root, rel) })
	require.NoError(t, err)
	return v.(map[string]any)
}

// SharedSource loads a tau2 DB from domains/tau2/tau2data once per test
// binary as a state.Source decoded from its files (state.LoadSource),
// which keeps the files' key order: the states sharing it give tool
// results the Python original's key order. rel is as SharedDB takes it.
func SharedSource(t testing.TB, rel string) *state.Source {
	t.Helper()
	root := conformance.Tau2Dir(t)
	v, err := cached("source "+rel, func() (any, error) { return state.LoadSource(root, rel) })
	require.NoError(t, err)
	return v.(*state.Source)
}

// Tasks loads the tasks of the domain directory dir ("airline",
// "retail") once per test binary.
func Tasks(t testing.TB, dir string) []replay.Task {
	t.Helper()
	path := conformance.Tau2Dir(t, dir, "tasks.json")
	v, err := cached("tasks "+dir, func() (any, error) {
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		return replay.DecodeTasks(data)
	})
	require.NoError(t, err)
	return v.([]replay.Task)
}

// LoadGold reads the Python reference's gold replay of a tau2 domain's
// train split, conformance/gold_replay_<dir>.train.jsonl, found through
// internal/conformance.
func LoadGold(t testing.TB, dir string) []replaytest.GoldTask {
	t.Helper()
	data, err := os.ReadFile(conformance.Path(t, "gold_replay_"+dir+".train.jsonl"))
	require.NoError(t, err)
	gold, err := replaytest.ParseGold(data)
	require.NoError(t, err)
	return gold
}
