package rtvi_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/voiceeval/schematools/rtvi"
)

// A handler's error-response names its kind once: an [rtvi.Error] wrapped
// in context reads "<Kind>: <context>: <Message>", as Python prints
// KeyError("lookup: 'x'"). Failed before with the kind written twice
// ("KeyError: lookup: KeyError: 'x'").
func TestHandlerErrorNamesItsKindOnce(t *testing.T) {
	keyErr := &rtvi.Error{Kind: "KeyError", Message: "'x'"}
	for _, tt := range []struct {
		name string
		err  error
		want string
	}{
		{"an Error", keyErr, "KeyError: 'x'"},
		{"wrapped once", fmt.Errorf("lookup: %w", keyErr), "KeyError: lookup: 'x'"},
		{"wrapped twice", fmt.Errorf("tool: %w", fmt.Errorf("lookup: %w", keyErr)), "KeyError: tool: lookup: 'x'"},
		{"context after it", fmt.Errorf("%w (while loading)", keyErr), "KeyError: 'x' (while loading)"},
		{"joined", errors.Join(errors.New("first"), keyErr), "KeyError: first\n'x'"},
		{"a wrapper that hides its text", opaque{keyErr}, "KeyError: opaque failure"},
		{"an Error wrapping another", &rtvi.Error{Kind: "ValueError", Message: "bad: KeyError: 'x'", Err: keyErr}, "ValueError: bad: KeyError: 'x'"},
		{"no kind", errors.New("boom"), "RuntimeError: boom"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b := newBot(t)
			b.d.Register("lookup", func(context.Context, json.RawMessage) (any, error) { return nil, tt.err })
			m := b.request(t, "lookup", nil)
			assert.Equal(t, "error-response", m["type"])
			assert.Equal(t, tt.want, m["data"].(map[string]any)["error"])
		})
	}
}

// opaque wraps an error without repeating its text.
type opaque struct{ err error }

func (o opaque) Error() string { return "opaque failure" }
func (o opaque) Unwrap() error { return o.err }
