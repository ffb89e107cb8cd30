package dbhash

import (
	"encoding/json"
	"math"
	"math/big"

	"github.com/voiceeval/schematools/internal/pyjson"
)

// Equal reports whether Python's == holds between two JSON values, as the
// Python original compares DB records and tool arguments: numbers compare
// by exact value across int, float, bool and json.Number (true == 1 ==
// 1.0), strings compare by bytes, objects and lists element by element.
// NaN is not equal to NaN — except inside objects and lists, where Python
// compares by identity first and json.loads hands out one NaN object for
// every NaN literal. Values are not normalised first.
func Equal(a, b any) bool { return pyEqual(a, b) }

func pyEqual(a, b any) bool { return equal(a, b, false) }

// equal is Python's ==; inside says whether a and b are container members.
func equal(a, b any, inside bool) bool {
	switch x := a.(type) {
	case nil:
		return b == nil
	case string:
		y, ok := b.(string)
		return ok && x == y
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, xv := range x {
			yv, ok := y[k]
			if !ok || !equal(xv, yv, true) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !equal(x[i], y[i], true) {
				return false
			}
		}
		return true
	}
	na, okA := pyNumber(a)
	nb, okB := pyNumber(b)
	if inside && okA && okB && na.isFloat && nb.isFloat && math.IsNaN(na.f) && math.IsNaN(nb.f) {
		return true // the same NaN object, compared by identity
	}
	return okA && okB && na.equal(nb)
}

// number is a Python int (exact) or float.
type number struct {
	isFloat bool
	f       float64
	i       *big.Int
}

// pyNumber reads a JSON number or a bool (a Python int subclass).
func pyNumber(v any) (number, bool) {
	switch x := v.(type) {
	case bool:
		if x {
			return number{i: big.NewInt(1)}, true
		}
		return number{i: big.NewInt(0)}, true
	case float64:
		return number{isFloat: true, f: x}, true
	case float32:
		return number{isFloat: true, f: float64(x)}, true
	case json.Number:
		isInt, ok := pyjson.Classify(string(x))
		if !ok {
			return number{}, false
		}
		if isInt {
			i, _ := new(big.Int).SetString(string(x), 10)
			return number{i: i}, true
		}
		f, _ := pyjson.ParseFloat(string(x))
		return number{isFloat: true, f: f}, true
	}
	if b, ok := pyjson.AppendInteger(nil, v); ok {
		i, _ := new(big.Int).SetString(string(b), 10)
		return number{i: i}, true
	}
	return number{}, false
}

func (a number) equal(b number) bool {
	switch {
	case a.isFloat && b.isFloat:
		return a.f == b.f
	case !a.isFloat && !b.isFloat:
		return a.i.Cmp(b.i) == 0
	case a.isFloat:
		return floatEqualsInt(a.f, b.i)
	default:
		return floatEqualsInt(b.f, a.i)
	}
}

// floatEqualsInt compares exactly, as Python compares a float with an int.
func floatEqualsInt(f float64, i *big.Int) bool {
	if math.IsNaN(f) || math.IsInf(f, 0) || f != math.Trunc(f) {
		return false
	}
	fi, _ := new(big.Float).SetFloat64(f).Int(nil)
	return fi.Cmp(i) == 0
}

// typeName is the name of the Python type of a normalised value.
func typeName(v any) string {
	switch x := v.(type) {
	case nil:
		return "NoneType"
	case bool:
		return "bool"
	case string:
		return "str"
	case map[string]any:
		return "dict"
	case []any:
		return "list"
	case float64, float32:
		return "float"
	case json.Number:
		if isInt, _ := pyjson.Classify(string(x)); isInt {
			return "int"
		}
		return "float"
	}
	if _, ok := pyjson.AppendInteger(nil, v); ok {
		return "int"
	}
	return "object"
}
