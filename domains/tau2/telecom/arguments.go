package telecom

import (
	"cmp"
	"context"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/voiceeval/schematools/domains/tau2/tau2tools"
	"github.com/voiceeval/schematools/internal/pyvalue"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

// The Python telecom tools answer bad arguments with {"status": "error",
// "error_type": "invalid_arguments", "message": str(exc)}, where str(exc)
// is pydantic's multi-line text naming the parameters model, and carry no
// "details". tool.ValidationResult lists the same issues, as pydantic
// words them, but neither names the model nor keeps the input values the
// text quotes; telecomTool rebuilds the text from the issues and the raw
// arguments.

// pydanticErrorsURL is the documentation link pydantic appends to every
// issue. It carries pydantic's minor version; the reference ran 2.13.
const pydanticErrorsURL = "https://errors.pydantic.dev/2.13/v/"

// telecomTool is a typed tool, validated in pydantic's lax mode, whose
// argument errors read as the Python original's.
type telecomTool[P any] struct {
	*tool.Typed[P]
	model string // the pydantic model's name, e.g. "GetCustomerByIdParams"
	// nonNull are optional arguments for which null is a type error, not
	// "absent": pydantic refuses None for a field with a default that is
	// not Optional, where the SDK reads null as absent.
	nonNull []tool.Issue
}

// newTool builds a telecom tool on b's state (tau2tools.New): lax
// validation, the original's description and properties, the
// invalid_arguments error type, and the model name derived from the tool's
// name (toggle_data → ToggleDataParams), as the Python classes are named.
// after, if not nil, is the tool's after-result hook.
func newTool[P any](b binding, name string, fn func(context.Context, *state.Shared, P) (any, error), after func(ctx context.Context, st *state.Shared, result any) error) (*telecomTool[P], error) {
	st := b.st
	if st == nil {
		st = state.New() // as Python tools built without shared_state
	}
	o := tool.Options{State: st, ErrorType: ErrorTypeInvalidArguments, AfterResult: after}
	if b.own {
		o.Properties = map[string]any{} // P's own schema (tau2tools.New)
	}
	t, err := tau2tools.New(Domain, name, fn, &o)
	if err != nil {
		return nil, err
	}
	return &telecomTool[P]{Typed: t, model: modelName(name)}, nil
}

// Execute checks args as pydantic would, then runs the tool. Invalid
// arguments give the invalid_arguments result and nothing runs.
func (t *telecomTool[P]) Execute(ctx context.Context, args map[string]any) (any, error) {
	if args == nil {
		args = map[string]any{}
	}
	var nulls []tool.Issue
	for _, is := range t.nonNull {
		if v, ok := args[is.Field]; ok && v == nil {
			nulls = append(nulls, is)
		}
	}
	if len(nulls) > 0 {
		var issues []tool.Issue
		if _, vr := t.Decode(args); vr != nil {
			issues = vr.Details
		}
		return invalidArguments(t.model, args, mergeIssues(t.PropertyOrder(), issues, nulls)), nil
	}
	out, err := t.Typed.Execute(ctx, args)
	if vr, ok := out.(tool.ValidationResult); ok && err == nil {
		return invalidArguments(t.model, args, vr.Details), nil
	}
	return out, raised(err)
}

// modelName returns the name of the Python parameters model of a tool:
// its name in CamelCase, plus "Params".
func modelName(toolName string) string {
	var b strings.Builder
	for part := range strings.SplitSeq(toolName, "_") {
		if part != "" {
			b.WriteString(strings.ToUpper(part[:1]))
			b.WriteString(part[1:])
		}
	}
	b.WriteString("Params")
	return b.String()
}

// invalidArguments is the result of a call whose arguments (input, as the
// model sent them) pydantic refused with issues, for the model named
// model.
func invalidArguments(model string, input map[string]any, issues []tool.Issue) tool.FailureResult {
	return tool.Failure(ErrorTypeInvalidArguments, validationText(model, input, issues))
}

// mergeIssues merges extra issues into issues, keeping pydantic's order:
// the declared fields in order, then unknown keys in the order given.
func mergeIssues(order []string, issues, extra []tool.Issue) []tool.Issue {
	all := append(slices.Clone(issues), extra...)
	rank := func(is tool.Issue) int {
		if i := slices.Index(order, is.Field); i >= 0 {
			return i
		}
		return len(order)
	}
	slices.SortStableFunc(all, func(a, b tool.Issue) int { return cmp.Compare(rank(a), rank(b)) })
	return all
}

// validationText is str() of the pydantic ValidationError for issues,
// raised validating input against the model named title:
//
//	1 validation error for GetCustomerByIdParams
//	customer_id
//	  Field required [type=missing, input_value={}, input_type=dict]
//	    For further information visit https://errors.pydantic.dev/2.13/v/missing
//
// A missing field quotes the whole input, any other issue the value at its
// field. Input dicts are written with their keys sorted (a Go map keeps no
// order; Python keeps the model's).
func validationText(title string, input map[string]any, issues []tool.Issue) string {
	var b strings.Builder
	b.WriteString(strconv.Itoa(len(issues)))
	b.WriteString(" validation error")
	if len(issues) != 1 {
		b.WriteByte('s')
	}
	b.WriteString(" for ")
	b.WriteString(title)
	for _, is := range issues {
		b.WriteByte('\n')
		var in any = input
		if is.Type != "missing" {
			if v, ok := valueAt(input, is.Field); ok {
				in = v
			}
		}
		if loc := locText(input, is.Field); loc != "" {
			b.WriteString(loc)
			b.WriteByte('\n')
		}
		b.WriteString("  ")
		b.WriteString(is.Error)
		b.WriteString(" [type=")
		b.WriteString(is.Type)
		b.WriteString(", input_value=")
		b.WriteString(truncateRepr(pyvalue.Repr(in)))
		b.WriteString(", input_type=")
		b.WriteString(pyvalue.TypeName(in))
		b.WriteString("]\n    For further information visit ")
		b.WriteString(pydanticErrorsURL)
		b.WriteString(is.Type)
	}
	return b.String()
}

// valueAt returns the value an issue's field names in input: a key of
// input itself (an unknown key may contain dots), or a dotted path
// through objects and lists.
func valueAt(input map[string]any, field string) (any, bool) {
	if v, ok := input[field]; ok {
		return v, true
	}
	var cur any = input
	for part := range strings.SplitSeq(field, ".") {
		switch c := cur.(type) {
		case map[string]any:
			v, ok := c[part]
			if !ok {
				return nil, false
			}
			cur = v
		case []any:
			i, err := strconv.Atoi(part)
			if err != nil || i < 0 || i >= len(c) {
				return nil, false
			}
			cur = c[i]
		default:
			return nil, false
		}
	}
	return cur, true
}

// locText is pydantic's rendering of an issue's location: its parts
// joined by ".", a part that itself contains a dot in backticks.
func locText(input map[string]any, field string) string {
	if _, ok := input[field]; ok && strings.Contains(field, ".") {
		return "`" + field + "`"
	}
	return field
}

// truncateRepr shortens a repr longer than 50 bytes as pydantic does: its
// first 25 bytes and last 24, cut at character boundaries, around "...".
func truncateRepr(s string) string {
	if len(s) <= 50 {
		return s
	}
	head := 25
	for head > 0 && !utf8.RuneStart(s[head]) {
		head--
	}
	tail := len(s) - 24
	for tail < len(s) && !utf8.RuneStart(s[tail]) {
		tail++
	}
	return s[:head] + "..." + s[tail:]
}
