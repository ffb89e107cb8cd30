package pyvalue

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/voiceeval/schematools/internal/pyjson"
)

// TypeName returns type(v).__name__ of the Python value v stands for:
// "NoneType", "bool", "int", "float", "str", "list", "dict", an Error's
// type, and "<Go T>" naming the Go type of anything else.
func TypeName(v any) string {
	switch x := v.(type) {
	case nil:
		return "NoneType"
	case bool:
		return "bool"
	case string:
		return "str"
	case []any:
		return "list"
	case map[string]any, Dict:
		return "dict"
	case *Error:
		return x.Type
	}
	if n, ok := NumOf(v); ok {
		if n.IsFloat() {
			return "float"
		}
		return "int"
	}
	return fmt.Sprintf("<Go %T>", v)
}

// Truthy returns Python's bool(v): None, False, zero, NaN excepted (NaN
// is true), "" and empty lists and dicts are false; everything else is
// true.
func Truthy(v any) bool {
	switch x := v.(type) {
	case nil:
		return false
	case bool:
		return x
	case string:
		return x != ""
	case []any:
		return len(x) > 0
	case map[string]any:
		return len(x) > 0
	case Dict:
		return len(x) > 0
	}
	if n, ok := NumOf(v); ok {
		return n.Sign() != 0 || n.isFloat && math.IsNaN(n.f)
	}
	return true
}

// Len returns Python's len(v): the code points of a str (a WTF-8 lone
// surrogate is one), the items of a list, the keys of a dict; anything
// else is the TypeError "object of type 'int' has no len()".
func Len(v any) (int, error) {
	switch x := v.(type) {
	case string:
		n := 0
		for i := 0; i < len(x); n++ {
			_, size := pyjson.DecodeRune(x[i:])
			i += size
		}
		return n, nil
	case []any:
		return len(x), nil
	case map[string]any, Dict:
		return dictLen(x), nil
	}
	return 0, typeError("object of type '%s' has no len()", TypeName(v))
}

// Contains returns Python's item in container: a substring test in a str
// (item must be a str: TypeError "'in <string>' requires string as left
// operand, not int"), an [Equal] member in a list, a key in a dict (a list
// or dict item is the TypeError "unhashable type: 'list'"); any other
// container is the TypeError "argument of type 'int' is not iterable".
func Contains(item, container any) (bool, error) {
	switch c := container.(type) {
	case string:
		s, ok := item.(string)
		if !ok {
			return false, typeError("'in <string>' requires string as left operand, not %s", TypeName(item))
		}
		return strings.Contains(c, s), nil
	case []any:
		for _, e := range c {
			if equal(item, e, false, true) {
				return true, nil
			}
		}
		return false, nil
	case map[string]any, Dict:
		switch item.(type) {
		case []any, map[string]any, Dict:
			return false, typeError("unhashable type: '%s'", TypeName(item))
		}
		s, ok := item.(string)
		if !ok {
			return false, nil
		}
		_, ok = dictLookup(c, s)
		return ok, nil
	}
	return false, typeError("argument of type '%s' is not iterable", TypeName(container))
}

// Iter returns the items of Python's iteration over v (list(v)): a list's
// items (the list itself), a dict's keys (a Dict's in its order, a Go
// map's sorted, as a map keeps no order), a str's characters (code points,
// a WTF-8 lone surrogate one character, as [Len] counts them); anything
// else is the TypeError "'int' object is not iterable".
func Iter(v any) ([]any, error) {
	switch x := v.(type) {
	case []any:
		return x, nil
	case Dict:
		items := x.Items()
		out := make([]any, len(items))
		for i, it := range items {
			out[i] = it.Key
		}
		return out, nil
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		out := make([]any, len(keys))
		for i, k := range keys {
			out[i] = k
		}
		return out, nil
	case string:
		out := make([]any, 0, len(x))
		for i := 0; i < len(x); {
			_, n := pyjson.DecodeRune(x[i:])
			out = append(out, x[i:i+n])
			i += n
		}
		return out, nil
	}
	return nil, typeError("'%s' object is not iterable", TypeName(v))
}

