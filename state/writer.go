package state

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"unsafe"

	"github.com/voiceeval/schematools/internal/pyvalue"
)

// Writer changes single records of a DB that may be shared copy-on-write
// ([Shared.Share]): Own and Put change a record of an object table (a
// dict keyed by id), OwnRow and Append a row of a list table. Each copies
// the table shallowly and the record deeply the first time, so the DB other
// states share is never changed and a table stays shared but for the
// records the write touched. Get one from [Order.Writer] — OrderOf(db).Writer
// — inside [Shared.UpdateTables] with no table named (tool.DB.WriteRecords
// does that), or on a DB handed to an initialisation function.
//
// Where the DB does not have the shape a Python tool expects, a Writer
// returns the exception Python would raise (an AttributeError for a record
// or an object table that is not a dict), as an error whose text is
// str(exc); errors.As finds the exception, with its type.
type Writer struct {
	// DB is the live DB. Read any of it; change only what Own and OwnRow
	// return.
	DB     map[string]any
	tables []string
	copied map[string]map[string]any         // table -> its copy made by this write
	owned  map[string]map[string]any         // table + "\x00" + key -> the record's copy
	lists  map[string]bool                   // list tables this write copied
	rows   map[unsafe.Pointer]map[string]any // a row, original or copy -> the write's copy
	order  *Order                            // the state's key order, when the Writer came from one
}

// Writer returns a [Writer] on db, the DB the Order belongs to (inside
// [Shared.UpdateTables], o is [OrderOf](db)), that may change records of
// the named tables; the copies it makes keep their originals' key order,
// and its Order method returns o. On a nil Order (OrderOf of a DB
// outside a write callback) it keeps no order; on a DB of its own it copies a little more
// than it needs to, and changes the same.
func (o *Order) Writer(db map[string]any, tables ...string) *Writer {
	return &Writer{DB: db, tables: tables, copied: map[string]map[string]any{}, owned: map[string]map[string]any{},
		lists: map[string]bool{}, rows: map[unsafe.Pointer]map[string]any{}, order: o}
}

// Order returns the key order of the Writer's DB: the Order it was made
// from, possibly nil (whose methods all accept a nil Order: they keep
// no order).
func (w *Writer) Order() *Order { return w.order }

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
	if _, ok := v.(map[string]any); !ok {
		return nil, noGet(v)
	}
	rec := w.order.cloneRecord(v.(map[string]any))
	t[key] = rec
	w.owned[table+"\x00"+key] = rec
	return rec, nil
}

// noGet is the AttributeError Python raises when .get is called on v, as
// a tool's caller sees it.
func noGet(v any) error {
	return pyvalue.StrError{Exc: pyvalue.Raise("AttributeError", "'%s' object has no attribute 'get'", pyvalue.TypeName(v))}
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
		return nil, fmt.Errorf("state: the write did not name table %q", table)
	}
	if t, ok := w.copied[table]; ok {
		return t, nil
	}
	v, present := w.DB[table]
	if !present {
		return nil, nil
	}
	t, ok := v.(map[string]any)
	if !ok {
		return nil, noGet(v)
	}
	orig := t
	t = maps.Clone(t)
	w.order.aliasTable(orig, t)
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
			own := w.order.cloneRecord(m)
			list[i] = own
			w.rows[id], w.rows[mapID(own)] = own, own
			return own, nil
		}
	}
	return nil, fmt.Errorf("state: table %q does not hold the row to change", table)
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
		return nil, fmt.Errorf("state: the write did not name table %q", table)
	}
	list, ok := w.DB[table].([]any)
	if !ok {
		return nil, fmt.Errorf("state: table %q is %s, not a list", table, pyvalue.TypeName(w.DB[table]))
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
