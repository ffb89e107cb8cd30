package tau2tools

import (
	"context"

	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

// DB returns how a tau2 tool reaches its DB: a tool.DB that answers a
// missing or empty DB with the db_not_initialized result
// (DBNotInitialized) and records with rec.
func DB(rec tool.Recorder) tool.DB {
	return tool.DB{NotLoaded: dbNotInitialized, Recorder: rec}
}

// dbNotInitialized is DBNotInitialized boxed once: a replay builds every
// tool of a domain for each task.
var dbNotInitialized any = DBNotInitialized()

// NewReadTool builds a tau2 read tool: a typed tool built by New (lax
// mode, the original's texts for name in domain), whose work runs under
// DB's ReadOrdered — a missing or empty DB is
// answered with the db_not_initialized result and fn does not run. fn gets
// the live DB and the checked arguments; it must not change the DB. What
// it returns may hold the DB's own records (see Found): the result is
// their copy in the DB's key order (state.Order.Copy), so it reads as the
// Python original's does.
func NewReadTool[P any](domain, name string, fn func(db map[string]any, p P) (any, error), opts *tool.Options) (*tool.Typed[P], error) {
	db := DB(tool.Recorder{})
	return New(domain, name,
		func(_ context.Context, st *state.Shared, p P) (any, error) {
			return db.ReadOrdered(st, func(d map[string]any, o *state.Order) (any, error) {
				res, err := fn(d, p)
				return o.Copy(res), err
			})
		}, opts)
}

// NewWriteTool builds a tau2 write tool: a typed tool built by New (lax
// mode, the original's texts for name in domain), whose work runs under DB's Write with the tables it may change
// (see tool.DB.Write for what that promises) and whose action, when fn
// returns one, is recorded with rec. fn must check everything before it
// changes anything: a refusal — a failure result or a Go error — leaves
// the DB as it was. What fn returns may hold the DB's own records: the
// result is their copy in the DB's key order, as NewReadTool's.
func NewWriteTool[P any](domain, name string, rec tool.Recorder, tables []string, fn func(db map[string]any, p P) (any, state.Action, error), opts *tool.Options) (*tool.Typed[P], error) {
	db := DB(rec)
	return New(domain, name,
		func(ctx context.Context, st *state.Shared, p P) (any, error) {
			return db.Write(ctx, st, tables, func(d map[string]any) (any, state.Action, error) {
				res, action, err := fn(d, p)
				return state.OrderOf(d).Copy(res), action, err
			})
		}, opts)
}

// NewRecordWriteTool builds a tau2 write tool that changes single records
// (tool.DB.WriteRecords, through a state.Writer): a typed tool built by
// New (lax mode, the original's texts for name in domain), whose work fn runs with the checked arguments and whose
// action, when fn returns one, is recorded with rec. The Writer's Order
// notes the key order of what fn adds (state.Order.Keep, Set, Clone), as
// the Python tool's dict literals and assignments give it; what fn
// returns may hold the DB's own records, and the result is their copy in
// the DB's key order, as NewReadTool's.
func NewRecordWriteTool[P any](domain, name string, rec tool.Recorder, tables []string, fn func(w *state.Writer, p P) (any, state.Action, error), opts *tool.Options) (*tool.Typed[P], error) {
	db := DB(rec)
	return New(domain, name,
		func(ctx context.Context, st *state.Shared, p P) (any, error) {
			return db.WriteRecords(ctx, st, tables, func(w *state.Writer) (any, state.Action, error) {
				res, action, err := fn(w, p)
				return w.Order().Copy(res), action, err
			})
		}, opts)
}

// Found is how a tau2 read tool answers a lookup: the record v itself —
// NewReadTool returns its copy, in the DB's key order — or, when v is nil
// (no such record, or a null one), the not_found result carrying message.
// A lookup error is passed on.
func Found(v any, err error, message string) (any, error) {
	if err != nil {
		return nil, err
	}
	if v == nil {
		return NotFound(message), nil
	}
	return v, nil
}