// Equal returns Python's a == b: numbers by exact value across int, float
// and bool (True == 1 == 1.0), str by code points, lists item by item,
// dicts by keys and values whatever their order (a Dict equals a map with
// the same items). NaN equals nothing, in a list or dict too: every NaN is
// taken to be its own object, as float('nan') makes one each time (so
// [NaN] == [NaN] is false, as the conformance vectors have it). For values
// json.loads made in one process, see [EqualLoaded].
func Equal(a, b any) bool { return equal(a, b, false, false) }

// EqualLoaded is [Equal] for values json.loads made in one process, which
// hands out one NaN object for every NaN literal it reads: Python compares
// list and dict members by identity first, so there a NaN member equals a
// NaN member ([NaN] == [NaN] is true), while NaN == NaN itself stays
// false. DB records read from JSON compare so.
func EqualLoaded(a, b any) bool { return equal(a, b, true, false) }

func equal(a, b any, sharedNaN, inside bool) bool {
	switch x := a.(type) {
	case nil:
		return b == nil
	case string:
		y, ok := b.(string)
		return ok && x == y
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !equal(x[i], y[i], sharedNaN, true) {
				return false
			}
		}
		return true
	case map[string]any:
		if y, ok := b.(map[string]any); ok {
			if len(x) != len(y) {
				return false
			}
			for k, xv := range x {
				yv, ok := y[k]
				if !ok || !equal(xv, yv, sharedNaN, true) {
					return false
				}
			}
			return true
		}
		return equalDict(x, b, sharedNaN)
	case Dict:
		return equalDict(x, b, sharedNaN)
	}
	return equalNum(a, b, sharedNaN, inside)
}

// equalDict is == of a dict (a Dict, or a map compared with a Dict) and
// b, which must be a dict of the same items.
func equalDict(x, b any, sharedNaN bool) bool {
	if _, ok := dictItems(b); !ok {
		return false
	}
	xs, _ := dictItems(x)
	if len(xs) != dictLen(b) {
		return false
	}
	for _, it := range xs {
		yv, ok := dictLookup(b, it.Key)
		if !ok || !equal(it.Value, yv, sharedNaN, true) {
			return false
		}
	}
	return true
}

func equalNum(a, b any, sharedNaN, inside bool) bool {
	na, okA := NumOf(a)
	nb, okB := NumOf(b)
	if !okA || !okB {
		return false
	}
	if sharedNaN && inside && na.isFloat && nb.isFloat && math.IsNaN(na.f) && math.IsNaN(nb.f) {
		return true
	}
	return na.Equal(nb)
}

// Less returns Python's a < b: numbers by exact value (NaN is never less
// nor greater), str by code points, lists lexicographically (the first
// items that differ decide, else the shorter is less). Anything else —
// dicts, None, a str and a number — is the TypeError "'<' not supported
// between instances of 'str' and 'int'".
func Less(a, b any) (bool, error) {
	switch x := a.(type) {
	case string:
		if y, ok := b.(string); ok {
			return x < y, nil // UTF-8 and WTF-8 bytes sort as code points
		}
	case []any:
		if y, ok := b.([]any); ok {
			for i := 0; i < len(x) && i < len(y); i++ {
				if !equal(x[i], y[i], false, true) {
					return Less(x[i], y[i])
				}
			}
			return len(x) < len(y), nil
		}
	case nil, map[string]any, Dict:
	default:
		if na, ok := NumOf(a); ok {
			if nb, ok := NumOf(b); ok {
				c, ok := na.Cmp(nb)
				return ok && c < 0, nil
			}
		}
	}
	return false, typeError("'<' not supported between instances of '%s' and '%s'", TypeName(a), TypeName(b))
}
