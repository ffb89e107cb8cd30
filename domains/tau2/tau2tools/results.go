package tau2tools

import "github.com/voiceeval/schematools/tool"

// Error types of the structured results the tau2 airline and retail tools
// return as values.
const (
	ErrorNotFound         = "not_found"
	ErrorValue            = "value_error"
	ErrorDBNotInitialized = "db_not_initialized"
)

// MessageDBNotLoaded is the message of the db_not_initialized result.
const MessageDBNotLoaded = "Scenario database not loaded. This indicates a fixture-loading bug."

// NotFound returns {"status": "error", "error_type": "not_found",
// "message": message}.
func NotFound(message string) tool.FailureResult {
	return tool.Failure(ErrorNotFound, message)
}

// ValueError returns {"status": "error", "error_type": "value_error",
// "message": message}.
func ValueError(message string) tool.FailureResult {
	return tool.Failure(ErrorValue, message)
}

// DBNotInitialized returns the result of a tool called before its
// scenario's DB was loaded: {"status": "error", "error_type":
// "db_not_initialized", "message": MessageDBNotLoaded}.
func DBNotInitialized() tool.FailureResult {
	return tool.Failure(ErrorDBNotInitialized, MessageDBNotLoaded)
}

// Loaded reports whether db counts as loaded: like the Python original's
// "if not db", an empty DB counts as not loaded, not only a missing one.
func Loaded(db map[string]any) bool { return len(db) > 0 }

// Success is the {"status": "success", …} envelope's status value.
const Success = "success"

// StatusResult is a plain status result: {"status": "success", "message":
// "..."}.
type StatusResult struct {
	Status  string `json:"status"`
	Message string `json:"message"`
}
