package tool

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"reflect"
	"runtime/debug"
	"slices"

	"github.com/voiceeval/schematools/internal/clip"
	"github.com/voiceeval/schematools/internal/pyjson"
)

// CallOptions configures [Call], [CallJSON] and the [Set] call methods.
// A nil *CallOptions gives the defaults.
type CallOptions struct {
	// Logger records tool failures, recovered panics and unknown-tool
	// calls. Nil means [slog.Default].
	Logger *slog.Logger
	// NullAsAbsent makes the call read null as absent for every optional
	// argument whose schema does not accept null, at every level the
	// tool's schema describes: what the calls of a model given strict
	// exports need (schema.Strict makes each optional property required
	// and nullable, so a strict model sends "limit": null for a limit it
	// leaves out). The null members are removed before Execute and the
	// after-result hook see the arguments. Without it a tool judges null
	// itself; the tau2 ports refuse it where pydantic does.
	NullAsAbsent bool
}

// callConfig is opts with the defaults filled in.
func callConfig(opts *CallOptions) CallOptions {
	var c CallOptions
	if opts != nil {
		c = *opts
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	return c
}

// Call runs t on the live path and delivers its result exactly once:
//
//  1. nil args are treated as an empty object;
//  2. Execute runs; a panic is recovered into an error;
//  3. if Execute failed, {"error": message} is delivered ([IsError] holds;
//     a message over clip.Max bytes is shortened by clip.String),
//     the failure is logged, and the after-result hook does NOT run;
//  4. otherwise the result is delivered, an empty one (nil, "", 0, false,
//     an empty list or object) wrapped in a success envelope such as
//     {"status": "success", "results": [], "count": 0, "message": "No
//     matching records found."} so that a model does not read it as
//     nothing; then, if t implements [AfterResulter], its hook runs.
//
// Call returns nil when the result was delivered and the hook (if any)
// succeeded. When deliver fails, Call returns an error wrapping deliver's
// error and the hook is skipped; when the hook fails or panics (after
// delivery), an error wrapping the hook's.
//
// A cancelled ctx does not stop a call by itself: Call does not look at
// ctx, so a tool that completes — even on a context cancelled before or
// during the call — has its result delivered (a committed write is
// reported). Only when Execute returns an error wrapping ctx's error while
// ctx is done is nothing delivered; Call then returns that error, as
// Python lets a call cancelled in flight go undelivered.
func Call(ctx context.Context, t Tool, args map[string]any, deliver func(any) error, opts *CallOptions) error {
	cfg := callConfig(opts)
	if args == nil {
		args = map[string]any{}
	}
	if cfg.NullAsAbsent {
		s := Schema(t).Parameters
		if v, changed := dropOptionalNulls(args, map[string]any{"properties": s.Properties, "required": s.Required}); changed {
			args = v.(map[string]any)
		}
	}
	name := t.Name()
	res, err := execute(ctx, t, args, cfg.Logger)
	if err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil && errors.Is(err, ctxErr) {
			return fmt.Errorf("tool %s: %w", name, err)
		}
		cfg.Logger.ErrorContext(ctx, "tool call failed", "tool", name, "err", err)
		if derr := deliver(errorResult{Error: clip.String(err.Error())}); derr != nil {
			return fmt.Errorf("tool %s: result delivery failed: %w", name, derr)
		}
		return nil
	}
	if derr := deliver(normalizeEmpty(res)); derr != nil {
		return fmt.Errorf("tool %s: result delivery failed: %w", name, derr)
	}
	if h, ok := t.(AfterResulter); ok {
		if herr := afterResult(ctx, h, args, res); herr != nil {
			cfg.Logger.ErrorContext(ctx, "tool after-result hook failed", "tool", name, "err", herr)
			return fmt.Errorf("tool %s: after-result hook failed: %w", name, herr)
		}
	}
	return nil
}

// CallJSON decodes raw arguments with [DecodeArgs] and runs [Call]. Raw
// arguments that are malformed or not a JSON object are answered with a
// delivered [ValidationResult] (one issue, field "", type "json_invalid" or
// "dict_type"; its error_type is the tool's [ErrorTyper] one, if it has
// one); Execute and the hook do not run. A cancelled ctx is treated as
// [Call] treats it.
//
// The key order the model wrote its arguments in is kept for the call:
// [ArgumentKeys] gives it, from the ctx Execute gets, for the decoded
// objects (a Go map has none).
func CallJSON(ctx context.Context, t Tool, raw []byte, deliver func(any) error, opts *CallOptions) error {
	args, order, err := decodeArgs(raw)
	if err != nil {
		et := ""
		if e, ok := t.(ErrorTyper); ok {
			et = e.ErrorType()
		}
		if derr := deliver(*newValidationResult(et, []Issue{argsIssue(err)})); derr != nil {
			return fmt.Errorf("tool %s: result delivery failed: %w", t.Name(), derr)
		}
		return nil
	}
	if order != nil {
		ctx = context.WithValue(ctx, argKeysKey{}, order)
	}
	return Call(ctx, t, args, deliver, opts)
}

