package replaytest

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/dbhash"
	"github.com/voiceeval/schematools/internal/pyjson"
	"github.com/voiceeval/schematools/internal/pyvalue"
	"github.com/voiceeval/schematools/replay"
	"github.com/voiceeval/schematools/state"
)

// DecodeDB reads a DB written as JSON text, as Python's json.loads reads
// it (exact numbers: 1.0 stays a float), into a fresh map.
func DecodeDB(t testing.TB, text string) map[string]any {
	t.Helper()
	v, err := dbhash.Decode([]byte(text))
	require.NoError(t, err)
	db, ok := v.(map[string]any)
	require.True(t, ok, "the DB is not a JSON object")
	return db
}

// Fixture is one scenario's state with a domain's tools bound to it,
// keyed as gold replay keys them: a ToolBuilder's map, built on State.
type Fixture struct {
	State *state.Shared
	Tools replay.ToolMap
}

// Call runs a tool on the replay path and returns its raw result, with
// its ordered dicts made maps ([Plain]) so that a unit test can look into
// it by key (the key order is [RequireResultTexts]' to check); the call
// must not fail with a Go error.
func (f *Fixture) Call(t testing.TB, key string, args map[string]any) any {
	t.Helper()
	tl, ok := f.Tools[key]
	require.True(t, ok, "no tool %s", key)
	out, err := replay.Invoke(context.Background(), tl, args)
	require.NoError(t, err, "%s(%v)", key, args)
	return plain(out)
}

// At reads a value of the fixture's DB by path: a deep copy, the whole DB
// for no path (compare two to tell whether a call changed the DB).
func (f *Fixture) At(t testing.TB, path ...string) any {
	t.Helper()
	var v any = f.State.Snapshot()
	for _, p := range path {
		m, ok := v.(map[string]any)
		require.True(t, ok, "%v is not an object at %s", path, p)
		v = m[p]
	}
	return v
}

// Canon returns v as Python's json.dumps(sort_keys=True, separators=(",",
// ":")) would write it: results are encoded with encoding/json and
// decoded with exact numbers, so 1.0 and 1 stay apart.
func Canon(t testing.TB, v any) string {
	t.Helper()
	out, err := pyjson.Marshal(tree(t, v), pyjson.Compact)
	require.NoError(t, err)
	return string(out)
}

// RequireJSON compares got with the JSON text want, exactly: key order is
// free, the kind of every number (int or float) is not.
func RequireJSON(t testing.TB, want string, got any) {
	t.Helper()
	tree, err := pyjson.Decode([]byte(want))
	require.NoError(t, err)
	require.Equal(t, Canon(t, tree), Canon(t, got))
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

// plain returns v with every ordered dict (the pyvalue.Dict a tool's
// result holds for a record of a DB whose key order is known, see
// state.Order.Copy) made a map[string]any, recursively, so that a test
// can look into a result by key. Other values are returned as they are.
func plain(v any) any {
	switch x := v.(type) {
	case pyvalue.Dict:
		m := make(map[string]any, len(x))
		for _, it := range x {
			m[it.Key] = plain(it.Value)
		}
		return m
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = plain(e)
		}
		return m
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = plain(e)
		}
		return out
	}
	return v
}
