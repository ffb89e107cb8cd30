package tool

import (
	"context"
	"fmt"
	"reflect"

	"github.com/voiceeval/schematools/state"
)

// Func is the work of a typed tool: it receives the tool's shared state and
// the validated parameters, and returns the raw result (see [Tool]).
type Func[P any] func(ctx context.Context, st *state.Shared, p P) (any, error)

// Option configures a typed tool built by [New].
type Option func(*config)

type config struct {
	state      *state.Shared
	errorType  string
	allowExtra bool
	lax        bool
	after      func(ctx context.Context, st *state.Shared, result any) error
	properties map[string]any // WithProperties
}

// WithState makes the tool read and write st. Without it the tool gets a
// private empty state, as Python tools built without shared_state do.
func WithState(st *state.Shared) Option { return func(c *config) { c.state = st } }

// WithErrorType sets the "error_type" of the tool's [ValidationResult]
// (default "validation_error"); tau2 telecom, for one, uses
// "invalid_arguments".
func WithErrorType(errorType string) Option { return func(c *config) { c.errorType = errorType } }

// WithExtraArgs makes the tool ignore argument keys its parameters do not
// declare, at every nesting level, as Python tools that take **kwargs do.
// By default unknown keys fail validation.
func WithExtraArgs() Option { return func(c *config) { c.allowExtra = true } }

// WithLax makes argument checking follow pydantic's lax mode, as the Python
// tools of the tau2-bench ports validate: integer arguments also accept
// numeric strings ("12") and booleans, number arguments accept numeric
// strings and booleans, boolean arguments accept 0/1 and the strings
// pydantic accepts ("true", "no", "on", …); strings stay strict; a failed
// oneof rule is reported with pydantic's Enum type code "enum". Unknown
// keys are refused at the top level but silently dropped in nested
// objects, and problems are listed as pydantic lists them: the declared
// fields in order (missing and ill-typed together), then unknown keys.
// [WithExtraArgs] still ignores unknown keys everywhere.
func WithLax() Option { return func(c *config) { c.lax = true } }

// WithAfterResult sets a hook that [Call] runs after the tool's result has
// been delivered, with the raw result Execute returned (which may be a
// [ValidationResult]). It never runs after Execute failed.
func WithAfterResult(fn func(ctx context.Context, st *state.Shared, result any) error) Option {
	return func(c *config) { c.after = fn }
}

// Typed is a tool whose parameters are one Go struct P: the same struct
// yields the JSON Schema the model sees (invopop/jsonschema) and the rules
// its arguments are checked against (JSON types, then validator/v10 tags).
// Build it with [New]. It is safe for concurrent use.
type Typed[P any] struct {
	name, description string
	fn                Func[P]
	cfg               config
	spec              *spec
	schema            paramSchema
}

// New builds a typed tool. Its properties and required list are derived
// once, here, from P:
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
func New[P any](name, description string, fn Func[P], opts ...Option) (*Typed[P], error) {
	pt := reflect.TypeFor[P]()
	if err := ValidateName(name); err != nil {
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
	for _, o := range opts {
		o(&t.cfg)
	}
	if t.cfg.state == nil {
		t.cfg.state = state.New()
	}
	// In lax mode nested objects accept (and drop) unknown keys, so their
	// schemas must not close them.
	s, schema, err := compiled(pt, t.cfg.allowExtra || t.cfg.lax)
	if err != nil {
		return nil, fmt.Errorf("tool: %s: %w", name, err)
	}
	t.spec, t.schema = s, schema
	if t.cfg.properties != nil {
		if t.schema, err = withProperties(schema, t.cfg.properties); err != nil {
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
	if t.cfg.errorType == "" {
		return errorTypeValidation
	}
	return t.cfg.errorType
}

// Decode checks args and binds them into P without running the tool. It
// returns a non-nil [ValidationResult] when the arguments are unusable.
// A nil args map is treated as empty.
func (t *Typed[P]) Decode(args map[string]any) (P, *ValidationResult) {
	return decode[P](t.spec, args, bindMode{allowExtra: t.cfg.allowExtra, lax: t.cfg.lax}, t.cfg.errorType)
}

// Execute validates args and runs the tool's function. Invalid arguments
// yield a [ValidationResult] value and a nil error; the function's own
// error is returned as is.
func (t *Typed[P]) Execute(ctx context.Context, args map[string]any) (any, error) {
	p, invalid := t.Decode(args)
	if invalid != nil {
		return *invalid, nil
	}
	return t.fn(ctx, t.cfg.state, p)
}

// AfterResult runs the hook set with [WithAfterResult], if any.
func (t *Typed[P]) AfterResult(ctx context.Context, _ map[string]any, result any) error {
	if t.cfg.after == nil {
		return nil
	}
	return t.cfg.after(ctx, t.cfg.state, result)
}
