package tool

import (
	"context"

	"github.com/voiceeval/schematools/state"
)

// DB is how a port of a Python tool reaches the scenario's DB, the
// pattern every such tool follows: take the state's lock, answer
// NotLoaded when the DB is missing or empty (Python's "if not db"), run
// the work, and record a write's action once the lock is released, so the
// action-applied message goes out before the result is delivered.
//
// A write names what it changes, so that a DB shared copy-on-write
// ([state.Shared.Share] with a [state.Source], as gold replay shares a
// benchmark's DB between tasks) is never changed: [DB.Write] the top-level tables it may change,
// each copied whole before the first write, [DB.WriteRecords] the tables
// whose records it changes through a [state.Writer], which copies just
// those records. Work must check everything before it changes anything,
// so that a refused call — a result for the model or a Go error — leaves
// the DB as it was, and must return copies of what it takes from the DB
// ([state.Clone]; [state.Order.Copy], in the DB's key order, with
// [DB.ReadOrdered], [state.OrderOf] in [DB.Write] or the Writer's Order).
type DB struct {
	// NotLoaded is the result answered, without running the work, when
	// the DB is missing or empty: the domain's db_not_initialized
	// failure, typically.
	NotLoaded any
	// Recorder records the actions of write tools.
	Recorder Recorder
}

// Read runs fn on st's DB under its read lock and returns what fn
// returns; a missing or empty DB is answered with NotLoaded and fn does
// not run. fn must not change the DB nor keep references into it.
func (d DB) Read(st *state.Shared, fn func(db map[string]any) (any, error)) (any, error) {
	var res any
	err := st.View(func(db map[string]any) error {
		if len(db) == 0 {
			res = d.NotLoaded
			return nil
		}
		var err error
		res, err = fn(db)
		return err
	})
	return res, err
}

// Write runs fn on st's DB under its write lock
// ([state.Shared.UpdateTables]); a missing or empty DB is answered with
// NotLoaded and fn does not run. tables names the top-level tables fn may
// change (nil: any, as UpdateTables(nil, ...)); fn must not change any
// other. When fn succeeds and returns an action, it is recorded with
// Recorder once the lock is released; a failed write records nothing.
//
// fn gets the DB's key order with [state.OrderOf](db): it notes the order
// of what it adds to the DB ([state.Order.Keep], [state.Order.Set]), as
// the Python tool's dict literals and assignments give it, and copies what
// it returns with [state.Order.Copy].
func (d DB) Write(ctx context.Context, st *state.Shared, tables []string, fn func(db map[string]any) (any, state.Action, error)) (any, error) {
	var res any
	var action state.Action
	err := st.UpdateTables(tables, func(db map[string]any) error {
		if len(db) == 0 {
			res = d.NotLoaded
			return nil
		}
		var err error
		res, action, err = fn(db)
		return err
	})
	if err != nil {
		return nil, err
	}
	if action != nil {
		d.Recorder.Record(ctx, st, action)
	}
	return res, nil
}

// WriteRecords is [DB.Write] for work that changes a few records of large
// tables (a benchmark's thousand orders): the state copies no table, and
// fn gets a [state.Writer] on the live DB whose Own, Put, OwnRow and
// Append copy just the records they change, in the tables named here; a
// table of a shared DB stays shared but for those records. fn must change
// nothing it did not get from the Writer; it may Own records before it
// has checked everything, as a copy equals its original.
//
// The Writer comes from the state's key order ([state.Order.Writer]): the
// records it copies keep their order, and its Order method gives fn what
// [state.OrderOf] gives [DB.Write]'s fn.
func (d DB) WriteRecords(ctx context.Context, st *state.Shared, tables []string, fn func(w *state.Writer) (any, state.Action, error)) (any, error) {
	return d.Write(ctx, st, []string{}, func(db map[string]any) (any, state.Action, error) {
		return fn(state.OrderOf(db).Writer(db, tables...))
	})
}

// ReadOrdered is [DB.Read] whose fn also gets the DB's key order
// ([state.Shared.ViewOrdered]): fn copies what it returns from the DB with
// [state.Order.Copy], so that the result serialises in the Python
// original's key order — a record in its data file's order — where
// [state.Clone] gives a map, written with sorted keys.
func (d DB) ReadOrdered(st *state.Shared, fn func(db map[string]any, o *state.Order) (any, error)) (any, error) {
	var res any
	err := st.ViewOrdered(func(db map[string]any, o *state.Order) error {
		if len(db) == 0 {
			res = d.NotLoaded
			return nil
		}
		var err error
		res, err = fn(db, o)
		return err
	})
	return res, err
}
