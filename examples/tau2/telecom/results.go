package telecom

import (
	"context"
	"fmt"

	"github.com/voiceeval/schematools/examples/tau2/tau2tools"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

// Error types of the structured error results the telecom tools return as
// values: {"status": "error", "error_type": …, "message": …}.
const (
	// ErrorTypeInvalidArguments: the arguments failed validation; the
	// message is pydantic's text.
	ErrorTypeInvalidArguments = "invalid_arguments"
	// ErrorTypeToolError: an agent-side tool refused the request (the
	// Python tool raised ValueError), e.g. "Line must be active to suspend".
	ErrorTypeToolError = "tool_error"
	// ErrorTypeDBNotInitialized: the tool's DB is missing or empty.
	ErrorTypeDBNotInitialized = "db_not_initialized"
)

// Messages of the db_not_initialized results of the two sides.
const (
	messageAgentDBNotLoaded = "Scenario agent-side database not loaded. This indicates a fixture-loading bug."
	messageUserDBNotLoaded  = "Scenario user-side database not loaded. This indicates a fixture-loading bug."
)

// toolError is the result of an agent-side tool that refuses a request.
func toolError(format string, args ...any) tool.FailureResult {
	return tool.Failure(ErrorTypeToolError, fmt.Sprintf(format, args...))
}

// side is what differs between the tools of the two sides: the
// db_not_initialized message and the action types they record.
type side struct {
	notLoaded tool.FailureResult
	rec       tool.Recorder
}

var (
	agentSide = side{tool.Failure(ErrorTypeDBNotInitialized, messageAgentDBNotLoaded), tool.Recorder{ActionTypes: AgentActionTypes()}}
	userSide  = side{tool.Failure(ErrorTypeDBNotInitialized, messageUserDBNotLoaded), tool.Recorder{ActionTypes: UserActionTypes()}}
)

// read runs fn on the state's DB under its read lock. A missing or empty
// DB (Python's "if not db") is answered with db_not_initialized and fn does
// not run. fn must not change the DB, and what it returns from the DB must
// be a copy.
func (s side) read(st *state.Shared, fn func(db map[string]any) (any, error)) (any, error) {
	var res any
	err := st.View(func(db map[string]any) error {
		if len(db) == 0 {
			res = s.notLoaded
			return nil
		}
		var err error
		res, err = fn(db)
		return err
	})
	return res, err
}

// writeRows is write for work that changes single rows of the named list
// tables through a tau2tools.Writer (OwnRow, Append): the state copies no
// table, the Writer just the rows changed, so a table a gold replay shares
// stays shared but for those rows.
func (s side) writeRows(ctx context.Context, st *state.Shared, tables []string, fn func(w *tau2tools.Writer) (any, state.Action, error)) (any, error) {
	return s.write(ctx, st, []string{}, func(db map[string]any) (any, state.Action, error) {
		return fn(tau2tools.NewWriter(db, tables...))
	})
}

// write runs fn on the state's DB under its write lock, copying first —
// when the DB is shared copy-on-write — the top-level tables fn may change
// (state.Shared.UpdateTables). A missing or empty DB is answered with
// db_not_initialized. fn checks everything before it changes anything, so
// a refusal leaves the DB as it was; the action it returns, if any, is
// recorded once the lock is released, before the result is delivered.
func (s side) write(ctx context.Context, st *state.Shared, tables []string, fn func(db map[string]any) (any, state.Action, error)) (any, error) {
	var res any
	var action state.Action
	err := st.UpdateTables(tables, func(db map[string]any) error {
		if len(db) == 0 {
			res = s.notLoaded
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
		s.rec.Record(ctx, st, action)
	}
	return res, nil
}
