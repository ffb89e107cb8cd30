package tool_test

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/dbhash"
	"github.com/voiceeval/schematools/internal/pyvalue"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

// notLoaded is the DB tests' answer for a missing or empty DB.
var notLoaded = tool.Failure("db_not_initialized", "no DB")

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
	src = share(t, st, src)
	rec := tool.Recorder{ActionTypes: []string{"close"}}
	out, err := tool.DB{NotLoaded: notLoaded, Recorder: rec}.WriteRecords(context.Background(), st, []string{"orders"}, func(w *state.Writer) (any, state.Action, error) {
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
	h, err := st.Hash()
	require.NoError(t, err)
	assert.NotEqual(t, before, h, "the state no longer reads the source")
	db := st.Snapshot()
	assert.Equal(t, "closed", db["orders"].(map[string]any)["#1"].(map[string]any)["status"])
	assert.Equal(t, "b", db["orders"].(map[string]any)["#1"].(map[string]any)["items"].([]any)[0].(map[string]any)["id"])
	assert.Equal(t, src["orders"].(map[string]any)["#2"], db["orders"].(map[string]any)["#2"])
	assert.Equal(t, 1, len(st.Actions()))
}

func TestWriteRecordsRefusals(t *testing.T) {
	st := state.New()
	out, err := tool.DB{NotLoaded: notLoaded, Recorder: tool.Recorder{}}.WriteRecords(context.Background(), st, []string{"orders"}, func(*state.Writer) (any, state.Action, error) {
		t.Fatal("ran without a DB")
		return nil, nil, nil
	})
	require.NoError(t, err)
	assert.Equal(t, notLoaded, out)

	db := recordsDB(t)
	db["orders"].(map[string]any)["#3"] = "not an order"
	st.SetDB(db)
	_, err = tool.DB{NotLoaded: notLoaded, Recorder: tool.Recorder{}}.WriteRecords(context.Background(), st, []string{"orders", "flags"}, func(w *state.Writer) (any, state.Action, error) {
		_, err := w.Own("orders", "#3")
		var exc *pyvalue.Error
		assert.True(t, errors.As(err, &exc))
		_, err = w.Own("flags", "x")
		assert.EqualError(t, err, "'list' object has no attribute 'get'")
		got, err := w.Own("absent", "x")
		assert.Nil(t, got)
		assert.Error(t, err)
		return nil, nil, err
	})
	require.Error(t, err)
	assert.Equal(t, 0, len(st.Actions()))
}

// Rows of list tables: OwnRow copies the table shallowly and the row
// deeply, Append adds to the write's copy; the shared DB stays as it was
// and the rows the write did not touch are the source's own.
func TestWriterRowsOnASharedDB(t *testing.T) {
	v, err := dbhash.Decode([]byte(`{"lines": [{"id": "L1", "tags": ["a"]}, {"id": "L2"}, 3], "bills": [{"id": "B1"}]}`))
	require.NoError(t, err)
	src := v.(map[string]any)
	before := state.Clone(src)
	st := state.New()
	src = share(t, st, src)
	_, err = tool.DB{NotLoaded: notLoaded, Recorder: tool.Recorder{}}.WriteRecords(context.Background(), st, []string{"lines", "fresh"}, func(w *state.Writer) (any, state.Action, error) {
		l1 := w.DB["lines"].([]any)[0].(map[string]any)
		own, err := w.OwnRow("lines", l1)
		require.NoError(t, err)
		again, err := w.OwnRow("lines", l1)
		require.NoError(t, err)
		ownAgain, err := w.OwnRow("lines", own)
		require.NoError(t, err)
		own["status"] = "Suspended"
		again["tags"] = append(again["tags"].([]any), "b")
		assert.Equal(t, "Suspended", ownAgain["status"], "one copy per row")

		added := map[string]any{"id": "L3"}
		require.NoError(t, w.Append("lines", added))
		ownAdded, err := w.OwnRow("lines", added)
		require.NoError(t, err)
		ownAdded["new"] = true
		require.NoError(t, w.Append("fresh", 1), "a missing table is created")

		nothing, err := w.OwnRow("lines", nil)
		assert.Nil(t, nothing)
		assert.NoError(t, err)
		_, err = w.OwnRow("lines", map[string]any{"id": "L1"})
		assert.ErrorContains(t, err, `table "lines" does not hold the row`)
		_, err = w.OwnRow("bills", src["bills"].([]any)[0].(map[string]any))
		assert.ErrorContains(t, err, `did not name table "bills"`)
		return nil, nil, nil
	})
	require.NoError(t, err)

	assert.Equal(t, before, src, "the shared DB is untouched")
	db := st.Snapshot()
	want := `{"bills": [{"id": "B1"}], "fresh": [1], "lines": [{"id": "L1", "status": "Suspended", "tags": ["a", "b"]}, {"id": "L2"}, 3, {"id": "L3", "new": true}]}`
	got, err := dbhash.Canonical(db)
	require.NoError(t, err)
	wantDB, err := dbhash.Decode([]byte(want))
	require.NoError(t, err)
	wantText, err := dbhash.Hash(wantDB)
	require.NoError(t, err)
	gotText, err := dbhash.Hash(db)
	require.NoError(t, err)
	assert.Equal(t, wantText, gotText, "%s", got)
	_ = st.View(func(live map[string]any) error {
		assert.True(t, sameMap(live["lines"].([]any)[1], src["lines"].([]any)[1]), "an untouched row is the source's own")
		assert.True(t, sameSlice(live["bills"], src["bills"]), "an untouched table is the source's own")
		return nil
	})
}

func sameMap(a, b any) bool {
	return reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer()
}

func sameSlice(a, b any) bool {
	x, y := a.([]any), b.([]any)
	return len(x) == len(y) && len(x) > 0 && &x[0] == &y[0]
}

// Put adds a record to the write's copy of an object table (creating the
// table when the DB has none); the shared DB is untouched.
func TestWriterPut(t *testing.T) {
	src := recordsDB(t)
	before := state.Clone(src)
	st := state.New()
	src = share(t, st, src)
	_, err := tool.DB{NotLoaded: notLoaded, Recorder: tool.Recorder{}}.WriteRecords(context.Background(), st, []string{"orders", "fresh"}, func(w *state.Writer) (any, state.Action, error) {
		added := map[string]any{"status": "new"}
		require.NoError(t, w.Put("orders", "#3", added))
		own, err := w.Own("orders", "#3")
		require.NoError(t, err)
		own["paid"] = true
		assert.Equal(t, true, added["paid"], "a record put is the write's own")
		require.NoError(t, w.Put("orders", "#1", "replaced"))
		require.NoError(t, w.Put("fresh", "k", 1))
		assert.ErrorContains(t, w.Put("users", "v", 1), `did not name table "users"`)
		return nil, nil, nil
	})
	require.NoError(t, err)
	assert.Equal(t, before, src, "the shared DB is untouched")
	db := st.Snapshot()
	assert.Equal(t, map[string]any{"status": "new", "paid": true}, db["orders"].(map[string]any)["#3"])
	assert.Equal(t, "replaced", db["orders"].(map[string]any)["#1"])
	assert.Equal(t, map[string]any{"k": 1}, db["fresh"])
}

func TestDBReadWrite(t *testing.T) {
	ctx := context.Background()
	db := tool.DB{NotLoaded: notLoaded, Recorder: tool.Recorder{ActionTypes: []string{"touch"}}}
	for _, empty := range []map[string]any{nil, {}} {
		st := state.New()
		if empty != nil {
			st.SetDB(empty)
		}
		called := false
		out, err := db.Read(st, func(map[string]any) (any, error) { called = true; return nil, nil })
		require.NoError(t, err)
		assert.Equal(t, notLoaded, out)
		out, err = db.Write(ctx, st, nil, func(map[string]any) (any, state.Action, error) {
			called = true
			return nil, nil, nil
		})
		require.NoError(t, err)
		assert.Equal(t, notLoaded, out)
		assert.False(t, called)
	}

	st := state.New()
	st.SetDB(map[string]any{"n": json.Number("1")})
	out, err := db.Write(ctx, st, nil, func(live map[string]any) (any, state.Action, error) {
		live["n"] = json.Number("2")
		return "done", state.NewAction("touch", map[string]any{}, map[string]any{}), nil
	})
	require.NoError(t, err)
	assert.Equal(t, "done", out)
	assert.Len(t, st.Actions(), 1)
	boom := errors.New("boom")
	_, err = db.Write(ctx, st, nil, func(map[string]any) (any, state.Action, error) {
		return nil, state.NewAction("touch", nil, nil), boom
	})
	assert.ErrorIs(t, err, boom)
	assert.Len(t, st.Actions(), 1, "a failed write records nothing")
	out, err = db.Read(st, func(live map[string]any) (any, error) { return live["n"], nil })
	require.NoError(t, err)
	assert.Equal(t, json.Number("2"), out)
}

// share shares a state.Source of db with st and returns the Source's
// shared copy, the DB the state reads until it writes.
func share(t *testing.T, st *state.Shared, db map[string]any) map[string]any {
	t.Helper()
	st.Share(state.NewSource(db))
	var shared map[string]any
	require.NoError(t, st.View(func(d map[string]any) error { shared = d; return nil }))
	return shared
}
