package nemostate

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"

	"github.com/voiceeval/schematools/internal/pyvalue"
	"github.com/voiceeval/schematools/tool"
)

// Map is a Python dict with string keys: insertion order and reference
// semantics (a *Map held in two places is one dict, as in Python). It
// marshals to a JSON object in its order.
type Map struct {
	keys []string
	vals map[string]any
}

// NewMap returns an empty dict.
func NewMap() *Map { return &Map{vals: map[string]any{}} }

// Len is len(d).
func (m *Map) Len() int { return len(m.keys) }

// Keys returns the keys in insertion order.
func (m *Map) Keys() []string { return slices.Clone(m.keys) }

// Get is d.get(k) with a presence flag.
func (m *Map) Get(k string) (any, bool) {
	v, ok := m.vals[k]
	return v, ok
}

// Set is d[k] = v: an existing key keeps its position, a new one goes last.
func (m *Map) Set(k string, v any) {
	if _, ok := m.vals[k]; !ok {
		m.keys = append(m.keys, k)
	}
	m.vals[k] = v
}

// Setdefault is d.setdefault(k, v).
func (m *Map) Setdefault(k string, v any) any {
	if old, ok := m.vals[k]; ok {
		return old
	}
	m.Set(k, v)
	return v
}

// MarshalJSON writes the dict as a JSON object in insertion order.
func (m *Map) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range m.keys {
		if i > 0 {
			b.WriteByte(',')
		}
		kb, err := json.Marshal(k)
		if err != nil {
			return nil, err
		}
		b.Write(kb)
		b.WriteByte(':')
		vb, err := json.Marshal(m.vals[k])
		if err != nil {
			return nil, err
		}
		b.Write(vb)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// Of builds a dict from alternating keys and values, in that order.
func Of(kv ...any) *Map {
	m := NewMap()
	for i := 0; i+1 < len(kv); i += 2 {
		m.Set(kv[i].(string), kv[i+1])
	}
	return m
}

// FromValue converts a JSON value into the ordered form the tools work on:
// a pyvalue.Dict (json.loads order) or *Map stays in its order, a Go map
// takes its keys sorted (it has no order of its own), lists are converted
// item by item; scalars are returned as they are. The result shares nothing
// mutable with v.
func FromValue(v any) any { return fromValue(v, nil) }

// FromArgs is FromValue for a value of a call's arguments: a Go map that
// [tool.CallJSON] decoded takes the order the model wrote its keys in
// (tool.ArgumentKeys of ctx, the call's), as json.loads gives Python's
// tool; any other, its keys sorted.
func FromArgs(ctx context.Context, v any) any {
	return fromValue(v, func(m map[string]any) ([]string, bool) { return tool.ArgumentKeys(ctx, m) })
}

// fromValue is FromValue; keysOf, when not nil, gives the order of a Go
// map that has one.
func fromValue(v any, keysOf func(map[string]any) ([]string, bool)) any {
	switch x := v.(type) {
	case *Map:
		if x == nil {
			return nil
		}
		out := NewMap()
		for _, k := range x.keys {
			out.Set(k, fromValue(x.vals[k], keysOf))
		}
		return out
	case pyvalue.Dict:
		out := NewMap()
		for _, it := range x.Items() {
			out.Set(it.Key, fromValue(it.Value, keysOf))
		}
		return out
	case map[string]any:
		var keys []string
		ok := false
		if keysOf != nil {
			keys, ok = keysOf(x)
		}
		if !ok {
			keys = make([]string, 0, len(x))
			for k := range x {
				keys = append(keys, k)
			}
			slices.Sort(keys)
		}
		out := NewMap()
		for _, k := range keys {
			out.Set(k, fromValue(x[k], keysOf))
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = fromValue(e, keysOf)
		}
		return out
	}
	return v
}

// Py converts an ordered value into the values package pyvalue computes on
// (a *Map becomes a pyvalue.Dict in its order).
func Py(v any) any {
	switch x := v.(type) {
	case *Map:
		d := make(pyvalue.Dict, 0, len(x.keys))
		for _, k := range x.keys {
			d = append(d, pyvalue.Item{Key: k, Value: Py(x.vals[k])})
		}
		return d
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = Py(e)
		}
		return out
	}
	return v
}

// Plain converts an ordered value into a plain JSON tree (map[string]any,
// []any and scalars), as the shared state and the DB hash take it.
func Plain(v any) any {
	switch x := v.(type) {
	case *Map:
		out := make(map[string]any, len(x.keys))
		for _, k := range x.keys {
			out[k] = Plain(x.vals[k])
		}
		return out
	case pyvalue.Dict:
		out := make(map[string]any, len(x))
		for _, it := range x.Items() {
			out[it.Key] = Plain(it.Value)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = Plain(e)
		}
		return out
	}
	return v
}

// reorder converts the plain value v into ordered form, taking the key
// order of hint (a previous ordered form of the same value) where it has
// one: hint's keys that v holds, in hint's order, then v's other keys
// sorted.
func reorder(v, hint any) any {
	switch x := v.(type) {
	case map[string]any:
		h, _ := hint.(*Map)
		out := NewMap()
		if h != nil {
			for _, k := range h.keys {
				if e, ok := x[k]; ok {
					out.Set(k, reorder(e, h.vals[k]))
				}
			}
		}
		if out.Len() < len(x) {
			rest := make([]string, 0, len(x)-out.Len())
			for k := range x {
				if _, ok := out.vals[k]; !ok {
					rest = append(rest, k)
				}
			}
			slices.Sort(rest)
			for _, k := range rest {
				var hk any
				if h != nil {
					hk = h.vals[k]
				}
				out.Set(k, reorder(x[k], hk))
			}
		}
		return out
	case []any:
		h, _ := hint.([]any)
		out := make([]any, len(x))
		for i, e := range x {
			var hi any
			if i < len(h) {
				hi = h[i]
			}
			out[i] = reorder(e, hi)
		}
		return out
	}
	return FromValue(v)
}

// Result is what a tool returns for the live path: an empty dict becomes
// an empty Go map, so that the live path wraps it as Python wraps {}.
func Result(v any) any {
	if m, ok := v.(*Map); ok && m.Len() == 0 {
		return map[string]any{}
	}
	return v
}
