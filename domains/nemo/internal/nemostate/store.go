package nemostate

import (
	"strings"
	"sync"

	"github.com/voiceeval/schematools/state"
)

// storeKey is the state value holding a scenario's store. Like the Python
// original's "__rtvi__" and "__tool_domain__", a key starting with "__" is
// bot-side machinery, never part of the state the hash covers.
const storeKey = "__nemo_ordered_values__"

// store serialises the tools' read-modify-write of the state's values and
// remembers the key order of what they last wrote (the state keeps plain
// maps, which have none).
type store struct {
	mu    sync.Mutex
	hints map[string]any
}

// storeInit guards the creation of a state's store.
var storeInit sync.Mutex

// storeOf returns st's store, creating it on first use. The state hands
// pointers out of its values as they are, so every tool of a scenario
// finds the same store; Shared.StartScenario drops it with the values.
func storeOf(st *state.Shared) *store {
	if v, ok := st.Value(storeKey); ok {
		if s, ok := v.(*store); ok {
			return s
		}
	}
	storeInit.Lock()
	defer storeInit.Unlock()
	if v, ok := st.Value(storeKey); ok {
		if s, ok := v.(*store); ok {
			return s
		}
	}
	s := &store{hints: map[string]any{}}
	_ = st.Seed(state.Seed{Values: map[string]any{storeKey: s}}, nil)
	return s
}

// Setdefault is Python's shared_state.setdefault(key, v) at a tool's
// construction: v (an ordered value, see FromValue) is stored under key
// unless the state already holds key.
func Setdefault(st *state.Shared, key string, v any) {
	s := storeOf(st)
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := st.Value(key); ok {
		return
	}
	s.hints[key] = v
	_ = st.Seed(state.Seed{Values: map[string]any{key: Plain(v)}}, nil)
}

// Vars is the view of the state's values a tool's work gets from Update:
// Python's shared_state dict.
type Vars struct {
	st      *state.Shared
	s       *store
	got     map[string]any
	changed map[string]bool
}

// Get is shared_state.get(key): an ordered copy of the value (the same
// object on every Get within one Update), and whether it is there.
func (v *Vars) Get(key string) (any, bool) {
	if x, ok := v.got[key]; ok {
		return x, true
	}
	plain, ok := v.st.Value(key)
	if !ok {
		return nil, false
	}
	x := reorder(plain, v.s.hints[key])
	v.got[key] = x
	return x, true
}

// Set is shared_state[key] = x.
func (v *Vars) Set(key string, x any) {
	v.got[key] = x
	v.changed[key] = true
}

// Touch marks key as changed in place (its value, got from Get, was
// mutated), so that Update stores it back.
func (v *Vars) Touch(key string) { v.changed[key] = true }

// Update runs fn on the state's values, one call at a time per state,
// and then stores what fn set or touched — also when fn fails, as a
// Python tool's changes made before it raised stay. The values are
// ordered copies: fn may mutate them and Touch their keys.
func Update(st *state.Shared, fn func(v *Vars) (any, error)) (any, error) {
	s := storeOf(st)
	s.mu.Lock()
	defer s.mu.Unlock()
	v := &Vars{st: st, s: s, got: map[string]any{}, changed: map[string]bool{}}
	res, err := fn(v)
	if len(v.changed) > 0 {
		out := make(map[string]any, len(v.changed))
		for k := range v.changed {
			out[k] = Plain(v.got[k])
			s.hints[k] = FromValue(v.got[k])
		}
		_ = st.Seed(state.Seed{Values: out}, nil)
	}
	return res, err
}

// StateValues returns the scenario state the Python original hashes:
// every value of st but the bot-side ones whose keys start with "__".
func StateValues(st *state.Shared) map[string]any {
	vals := st.Values()
	for k := range vals {
		if strings.HasPrefix(k, "__") {
			delete(vals, k)
		}
	}
	return vals
}
