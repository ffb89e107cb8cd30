package tool

import (
	"encoding/json"
	"reflect"
	"slices"

	"github.com/voiceeval/schematools/internal/pyvalue"
)

// Result values. Each is a struct so that its JSON keys come out in the
// same order as the Python original's dicts.

// Messages of the empty-result envelopes.
const (
	MessageNoRecords = "No matching records found."
	MessageNoData    = "Completed with no data returned."
)

// StatusSuccess and StatusError are the values of the "status" key.
const (
	StatusSuccess = "success"
	StatusError   = "error"
)

// Error types used by this package's structured results.
const (
	ErrorTypeValidation  = "validation_error"
	ErrorTypeUnknownTool = "unknown_tool"
)

// MessageValidation is the message of a [ValidationResult].
const MessageValidation = "Tool arguments failed validation."

// ErrorResult is what [Call] delivers when Execute returns a Go error or
// panics: {"error": message}, a single key, as in the Python original.
type ErrorResult struct {
	Error string `json:"error"`
}

// FailureResult is a structured domain error returned as a value:
// {"status": "error", "error_type", "message"}.
type FailureResult struct {
	Status    string `json:"status"`
	ErrorType string `json:"error_type"`
	Message   string `json:"message"`
}

// Failure returns the structured error result {"status": "error",
// "error_type": errorType, "message": message}.
func Failure(errorType, message string) FailureResult {
	return FailureResult{Status: StatusError, ErrorType: errorType, Message: message}
}

// Issue is one reason arguments failed validation. Field is the JSON path
// of the argument ("items.0.quantity"); Type is a short code ("missing",
// "extra_forbidden", "string_type", or the validator rule such as "min").
type Issue struct {
	Field string `json:"field"`
	Error string `json:"error"`
	Type  string `json:"type"`
}

// ValidationResult is what a typed tool returns when its arguments fail
// validation: {"status": "error", "error_type": "validation_error",
// "message": "Tool arguments failed validation.", "details": [...]}.
// ErrorType can be set per tool with [WithErrorType].
type ValidationResult struct {
	Status    string  `json:"status"`
	ErrorType string  `json:"error_type"`
	Message   string  `json:"message"`
	Details   []Issue `json:"details"`
}

func newValidationResult(errorType string, issues []Issue) *ValidationResult {
	if errorType == "" {
		errorType = ErrorTypeValidation
	}
	if issues == nil {
		issues = []Issue{}
	}
	return &ValidationResult{Status: StatusError, ErrorType: errorType, Message: MessageValidation, Details: issues}
}

// UnknownToolResult is delivered when the model calls a tool that does not
// exist.
type UnknownToolResult struct {
	Status         string   `json:"status"`
	ErrorType      string   `json:"error_type"`
	Message        string   `json:"message"`
	AvailableTools []string `json:"available_tools"`
}

// UnknownTool returns the result for a call to the missing tool name, with
// a sorted copy of the available tool names.
func UnknownTool(name string, available []string) UnknownToolResult {
	names := slices.Clone(available)
	if names == nil {
		names = []string{}
	}
	slices.Sort(names)
	return UnknownToolResult{
		Status:         StatusError,
		ErrorType:      ErrorTypeUnknownTool,
		Message:        "There is no tool named '" + name + "'. Use one of the available tools instead.",
		AvailableTools: names,
	}
}

// EmptyListResult replaces an empty list result on the live path:
// {"status": "success", "results": [], "count": 0, "message": "No matching
// records found."}.
type EmptyListResult struct {
	Status  string `json:"status"`
	Results []any  `json:"results"`
	Count   int    `json:"count"`
	Message string `json:"message"`
}

// EmptyObjectResult replaces an empty object result on the live path:
// {"status": "success", "results": {}, "message": "No matching records
// found."}.
type EmptyObjectResult struct {
	Status  string         `json:"status"`
	Results map[string]any `json:"results"`
	Message string         `json:"message"`
}

// NoDataResult replaces any other empty result (nil, "", 0, false) on the
// live path, keeping the value: {"status": "success", "result": value,
// "message": "Completed with no data returned."}.
type NoDataResult struct {
	Status  string `json:"status"`
	Result  any    `json:"result"`
	Message string `json:"message"`
}

// NormalizeEmpty returns v unchanged when it is non-empty, and otherwise the
// envelope that keeps an empty result from reading as success to a model
// (pipecat turns any falsy result into "COMPLETED"):
//
//   - an empty slice or array, including a nil slice: [EmptyListResult];
//   - an empty map, including a nil map: [EmptyObjectResult];
//   - nil, a nil pointer, "", false, or a numeric zero (including -0.0
//     and a json.Number that is zero, as Python's bool() reads them):
//     [NoDataResult] carrying the value (nil for a nil pointer).
//
// Structs and non-nil pointers are non-empty. [Call] applies NormalizeEmpty;
// replay paths must not, because they need the raw shape.
func NormalizeEmpty(v any) any {
	if v == nil {
		return NoDataResult{Status: StatusSuccess, Result: nil, Message: MessageNoData}
	}
	switch x := v.(type) {
	case string, bool, json.Number, float64, float32, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
		if pyvalue.Truthy(x) {
			return v
		}
	case []any:
		if len(x) > 0 {
			return v
		}
		return EmptyListResult{Status: StatusSuccess, Results: []any{}, Count: 0, Message: MessageNoRecords}
	case map[string]any:
		if len(x) > 0 {
			return v
		}
		return EmptyObjectResult{Status: StatusSuccess, Results: map[string]any{}, Message: MessageNoRecords}
	default:
		rv := reflect.ValueOf(v)
		switch rv.Kind() {
		case reflect.Slice, reflect.Array:
			if rv.Len() > 0 {
				return v
			}
			return EmptyListResult{Status: StatusSuccess, Results: []any{}, Count: 0, Message: MessageNoRecords}
		case reflect.Map:
			if rv.Len() > 0 {
				return v
			}
			return EmptyObjectResult{Status: StatusSuccess, Results: map[string]any{}, Message: MessageNoRecords}
		case reflect.Pointer, reflect.Interface, reflect.Func, reflect.Chan:
			if !rv.IsNil() {
				return v
			}
			return NoDataResult{Status: StatusSuccess, Result: nil, Message: MessageNoData}
		case reflect.String, reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
			reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128:
			if !rv.IsZero() {
				return v
			}
		default:
			return v
		}
	}
	return NoDataResult{Status: StatusSuccess, Result: v, Message: MessageNoData}
}
