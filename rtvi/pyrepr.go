package rtvi

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/voiceeval/schematools/internal/pyvalue"
)

// pythonRepr returns the text Python's repr() (which is also what str()
// prints for a list or dict) gives for the Python value equivalent to v,
// so that the harness can eval() it back:
//
//   - nil, true, false: None, True, False;
//   - an orderedObject: a dict with its keys in order; a map[string]any: a dict
//     with its keys sorted, as json.loads would build it from
//     encoding/json output; []any and []map[string]any: a list. Nil maps,
//     slices and Objects are the empty {} and [];
//   - a string: a str literal quoted and escaped as Python does (single
//     quotes unless the text has a single quote and no double quote;
//     non-ASCII characters CPython 3.11's str.isprintable accepts (Unicode
//     14) as they are, others as \xNN, \uNNNN or \UNNNNNNNN; a WTF-8
//     lone surrogate as \udXXX);
//   - Go integers, *big.Int and integral json.Number: the digits;
//   - float64 and float32: Python's float repr (1.0, 1e-05, 1e+16, inf,
//     -inf, nan); a json.Number with a fraction or an exponent: the repr
//     of the float json.loads makes of it ("1e2" is 100.0, "1e400" inf);
//   - []byte: a bytes literal, b'...'.
//
// Any other value is first turned into a JSON tree through encoding/json
// (structs become dicts in field order). A top-level string is printed as
// a quoted literal, as repr() does, not bare as str() would.
//
// A byte of a string that is neither UTF-8 nor WTF-8 is written as the
// replacement character U+FFFD ('\ufffd').
//
// It is an error if encoding/json cannot marshal a value, if a json.Number
// is not a number, or if containers nest more than 10,000 deep (which
// includes cyclic values).
func pythonRepr(v any) (string, error) {
	b, err := appendPyRepr(nil, v, 0, false)
	if err != nil {
		return "", err
	}
	return string(b), nil
}

// appendPyRepr appends the Python repr of v. depth counts the containers
// enclosing v; converted says v came out of toTree, so it must not be
// converted again. Containers are walked here, for Go's container types,
// the depth limit and the bytes a Python value never holds; every str,
// number and constant is written by pyvalue.Repr.
func appendPyRepr(dst []byte, v any, depth int, converted bool) ([]byte, error) {
	var err error
	switch x := v.(type) {
	case nil, bool, string, float64:
		return pyvalue.AppendRepr(dst, x), nil
	case []byte:
		return appendPyBytes(dst, x), nil
	case float32:
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return pyvalue.AppendRepr(dst, float64(x)), nil
		}
		// The shortest text that identifies the float32, read as a
		// float64: what json.Marshal sends and json.loads reads.
		f, _ := strconv.ParseFloat(strconv.FormatFloat(float64(x), 'g', -1, 32), 64)
		return pyvalue.AppendRepr(dst, f), nil
	case json.Number:
		if _, ok := pyvalue.NumOf(x); !ok {
			return dst, fmt.Errorf("rtvi: json.Number %q is not a JSON number", string(x))
		}
		return pyvalue.AppendRepr(dst, x), nil
	case *big.Int:
		if x == nil {
			return append(dst, "None"...), nil
		}
		return x.Append(dst, 10), nil
	case orderedObject:
		if depth >= treeMaxDepth {
			return dst, errTreeDepth
		}
		return appendPyDict(dst, x.dict().Items(), depth)
	case pyvalue.Dict:
		return appendPyRepr(dst, fromDict(x), depth, converted)
	case map[string]any:
		return appendPyMap(dst, x, depth)
	case []any:
		if depth >= treeMaxDepth {
			return dst, errTreeDepth
		}
		dst = append(dst, '[')
		for i, e := range x {
			if i > 0 {
				dst = append(dst, ", "...)
			}
			if dst, err = appendPyRepr(dst, e, depth+1, false); err != nil {
				return dst, err
			}
		}
		return append(dst, ']'), nil
	case []map[string]any:
		if depth >= treeMaxDepth {
			return dst, errTreeDepth
		}
		dst = append(dst, '[')
		for i, m := range x {
			if i > 0 {
				dst = append(dst, ", "...)
			}
			if dst, err = appendPyMap(dst, m, depth+1); err != nil {
				return dst, err
			}
		}
		return append(dst, ']'), nil
	}
	if n, ok := pyvalue.NumOf(v); ok {
		return append(dst, n.String()...), nil
	}
	if converted {
		return dst, fmt.Errorf("rtvi: no Python repr for %T", v)
	}
	tree, err := toTree(v)
	if err != nil {
		return dst, err
	}
	return appendPyRepr(dst, tree, depth, true)
}

// appendPyMap appends m as the dict json.loads builds from encoding/json
// output: its keys sorted (byte order is code point order, for UTF-8 and
// WTF-8 alike).
func appendPyMap(dst []byte, m map[string]any, depth int) ([]byte, error) {
	if depth >= treeMaxDepth {
		return dst, errTreeDepth
	}
	d := make(pyvalue.Dict, 0, len(m))
	for k, v := range m {
		d = append(d, pyvalue.Item{Key: k, Value: v})
	}
	slices.SortFunc(d, func(a, b pyvalue.Item) int { return strings.Compare(a.Key, b.Key) })
	return appendPyDict(dst, d, depth)
}

// appendPyDict appends the dict of items d, whose keys are distinct; the
// caller has checked depth.
func appendPyDict(dst []byte, d pyvalue.Dict, depth int) ([]byte, error) {
	var err error
	dst = append(dst, '{')
	for i, it := range d {
		if i > 0 {
			dst = append(dst, ", "...)
		}
		dst = pyvalue.AppendRepr(dst, it.Key)
		dst = append(dst, ": "...)
		if dst, err = appendPyRepr(dst, it.Value, depth+1, false); err != nil {
			return dst, err
		}
	}
	return append(dst, '}'), nil
}

const lowerHex = "0123456789abcdef"

// appendPyBytes appends b as Python's repr of a bytes object writes it.
func appendPyBytes(dst []byte, b []byte) []byte {
	quote := byte('\'')
	if slices.Contains(b, '\'') && !slices.Contains(b, '"') {
		quote = '"'
	}
	dst = append(dst, 'b', quote)
	for _, c := range b {
		switch {
		case c == quote || c == '\\':
			dst = append(dst, '\\', c)
		case c == '\t':
			dst = append(dst, '\\', 't')
		case c == '\n':
			dst = append(dst, '\\', 'n')
		case c == '\r':
			dst = append(dst, '\\', 'r')
		case c < 0x20 || c >= 0x7f:
			dst = append(dst, '\\', 'x', lowerHex[c>>4], lowerHex[c&0xf])
		default:
			dst = append(dst, c)
		}
	}
	return append(dst, quote)
}
