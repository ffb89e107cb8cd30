package tool_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

// fakeTool is a hand-written Tool whose Execute and hook are functions.
type fakeTool struct {
	name  string
	exec  func(ctx context.Context, args map[string]any) (any, error)
	after func(ctx context.Context, args map[string]any, result any) error
}

func (f *fakeTool) Name() string        { return f.name }
func (f *fakeTool) Description() string { return "A fake tool." }
func (f *fakeTool) Properties() map[string]any {
	return map[string]any{"value": map[string]any{"type": "string"}}
}
func (f *fakeTool) Required() []string { return []string{"value"} }
func (f *fakeTool) Execute(ctx context.Context, args map[string]any) (any, error) {
	return f.exec(ctx, args)
}
func (f *fakeTool) AfterResult(ctx context.Context, args map[string]any, result any) error {
	if f.after == nil {
		return nil
	}
	return f.after(ctx, args, result)
}

func returning(v any, err error) *fakeTool {
	return &fakeTool{name: "fake", exec: func(context.Context, map[string]any) (any, error) { return v, err }}
}

// Checklist 1, 85: a result is delivered exactly once, unchanged.
func TestCallDeliversExactlyOnce(t *testing.T) {
	ft := &fakeTool{name: "echo", exec: func(_ context.Context, args map[string]any) (any, error) {
		return map[string]any{"ok": true, "got": args}, nil
	}}
	var d delivery
	require.NoError(t, tool.Call(context.Background(), ft, map[string]any{"value": "x"}, d.deliver, nil))
	assert.Equal(t, []any{map[string]any{"ok": true, "got": map[string]any{"value": "x"}}}, d.got)
}

// Checklist 2: arguments arrive as given, and nil arguments as {}.
func TestCallPassesArguments(t *testing.T) {
	var seen []map[string]any
	ft := &fakeTool{name: "args", exec: func(_ context.Context, args map[string]any) (any, error) {
		seen = append(seen, args)
		return "ok", nil
	}}
	var d delivery
	require.NoError(t, tool.Call(context.Background(), ft, map[string]any{"a": 1, "b": "two"}, d.deliver, nil))
	require.NoError(t, tool.Call(context.Background(), ft, nil, d.deliver, nil))
	assert.Equal(t, []map[string]any{{"a": 1, "b": "two"}, {}}, seen)
}

// Checklist 3, 10, 86: an error becomes one {"error": msg}; braces survive
// the logger; the hook does not run.
func TestCallErrorBecomesErrorResult(t *testing.T) {
	for _, msg := range []string{"kaboom", "boom", "Each item must have a `name` key, but the item is: {}."} {
		t.Run(msg, func(t *testing.T) {
			hookRan := false
			ft := returning(nil, errors.New(msg))
			ft.after = func(context.Context, map[string]any, any) error { hookRan = true; return nil }
			logger, logs := captureLogs()
			var d delivery
			require.NoError(t, tool.Call(context.Background(), ft, nil, d.deliver, &tool.CallOptions{Logger: logger}))
			require.Len(t, d.got, 1)
			assert.True(t, tool.IsError(d.got[0]))
			assert.Equal(t, `{"error":`+jsonString(msg)+`}`, jsonOf(t, d.got[0]))
			assert.False(t, hookRan, "the after-result hook must not run after an error")
			assert.Contains(t, logs.String(), "tool call failed")
		})
	}
}

func jsonString(s string) string { return fmt.Sprintf("%q", s) }

// A panic is recovered into the same single error result.
func TestCallRecoversPanics(t *testing.T) {
	ft := &fakeTool{name: "panicky", exec: func(context.Context, map[string]any) (any, error) { panic("nil map write") }}
	var d delivery
	require.NoError(t, tool.Call(context.Background(), ft, nil, d.deliver, &tool.CallOptions{Logger: quiet}))
	require.Len(t, d.got, 1)
	assert.Equal(t, `{"error":"tool panicky panicked: nil map write"}`, jsonOf(t, d.got[0]))
	assert.True(t, tool.IsError(d.got[0]))
}

