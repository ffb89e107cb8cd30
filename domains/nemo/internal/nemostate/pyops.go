package nemostate

import (
	"github.com/voiceeval/schematools/internal/pyvalue"
)

// The Python operations the tools apply to ordered values (*Map for a
// dict), raising what CPython 3.11 raises, as *pyvalue.Error values.

// TypeName is type(v).__name__.
func TypeName(v any) string { return pyvalue.TypeName(Py(v)) }

// Contains is Python's item in container.
func Contains(item, container any) (bool, error) {
	return pyvalue.Contains(Py(item), Py(container))
}

// hashable reports the TypeError of using v as a dict key.
func hashable(v any) error {
	switch v.(type) {
	case *Map, []any:
		return pyvalue.Raise("TypeError", "unhashable type: '%s'", TypeName(v))
	}
	return nil
}

// intIndex reads v as a list index: an int or a bool.
func intIndex(v any) (int64, bool) {
	switch x := v.(type) {
	case bool:
		if x {
			return 1, true
		}
		return 0, true
	}
	n, ok := pyvalue.NumOf(v)
	if !ok || n.IsFloat() {
		return 0, false
	}
	return n.Int64()
}

// GetItem is Python's container[key].
func GetItem(container, key any) (any, error) {
	switch x := container.(type) {
	case *Map:
		if err := hashable(key); err != nil {
			return nil, err
		}
		if k, ok := key.(string); ok {
			if v, ok := x.Get(k); ok {
				return v, nil
			}
		}
		return nil, &pyvalue.Error{Type: "KeyError", Msg: Str(key)}
	case []any:
		i, ok := intIndex(key)
		if !ok {
			return nil, pyvalue.Raise("TypeError", "list indices must be integers or slices, not %s", TypeName(key))
		}
		if i < 0 {
			i += int64(len(x))
		}
		if i < 0 || i >= int64(len(x)) {
			return nil, pyvalue.Raise("IndexError", "list index out of range")
		}
		return x[i], nil
	case string:
		i, ok := intIndex(key)
		if !ok {
			return nil, pyvalue.Raise("TypeError", "string indices must be integers, not '%s'", TypeName(key))
		}
		r := []rune(x)
		if i < 0 {
			i += int64(len(r))
		}
		if i < 0 || i >= int64(len(r)) {
			return nil, pyvalue.Raise("IndexError", "string index out of range")
		}
		return string(r[i]), nil
	}
	return nil, pyvalue.Raise("TypeError", "'%s' object is not subscriptable", TypeName(container))
}

// SetItem is Python's container[key] = v for a str key.
func SetItem(container any, key string, v any) error {
	switch x := container.(type) {
	case *Map:
		x.Set(key, v)
		return nil
	case []any:
		return pyvalue.Raise("TypeError", "list indices must be integers or slices, not str")
	}
	return pyvalue.Raise("TypeError", "'%s' object does not support item assignment", TypeName(container))
}

// AsDict returns v as a dict for calling the dict method named method on
// it, or Python's AttributeError.
func AsDict(v any, method string) (*Map, error) {
	if m, ok := v.(*Map); ok {
		return m, nil
	}
	return nil, pyvalue.Raise("AttributeError", "'%s' object has no attribute '%s'", TypeName(v), method)
}

// DictGet is Python's d.get(key, def).
func DictGet(d, key, def any) (any, error) {
	m, err := AsDict(d, "get")
	if err != nil {
		return nil, err
	}
	if err := hashable(key); err != nil {
		return nil, err
	}
	if k, ok := key.(string); ok {
		if v, ok := m.Get(k); ok {
			return v, nil
		}
	}
	return def, nil
}

// Iter is Python's iteration over v: a list's items, a dict's keys (a
// *Map's in its order), a str's characters (pyvalue.Iter).
func Iter(v any) ([]any, error) {
	if m, ok := v.(*Map); ok {
		out := make([]any, 0, m.Len())
		for _, k := range m.keys {
			out = append(out, k)
		}
		return out, nil
	}
	return pyvalue.Iter(v)
}

// Len is Python's len(v).
func Len(v any) (int, error) { return pyvalue.Len(Py(v)) }

// Float is Python's float(v).
func Float(v any) (float64, error) { return pyvalue.Float(Py(v)) }

// Equal is Python's a == b.
func Equal(a, b any) bool { return pyvalue.Equal(Py(a), Py(b)) }
