package tool

import (
	"encoding/json"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/voiceeval/schematools/internal/clip"
	"github.com/voiceeval/schematools/internal/pyvalue"
)

// Result values. Each is a struct so that its JSON keys come out in the
// same order as the Python original's dicts.

const (
	// messages of the empty-result envelopes
	messageNoRecords = "No matching records found."
	messageNoData    = "Completed with no data returned."
	// values of the "status" key
	statusSuccess = "success"
	statusError   = "error"
	// error types of this package's structured results
	errorTypeValidation  = "validation_error"
	errorTypeUnknownTool = "unknown_tool"
	// the message of a ValidationResult
	messageValidation = "Tool arguments failed validation."
)

// errorResult is what [Call] delivers when Execute returns a Go error or
// panics: {"error": message}, a single key, as in the Python original; the
// message is shortened by clip.String.
type errorResult struct {
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
// "error_type": errorType, "message": message}; a message longer than
// clip.Max bytes is shortened by clip.String.
func Failure(errorType, message string) FailureResult {
	return FailureResult{Status: statusError, ErrorType: errorType, Message: clip.String(message)}
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
// ErrorType can be set per tool with [Options].ErrorType; [IsError] reports it
// as an error. Each issue's field and error are shortened by clip.String, and
// at most 100 issues are listed: past that, the first 100 and one more,
// {"field": "", "error": "N more issues not shown", "type":
// "too_many_issues"}, so that many small unknown keys cannot make a result
// several times the size of the arguments.
type ValidationResult struct {
	Status    string  `json:"status"`
	ErrorType string  `json:"error_type"`
	Message   string  `json:"message"`
	Details   []Issue `json:"details"`
}

// maxIssues is the most issues a ValidationResult lists; issueTooMany is
// the type of the one that counts the rest.
const (
	maxIssues    = 100
	issueTooMany = "too_many_issues"
)

func newValidationResult(errorType string, issues []Issue) *ValidationResult {
	if errorType == "" {
		errorType = errorTypeValidation
	}
	if issues == nil {
		issues = []Issue{}
	}
	if len(issues) > maxIssues {
		more := len(issues) - maxIssues
		issues = append(issues[:maxIssues:maxIssues], Issue{Error: strconv.Itoa(more) + " more issues not shown", Type: issueTooMany})
	}
	for i := range issues {
		issues[i].Field, issues[i].Error = clip.String(issues[i].Field), clip.String(issues[i].Error)
	}
	return &ValidationResult{Status: statusError, ErrorType: errorType, Message: messageValidation, Details: issues}
}

// unknownToolResult is delivered when the model calls a tool that does not
// exist. Its message names the tool, shortened by clip.String.
type unknownToolResult struct {
	Status         string   `json:"status"`
	ErrorType      string   `json:"error_type"`
	Message        string   `json:"message"`
	AvailableTools []string `json:"available_tools"`
}

// unknownTool returns the result for a call to the missing tool name, with
// a sorted copy of the available tool names.
func unknownTool(name string, available []string) unknownToolResult {
	names := slices.Clone(available)
	if names == nil {
		names = []string{}
	}
	slices.Sort(names)
	return unknownToolResult{
		Status:         statusError,
		ErrorType:      errorTypeUnknownTool,
		Message:        "There is no tool named '" + clip.String(name) + "'. Use one of the available tools instead.",
		AvailableTools: names,
	}
}

// emptyListResult replaces an empty list result on the live path:
// {"status": "success", "results": [], "count": 0, "message": "No matching
// records found."}.
type emptyListResult struct {
	Status  string `json:"status"`
	Results []any  `json:"results"`
	Count   int    `json:"count"`
	Message string `json:"message"`
}

// emptyObjectResult replaces an empty object result on the live path:
// {"status": "success", "results": {}, "message": "No matching records
// found."}.
type emptyObjectResult struct {
	Status  string         `json:"status"`
	Results map[string]any `json:"results"`
	Message string         `json:"message"`
}

// noDataResult replaces any other empty result (nil, "", 0, false) on the
// live path, keeping the value: {"status": "success", "result": value,
// "message": "Completed with no data returned."}.
type noDataResult struct {
	Status  string `json:"status"`
	Result  any    `json:"result"`
	Message string `json:"message"`
}

// normalizeEmpty returns v unchanged when it is non-empty, and otherwise the
// envelope that keeps an empty result from reading as success to a model
// (pipecat turns any falsy result into "COMPLETED"):
//
//   - an empty slice or array, including a nil slice: emptyListResult;
//   - an empty map, including a nil map: emptyObjectResult;
//   - nil, a nil pointer, "", false, or a numeric zero (including -0.0
//     and a json.Number that is zero, as Python's bool() reads them):
//     noDataResult carrying the value (nil for a nil pointer).
//
// Structs and non-nil pointers are non-empty. [Call] applies normalizeEmpty;
// replay paths must not, because they need the raw shape.
func normalizeEmpty(v any) any {
	if v == nil {
		return noDataResult{Status: statusSuccess, Result: nil, Message: messageNoData}
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
		return emptyListResult{Status: statusSuccess, Results: []any{}, Count: 0, Message: messageNoRecords}
	case map[string]any:
		if len(x) > 0 {
			return v
		}
		return emptyObjectResult{Status: statusSuccess, Results: map[string]any{}, Message: messageNoRecords}
	case pyvalue.Dict: // an ordered dict (state.Order.Copy): a dict, not a list
		if len(x) > 0 {
			return v
		}
		return emptyObjectResult{Status: statusSuccess, Results: map[string]any{}, Message: messageNoRecords}
	default:
		rv := reflect.ValueOf(v)
		switch rv.Kind() {
		case reflect.Slice, reflect.Array:
			if rv.Len() > 0 {
				return v
			}
			return emptyListResult{Status: statusSuccess, Results: []any{}, Count: 0, Message: messageNoRecords}
		case reflect.Map:
			if rv.Len() > 0 {
				return v
			}
			return emptyObjectResult{Status: statusSuccess, Results: map[string]any{}, Message: messageNoRecords}
		case reflect.Pointer, reflect.Interface, reflect.Func, reflect.Chan:
			if !rv.IsNil() {
				return v
			}
			return noDataResult{Status: statusSuccess, Result: nil, Message: messageNoData}
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
	return noDataResult{Status: statusSuccess, Result: v, Message: messageNoData}
}

// IsError reports whether result — what Execute returned, or what [Call]
// delivered — is an error result for the model, by the Python original's
// rule: its JSON object form has "status": "error" ([FailureResult],
// [ValidationResult], the unknown-tool result, a domain's own struct or
// map), or is exactly {"error": …}, the crash envelope [Call] delivers for
// a Go error or a panic. Anything else is not: a success, nil, a bare
// string (even telecom's "Error. …" texts, which Python does not count
// either), an object with an "error" key beside others. A result with its
// own MarshalJSON ([encoding/json.Marshaler]) is judged by the JSON it
// marshals to, the form the model reads.
func IsError(result any) bool {
	switch r := result.(type) {
	case nil:
		return false
	case FailureResult:
		return r.Status == statusError
	case ValidationResult:
		return r.Status == statusError
	case errorResult, unknownToolResult:
		return true
	case map[string]any:
		if s, ok := r["status"].(string); ok && s == statusError {
			return true
		}
		_, ok := r["error"]
		return ok && len(r) == 1
	case pyvalue.Dict: // an ordered dict (state.Order.Copy)
		if s, ok := r.Get("status"); ok && s == statusError {
			return true
		}
		_, ok := r.Get("error")
		return ok && r.Len() == 1
	case json.Marshaler:
		return marshalerIsError(r)
	}
	return reflectIsError(reflect.ValueOf(result))
}

// marshalerIsError applies the rule of [IsError] to the JSON form of a
// result with its own MarshalJSON (NeMo's ordered dicts, a
// json.RawMessage), which is what the model reads; its Go fields may say
// nothing. A result that does not marshal (an error, a panic) or whose
// JSON is not an object is not an error result.
func marshalerIsError(m json.Marshaler) (isErr bool) {
	defer func() {
		if recover() != nil {
			isErr = false
		}
	}()
	b, err := json.Marshal(m) // a nil pointer is "null", never a call on it
	if err != nil {
		return false
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(b, &obj) != nil || obj == nil {
		return false
	}
	var status string
	if raw, ok := obj["status"]; ok && json.Unmarshal(raw, &status) == nil && status == statusError {
		return true
	}
	_, ok := obj["error"]
	return ok && len(obj) == 1
}

// reflectIsError applies the rule of [IsError] to other structs and maps.
func reflectIsError(v reflect.Value) bool {
	for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		if v.IsNil() {
			return false
		}
		v = v.Elem()
	}
	switch v.Kind() {
	case reflect.Map:
		if v.Type().Key().Kind() != reflect.String {
			return false
		}
		if s := v.MapIndex(reflect.ValueOf("status").Convert(v.Type().Key())); s.IsValid() && isErrorString(s) {
			return true
		}
		return v.Len() == 1 && v.MapIndex(reflect.ValueOf("error").Convert(v.Type().Key())).IsValid()
	case reflect.Struct:
		f := resultFieldsOf(v.Type())
		if f.status != nil {
			if s, err := v.FieldByIndexErr(f.status); err == nil && isErrorString(s) {
				return true
			}
		}
		return f.errorOnly
	}
	return false
}

func isErrorString(v reflect.Value) bool {
	for v.Kind() == reflect.Interface && !v.IsNil() {
		v = v.Elem()
	}
	return v.Kind() == reflect.String && v.String() == statusError
}

// resultFields is what IsError needs of a struct type: the index of its
// "status" JSON field, and whether {"error"} is its only JSON field.
type resultFields struct {
	status    []int
	errorOnly bool
}

var resultFieldsCache sync.Map // reflect.Type -> resultFields

func resultFieldsOf(t reflect.Type) resultFields {
	if f, ok := resultFieldsCache.Load(t); ok {
		return f.(resultFields)
	}
	var f resultFields
	names := 0
	hasError := false
	for _, sf := range reflect.VisibleFields(t) {
		if !sf.IsExported() || sf.Anonymous && sf.Type.Kind() == reflect.Struct {
			continue
		}
		name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
		switch name {
		case "-":
			continue
		case "":
			name = sf.Name
		}
		names++
		switch name {
		case "status":
			f.status = sf.Index
		case "error":
			hasError = true
		}
	}
	f.errorOnly = hasError && names == 1
	resultFieldsCache.Store(t, f)
	return f
}
