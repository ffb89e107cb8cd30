package telecom

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/voiceeval/schematools/dbhash"
	"github.com/voiceeval/schematools/examples/tau2/tau2tools"
	"github.com/voiceeval/schematools/internal/pyjson"
	"golang.org/x/text/cases"
	"golang.org/x/text/language"
)

// The DBs are generic JSON trees, read as Python's json.loads reads them
// (numbers are json.Number, so 1 and 1.0 stay apart). The functions in this
// file give them the Python semantics the original tools rely on: indexing,
// dict.get, truthiness, ==, float(), str() and repr().

// pyError is an exception the Python original would raise. Error returns
// str() of the exception, which is what a tool's caller sees; initialisation
// functions, predicates and the sync report it with its type, as Python's
// dispatchers print it (see typed).
type pyError struct {
	typ string // "KeyError", "TypeError", "ValueError", "AttributeError", …
	msg string
}

func (e *pyError) Error() string { return e.msg }

func raise(typ, format string, args ...any) error {
	return &pyError{typ: typ, msg: fmt.Sprintf(format, args...)}
}

// typedError is a pyError as "<Type>: <message>", the text Python's
// initialisation and predicate dispatchers report.
type typedError struct{ *pyError }

func (e typedError) Error() string { return e.typ + ": " + e.msg }

func (e typedError) Unwrap() error { return e.pyError }

// typed returns err with its Python exception type in front of its message
// when it is a pyError, and err itself otherwise.
func typed(err error) error {
	if pe, ok := err.(*pyError); ok {
		return typedError{pe}
	}
	return err
}

// isPyError reports whether err is a pyError of one of the given types.
func isPyError(err error, types ...string) bool {
	pe, ok := err.(*pyError)
	return ok && slices.Contains(types, pe.typ)
}

// keyError is Python's KeyError for a missing string key: str() of it is
// the key's repr.
func keyError(key string) error { return &pyError{typ: "KeyError", msg: tau2tools.PyRepr(key)} }

// subscript is Python's v[key] with a string key.
func subscript(v any, key string) (any, error) {
	switch x := v.(type) {
	case map[string]any:
		e, ok := x[key]
		if !ok {
			return nil, keyError(key)
		}
		return e, nil
	case []any:
		return nil, raise("TypeError", "list indices must be integers or slices, not str")
	case string:
		return nil, raise("TypeError", "string indices must be integers, not 'str'")
	}
	return nil, raise("TypeError", "'%s' object is not subscriptable", tau2tools.PyTypeName(v))
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
		return nil, raise("AttributeError", "'%s' object has no attribute 'get'", tau2tools.PyTypeName(v))
	}
	if e, ok := m[key]; ok {
		return e, nil
	}
	return def, nil
}

// assignable checks Python's v[key] = value before the write: only a dict
// takes a string key.
func assignable(v any) (map[string]any, error) {
	switch x := v.(type) {
	case map[string]any:
		return x, nil
	case []any:
		return nil, raise("TypeError", "list indices must be integers or slices, not str")
	}
	return nil, raise("TypeError", "'%s' object does not support item assignment", tau2tools.PyTypeName(v))
}

// appendable checks Python's v.append(x) before the write.
func appendable(v any) ([]any, error) {
	if l, ok := v.([]any); ok {
		return l, nil
	}
	return nil, raise("AttributeError", "'%s' object has no attribute 'append'", tau2tools.PyTypeName(v))
}

// iterate is Python's iteration over v: the items of a list, the keys of a
// dict (in sorted order: a Go map keeps no order), the characters of a
// string; anything else is not iterable.
func iterate(v any) ([]any, error) {
	switch x := v.(type) {
	case []any:
		return x, nil
	case map[string]any:
		keys := tau2tools.SortedKeys(x)
		out := make([]any, len(keys))
		for i, k := range keys {
			out[i] = k
		}
		return out, nil
	case string:
		out := make([]any, 0, len(x))
		for _, r := range x {
			out = append(out, string(r))
		}
		return out, nil
	}
	return nil, raise("TypeError", "'%s' object is not iterable", tau2tools.PyTypeName(v))
}

