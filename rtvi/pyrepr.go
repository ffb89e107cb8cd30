package rtvi

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/voiceeval/schematools/internal/pyjson"
)

// PythonRepr returns the text Python's repr() (which is also what str()
// prints for a list or dict) gives for the Python value equivalent to v,
// so that the harness can eval() it back:
//
//   - nil, true, false: None, True, False;
//   - an Object: a dict with its keys in order; a map[string]any: a dict
//     with its keys sorted, as json.loads would build it from
//     encoding/json output; []any and []map[string]any: a list. Nil maps,
//     slices and Objects are the empty {} and [];
//   - a string: a str literal quoted and escaped as Python does (single
//     quotes unless the text has a single quote and no double quote;
//     printable non-ASCII characters as they are, others as \xNN, \uNNNN
//     or \UNNNNNNNN; a WTF-8 lone surrogate as \udXXX);
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
func PythonRepr(v any) (string, error) {
	b, err := appendPyRepr(nil, v, 0, false)
	if err != nil {
		return "", err
	}
	return string(b), nil
}

// appendPyRepr appends the Python repr of v. depth counts the containers
// enclosing v; converted says v came out of toTree, so it must not be
// converted again.
func appendPyRepr(dst []byte, v any, depth int, converted bool) ([]byte, error) {
	var err error
	switch x := v.(type) {
	case nil:
		return append(dst, "None"...), nil
	case bool:
		if x {
			return append(dst, "True"...), nil
		}
		return append(dst, "False"...), nil
	case string:
		return appendPyStr(dst, x)
	case []byte:
		return appendPyBytes(dst, x), nil
	case float64:
		return appendPyFloat(dst, x), nil
	case float32:
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return appendPyFloat(dst, float64(x)), nil
		}
		// The shortest text that identifies the float32, read as a
		// float64: what json.Marshal sends and json.loads reads.
		f, _ := strconv.ParseFloat(strconv.FormatFloat(float64(x), 'g', -1, 32), 64)
		return appendPyFloat(dst, f), nil
	case json.Number:
		isInt, ok := pyjson.Classify(string(x))
		if !ok {
			return dst, fmt.Errorf("rtvi: json.Number %q is not a JSON number", string(x))
		}
		if isInt {
			return append(dst, pyjson.IntText(string(x))...), nil
		}
		// Syntax is checked; out of range gives ±Inf (or 0 for underflow)
		// as Python's float() does.
		f, _ := pyjson.ParseFloat(string(x))
		return appendPyFloat(dst, f), nil
	case *big.Int:
		if x == nil {
			return append(dst, "None"...), nil
		}
		return x.Append(dst, 10), nil
	case Object:
		if depth >= treeMaxDepth {
			return dst, errTreeDepth
		}
		dst = append(dst, '{')
		for i, m := range pyDictMembers(x) {
			if i > 0 {
				dst = append(dst, ", "...)
			}
			if dst, err = appendPyStr(dst, m.Key); err != nil {
				return dst, err
			}
			dst = append(dst, ": "...)
			if dst, err = appendPyRepr(dst, m.Value, depth+1, false); err != nil {
				return dst, err
			}
		}
		return append(dst, '}'), nil
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
	if d, ok := pyjson.AppendInteger(dst, v); ok {
		return d, nil
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

func appendPyMap(dst []byte, m map[string]any, depth int) ([]byte, error) {
	if depth >= treeMaxDepth {
		return dst, errTreeDepth
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	// Byte order is code point order, for UTF-8 and WTF-8 alike.
	slices.Sort(keys)
	dst = append(dst, '{')
	var err error
	for i, k := range keys {
		if i > 0 {
			dst = append(dst, ", "...)
		}
		if dst, err = appendPyStr(dst, k); err != nil {
			return dst, err
		}
		dst = append(dst, ": "...)
		if dst, err = appendPyRepr(dst, m[k], depth+1, false); err != nil {
			return dst, err
		}
	}
	return append(dst, '}'), nil
}

// pyDictMembers returns the members of o as a Python dict built from them
// in order holds them: a repeated key keeps its first position and takes
// its last value. Without repeats it is o itself.
func pyDictMembers(o Object) Object {
	if len(o) < 2 {
		return o
	}
	seen := make(map[string]int, len(o))
	var out Object
	for i, m := range o {
		j, dup := seen[m.Key]
		switch {
		case !dup:
			seen[m.Key] = len(seen)
			if out != nil {
				out = append(out, m)
			}
		default:
			if out == nil {
				out = slices.Clone(o[:i])
			}
			out[j].Value = m.Value
		}
	}
	if out == nil {
		return o
	}
	return out
}

// appendPyFloat appends Python's repr of a float.
func appendPyFloat(dst []byte, f float64) []byte {
	switch {
	case math.IsNaN(f):
		return append(dst, "nan"...)
	case math.IsInf(f, 1):
		return append(dst, "inf"...)
	case math.IsInf(f, -1):
		return append(dst, "-inf"...)
	}
	return pyjson.AppendFloat(dst, f)
}

const lowerHex = "0123456789abcdef"

// appendPyStr appends s as Python's repr of a str writes it.
func appendPyStr(dst []byte, s string) ([]byte, error) {
	quote := byte('\'')
	if strings.IndexByte(s, '\'') >= 0 && strings.IndexByte(s, '"') < 0 {
		quote = '"'
	}
	dst = append(dst, quote)
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			dst = appendPyASCII(dst, c, quote)
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			if sr, ok := wtf8Surrogate(s[i:]); ok {
				r, size = sr, 3
			} else {
				// A byte that is neither UTF-8 nor WTF-8 (a rune cut in
				// half by a client) reads as U+FFFD, as a Go conversion
				// would; one bad byte must not cost the whole transcript.
				dst = append(dst, string(utf8.RuneError)...)
				i++
				continue
			}
		}
		switch {
		case unicode.IsPrint(r):
			dst = append(dst, s[i:i+size]...)
		case r < 0x100:
			dst = append(dst, '\\', 'x', lowerHex[r>>4], lowerHex[r&0xf])
		case r < 0x10000:
			dst = append(dst, '\\', 'u')
			dst = appendHexDigits(dst, uint32(r), 4)
		default:
			dst = append(dst, '\\', 'U')
			dst = appendHexDigits(dst, uint32(r), 8)
		}
		i += size
	}
	return append(dst, quote), nil
}

// appendPyBytes appends b as Python's repr of a bytes object writes it.
func appendPyBytes(dst []byte, b []byte) []byte {
	quote := byte('\'')
	if slices.Contains(b, '\'') && !slices.Contains(b, '"') {
		quote = '"'
	}
	dst = append(dst, 'b', quote)
	for _, c := range b {
		if c >= utf8.RuneSelf {
			dst = append(dst, '\\', 'x', lowerHex[c>>4], lowerHex[c&0xf])
			continue
		}
		dst = appendPyASCII(dst, c, quote)
	}
	return append(dst, quote)
}

// appendPyASCII appends the ASCII byte c as it appears inside a Python
// str or bytes literal quoted with quote.
func appendPyASCII(dst []byte, c, quote byte) []byte {
	switch {
	case c == quote || c == '\\':
		return append(dst, '\\', c)
	case c == '\t':
		return append(dst, '\\', 't')
	case c == '\n':
		return append(dst, '\\', 'n')
	case c == '\r':
		return append(dst, '\\', 'r')
	case c < 0x20 || c == 0x7f:
		return append(dst, '\\', 'x', lowerHex[c>>4], lowerHex[c&0xf])
	}
	return append(dst, c)
}

func appendHexDigits(dst []byte, v uint32, n int) []byte {
	for shift := 4 * (n - 1); shift >= 0; shift -= 4 {
		dst = append(dst, lowerHex[v>>shift&0xf])
	}
	return dst
}

// wtf8Surrogate decodes the WTF-8 encoding of a surrogate code point
// (ED A0..BF 80..BF) at the start of s: how pyjson keeps a lone surrogate.
func wtf8Surrogate(s string) (rune, bool) {
	if len(s) < 3 || s[0] != 0xed || s[1] < 0xa0 || s[1] > 0xbf || s[2] < 0x80 || s[2] > 0xbf {
		return 0, false
	}
	return 0xd000 | rune(s[1]&0x3f)<<6 | rune(s[2]&0x3f), true
}
