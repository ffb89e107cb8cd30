package tool_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/state"
)

// delivery collects what a deliver callback receives.
type delivery struct {
	mu     sync.Mutex
	got    []any
	events *[]string
}

func (d *delivery) deliver(v any) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.got = append(d.got, v)
	if d.events != nil {
		*d.events = append(*d.events, "deliver")
	}
	return nil
}

// recorder is a notifier that keeps every message.
type recorder struct {
	mu   sync.Mutex
	msgs []any
}

func (r *recorder) Notify(_ context.Context, m any) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.msgs = append(r.msgs, m)
	return nil
}

func (r *recorder) messages() []any {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]any{}, r.msgs...)
}

// jsonOf marshals v for byte-level comparisons with the Python original.
func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

// captureLogs returns a logger writing JSON lines to the returned buffer.
func captureLogs() (*slog.Logger, *bytes.Buffer) {
	var buf bytes.Buffer
	return slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug})), &buf
}

// quiet is a logger that drops everything, for tests that provoke errors.
var quiet = slog.New(slog.DiscardHandler)

// newNotifiedState returns a state wired to a fresh recorder.
func newNotifiedState() (*state.Shared, *recorder) {
	st := state.New()
	r := &recorder{}
	st.StartScenario("", r)
	return st, r
}

// notifyFunc adapts a function to state.Notifier.
type notifyFunc func(ctx context.Context, msg any) error

func (f notifyFunc) Notify(ctx context.Context, msg any) error { return f(ctx, msg) }