// Checklist 4-7, 11-13, 87-90: empty results get the exact envelopes.
func TestCallNormalizesEmptyResults(t *testing.T) {
	var nilPtr *struct{}
	tests := []struct {
		name string
		in   any
		want string
	}{
		{"empty list", []any{}, `{"status":"success","results":[],"count":0,"message":"No matching records found."}`},
		{"nil typed slice", []string(nil), `{"status":"success","results":[],"count":0,"message":"No matching records found."}`},
		{"empty object", map[string]any{}, `{"status":"success","results":{},"message":"No matching records found."}`},
		{"nil typed map", map[string]int(nil), `{"status":"success","results":{},"message":"No matching records found."}`},
		{"nil", nil, `{"status":"success","result":null,"message":"Completed with no data returned."}`},
		{"nil pointer", nilPtr, `{"status":"success","result":null,"message":"Completed with no data returned."}`},
		{"empty string", "", `{"status":"success","result":"","message":"Completed with no data returned."}`},
		{"zero", 0, `{"status":"success","result":0,"message":"Completed with no data returned."}`},
		{"zero float", 0.0, `{"status":"success","result":0,"message":"Completed with no data returned."}`},
		{"zero number", jsonNumber("0.0"), `{"status":"success","result":0.0,"message":"Completed with no data returned."}`},
		{"false", false, `{"status":"success","result":false,"message":"Completed with no data returned."}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var d delivery
			require.NoError(t, tool.Call(context.Background(), returning(tt.in, nil), nil, d.deliver, nil))
			require.Len(t, d.got, 1)
			assert.JSONEq(t, tt.want, jsonOf(t, d.got[0]))
			assert.Equal(t, tt.want, jsonOf(t, d.got[0]), "key order matches the Python original")
		})
	}
}

// Checklist 14: non-empty results pass through as the very same value.
func TestNormalizeEmptyPassesNonEmptyThrough(t *testing.T) {
	list := []any{map[string]any{"customer_id": "C1001"}}
	obj := map[string]any{"status": "success", "user_id": "u1"}
	type view struct{ ID string }
	ptr := &view{"x"}
	assert.Same(t, &list[0], &normalized(t, list).([]any)[0])
	got := normalized(t, obj).(map[string]any)
	got["probe"] = 1
	assert.Contains(t, obj, "probe", "the same map is returned, not a copy")
	assert.Equal(t, "Roaming enabled.", normalized(t, "Roaming enabled."))
	assert.Same(t, ptr, normalized(t, ptr))
	assert.Equal(t, view{}, normalized(t, view{}), "structs are never empty")
	assert.Equal(t, 7, normalized(t, 7))
	assert.Equal(t, true, normalized(t, true))
	assert.Equal(t, jsonNumber("1e-3"), normalized(t, jsonNumber("1e-3")))
}

// Python's bool() decides what is empty: -0.0 and a json.Number that
// reads as zero (1e-400 underflows to 0.0) are falsy, NaN is truthy.
func TestNormalizeEmptyFollowsPythonBool(t *testing.T) {
	negZero := math.Copysign(0, -1)
	assert.Equal(t, `{"status":"success","result":-0,"message":"Completed with no data returned."}`, jsonOf(t, normalized(t, negZero)))
	assert.Equal(t, `{"status":"success","result":1e-400,"message":"Completed with no data returned."}`, jsonOf(t, normalized(t, jsonNumber("1e-400"))))
	assert.Equal(t, `{"status":"success","result":-0.0,"message":"Completed with no data returned."}`, jsonOf(t, normalized(t, jsonNumber("-0.0"))))
	assert.True(t, math.IsNaN(normalized(t, math.NaN()).(float64)))
}

// normalized returns what Call delivers for a tool returning v.
func normalized(t *testing.T, v any) any {
	t.Helper()
	var d delivery
	require.NoError(t, tool.Call(context.Background(), returning(v, nil), nil, d.deliver, nil))
	require.Len(t, d.got, 1)
	return d.got[0]
}

// Checklist 8: execute, then deliver, then the hook — with the raw result.
func TestCallHookRunsAfterDelivery(t *testing.T) {
	var events []string
	var hookResult any
	ft := &fakeTool{
		name: "ordered",
		exec: func(context.Context, map[string]any) (any, error) {
			events = append(events, "execute")
			return []any{}, nil
		},
		after: func(_ context.Context, _ map[string]any, res any) error {
			events = append(events, "after_result")
			hookResult = res
			return nil
		},
	}
	d := delivery{events: &events}
	require.NoError(t, tool.Call(context.Background(), ft, nil, d.deliver, nil))
	assert.Equal(t, []string{"execute", "deliver", "after_result"}, events)
	assert.Len(t, d.got, 1)
	assert.Equal(t, []any{}, hookResult, "the hook sees the raw result, not the envelope")
}

func TestCallDeliveryFailureSkipsHook(t *testing.T) {
	hookRan := false
	ft := returning("ok", nil)
	ft.after = func(context.Context, map[string]any, any) error { hookRan = true; return nil }
	sink := errors.New("pipe closed")
	err := tool.Call(context.Background(), ft, nil, func(any) error { return sink }, nil)
	assert.ErrorContains(t, err, "result delivery failed")
	assert.ErrorIs(t, err, sink)
	assert.False(t, hookRan)

	err = tool.Call(context.Background(), returning(nil, errors.New("x")), nil, func(any) error { return sink }, &tool.CallOptions{Logger: quiet})
	assert.ErrorContains(t, err, "result delivery failed")
	assert.ErrorIs(t, err, sink)
}

func TestCallHookFailureIsReportedAfterDelivery(t *testing.T) {
	for name, after := range map[string]func(context.Context, map[string]any, any) error{
		"error": func(context.Context, map[string]any, any) error { return errors.New("push failed") },
		"panic": func(context.Context, map[string]any, any) error { panic("hook bug") },
	} {
		t.Run(name, func(t *testing.T) {
			ft := returning("ok", nil)
			ft.after = after
			var d delivery
			err := tool.Call(context.Background(), ft, nil, d.deliver, &tool.CallOptions{Logger: quiet})
			assert.ErrorContains(t, err, "after-result hook failed")
			assert.Equal(t, []any{"ok"}, d.got, "the result was delivered before the hook failed")
		})
	}
}

// A call whose tool returns its cancelled context's error is not
// delivered, as Python lets a cancelled call go undelivered (a tool that
// completes is delivered: cancel_test.go).
func TestCallCancelledIsNotDelivered(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	ft := &fakeTool{name: "slow", exec: func(ctx context.Context, _ map[string]any) (any, error) {
		cancel()
		return nil, ctx.Err()
	}}
	var d delivery
	err := tool.Call(ctx, ft, nil, d.deliver, nil)
	assert.ErrorIs(t, err, context.Canceled)
	assert.Empty(t, d.got)
}

func TestCallJSONDecodesArguments(t *testing.T) {
	st := state.New()
	st.SetDB(map[string]any{"orders": map[string]any{}})
	tl := mustOrderTool(t, st)
	tests := []struct {
		name, raw, want string
	}{
		{"null is empty", `null`, `"customer","error":"Field required"`},
		{"blank is empty", ``, `"customer","error":"Field required"`},
		{"not an object", `[1,2]`, `{"field":"","error":"Input should be a valid dictionary","type":"dict_type"}`},
		{"string", `"hi"`, `"type":"dict_type"`},
		{"malformed", `{"customer":`, `"type":"json_invalid"`},
		{"trailing", `{} {}`, `"type":"json_invalid"`},
		{"deep", deepJSON(20000), `"type":"json_invalid"`},
		{"ok", `{"customer":"Ada","items":[{"name":"latte","quantity":2}]}`, `{"order_id":"ORD-Ada"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var d delivery
			require.NoError(t, tool.CallJSON(context.Background(), tl, []byte(tt.raw), d.deliver, nil))
			require.Len(t, d.got, 1)
			assert.Contains(t, jsonOf(t, d.got[0]), tt.want)
		})
	}
}

func deepJSON(depth int) string {
	b := make([]byte, 0, 2*depth+16)
	b = append(b, `{"any":`...)
	for range depth {
		b = append(b, '[')
	}
	for range depth {
		b = append(b, ']')
	}
	return string(append(b, '}'))
}

// Checklist 45-48, 95: an unknown tool gets one structured error listing
// the set's tools, sorted.
func TestSetUnknownTool(t *testing.T) {
	mk := func(name string) tool.Tool { return &fakeTool{name: name, exec: nil} }
	set, err := tool.NewSet(mk("ZZZ_Tool"), mk("AAA_Tool"), mk("MMM_Tool"))
	require.NoError(t, err)
	logger, logs := captureLogs()
	var d delivery
	require.NoError(t, set.Call(context.Background(), "GetUserOrders", nil, d.deliver, &tool.CallOptions{Logger: logger}))
	require.Len(t, d.got, 1)
	assert.Equal(t,
		`{"status":"error","error_type":"unknown_tool","message":"There is no tool named 'GetUserOrders'. Use one of the available tools instead.","available_tools":["AAA_Tool","MMM_Tool","ZZZ_Tool"]}`,
		jsonOf(t, d.got[0]))
	assert.Contains(t, logs.String(), "unknown tool")
	assert.Equal(t, []string{"ZZZ_Tool", "AAA_Tool", "MMM_Tool"}, set.Names(), "set order is kept")

	var empty tool.Set
	d = delivery{}
	require.NoError(t, empty.CallJSON(context.Background(), "x", nil, d.deliver, &tool.CallOptions{Logger: quiet}))
	assert.Equal(t, `{"status":"error","error_type":"unknown_tool","message":"There is no tool named 'x'. Use one of the available tools instead.","available_tools":[]}`, jsonOf(t, d.got[0]))
}

func TestNewSetRejectsBadAndDuplicateNames(t *testing.T) {
	mk := func(name string) tool.Tool { return &fakeTool{name: name} }
	_, err := tool.NewSet(mk("a"), mk("a"), mk("bad name"), nil)
	assert.ErrorIs(t, err, tool.ErrDuplicateTool)
	assert.ErrorContains(t, err, `invalid tool name: "bad name"`)
	assert.ErrorContains(t, err, "tool 3 is nil")

	set, err := tool.NewSet(mk("a"), mk("b"))
	require.NoError(t, err)
	assert.Equal(t, []string{"a", "b"}, set.Names())
	require.Len(t, set.Tools(), 2)
	assert.Equal(t, "b", set.Tools()[1].Name())
}

// Many goroutines call write tools on one state while others read the
// action log: run with -race.
func TestConcurrentCalls(t *testing.T) {
	st := state.New()
	rec := &recorder{}
	st.StartScenario("", rec)
	st.SetDB(map[string]any{"orders": map[string]any{}})
	tl := mustOrderTool(t, st)
	set, err := tool.NewSet(tl, tool.Harness(st, nil)[0])
	require.NoError(t, err)

	const workers, calls = 8, 1000
	var wg sync.WaitGroup
	var delivered sync.Map
	for w := range workers {
		wg.Go(func() {
			for i := range calls {
				args := map[string]any{"customer": fmt.Sprintf("w%d-%d", w, i), "items": []any{map[string]any{"name": "latte", "quantity": 1}}}
				n := 0
				err := set.Call(context.Background(), "order", args, func(any) error { n++; return nil }, nil)
				if err != nil || n != 1 {
					t.Errorf("call %d/%d: err=%v deliveries=%d", w, i, err, n)
				}
				delivered.Store(args["customer"], true)
				if i%100 == 0 {
					_ = st.Actions()
				}
			}
		})
	}
	wg.Wait()
	actions := st.Actions()
	assert.Len(t, actions, workers*calls)
	assert.Len(t, rec.messages(), workers*calls)
	seen := map[any]bool{}
	for _, a := range actions {
		seen[a["arguments"].(map[string]any)["customer"]] = true
	}
	assert.Len(t, seen, workers*calls, "every call recorded its own action")
}

// Huge and deeply nested argument values are handled like any other: a
// structured result, no panic.
func TestCallHugeArguments(t *testing.T) {
	st := state.New()
	st.SetDB(map[string]any{"orders": map[string]any{}})
	tl := mustOrderTool(t, st)
	huge := strings.Repeat("x", 8<<20)
	var d delivery
	require.NoError(t, tool.Call(context.Background(), tl, map[string]any{"customer": huge, "items": []any{map[string]any{"name": "a", "quantity": 1}}}, d.deliver, nil))
	assert.Equal(t, map[string]any{"order_id": "ORD-" + huge}, d.got[0])

	nested := any("leaf")
	for range 5000 {
		nested = []any{nested}
	}
	d = delivery{}
	require.NoError(t, tool.Call(context.Background(), tl, map[string]any{"customer": "a", "items": nested}, d.deliver, nil))
	assert.Equal(t, []tool.Issue{{Field: "items.0", Error: "Input should be a valid dictionary", Type: "dict_type"}}, d.got[0].(tool.ValidationResult).Details)
}
