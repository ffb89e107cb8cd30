package tau2tools

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/voiceeval/schematools/internal/pyjson"
)

// PyTypeName returns the name of the Python type json.loads would have
// made of v — "dict", "list", "str", "int", "float", "bool", "NoneType" —
// for error texts worded like Python's.
func PyTypeName(v any) string {
	switch x := v.(type) {
	case nil:
		return "NoneType"
	case map[string]any:
		return "dict"
	case []any:
		return "list"
	case string:
		return "str"
	case bool:
		return "bool"
	case json.Number:
		if isInt, _ := pyjson.Classify(string(x)); isInt {
			return "int"
		}
		return "float"
	case float32, float64:
		return "float"
	case int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
		return "int"
	}
	return fmt.Sprintf("%T", v)
}

// PyStr returns Python's str() of a JSON scalar: strings as they are,
// None, True and False, numbers as Python prints them; empty lists and
// objects as "[]" and "{}". Other values are written as JSON.
func PyStr(v any) string {
	switch x := v.(type) {
	case nil:
		return "None"
	case string:
		return x
	case bool:
		if x {
			return "True"
		}
		return "False"
	case []any:
		if len(x) == 0 {
			return "[]"
		}
	case map[string]any:
		if len(x) == 0 {
			return "{}"
		}
	}
	if n, err := NumOf(v); err == nil {
		return n.String()
	}
	if n, ok := v.(json.Number); ok {
		return pyjson.IntText(string(n)) // an int beyond 64 bits
	}
	b, err := pyjson.Marshal(v, pyjson.Default)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// PyRepr returns Python's repr() of a string: single quotes unless the
// string holds a single quote and no double quote, backslash escapes for
// the quote, the backslash, \t \n \r, and \xNN, \uNNNN or \UNNNNNNNN for
// other characters that are not printable.
func PyRepr(s string) string {
	quote := byte('\'')
	if strings.IndexByte(s, '\'') >= 0 && strings.IndexByte(s, '"') < 0 {
		quote = '"'
	}
	var b strings.Builder
	b.WriteByte(quote)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == rune(quote) || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == utf8.RuneError && size == 1:
			// A lone surrogate kept as WTF-8 (how the DB loader keeps
			// "\ud800"), or a byte no Python string holds.
			if s[i-1] == 0xed && i+1 < len(s) && s[i] >= 0xa0 && s[i] <= 0xbf && s[i+1] >= 0x80 && s[i+1] <= 0xbf {
				fmt.Fprintf(&b, `\u%04x`, 0xd000|rune(s[i]&0x3f)<<6|rune(s[i+1]&0x3f))
				i += 2
				continue
			}
			b.WriteString(`\ufffd`)
		case r == ' ' || (r != utf8.RuneError && strconv.IsPrint(r)):
			b.WriteRune(r)
		case r < 0x100:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r < 0x10000:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			fmt.Fprintf(&b, `\U%08x`, r)
		}
	}
	b.WriteByte(quote)
	return b.String()
}

// Truthy reports Python's bool(v) for a JSON value: None, False, zero,
// "" and empty lists and objects are false.
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
	}
	if n, err := NumOf(v); err == nil {
		return !n.IsZero()
	}
	if n, ok := v.(json.Number); ok {
		return pyjson.IntText(string(n)) != "0"
	}
	return true
}

// PyLen is Python's len() of a JSON value: the items of a list or an
// object, the code points of a string; anything else is a TypeError.
func PyLen(v any) (int, error) {
	switch x := v.(type) {
	case []any:
		return len(x), nil
	case map[string]any:
		return len(x), nil
	case string:
		return utf8.RuneCountInString(x), nil
	}
	return 0, Raise("TypeError", "object of type '%s' has no len()", PyTypeName(v))
}

// IsStr reports Python's v == s for a DB value v: only a string can equal
// a string.
func IsStr(v any, s string) bool {
	x, ok := v.(string)
	return ok && x == s
}

// PyIn is Python's sub in (v or ""), the test both tau2 ports make on DB
// values ("+1" in an arrival time, "pending" in an order status): a
// substring test on a string, a membership test on a list or the keys of
// a dict, false for a falsy value, and the TypeError Python raises for
// any other value.
func PyIn(sub string, v any) (bool, error) {
	if !Truthy(v) {
		return sub == "", nil // "" in "" is true
	}
	switch x := v.(type) {
	case string:
		return strings.Contains(x, sub), nil
	case []any:
		for _, e := range x {
			if IsStr(e, sub) {
				return true, nil
			}
		}
		return false, nil
	case map[string]any:
		_, ok := x[sub]
		return ok, nil
	}
	return false, Raise("TypeError", "argument of type '%s' is not iterable", PyTypeName(v))
}

// SortedKeys returns the keys of m in sorted order. Python walks a DB
// table in the order of its data file, which a Go map does not keep; the
// ports walk tables in key order, and each says where that can differ.
func SortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
