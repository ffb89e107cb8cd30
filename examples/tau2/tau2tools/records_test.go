package tau2tools_test

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/dbhash"
	"github.com/voiceeval/schematools/examples/tau2/tau2tools"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

func recordsDB(t *testing.T) map[string]any {
	t.Helper()
	v, err := dbhash.Decode([]byte(`{"orders": {"#1": {"status": "pending", "items": [{"id": "a"}]}, "#2": {"status": "pending"}},
		"users": {"u": {"balance": 1.5}}, "flags": [1]}`))
	require.NoError(t, err)
	return v.(map[string]any)
}

// On a DB shared copy-on-write, WriteRecords copies only the records it
// owns: the source DB is untouched, the other records of the table are the
// source's own.
func TestWriteRecordsOnASharedDB(t *testing.T) {
	src := recordsDB(t)
	before, err := dbhash.Hash(src)
	require.NoError(t, err)
	st := state.New()
	st.ShareDB(src)
	rec := tool.Recorder{ActionTypes: []string{"close"}}
	out, err := tau2tools.WriteRecords(context.Background(), st, rec, []string{"orders"}, func(w *tau2tools.Writer) (any, state.Action, error) {
		order, err := w.Own("orders", "#1")
		if err != nil {
			return nil, nil, err
		}
		again, err := w.Own("orders", "#1")
		require.NoError(t, err)
		order["status"] = "closed"
		again["items"].([]any)[0].(map[string]any)["id"] = "b"
		missing, err := w.Own("orders", "#9")
		assert.Nil(t, missing)
		assert.NoError(t, err)
		_, err = w.Own("users", "u")
		assert.ErrorContains(t, err, `did not name table "users"`)
		return state.Clone(order), state.NewAction("close", map[string]any{}, nil), nil
	})
	require.NoError(t, err)
	assert.Equal(t, "closed", out.(map[string]any)["status"])

	after, err := dbhash.Hash(src)
	require.NoError(t, err)
	assert.Equal(t, before, after, "the shared DB changed")
	assert.False(t, st.SharesDB())
	db := st.Snapshot()
	assert.Equal(t, "closed", db["orders"].(map[string]any)["#1"].(map[string]any)["status"])
	assert.Equal(t, "b", db["orders"].(map[string]any)["#1"].(map[string]any)["items"].([]any)[0].(map[string]any)["id"])
	assert.Equal(t, src["orders"].(map[string]any)["#2"], db["orders"].(map[string]any)["#2"])
	assert.Equal(t, 1, st.ActionCount())
}

func TestWriteRecordsRefusals(t *testing.T) {
	st := state.New()
	out, err := tau2tools.WriteRecords(context.Background(), st, tool.Recorder{}, []string{"orders"}, func(*tau2tools.Writer) (any, state.Action, error) {
		t.Fatal("ran without a DB")
		return nil, nil, nil
	})
	require.NoError(t, err)
	assert.Equal(t, tau2tools.DBNotInitialized(), out)

	db := recordsDB(t)
	db["orders"].(map[string]any)["#3"] = "not an order"
	st.SetDB(db)
	_, err = tau2tools.WriteRecords(context.Background(), st, tool.Recorder{}, []string{"orders", "flags"}, func(w *tau2tools.Writer) (any, state.Action, error) {
		_, err := w.Own("orders", "#3")
		assert.True(t, errors.Is(err, tau2tools.ErrPython))
		_, err = w.Own("flags", "x")
		assert.EqualError(t, err, "'list' object has no attribute 'get'")
		got, err := w.Own("absent", "x")
		assert.Nil(t, got)
		assert.Error(t, err)
		return nil, nil, err
	})
	require.Error(t, err)
	assert.Equal(t, 0, st.ActionCount())
}
