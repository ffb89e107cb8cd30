package tool_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/voiceeval/schematools/tool"
)

// What a cancelled context does on the live path: Call and CallJSON do not
// look at it themselves, so a tool that completes delivers its result (a
// committed write is reported); only a tool that returns the context's
// error while the context is done delivers nothing.
func TestCallWithCancelledContext(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	booked := map[string]any{"booked": true}
	for name, tt := range map[string]struct {
		ctx       context.Context
		exec      func(ctx context.Context, cancel context.CancelFunc) (any, error)
		delivered []any
		err       error
	}{
		"already cancelled, the tool completes": {cancelled, func(context.Context, context.CancelFunc) (any, error) {
			return booked, nil
		}, []any{booked}, nil},
		"cancelled during the call, the tool completes": {nil, func(_ context.Context, cancel context.CancelFunc) (any, error) {
			cancel()
			return booked, nil
		}, []any{booked}, nil},
		"the tool returns the context's error": {nil, func(ctx context.Context, cancel context.CancelFunc) (any, error) {
			cancel()
			return nil, fmt.Errorf("booking: %w", ctx.Err())
		}, nil, context.Canceled},
		"a tool's own other error after cancel is delivered": {nil, func(_ context.Context, cancel context.CancelFunc) (any, error) {
			cancel()
			return nil, errors.New("no seats")
		}, []any{map[string]any{"error": "no seats"}}, nil},
	} {
		t.Run(name, func(t *testing.T) {
			for _, viaJSON := range []bool{false, true} {
				ctx, cancel := tt.ctx, context.CancelFunc(func() {})
				if ctx == nil {
					ctx, cancel = context.WithCancel(context.Background())
				}
				ft := &fakeTool{name: "book", exec: func(ctx context.Context, _ map[string]any) (any, error) { return tt.exec(ctx, cancel) }}
				var d delivery
				var err error
				if viaJSON {
					err = tool.CallJSON(ctx, ft, []byte(`{"value": "v"}`), d.deliver, &tool.CallOptions{Logger: quiet})
				} else {
					err = tool.Call(ctx, ft, map[string]any{"value": "v"}, d.deliver, &tool.CallOptions{Logger: quiet})
				}
				if tt.err != nil {
					assert.ErrorIs(t, err, tt.err, "json=%v", viaJSON)
				} else {
					assert.NoError(t, err, "json=%v", viaJSON)
				}
				assert.Equal(t, len(tt.delivered), len(d.got), "json=%v: one delivery or none", viaJSON)
				if len(tt.delivered) == 1 && len(d.got) == 1 {
					assert.JSONEq(t, jsonOf(t, tt.delivered[0]), jsonOf(t, d.got[0]), "json=%v", viaJSON)
				}
			}
		})
	}
}
