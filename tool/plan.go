package tool

import (
	"fmt"
	"reflect"
	"sync"

	"github.com/go-playground/validator/v10"
	"github.com/voiceeval/schematools/state"
)

// plan is the compiled binding plan and schema of one parameters type,
// for tools defined as plain structs rather than with [New].
type plan[P any] struct {
	spec   *spec
	schema paramSchema
}

// newPlan returns a lazily compiled plan of P with unknown keys either
// refused or ignored.
func newPlan[P any](allowExtra bool) func() (*plan[P], error) {
	return sync.OnceValues(func() (*plan[P], error) {
		t := reflect.TypeFor[P]()
		s, err := compileSpec(t)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrInvalidParams, err)
		}
		ps, err := reflectParams(t, s, allowExtra)
		if err != nil {
			return nil, err
		}
		return &plan[P]{spec: s, schema: ps}, nil
	})
}

// planProperties returns a copy of the plan's properties, or an empty
// object if the plan failed to compile (Execute reports that error).
func planProperties[P any](get func() (*plan[P], error)) map[string]any {
	p, err := get()
	if err != nil {
		return map[string]any{}
	}
	return state.Clone(p.schema.properties).(map[string]any)
}

// planRequired returns a copy of the plan's required list, or an empty one
// if the plan failed to compile.
func planRequired[P any](get func() (*plan[P], error)) []string {
	p, err := get()
	if err != nil {
		return []string{}
	}
	return append([]string{}, p.schema.required...)
}

func (p *plan[P]) decode(args map[string]any, allowExtra bool, v *validator.Validate, errorType string) (P, *ValidationResult) {
	return decode[P](p.spec, args, allowExtra, v, errorType)
}
