package telecom

import (
	"fmt"

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

// The two sides' tools differ in their db_not_initialized message and the
// action types they record.
var (
	agentSide = tool.DB{NotLoaded: tool.Failure(ErrorTypeDBNotInitialized, messageAgentDBNotLoaded), Recorder: tool.Recorder{ActionTypes: AgentActionTypes()}}
	userSide  = tool.DB{NotLoaded: tool.Failure(ErrorTypeDBNotInitialized, messageUserDBNotLoaded), Recorder: tool.Recorder{ActionTypes: UserActionTypes()}}
)