// contains is Python's x in v.
func contains(v any, x any) (bool, error) {
	switch c := v.(type) {
	case []any:
		for _, e := range c {
			if pyEqual(e, x) {
				return true, nil
			}
		}
		return false, nil
	case map[string]any:
		s, ok := x.(string)
		if !ok {
			if _, err := hashable(x); err != nil {
				return false, err
			}
			return false, nil
		}
		_, ok = c[s]
		return ok, nil
	case string:
		s, ok := x.(string)
		if !ok {
			return false, raise("TypeError", "'in <string>' requires string as left operand, not %s", tau2tools.PyTypeName(x))
		}
		return strings.Contains(c, s), nil
	}
	return false, raise("TypeError", "argument of type '%s' is not iterable", tau2tools.PyTypeName(v))
}

// hashable reports the TypeError Python raises when an unhashable value
// (a list or a dict) is used as a dict key.
func hashable(v any) (any, error) {
	switch v.(type) {
	case []any, map[string]any:
		return nil, raise("TypeError", "unhashable type: '%s'", tau2tools.PyTypeName(v))
	}
	return v, nil
}

// lookup is Python's d.get(key, def) with a key that may be any JSON value:
// only a string can equal a JSON object's keys.
func lookup(d map[string]any, key, def any) (any, error) {
	if _, err := hashable(key); err != nil {
		return nil, err
	}
	if s, ok := key.(string); ok {
		if v, ok := d[s]; ok {
			return v, nil
		}
	}
	return def, nil
}

// pyEqual is Python's a == b for JSON values (so 1 == 1.0 == True).
func pyEqual(a, b any) bool {
	// Strings are by far the most common case: compare them directly.
	if sa, ok := a.(string); ok {
		sb, ok := b.(string)
		return ok && sa == sb
	}
	if _, ok := b.(string); ok {
		return false
	}
	if ba, ok := a.(bool); ok { // the flags the sync compares
		if bb, ok := b.(bool); ok {
			return ba == bb
		}
	}
	return dbhash.Equal(a, b)
}

// number returns a JSON number (or a bool, which Python treats as an int)
// as a float64, for arithmetic mixing it with floats. Anything else is the
// TypeError Python raises for the operation op.
func number(v any, op string, other string) (float64, error) {
	switch x := v.(type) {
	case json.Number:
		f, err := pyjson.ParseFloat(string(x))
		switch {
		case err == nil:
			return f, nil
		case !errors.Is(err, strconv.ErrRange):
			return 0, raise("TypeError", "invalid number %s", string(x))
		case math.IsInf(f, 0):
			if isInt, _ := pyjson.Classify(string(x)); isInt {
				return 0, raise("OverflowError", "int too large to convert to float")
			}
		}
		return f, nil // a float token out of range: ±Inf or 0, as Python reads it
	case float64:
		return x, nil
	case int:
		return float64(x), nil
	case int64:
		return float64(x), nil
	case bool:
		if x {
			return 1, nil
		}
		return 0, nil
	}
	return 0, raise("TypeError", "unsupported operand type(s) for %s: '%s' and '%s'", op, tau2tools.PyTypeName(v), other)
}

// pyFloat is Python's float(v): numbers and booleans, and strings in
// Python's float syntax.
func pyFloat(v any) (float64, error) {
	switch x := v.(type) {
	case string:
		return floatOfString(x)
	case json.Number, float64, int, int64, bool:
		return number(v, "float", "")
	}
	return 0, raise("TypeError", "float() argument must be a string or a real number, not '%s'", tau2tools.PyTypeName(v))
}

// floatOfString parses s as Python's float(str) does: surrounding
// whitespace, a sign, digits with single underscores between them,
// "inf", "infinity" and "nan" in any case.
func floatOfString(s string) (float64, error) {
	bad := func() (float64, error) {
		return 0, raise("ValueError", "could not convert string to float: %s", tau2tools.PyRepr(s))
	}
	t := pyjson.Strip(s)
	body := strings.TrimLeft(t, "+-")
	if len(t)-len(body) > 1 || body == "" {
		return bad()
	}
	switch strings.ToLower(body) {
	case "inf", "infinity", "nan":
		f, _ := pyjson.ParseFloat(t)
		return f, nil
	}
	var b strings.Builder
	for i := 0; i < len(t); i++ {
		c := t[i]
		switch {
		case c >= '0' && c <= '9', c == '.', c == 'e', c == 'E', c == '+', c == '-':
			b.WriteByte(c)
		case c == '_' && i > 0 && i+1 < len(t) && isDigit(t[i-1]) && isDigit(t[i+1]):
		default:
			return bad()
		}
	}
	f, err := pyjson.ParseFloat(b.String())
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return bad()
	}
	return f, nil
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// compare is Python's ordering of two JSON numbers (booleans count as
// ints), exact even between a large int and a float: -1, 0 or +1. ok is
// false when either is not a number (Python's TypeError) or is NaN.
func compare(a, b any) (c int, ok bool) {
	fa, okA := bigOf(a)
	fb, okB := bigOf(b)
	if !okA || !okB {
		return 0, false
	}
	return fa.Cmp(fb), true
}