// argsError is the error DecodeArgs returns, carrying the issue a model
// should see.
type argsError struct {
	issue Issue
	err   error
}

func (e *argsError) Error() string { return "tool: invalid tool arguments: " + e.issue.Error }
func (e *argsError) Unwrap() error { return e.err }

func argsIssue(err error) Issue {
	var ae *argsError
	if errors.As(err, &ae) {
		return ae.issue
	}
	return Issue{Field: "", Error: err.Error(), Type: "json_invalid"}
}

// DecodeArgs decodes a model's raw tool arguments with the semantics of
// the Python original's json.loads, and requires an object:
//
//   - empty input and JSON null mean no arguments (an empty map);
//   - numbers decode as json.Number, so large integers stay exact; NaN,
//     Infinity and -Infinity are accepted, as json.loads accepts them, and
//     become float64 values — a typed tool then refuses them for a number
//     parameter ("finite_number"), as it would any bad value;
//   - a duplicate key keeps its last value;
//   - malformed JSON, trailing data after the value (json.loads's "Extra data"), an
//     integer of more than 4,300 digits, nesting deeper than 10,000 levels
//     and any top-level value other than an object are errors.
//
// The error reads "tool: invalid tool arguments: …"; [CallJSON] delivers
// it to the model as a [ValidationResult].
func DecodeArgs(raw []byte) (map[string]any, error) {
	m, _, err := decodeArgs(raw)
	return m, err
}

// decodeArgs is DecodeArgs, also returning the key order of the objects it
// decoded (nil when there are none of two keys or more).
func decodeArgs(raw []byte) (map[string]any, *pyjson.KeyOrders, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return map[string]any{}, nil, nil
	}
	v, _, order, err := pyjson.DecodeOrdered(raw, false)
	if err != nil {
		return nil, nil, &argsError{issue: Issue{Error: "Invalid JSON: " + err.Error(), Type: "json_invalid"}, err: err}
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, nil, &argsError{issue: Issue{Error: "Input should be a valid dictionary", Type: "dict_type"}}
	}
	if len(order.Sets) == 0 && len(order.Objects) == 0 {
		order = nil
	}
	return m, order, nil
}

// argKeysKey is the context key of a call's argument key order.
type argKeysKey struct{}

// ArgumentKeys returns the keys of m in the order the model wrote them,
// and true, when m is an object of the arguments [CallJSON] decoded for
// the call whose context ctx is (the arguments themselves, or an object
// nested in them, not a copy): Python's json.loads keeps that order in
// the dicts its tools get, and a tool that writes an argument back as
// text (a pydantic message quoting it, json.dumps of it in its result)
// shows it. Otherwise — arguments given to [Call] as a map, a map of the
// tool's own, an object of fewer than two keys — it returns nil and
// false: a Go map has no order.
func ArgumentKeys(ctx context.Context, m map[string]any) ([]string, bool) {
	o, _ := ctx.Value(argKeysKey{}).(*pyjson.KeyOrders)
	if o == nil || len(m) < 2 {
		return nil, false
	}
	id := reflect.ValueOf(m).UnsafePointer()
	for _, ob := range o.Objects {
		if reflect.ValueOf(ob.Map).UnsafePointer() == id {
			return slices.Clone(ob.Keys), true
		}
	}
	keys, ok := o.Sets[pyjson.KeySetHash(m)]
	if !ok || len(keys) != len(m) {
		return nil, false
	}
	for _, k := range keys {
		if _, has := m[k]; !has {
			return nil, false
		}
	}
	return slices.Clone(keys), true
}

// execute runs t.Execute, turning a panic into an error.
func execute(ctx context.Context, t Tool, args map[string]any, logger *slog.Logger) (res any, err error) {
	defer func() {
		if r := recover(); r != nil {
			logger.ErrorContext(ctx, "tool panicked", "tool", t.Name(), "panic", r, "stack", string(debug.Stack()))
			res, err = nil, fmt.Errorf("tool %s panicked: %v", t.Name(), r)
		}
	}()
	return t.Execute(ctx, args)
}

// afterResult runs the hook, turning a panic into an error.
func afterResult(ctx context.Context, h AfterResulter, args map[string]any, res any) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return h.AfterResult(ctx, args, res)
}
