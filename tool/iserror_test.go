package tool_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/tool"
)

// domainError is a domain's own error struct, as a port might declare.
type domainError struct {
	Status  string `json:"status"`
	Code    string `json:"error_type"`
	Message string `json:"message"`
}

// crash is a struct whose JSON form is the crash envelope.
type crash struct {
	Err string `json:"error"`
}

// IsError is the Python original's rule: "status": "error", or exactly
// {"error": …} (the crash envelope).
func TestIsError(t *testing.T) {
	tests := []struct {
		name string
		v    any
		want bool
	}{
		{"failure", tool.Failure("not_found", "Order 1 not found"), true},
		{"failure pointer", &tool.FailureResult{Status: "error"}, true},
		{"validation", tool.ValidationResult{Status: "error", ErrorType: "validation_error"}, true},
		{"validation pointer", &tool.ValidationResult{Status: "error"}, true},
		{"status error map", map[string]any{"status": "error", "error_type": "tool_error", "message": "x"}, true},
		{"crash envelope map", map[string]any{"error": "kaboom"}, true},
		{"crash envelope map of strings", map[string]string{"error": "kaboom"}, true},
		{"domain struct", domainError{Status: "error", Code: "value_error"}, true},
		{"domain struct pointer", &domainError{Status: "error"}, true},
		{"crash struct", crash{Err: "kaboom"}, true},
		{"domain success struct", domainError{Status: "success"}, false},
		{"success map", map[string]any{"status": "success", "results": []any{}}, false},
		{"error key beside others", map[string]any{"error": "none", "order_id": "1"}, false},
		{"status not a string", map[string]any{"status": 1}, false},
		{"empty map", map[string]any{}, false},
		{"nil", nil, false},
		{"nil pointer", (*domainError)(nil), false},
		{"telecom error text", "Error. App 'x' not found.", false},
		{"list", []any{map[string]any{"status": "error"}}, false},
		{"number", 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, tool.IsError(tt.v))
		})
	}
}

// Every error result the live path delivers is an error by IsError: a Go
// error, a panic, an unknown tool, malformed arguments, failed checks.
func TestIsErrorOnDeliveredResults(t *testing.T) {
	set, err := tool.NewSet(
		returning(nil, errors.New("kaboom")),
		&fakeTool{name: "panics", exec: func(context.Context, map[string]any) (any, error) { panic("bug") }},
		mustOrderTool(t, nil),
	)
	require.NoError(t, err)
	for _, c := range []struct{ name, raw string }{
		{"fake", `{}`}, {"panics", `{}`}, {"missing", `{}`}, {"order", `{"customer":`}, {"order", `{}`},
	} {
		var d delivery
		require.NoError(t, set.CallJSON(context.Background(), c.name, []byte(c.raw), d.deliver, &tool.CallOptions{Logger: quiet}))
		require.Len(t, d.got, 1)
		assert.True(t, tool.IsError(d.got[0]), "%s %s: %s", c.name, c.raw, jsonOf(t, d.got[0]))
	}
	var d delivery
	require.NoError(t, tool.Call(context.Background(), returning([]any{}, nil), nil, d.deliver, nil))
	assert.False(t, tool.IsError(d.got[0]), "an empty result's envelope is a success")
}

// orderedDict is a result type with its own MarshalJSON and no exported
// fields, as NeMo's ordered dicts (domains/nemo) are.
type orderedDict struct {
	keys []string
	vals map[string]any
}

func dictOf(kv ...any) *orderedDict {
	d := &orderedDict{vals: map[string]any{}}
	for i := 0; i+1 < len(kv); i += 2 {
		d.keys = append(d.keys, kv[i].(string))
		d.vals[kv[i].(string)] = kv[i+1]
	}
	return d
}

func (d *orderedDict) MarshalJSON() ([]byte, error) {
	b := []byte{'{'}
	for i, k := range d.keys {
		if i > 0 {
			b = append(b, ',')
		}
		kb, _ := json.Marshal(k)
		vb, err := json.Marshal(d.vals[k])
		if err != nil {
			return nil, err
		}
		b = append(append(append(b, kb...), ':'), vb...)
	}
	return append(b, '}'), nil
}

// failingJSON cannot marshal; panickyJSON panics doing so.
type failingJSON struct{}

func (failingJSON) MarshalJSON() ([]byte, error) { return nil, errors.New("no JSON today") }

type panickyJSON struct{}

func (panickyJSON) MarshalJSON() ([]byte, error) { panic("boom") }

// A result with its own MarshalJSON is read through its JSON form: what
// the model sees is what counts.
func TestIsErrorReadsJSONMarshalers(t *testing.T) {
	tests := []struct {
		name string
		v    any
		want bool
	}{
		{"status error", dictOf("status", "error", "error_type", "not_found", "message", "x"), true},
		{"crash envelope", dictOf("error", "kaboom"), true},
		{"success", dictOf("status", "success", "result", 1), false},
		{"error beside others", dictOf("error", "none", "order_id", "1"), false},
		{"status not a string", dictOf("status", 1), false},
		{"empty", dictOf(), false},
		{"nil pointer", (*orderedDict)(nil), false},
		{"a raw message", json.RawMessage(`{"status": "error"}`), true},
		{"a raw list", json.RawMessage(`[{"status": "error"}]`), false},
		{"marshal fails", failingJSON{}, false},
		{"marshal panics", panickyJSON{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, tool.IsError(tt.v))
		})
	}
}
