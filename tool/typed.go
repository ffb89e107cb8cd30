package tool

import (
	"context"
	"fmt"
	"reflect"

	"github.com/voiceeval/schematools/internal/toolname"
	"github.com/voiceeval/schematools/state"
)

// Options configures a typed tool built by [New]. The zero value (or a
// nil *Options) gives the defaults.
type Options struct {
	// State is the shared state the tool reads and writes. Nil gives the
	// tool a private empty state, as Python tools built without
	// shared_state have.
	State *state.Shared
	// ErrorType is the "error_type" of the tool's [ValidationResult]
	// (default "validation_error"); tau2 telecom, for one, uses
	// "invalid_arguments".
	ErrorType string
	// ExtraArgs makes the tool ignore argument keys its parameters do not
	// declare, at every nesting level, as Python tools that take **kwargs
	// do. By default unknown keys fail validation.
	ExtraArgs bool
	// Lax makes argument checking follow pydantic's lax mode, as the
	// Python tools of the tau2-bench ports validate: integer arguments
	// also accept numeric strings ("12") and booleans, number arguments
	// accept numeric strings and booleans, boolean arguments accept 0/1
	// and the strings pydantic accepts ("true", "no", "on", …); strings
	// stay strict; a failed oneof rule is reported with pydantic's Enum
	// type code "enum". Unknown keys are refused at the top level but
	// silently dropped in nested objects, and problems are listed as
	// pydantic lists them: the declared fields in order (missing and
	// ill-typed together), then unknown keys. ExtraArgs still ignores
	// unknown keys everywhere.
	Lax bool
	// AfterResult is a hook that [Call] runs after the tool's result has
	// been delivered, with the raw result Execute returned (which may be
	// a [ValidationResult]). It never runs after Execute failed.
	AfterResult func(ctx context.Context, st *state.Shared, result any) error
	// Properties, when non-nil, are the JSON Schema properties the tool
	// presents in place of those derived from its parameters struct: the
	// explicit override for a port that must show the model the
	// original's schema text word for word (descriptions, enums the
	// original offers but does not check). Only what is exported changes
	// — Properties, [Schema] and every tool/schema dialect; the checks,
	// the required list and the property order still come from the
	// struct. They must name exactly the struct's properties, or [New]
	// fails with [ErrInvalidParams]. As an override can say what the
	// checks do not do, every use needs a test that the exported schema
	// and the checks accept and refuse the same arguments (or names the
	// difference).
	Properties map[string]any
}

// Typed is a tool whose parameters are one Go struct P: the same struct
// yields the JSON Schema the model sees (invopop/jsonschema) and the rules
// its arguments are checked against (JSON types, then validator/v10 tags).
// Build it with [New]. It is safe for concurrent use.
type Typed[P any] struct {
	name, description string
	fn                func(ctx context.Context, st *state.Shared, p P) (any, error)
	cfg               Options
	spec              *spec
	schema            paramSchema
}

// New builds a typed tool: fn is its work, which receives the tool's
// shared state and the validated parameters and returns the raw result
// (see [Tool]). Its properties and required list are derived once, here,
// from P:
//
//   - the json tag names each argument; a field is required unless its json
//     tag has omitempty or omitzero (`jsonschema:"required"` forces it);
//   - jsonschema_description describes an argument; each rule is written
//     once, as a jsonschema or a validate tag, and reaches both the schema
//     and the checks (see the package documentation).
//
// Before fn runs, Execute checks the raw arguments in this order — unknown
// keys, missing required keys, JSON type mismatches, then validate rules —
// and returns a [ValidationResult] value listing every problem instead of
// calling fn. Nothing the model sends can make it panic.
//
// New fails with an error wrapping [ErrInvalidParams] for a bad name, an
// empty description, a nil fn, or a P that is not a struct, is recursive,
// holds a field with no JSON form, maps two fields to one JSON name,
// carries validate tags the validator cannot apply, carries a jsonschema
// keyword the checks do not enforce, or states one rule in both tags
// with different values.
func New[P any](name, description string, fn func(ctx context.Context, st *state.Shared, p P) (any, error), opts *Options) (*Typed[P], error) {
	pt := reflect.TypeFor[P]()
	if err := toolname.Validate(name); err != nil {
		return nil, fmt.Errorf("tool: New[%s]: %w: %w", pt, ErrInvalidParams, err)
	}
	if description == "" {
		return nil, fmt.Errorf("tool: %s: description is required: %w", name, ErrInvalidParams)
	}
	if fn == nil {
		return nil, fmt.Errorf("tool: %s: nil function: %w", name, ErrInvalidParams)
	}
	if pt.Kind() != reflect.Struct {
		return nil, fmt.Errorf("tool: %s: parameters must be a struct, got %s: %w", name, pt, ErrInvalidParams)
	}
	t := &Typed[P]{name: name, description: description, fn: fn}
	if opts != nil {
		t.cfg = *opts
	}
	if t.cfg.State == nil {
		t.cfg.State = state.New()
	}
	// In lax mode nested objects accept (and drop) unknown keys, so their
	// schemas must not close them.
	s, schema, err := compiled(pt, t.cfg.ExtraArgs || t.cfg.Lax)
	if err != nil {
		return nil, fmt.Errorf("tool: %s: %w", name, err)
	}
	t.spec, t.schema = s, schema
	if t.cfg.Properties != nil {
		if t.schema, err = withProperties(schema, t.cfg.Properties); err != nil {
			return nil, fmt.Errorf("tool: %s: %w", name, err)
		}
	}
	return t, nil
}

// Name returns the tool's name.
func (t *Typed[P]) Name() string { return t.name }

// Description returns the tool's description.
func (t *Typed[P]) Description() string { return t.description }

// Properties returns a fresh copy of the JSON Schema properties derived
// from P.
func (t *Typed[P]) Properties() map[string]any {
	return state.Clone(t.schema.properties).(map[string]any)
}

// Required returns a fresh copy of the required argument names, in field
// order.
func (t *Typed[P]) Required() []string {
	return append([]string{}, t.schema.required...)
}

// PropertyOrder returns the property names in the order of P's fields.
func (t *Typed[P]) PropertyOrder() []string { return append([]string{}, t.schema.order...) }

// ErrorType returns the "error_type" of the tool's validation results.
func (t *Typed[P]) ErrorType() string {
	if t.cfg.ErrorType == "" {
		return errorTypeValidation
	}
	return t.cfg.ErrorType
}

// Decode checks args and binds them into P without running the tool. It
// returns a non-nil [ValidationResult] when the arguments are unusable.
// A nil args map is treated as empty.
func (t *Typed[P]) Decode(args map[string]any) (P, *ValidationResult) {
	return decode[P](t.spec, args, bindMode{allowExtra: t.cfg.ExtraArgs, lax: t.cfg.Lax}, t.cfg.ErrorType)
}

// Execute validates args and runs the tool's function. Invalid arguments
// yield a [ValidationResult] value and a nil error; the function's own
// error is returned as is.
func (t *Typed[P]) Execute(ctx context.Context, args map[string]any) (any, error) {
	p, invalid := t.Decode(args)
	if invalid != nil {
		return *invalid, nil
	}
	return t.fn(ctx, t.cfg.State, p)
}

// AfterResult runs the hook set in [Options].AfterResult, if any.
func (t *Typed[P]) AfterResult(ctx context.Context, _ map[string]any, result any) error {
	if t.cfg.AfterResult == nil {
		return nil
	}
	return t.cfg.AfterResult(ctx, t.cfg.State, result)
}
