package tool

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/voiceeval/schematools/internal/toolname"
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
// (toolname.Validate) and unique; the error names every offender, and wraps
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
		if err := toolname.Validate(name); err != nil {
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
	ID   string `json:"id"`   // the provider's call id, echoed in the result
	Name string `json:"name"` // the tool's name, looked up in the Set
	// Arguments is the model's JSON text, decoded by [DecodeArgs] (""
	// and "null" mean no arguments).
	Arguments string `json:"arguments"`
}
