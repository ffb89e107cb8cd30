package tool_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/internal/pyjson"
	"github.com/voiceeval/schematools/internal/pyvalue"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

// argsTool records the key order its arguments arrived in.
type argsTool struct{ got [][]string }

func (a *argsTool) Name() string               { return "args" }
func (a *argsTool) Description() string        { return "" }
func (a *argsTool) Properties() map[string]any { return map[string]any{} }
func (a *argsTool) Required() []string         { return nil }
func (a *argsTool) Execute(ctx context.Context, args map[string]any) (any, error) {
	a.got = nil
	for _, m := range []map[string]any{args, args["nested"].(map[string]any)} {
		keys, ok := tool.ArgumentKeys(ctx, m)
		if !ok {
			keys = nil
		}
		a.got = append(a.got, keys)
	}
	return "ok", nil
}

// CallJSON keeps the key order the model wrote its arguments in, for
// ArgumentKeys; arguments given to Call as a map have none.
func TestArgumentKeys(t *testing.T) {
	raw := `{"zeta": 1, "nested": {"b": 1, "a": 2, "c": 3}, "alpha": 2}`
	at := &argsTool{}
	deliver := func(any) error { return nil }
	require.NoError(t, tool.CallJSON(context.Background(), at, []byte(raw), deliver, nil))
	assert.Equal(t, [][]string{{"zeta", "nested", "alpha"}, {"b", "a", "c"}}, at.got)

	args, err := tool.DecodeArgs([]byte(raw))
	require.NoError(t, err)
	require.NoError(t, tool.Call(context.Background(), at, args, deliver, nil))
	assert.Equal(t, [][]string{nil, nil}, at.got)

	keys, ok := tool.ArgumentKeys(context.Background(), map[string]any{"b": 1, "a": 2})
	assert.False(t, ok)
	assert.Nil(t, keys)
}

// Results that are ordered dicts (state.Order.Copy) are results like maps:
// an error result is one, an empty one gets the empty object's envelope.
func TestOrderedDictResults(t *testing.T) {
	for _, c := range []struct {
		result  pyvalue.Dict
		isError bool
		text    string
	}{
		{pyvalue.Dict{{Key: "status", Value: "error"}, {Key: "message", Value: "m"}}, true, `{"status": "error", "message": "m"}`},
		{pyvalue.Dict{{Key: "error", Value: "boom"}}, true, `{"error": "boom"}`},
		{pyvalue.Dict{{Key: "z", Value: 1}, {Key: "error", Value: "e"}}, false, `{"z": 1, "error": "e"}`},
		{pyvalue.Dict{}, false, `{"status": "success", "results": {}, "message": "No matching records found."}`},
	} {
		assert.Equal(t, c.isError, tool.IsError(c.result), "%v", c.result)
		var delivered any
		require.NoError(t, tool.Call(context.Background(), resultTool{c.result}, nil, func(v any) error { delivered = v; return nil }, nil))
		b, err := json.Marshal(delivered)
		require.NoError(t, err)
		v, err := pyvalue.Loads(b)
		require.NoError(t, err)
		out, err := pyvalue.AppendJSON(nil, v, pyjson.Unicode, false)
		require.NoError(t, err)
		assert.Equal(t, c.text, string(out))
	}
}

// resultTool returns its result.
type resultTool struct{ result any }

func (r resultTool) Name() string               { return "result" }
func (r resultTool) Description() string        { return "" }
func (r resultTool) Properties() map[string]any { return map[string]any{} }
func (r resultTool) Required() []string         { return nil }
func (r resultTool) Execute(context.Context, map[string]any) (any, error) {
	return r.result, nil
}

// ReadOrdered, Write (with state.OrderOf) and WriteRecords hand the work
// the state's key order: results copied with it read in the file's order, and a record
// WriteRecords owns keeps it.
func TestDBOrdered(t *testing.T) {
	root := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(root, "db.json"),
		[]byte(`{"orders": {"#2": {"status": "pending", "id": "#2"}, "#1": {"status": "done", "id": "#1"}}}`), 0o644))
	src, err := state.LoadSource(root, "db")
	require.NoError(t, err)
	st := state.New()
	st.Share(src)
	db := tool.DB{NotLoaded: notLoaded}
	text := func(v any) string {
		out, err := pyvalue.AppendJSON(nil, v, pyjson.Unicode, false)
		require.NoError(t, err)
		return string(out)
	}

	res, err := db.ReadOrdered(st, func(db map[string]any, o *state.Order) (any, error) { return o.Copy(db["orders"]), nil })
	require.NoError(t, err)
	assert.Equal(t, `{"#2": {"status": "pending", "id": "#2"}, "#1": {"status": "done", "id": "#1"}}`, text(res))

	res, err = db.WriteRecords(context.Background(), st, []string{"orders"}, func(w *state.Writer) (any, state.Action, error) {
		rec, err := w.Own("orders", "#1")
		if err == nil {
			w.Order().Set(rec, "reason", "x")
			rec["status"] = "cancelled"
		}
		return w.Order().Copy(rec), nil, err
	})
	require.NoError(t, err)
	assert.Equal(t, `{"status": "cancelled", "id": "#1", "reason": "x"}`, text(res))

	res, err = db.Write(context.Background(), st, []string{"orders"}, func(db map[string]any) (any, state.Action, error) {
		o := state.OrderOf(db)
		db["orders"].(map[string]any)["#3"] = o.Keep(map[string]any{"status": "new", "id": "#3"}, "id", "status")
		return o.Copy(db["orders"]), nil, nil
	})
	require.NoError(t, err)
	assert.Equal(t, `{"#2": {"status": "pending", "id": "#2"}, "#1": {"status": "cancelled", "id": "#1", "reason": "x"}, "#3": {"id": "#3", "status": "new"}}`, text(res))
	require.NoError(t, src.Verify())

	empty := state.New()
	res, err = db.ReadOrdered(empty, func(map[string]any, *state.Order) (any, error) { return "ran", nil })
	require.NoError(t, err)
	assert.Equal(t, notLoaded, res)
	res, err = db.Write(context.Background(), empty, nil, func(map[string]any) (any, state.Action, error) { return "ran", nil, nil })
	require.NoError(t, err)
	assert.Equal(t, notLoaded, res)
}
