package telecom

import (
	"encoding/json"
	"errors"
	"math"
	"slices"

	"github.com/voiceeval/schematools/internal/pyjson"
	"github.com/voiceeval/schematools/internal/pyvalue"
)

// The DBs are generic JSON trees, read as Python's json.loads reads them
// (numbers are json.Number, so 1 and 1.0 stay apart). Their Python
// semantics — ==, float(), str(), repr(), truthiness, the exceptions — are
// internal/pyvalue's; this file holds how the telecom code reaches into
// them as the original tools do (v[key], v.get(key), iteration), raising
// what Python raises, as *pyvalue.Error values.

// raised returns err as a tool's caller sees it: a Python exception's
// text is str(exc) (pyvalue.StrError), what the Python reference records,
// where the initialisation functions, predicates and the sync report the
// *pyvalue.Error itself ("<Type>: <message>", as Python's dispatchers
// print it).
func raised(err error) error {
	if e, ok := err.(*pyvalue.Error); ok {
		return pyvalue.StrError{Exc: e}
	}
	return err
}

// subscript is Python's v[key] with a string key.
func subscript(v any, key string) (any, error) {
	switch x := v.(type) {
	case map[string]any:
		e, ok := x[key]
		if !ok {
			return nil, &pyvalue.Error{Type: "KeyError", Msg: key}
		}
		return e, nil
	case []any:
		return nil, pyvalue.Raise("TypeError", "list indices must be integers or slices, not str")
	case string:
		return nil, pyvalue.Raise("TypeError", "string indices must be integers, not 'str'")
	}
	return nil, pyvalue.Raise("TypeError", "'%s' object is not subscriptable", pyvalue.TypeName(v))
}

// dictAt is Python's v[key] where the value is then used as a dict
// (indexed, assigned to, or asked .get): anything else is the exception
// Python raises when it is used so.
func dictAt(v any, key string) (map[string]any, error) {
	e, err := subscript(v, key)
	if err != nil {
		return nil, err
	}
	return asDict(e)
}

// asDict returns v as a dict, or the TypeError Python raises when a value
// that is not one is indexed with a string.
func asDict(v any) (map[string]any, error) {
	if m, ok := v.(map[string]any); ok {
		return m, nil
	}
	_, err := subscript(v, "") // never nil for anything but a dict
	return nil, err
}

// get is Python's v.get(key, def): v must be a dict.
func get(v any, key string, def any) (any, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, noAttribute(v, "get")
	}
	if e, ok := m[key]; ok {
		return e, nil
	}
	return def, nil
}

// noAttribute is the AttributeError of v.name where v has no such method.
func noAttribute(v any, name string) error {
	return pyvalue.Raise("AttributeError", "'%s' object has no attribute '%s'", pyvalue.TypeName(v), name)
}

// assignable checks Python's v[key] = value before the write: only a dict
// takes a string key.
func assignable(v any) (map[string]any, error) {
	switch x := v.(type) {
	case map[string]any:
		return x, nil
	case []any:
		return nil, pyvalue.Raise("TypeError", "list indices must be integers or slices, not str")
	}
	return nil, pyvalue.Raise("TypeError", "'%s' object does not support item assignment", pyvalue.TypeName(v))
}

// appendable checks Python's v.append(x) before the write.
func appendable(v any) ([]any, error) {
	if l, ok := v.([]any); ok {
		return l, nil
	}
	return nil, noAttribute(v, "append")
}

// iterateItem is Python's iteration over v[key]: subscript, then iterate.
func iterateItem(v any, key string) ([]any, error) {
	item, err := subscript(v, key)
	if err != nil {
		return nil, err
	}
	return pyvalue.Iter(item)
}

// hashable returns the TypeError Python raises when v is looked up in a
// dict and cannot be a key (a list or a dict): the same as for v in {}.
func hashable(v any) error {
	_, err := pyvalue.Contains(v, map[string]any(nil))
	return err
}

// lookup is Python's d.get(key, def) with a key that may be any JSON value:
// only a string can equal a JSON object's keys.
func lookup(d map[string]any, key, def any) (any, error) {
	if in, err := pyvalue.Contains(key, d); err != nil || !in {
		return def, err
	}
	return d[key.(string)], nil // only a string is in a JSON object
}

// operandError is the TypeError of a op b on operands that are not both
// numbers.
func operandError(op string, a, b any) error {
	return pyvalue.Raise("TypeError", "unsupported operand type(s) for %s: '%s' and '%s'", op, pyvalue.TypeName(a), pyvalue.TypeName(b))
}

// floatValue is a computed Python float as a DB value: a json.Number
// holding the token json.dumps writes for it, so that it hashes and
// prints as Python's float does ("4.0", not "4"). NaN and ±Inf have no
// JSON token and stay float64.
func floatValue(f float64) any {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return f
	}
	return json.Number(pyjson.AppendFloat(nil, f))
}

// orderedDict returns m as the dict the Python data model builds: the keys
// of first that m holds, in that order, then the others sorted (a Go map
// keeps no order of its own).
func orderedDict(m map[string]any, first []string) pyvalue.Dict {
	keys := orderedKeys(m, first)
	d := make(pyvalue.Dict, len(keys))
	for i, k := range keys {
		d[i] = pyvalue.Item{Key: k, Value: m[k]}
	}
	return d
}

// orderedKeys returns the keys of m: those of first that m holds, in that
// order, then the others sorted.
func orderedKeys(m map[string]any, first []string) []string {
	keys := make([]string, 0, len(m))
	for _, k := range first {
		if _, ok := m[k]; ok {
			keys = append(keys, k)
		}
	}
	if len(keys) == len(m) {
		return keys
	}
	n := len(keys)
	for k := range m {
		if !slices.Contains(first, k) {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys[n:])
	return keys
}

// isException reports whether err is a Python exception of one of the
// given types.
func isException(err error, types ...string) bool {
	var e *pyvalue.Error
	return errors.As(err, &e) && slices.Contains(types, e.Type)
}

// floatOp is Python's a op b where b is a float: a must be a number (else
// the TypeError of the operation); the result is a float.
func floatOp(a any, op string, b float64, do func(pyvalue.Num, pyvalue.Num) (pyvalue.Num, error)) (float64, error) {
	n, ok := pyvalue.NumOf(a)
	if !ok {
		return 0, operandError(op, a, b)
	}
	r, err := do(n, pyvalue.FloatNum(b))
	if err != nil {
		return 0, err
	}
	return r.Float64()
}

// round2 is Python's round(f, 2) of a float.
func round2(f float64) float64 {
	n, _ := pyvalue.Round2(f) // a float always rounds
	r, _ := n.Float64()
	return r
}

// format2 is Python's "%.2f" % f.
func format2(f float64) string {
	s, _ := pyvalue.Format2(f) // a float always formats
	return s
}