func bigOf(v any) (*big.Float, bool) {
	switch x := v.(type) {
	case json.Number:
		if isInt, _ := pyjson.Classify(string(x)); isInt {
			i, ok := new(big.Int).SetString(pyjson.IntText(string(x)), 10)
			if !ok {
				return nil, false
			}
			return new(big.Float).SetInt(i), true
		}
		f, err := pyjson.ParseFloat(string(x))
		if err != nil && !math.IsInf(f, 0) || math.IsNaN(f) {
			return nil, false
		}
		return new(big.Float).SetFloat64(f), true
	case float64:
		if math.IsNaN(x) {
			return nil, false
		}
		return new(big.Float).SetFloat64(x), true
	case int:
		return new(big.Float).SetInt64(int64(x)), true
	case int64:
		return new(big.Float).SetInt64(x), true
	case bool:
		if x {
			return new(big.Float).SetInt64(1), true
		}
		return new(big.Float), true
	}
	return nil, false
}

// floatValue is a computed Python float as a DB value: a json.Number
// holding Python's repr of it, so that it hashes and prints as Python's
// float does ("4.0", not "4"). NaN and ±Inf have no JSON token and stay
// float64.
func floatValue(f float64) any {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return f
	}
	return json.Number(pyjson.AppendFloat(nil, f))
}

// fixed2 is Python's format(f, ".2f").
func fixed2(f float64) string {
	switch {
	case math.IsNaN(f):
		return "nan"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	return strconv.FormatFloat(f, 'f', 2, 64)
}

// pyLower is Python's str.lower(): full Unicode case mapping ("İ" becomes
// "i̇", a word-final "Σ" becomes "ς"), with a fast path for ASCII.
func pyLower(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return cases.Lower(language.Und).String(s) // a Caser keeps state: one per call
		}
	}
	return strings.ToLower(s)
}

// pyStr is Python's str(v) for a JSON value.
func pyStr(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return pyRepr(v)
}

// pyRepr is Python's repr(v) for a JSON value. Dict keys come in sorted
// order, as a Go map keeps none; reprDict takes a preferred order.
func pyRepr(v any) string {
	var b strings.Builder
	writeRepr(&b, v, nil)
	return b.String()
}

// reprDict is repr of a dict whose keys are written in the order of
// first (those present), then the others sorted: the order in which the
// Python original's data model creates them.
func reprDict(m map[string]any, first []string) string {
	var b strings.Builder
	writeRepr(&b, m, first)
	return b.String()
}

func writeRepr(b *strings.Builder, v any, first []string) {
	switch x := v.(type) {
	case nil:
		b.WriteString("None")
	case bool:
		if x {
			b.WriteString("True")
		} else {
			b.WriteString("False")
		}
	case string:
		b.WriteString(tau2tools.PyRepr(x))
	case json.Number:
		if isInt, _ := pyjson.Classify(string(x)); isInt {
			b.WriteString(pyjson.IntText(string(x)))
			return
		}
		f, _ := pyjson.ParseFloat(string(x))
		b.WriteString(tau2tools.FloatRepr(f))
	case float64:
		b.WriteString(tau2tools.FloatRepr(x))
	case float32:
		b.WriteString(tau2tools.FloatRepr(float64(x)))
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteString(", ")
			}
			writeRepr(b, e, nil)
		}
		b.WriteByte(']')
	case map[string]any:
		b.WriteByte('{')
		for i, k := range orderedKeys(x, first) {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(tau2tools.PyRepr(k))
			b.WriteString(": ")
			writeRepr(b, x[k], nil)
		}
		b.WriteByte('}')
	default:
		if out, ok := pyjson.AppendInteger(nil, v); ok {
			b.Write(out)
			return
		}
		fmt.Fprint(b, v)
	}
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
	for _, k := range tau2tools.SortedKeys(m) {
		if !slices.Contains(first, k) {
			keys = append(keys, k)
		}
	}
	return keys
}
