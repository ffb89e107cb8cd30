package tau2tools

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

// Writer is what a record-level write tool (WriteRecords) works on: the
// live DB, to read anything, and Own, to change a record.
type Writer struct {
	// DB is the live DB. Read any of it; change only what Own returns.
	DB     map[string]any
	tables []string
	copied map[string]map[string]any // table -> its copy made by this write
	owned  map[string]map[string]any // table + "\x00" + key -> the record's copy
}

// Own returns the record key of table (one of the tables the write named)
// for changing: the first time, the table is replaced by a shallow copy of
// itself and the record by a deep copy, so the DB the state may share
// with other replays is never changed; later calls in the same write
// return the same copy. A record that is missing or null gives nil; a
// record or a table that is not a dict is Python's AttributeError, and a
// table the write did not name an error.
func (w *Writer) Own(table, key string) (map[string]any, error) {
	if !slices.Contains(w.tables, table) {
		return nil, fmt.Errorf("tau2tools: the write did not name table %q", table)
	}
	if rec, ok := w.owned[table+"\x00"+key]; ok {
		return rec, nil
	}
	t, ok := w.copied[table]
	if !ok {
		if _, present := w.DB[table]; !present {
			return nil, nil // no table, no record: nothing to copy or to add
		}
		var err error
		if t, err = GetDict(w.DB, table); err != nil {
			return nil, err
		}
		t = maps.Clone(t)
		w.DB[table] = t
		w.copied[table] = t
	}
	v := t[key]
	if v == nil {
		return nil, nil
	}
	if _, err := AsDict(v); err != nil {
		return nil, err
	}
	rec := state.Clone(v).(map[string]any)
	t[key] = rec
	w.owned[table+"\x00"+key] = rec
	return rec, nil
}

// WriteRecords is WriteDB for tools that change a few records of large
// tables (the retail domain's 1,000 orders): the state copies no table
// (state.Shared.UpdateTables with none named), and fn gets a Writer
// whose Own copies just the records it changes, in the tables named here
// — a table of a gold replay's shared DB stays shared but for the one
// record. fn must change nothing it did not get from Own, must check
// everything before it changes anything (it may Own records before: a copy
// equals its original), and must return copies of what it took from the
// DB (state.Clone). A missing or empty DB is answered with
// db_not_initialized; the action fn returns is recorded with rec once the
// lock is released.
func WriteRecords(ctx context.Context, st *state.Shared, rec tool.Recorder, tables []string, fn func(w *Writer) (any, state.Action, error)) (any, error) {
	return write(ctx, st, rec, []string{}, func(db map[string]any) (any, state.Action, error) {
		return fn(&Writer{DB: db, tables: tables, copied: map[string]map[string]any{}, owned: map[string]map[string]any{}})
	})
}

// NewRecordWriteTool builds a tau2 write tool that changes single records
// (WriteRecords): a typed tool, validated in lax mode, whose work fn runs
// with the checked arguments.
func NewRecordWriteTool[P any](name, description string, rec tool.Recorder, tables []string, fn func(w *Writer, p P) (any, state.Action, error), opts ...tool.Option) (*tool.Typed[P, any], error) {
	return tool.New(name, description,
		func(ctx context.Context, st *state.Shared, p P) (any, error) {
			return WriteRecords(ctx, st, rec, tables, func(w *Writer) (any, state.Action, error) { return fn(w, p) })
		}, Lax(opts)...)
}
