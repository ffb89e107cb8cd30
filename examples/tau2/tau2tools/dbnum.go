package tau2tools

import (
	"encoding/json"
	"errors"
	"math"
	"strconv"
	"strings"

	"github.com/voiceeval/schematools/internal/pyjson"
)

// NumAt is Python's d.get(key, 0) read as a number: a missing key is the
// int 0; a value that is not a number is a TypeError naming the key.
func NumAt(d map[string]any, key string) (Num, error) {
	v, ok := d[key]
	if !ok {
		return Int(0), nil
	}
	return numIn(key, v)
}

// NumOrZero is Python's (d.get(key) or 0) read as a number: a missing or
// falsy value (None, 0, "", an empty list) is the int 0; any other value
// that is not a number is a TypeError naming the key.
func NumOrZero(d map[string]any, key string) (Num, error) {
	v := d[key]
	if !Truthy(v) {
		return Int(0), nil
	}
	return numIn(key, v)
}

func numIn(key string, v any) (Num, error) {
	n, err := NumOf(v)
	if err != nil {
		return n, Raise("TypeError", "%s: %v", key, err)
	}
	return n, nil
}

// PyFloat is Python's float(v) for a JSON value: numbers (an int too large
// for a float is Python's OverflowError), booleans as 0.0 and 1.0, and
// strings in Python's float syntax — surrounding whitespace, a sign,
// Unicode decimal digits, single underscores between digits, "inf",
// "infinity" and "nan" in any case; any other string is the ValueError
// "could not convert string to float: '…'", any other value the TypeError
// Python raises.
func PyFloat(v any) (float64, error) {
	switch x := v.(type) {
	case string:
		return floatOfString(x)
	case json.Number:
		f, err := pyjson.ParseFloat(string(x))
		if err != nil && !errors.Is(err, strconv.ErrRange) {
			return 0, Raise("TypeError", "invalid number %q", string(x))
		}
		if math.IsInf(f, 0) {
			if isInt, _ := pyjson.Classify(string(x)); isInt {
				return 0, Raise("OverflowError", "int too large to convert to float")
			}
		}
		return f, nil
	case nil, []any, map[string]any:
		return 0, Raise("TypeError", "float() argument must be a string or a real number, not '%s'", PyTypeName(v))
	}
	n, err := NumOf(v)
	if err != nil {
		return 0, Raise("TypeError", "float() argument must be a string or a real number, not '%s'", PyTypeName(v))
	}
	return n.Float64(), nil
}

// floatOfString parses s with the syntax Python's float() accepts.
func floatOfString(s string) (float64, error) {
	bad := Raise("ValueError", "could not convert string to float: %s", PyRepr(s))
	t := pyjson.Strip(s)
	var b strings.Builder
	for _, r := range t {
		if d, ok := decimalDigit(r); ok {
			b.WriteByte('0' + d)
			continue
		}
		if r >= 0x80 {
			return 0, bad
		}
		b.WriteRune(r)
	}
	text := b.String()
	body := strings.TrimLeft(text, "+-")
	if len(text)-len(body) > 1 {
		return 0, bad
	}
	switch strings.ToLower(body) {
	case "nan":
		return math.NaN(), nil
	case "inf", "infinity":
		if text[0] == '-' {
			return math.Inf(-1), nil
		}
		return math.Inf(1), nil
	}
	if !floatSyntax(body) {
		return 0, bad
	}
	f, err := pyjson.ParseFloat(strings.ReplaceAll(text, "_", ""))
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, bad
	}
	return f, nil // out of range: ±Inf or 0, as Python reads it
}

// floatSyntax reports whether s (unsigned, ASCII) is digits with an
// optional fraction and exponent, at least one digit in the mantissa and
// underscores only between two digits.
func floatSyntax(s string) bool {
	i, mantissa := 0, 0
	digits := func() int {
		n := 0
		for i < len(s) {
			switch c := s[i]; {
			case c >= '0' && c <= '9':
				n++
				i++
			case c == '_' && n > 0 && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9':
				i++
			default:
				return n
			}
		}
		return n
	}
	mantissa += digits()
	if i < len(s) && s[i] == '.' {
		i++
		mantissa += digits()
	}
	if mantissa == 0 {
		return false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}
