package nemostate

import (
	"context"
	"errors"
	"log/slog"
	"slices"

	"github.com/voiceeval/schematools/internal/pyjson"
	"github.com/voiceeval/schematools/internal/pyvalue"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

// Spec describes a port of a NeMo StandardSchemaTool whose _execute takes
// its arguments as Python keyword arguments, unchecked.
type Spec struct {
	Name        string         // the LLM-visible name (the class name)
	Description string         // the description the model sees
	Properties  map[string]any // JSON Schema properties, as the original presents them
	Order       []string       // the properties' order
	Required    []string       // the required list
	// Params are _execute's named parameters, each None when not passed.
	Params []string
	// Kwargs says _execute takes **kwargs: extra arguments are ignored.
	// Without it an extra argument is Python's TypeError.
	Kwargs bool
	// Run is the body of _execute. Args holds every named parameter
	// (nil for None), each converted to ordered form (FromValue). A
	// *pyvalue.Error it returns is the exception the original raises.
	Run func(ctx context.Context, args map[string]any) (any, error)
}

// Tool is a tool built from a Spec. It is safe for concurrent use.
type Tool struct{ spec Spec }

// NewTool returns the tool spec describes.
func NewTool(spec Spec) *Tool { return &Tool{spec: spec} }

// Name returns the tool's name.
func (t *Tool) Name() string { return t.spec.Name }

// Description returns the tool's description.
func (t *Tool) Description() string { return t.spec.Description }

// Properties returns a copy of the presented properties.
func (t *Tool) Properties() map[string]any {
	p, _ := state.Clone(t.spec.Properties).(map[string]any)
	if p == nil {
		p = map[string]any{}
	}
	return p
}

// PropertyOrder returns the properties' order.
func (t *Tool) PropertyOrder() []string { return slices.Clone(t.spec.Order) }

// Required returns a copy of the required list.
func (t *Tool) Required() []string {
	r := slices.Clone(t.spec.Required)
	if r == nil {
		r = []string{}
	}
	return r
}

// Execute binds args as Python binds keyword arguments to
// <Class>._execute(self, …) and runs the body. A binding failure is the
// TypeError Python raises, returned as an error whose text is str(exc).
func (t *Tool) Execute(ctx context.Context, args map[string]any) (any, error) {
	keys, ordered := tool.ArgumentKeys(ctx, args) // the model's order, as Python meets them
	if !ordered {
		keys = make([]string, 0, len(args))
		for k := range args {
			keys = append(keys, k)
		}
		slices.Sort(keys) // a map given without its order: the first offender in sorted order
	}
	for _, k := range keys {
		if k == "self" {
			return nil, Raised(pyvalue.Raise("TypeError", "%s._execute() got multiple values for argument 'self'", t.spec.Name))
		}
		if !t.spec.Kwargs && !slices.Contains(t.spec.Params, k) {
			return nil, Raised(pyvalue.Raise("TypeError", "%s._execute() got an unexpected keyword argument '%s'", t.spec.Name, k))
		}
	}
	bound := make(map[string]any, len(t.spec.Params))
	for _, p := range t.spec.Params {
		bound[p] = FromArgs(ctx, args[p])
	}
	res, err := t.spec.Run(ctx, bound)
	if err != nil {
		return nil, Raised(err)
	}
	return Result(res), nil
}

// Raised returns err as a tool's caller sees it: a Python exception's
// text is str(exc).
func Raised(err error) error {
	var e *pyvalue.Error
	if errors.As(err, &e) {
		if _, ok := err.(pyvalue.StrError); ok {
			return err
		}
		return pyvalue.StrError{Exc: e}
	}
	return err
}

// Dumps is Python's json.dumps(v) (default separators, ensure_ascii,
// keys in insertion order).
func Dumps(v any) (string, error) {
	b, err := pyvalue.AppendJSON(nil, Py(v), pyjson.Default, false)
	if err != nil {
		return "", pyvalue.Raise("ValueError", "%s", err.Error())
	}
	return string(b), nil
}

// Str is Python's str(v).
func Str(v any) string { return pyvalue.Str(Py(v)) }

// Repr is Python's repr(v).
func Repr(v any) string { return pyvalue.Repr(Py(v)) }

// SendSummary pushes "<final_response>"+text+"</final_response>" as a
// text server message through st's notifier, as the original's
// send_scenario_summary does. Without a notifier it does nothing; a
// notifier error is logged and swallowed.
func SendSummary(ctx context.Context, st *state.Shared, text string, logger *slog.Logger) {
	if st == nil {
		return
	}
	n := st.Notifier()
	if n == nil {
		return
	}
	if err := n.Notify(ctx, tool.TextMessage{Text: "<final_response>" + text + "</final_response>"}); err != nil {
		if logger == nil {
			logger = slog.Default()
		}
		logger.WarnContext(ctx, "scenario summary not sent", "err", err)
	}
}
