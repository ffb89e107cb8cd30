package tool

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
)

// Set is the tool set of one scenario: tools by name, in the order they
// were given. A Set is immutable after [NewSet] and safe for concurrent
// use. The zero value is an empty set, for which every call is an unknown
// tool.
type Set struct {
	order []Tool
	byKey map[string]Tool
}

// NewSet returns a set holding tools. Every name must be valid
// ([ValidateName]) and unique; the error names every offender, and wraps
// [ErrDuplicateTool] for a name given twice.
func NewSet(tools ...Tool) (*Set, error) {
	s := &Set{byKey: make(map[string]Tool, len(tools))}
	var errs []error
	for i, t := range tools {
		if t == nil {
			errs = append(errs, fmt.Errorf("tool %d is nil", i))
			continue
		}
		name := t.Name()
		if err := ValidateName(name); err != nil {
			errs = append(errs, err)
			continue
		}
		if _, dup := s.byKey[name]; dup {
			errs = append(errs, fmt.Errorf("%w: %q", ErrDuplicateTool, name))
			continue
		}
		s.byKey[name] = t
		s.order = append(s.order, t)
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("tool: new set: %w", errors.Join(errs...))
	}
	return s, nil
}

// lookup returns the tool called name.
func (s *Set) lookup(name string) (Tool, bool) {
	if s == nil {
		return nil, false
	}
	t, ok := s.byKey[name]
	return t, ok
}

// Names returns the tool names in set order.
func (s *Set) Names() []string {
	if s == nil {
		return []string{}
	}
	out := make([]string, len(s.order))
	for i, t := range s.order {
		out[i] = t.Name()
	}
	return out
}

// Tools returns the tools in set order.
func (s *Set) Tools() []Tool {
	if s == nil {
		return []Tool{}
	}
	return append([]Tool{}, s.order...)
}

// Call runs the tool called name through [Call]. A name the set does not
// hold is answered with {"status": "error", "error_type": "unknown_tool",
// "message": …, "available_tools": [the set's names, sorted]}, delivered
// exactly once and logged as a warning; no hook runs.
func (s *Set) Call(ctx context.Context, name string, args map[string]any, deliver func(any) error, opts *CallOptions) error {
	t, ok := s.lookup(name)
	if !ok {
		return s.unknown(ctx, name, deliver, opts)
	}
	return Call(ctx, t, args, deliver, opts)
}

// CallJSON is [Set.Call] with raw JSON arguments, decoded as [CallJSON]
// does.
func (s *Set) CallJSON(ctx context.Context, name string, raw []byte, deliver func(any) error, opts *CallOptions) error {
	t, ok := s.lookup(name)
	if !ok {
		return s.unknown(ctx, name, deliver, opts)
	}
	return CallJSON(ctx, t, raw, deliver, opts)
}

func (s *Set) unknown(ctx context.Context, name string, deliver func(any) error, opts *CallOptions) error {
	cfg := callConfig(opts)
	res := unknownTool(name, s.Names())
	cfg.Logger.WarnContext(ctx, "unknown tool called by the model; returning a structured error",
		slog.String("tool", name), slog.Any("available_tools", res.AvailableTools))
	if err := deliver(res); err != nil {
		return fmt.Errorf("tool %s: result delivery failed: %w", name, err)
	}
	return nil
}

// ModelCall is one tool call as a model returns it: an id, a name, and the
// arguments as JSON text.
type ModelCall struct {
	ID   string `json:"id"`   // the provider's call id, echoed in the ToolResult
	Name string `json:"name"` // the tool's name, looked up in the Set
	// Arguments is the model's JSON text, decoded by [DecodeArgs] (""
	// and "null" mean no arguments).
	Arguments string `json:"arguments"`
}

// ToolResult is the result to send back to the model for one call.
type ToolResult struct {
	ID   string `json:"id"`   // the call's ID
	Name string `json:"name"` // the call's Name
	// Result is what the live path delivered for the call: the tool's
	// result, enveloped when empty, or the unknown-tool, validation or
	// {"error": …} result. nil when nothing was delivered: the call was
	// not started because the turn's context was done, or its tool
	// returned the context's error (see [Call]).
	Result any `json:"result"`
}

// Dispatch runs the calls of one model turn on the live path
// ([Set.CallJSON]): unknown names get the unknown-tool result listing the
// set's tools, malformed arguments a validation result, errors the
// {"error": …} result. At most parallel calls run at once (1 when
// parallel < 1). Results come back in the model's order, one per call.
// The error joins the failures of individual calls: a call not yet
// started when ctx is done is not run, has no Result and fails with ctx's
// error; a call already running finishes as [Call] does — a tool that
// completes keeps the Result it delivered, even if ctx was cancelled
// meanwhile, and only one that returns ctx's error has none; a call whose
// after-result hook failed keeps the Result it delivered.
func (s *Set) Dispatch(ctx context.Context, calls []ModelCall, parallel int, opts *CallOptions) ([]ToolResult, error) {
	if parallel < 1 {
		parallel = 1
	}
	out := make([]ToolResult, len(calls))
	errs := make([]error, len(calls))
	sem := make(chan struct{}, parallel)
	var wg sync.WaitGroup
	for i, c := range calls {
		out[i] = ToolResult{ID: c.ID, Name: c.Name}
		wg.Go(func() {
			select {
			case sem <- struct{}{}:
			case <-ctx.Done():
				errs[i] = fmt.Errorf("tool: call %s (%s): %w", c.ID, c.Name, ctx.Err())
				return
			}
			defer func() { <-sem }()
			if err := ctx.Err(); err != nil {
				errs[i] = fmt.Errorf("tool: call %s (%s): %w", c.ID, c.Name, err)
				return
			}
			delivered := 0
			err := s.CallJSON(ctx, c.Name, []byte(c.Arguments), func(v any) error {
				delivered++
				out[i].Result = v
				return nil
			}, opts)
			if err == nil && delivered != 1 {
				err = fmt.Errorf("%d deliveries", delivered)
			}
			if err != nil {
				errs[i] = fmt.Errorf("tool: call %s (%s): %w", c.ID, c.Name, err)
			}
		})
	}
	wg.Wait()
	return out, errors.Join(errs...)
}
