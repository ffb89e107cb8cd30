package tau2tools

import (
	"context"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"unsafe"

	"github.com/voiceeval/schematools/internal/pyvalue"

	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

// Writer is what a record-level write tool (WriteRecords) works on: the
// live DB, to read anything, and Own, OwnRow and Append, to change a
// record of an object table, change a row of a list table, or add one.
type Writer struct {
	// DB is the live DB. Read any of it; change only what Own and OwnRow
	// return.
	DB     map[string]any
	tables []string
	copied map[string]map[string]any         // table -> its copy made by this write
	owned  map[string]map[string]any         // table + "\x00" + key -> the record's copy
	lists  map[string]bool                   // list tables this write copied
	rows   map[unsafe.Pointer]map[string]any // a row, original or copy -> the write's copy
}

// NewWriter returns a Writer on db that may change records of the named
// tables — for work that gets a DB rather than a state, such as an
// initialisation function run by replay.ApplyInit on a DB shared
// copy-on-write (state.Shared.UpdateTables with no table named). On a DB
// of its own it copies a little more than it needs to, and changes the
// same.
func NewWriter(db map[string]any, tables ...string) *Writer {
	return &Writer{DB: db, tables: tables, copied: map[string]map[string]any{}, owned: map[string]map[string]any{},
		lists: map[string]bool{}, rows: map[unsafe.Pointer]map[string]any{}}
}

// Own returns the record key of table (one of the tables the write named)
// for changing: the first time, the table is replaced by a shallow copy of
// itself and the record by a deep copy, so the DB the state may share
// with other replays is never changed; later calls in the same write
// return the same copy. A record that is missing or null gives nil; a
// record or a table that is not a dict is Python's AttributeError, and a
// table the write did not name an error.
func (w *Writer) Own(table, key string) (map[string]any, error) {
	if rec, ok := w.owned[table+"\x00"+key]; ok { // only named tables get there
		return rec, nil
	}
	t, err := w.ownTable(table)
	if err != nil || t == nil {
		return nil, err // no table, no record: nothing to copy or to add
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

// Put sets key of the object table (one the write named) to v, in the
// write's copy of the table — made as Own makes it, or a new table when
// the DB has none (Python's db.setdefault(table, {})[key] = v). An object
// put is the write's own: Own returns it as it is.
func (w *Writer) Put(table, key string, v any) error {
	t, err := w.ownTable(table)
	if err != nil {
		return err
	}
	if t == nil {
		t = map[string]any{}
		w.DB[table] = t
		w.copied[table] = t
	}
	t[key] = v
	if m, ok := v.(map[string]any); ok && m != nil {
		w.owned[table+"\x00"+key] = m
	} else {
		delete(w.owned, table+"\x00"+key)
	}
	return nil
}

// ownTable returns the write's copy of the object table, made the first
// time; nil when the DB has no such table.
func (w *Writer) ownTable(table string) (map[string]any, error) {
	if !slices.Contains(w.tables, table) {
		return nil, fmt.Errorf("tau2tools: the write did not name table %q", table)
	}
	if t, ok := w.copied[table]; ok {
		return t, nil
	}
	if _, present := w.DB[table]; !present {
		return nil, nil
	}
	t, err := GetDict(w.DB, table)
	if err != nil {
		return nil, err
	}
	t = maps.Clone(t)
	w.DB[table] = t
	w.copied[table] = t
	return t, nil
}

// OwnRow returns row — an object the list table (one the write named)
// holds, as read from DB — for changing: the first time, the table is
// replaced by a shallow copy of itself and the row, in the copy, by a deep
// copy, so the DB the state may share with other replays is never
// changed; later calls with the row or its copy return the same copy. A
// nil row gives nil; a row the table does not hold, or a table that is
// not a list, is an error.
func (w *Writer) OwnRow(table string, row map[string]any) (map[string]any, error) {
	if row == nil {
		return nil, nil
	}
	id := mapID(row)
	if own, ok := w.rows[id]; ok {
		return own, nil
	}
	list, err := w.ownList(table)
	if err != nil {
		return nil, err
	}
	for i, r := range list {
		if m, ok := r.(map[string]any); ok && mapID(m) == id {
			own := state.Clone(m).(map[string]any)
			list[i] = own
			w.rows[id], w.rows[mapID(own)] = own, own
			return own, nil
		}
	}
	return nil, fmt.Errorf("tau2tools: table %q does not hold the row to change", table)
}

// Append adds v at the end of the list table (one the write named),
// copying the table first as OwnRow does, or creating it when the DB has
// no such table (Python's db.setdefault(table, []).append(v)); an object
// appended is the write's own.
func (w *Writer) Append(table string, v any) error {
	if _, ok := w.DB[table]; !ok && slices.Contains(w.tables, table) {
		w.DB[table], w.lists[table] = []any{}, true
	}
	list, err := w.ownList(table)
	if err != nil {
		return err
	}
	w.DB[table] = append(list, v)
	if m, ok := v.(map[string]any); ok && m != nil {
		w.rows[mapID(m)] = m
	}
	return nil
}

// ownList returns the list table, replaced the first time by a shallow
// copy of itself.
func (w *Writer) ownList(table string) ([]any, error) {
	if !slices.Contains(w.tables, table) {
		return nil, fmt.Errorf("tau2tools: the write did not name table %q", table)
	}
	list, ok := w.DB[table].([]any)
	if !ok {
		return nil, fmt.Errorf("tau2tools: table %q is %s, not a list", table, pyvalue.TypeName(w.DB[table]))
	}
	if !w.lists[table] {
		list = slices.Clone(list)
		w.DB[table] = list
		w.lists[table] = true
	}
	return list, nil
}

// mapID is m's identity.
func mapID(m map[string]any) unsafe.Pointer { return reflect.ValueOf(m).UnsafePointer() }

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
		return fn(NewWriter(db, tables...))
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
