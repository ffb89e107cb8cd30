package tool

import (
	"fmt"
	"reflect"
	"sync"

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
		s, ps, err := compiled(reflect.TypeFor[P](), allowExtra)
		if err != nil {
			return nil, err
		}
		return &plan[P]{spec: s, schema: ps}, nil
	})
}

// compiledKey identifies one compiled parameters type.
type compiledKey struct {
	t          reflect.Type
	allowExtra bool
}

type compiledPlan struct {
	spec   *spec
	schema paramSchema
	err    error
}

// compiledPlans caches the binding plan and schema of each parameters
// type. Both are derived from the type alone and never change once built,
// so tools built per scenario (every update_system_prompt, every gold
// replay) skip reflection after the first time; like encoding/json's field
// cache, it holds no state a caller can observe.
var compiledPlans sync.Map // compiledKey -> *compiledPlan

// compiled returns the binding plan and schema of parameters type t.
func compiled(t reflect.Type, allowExtra bool) (*spec, paramSchema, error) {
	key := compiledKey{t, allowExtra}
	if c, ok := compiledPlans.Load(key); ok {
		cp := c.(*compiledPlan)
		return cp.spec, cp.schema, cp.err
	}
	cp := &compiledPlan{}
	cp.spec, cp.err = compileSpec(t)
	if cp.err != nil {
		cp.err = fmt.Errorf("%w: %w", ErrInvalidParams, cp.err)
	} else {
		cp.schema, cp.err = reflectParams(t, cp.spec, allowExtra)
	}
	if cp.err == nil && cp.spec.validated {
		// Catch misspelled or misplaced validate tags now, not on the first
		// call: run the rules once on the zero value.
		if _, err := runValidator(rulesValidator(), reflect.New(t).Interface()); err != nil {
			cp.err = fmt.Errorf("%w: %w", ErrInvalidParams, err)
		}
	}
	c, _ := compiledPlans.LoadOrStore(key, cp)
	cp = c.(*compiledPlan)
	return cp.spec, cp.schema, cp.err
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

func (p *plan[P]) decode(args map[string]any, allowExtra bool, errorType string) (P, *ValidationResult) {
	return decode[P](p.spec, args, bindMode{allowExtra: allowExtra}, errorType)
}
