package pyvalue

import (
	"errors"
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/voiceeval/schematools/internal/pyjson"
)

// Float returns Python's float(v). A str is read as float(str) reads
// it (see [ParseFloat]); a number is converted (an int too large for a
// float is the OverflowError "int too large to convert to float"); a bool
// is 0.0 or 1.0; anything else is the TypeError "float() argument must be
// a string or a real number, not 'list'".
func Float(v any) (float64, error) {
	if s, ok := v.(string); ok {
		return ParseFloat(s)
	}
	if n, ok := NumOf(v); ok {
		return n.Float64()
	}
	return 0, typeError("float() argument must be a string or a real number, not '%s'", TypeName(v))
}

// ParseFloat reads s as Python's float(str) does: surrounding whitespace
// (any Unicode space outside ASCII; in ASCII only " \t\n\v\f\r", so
// "\x1c1.5" is refused), any Unicode decimal digits ("١٢" is 12.0), an
// optional sign, digits with an optional fraction and exponent and single
// underscores between digits, or "inf", "infinity" and "nan" in any case.
// The value is the exact decimal rounded to the nearest float (too large
// is ±inf, too small ±0.0). Anything else is the ValueError "could not
// convert string to float: 'x'".
func ParseFloat(s string) (float64, error) {
	t, ok := asciiNumber(s)
	if ok {
		if f, ok := parseFloatText(t); ok {
			return f, nil
		}
	}
	return 0, Raise("ValueError", "could not convert string to float: %s", Repr(s))
}

// asciiNumber maps s to ASCII as CPython does before parsing a number:
// ASCII as it is, any other whitespace a space, any other decimal digit
// its ASCII digit; ok is false at any other character. Surrounding ASCII
// whitespace is then removed.
func asciiNumber(s string) (string, bool) {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x7f {
			ascii = false
			break
		}
	}
	if !ascii {
		var b strings.Builder
		for i := 0; i < len(s); {
			r, size := pyjson.DecodeRune(s[i:])
			i += size
			switch {
			case r < 0x7f:
				b.WriteByte(byte(r))
			case r == utf8.RuneError && size == 1:
				return "", false
			case pyjson.IsSpace(r):
				b.WriteByte(' ')
			default:
				d := decimalValue(r)
				if d < 0 {
					return "", false
				}
				b.WriteByte(byte('0' + d))
			}
		}
		s = b.String()
	}
	return strings.Trim(s, " \t\n\v\f\r"), true
}

// parseFloatText parses ASCII text without surrounding whitespace.
func parseFloatText(t string) (float64, bool) {
	body := t
	neg := false
	if body != "" && (body[0] == '+' || body[0] == '-') {
		neg = body[0] == '-'
		body = body[1:]
	}
	switch strings.ToLower(body) {
	case "inf", "infinity":
		if neg {
			return math.Inf(-1), true
		}
		return math.Inf(1), true
	case "nan":
		return math.NaN(), true // Python's float("-nan") prints as nan too
	}
	if strings.IndexByte(t, '_') >= 0 {
		var ok bool
		if t, ok = dropUnderscores(t); !ok {
			return 0, false
		}
		body = strings.TrimLeft(t, "+-")
	}
	if !decimalSyntax(body) {
		return 0, false
	}
	f, err := pyjson.ParseFloat(t)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, false
	}
	return f, true
}

// dropUnderscores removes the underscores of t, each of which must stand
// between two digits.
func dropUnderscores(t string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(t); i++ {
		if t[i] != '_' {
			b.WriteByte(t[i])
			continue
		}
		if i == 0 || i+1 == len(t) || !isDigit(t[i-1]) || !isDigit(t[i+1]) {
			return "", false
		}
	}
	return b.String(), true
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// decimalSyntax reports whether s is digits[.digits][(e|E)[+-]digits]
// with at least one mantissa digit (either side of the point).
func decimalSyntax(s string) bool {
	i, n := 0, 0
	for i < len(s) && isDigit(s[i]) {
		i, n = i+1, n+1
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && isDigit(s[i]) {
			i, n = i+1, n+1
		}
	}
	if n == 0 {
		return false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		start := i
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		if i == start {
			return false
		}
	}
	return i == len(s)
}

// Int returns Python's int(v): a str read in base 10 (see [ParseInt]), a
// float truncated toward zero (NaN is the ValueError "cannot convert
// float NaN to integer", ±inf the OverflowError "cannot convert float
// infinity to integer"), an int or bool as it is; anything else is the
// TypeError "int() argument must be a string, a bytes-like object or a
// real number, not 'NoneType'".
func Int(v any) (Num, error) {
	if s, ok := v.(string); ok {
		return ParseInt(s)
	}
	n, ok := NumOf(v)
	if !ok {
		return Num{}, typeError("int() argument must be a string, a bytes-like object or a real number, not '%s'", TypeName(v))
	}
	if !n.isFloat {
		return n, nil
	}
	switch {
	case math.IsNaN(n.f):
		return Num{}, Raise("ValueError", "cannot convert float NaN to integer")
	case math.IsInf(n.f, 0):
		return Num{}, Raise("OverflowError", "cannot convert float infinity to integer")
	case n.f > -(1<<63) && n.f < 1<<63:
		return IntNum(int64(n.f)), nil
	}
	i, _ := new(big.Float).SetFloat64(n.f).Int(nil) // integral at this size
	return normInt(i), nil
}

// ParseInt reads s as Python's int(str) does in base 10: surrounding
// whitespace and Unicode digits as for [ParseFloat], an optional sign,
// decimal digits with single underscores between them. Anything else is
// the ValueError "invalid literal for int() with base 10: 'x'" (the repr
// cut at 200 characters, as Python cuts it); more than 4,300 digits is
// Python's ValueError "Exceeds the limit (4300 digits) …".
func ParseInt(s string) (Num, error) {
	t, ok := asciiNumber(s)
	if ok {
		body := t
		if body != "" && (body[0] == '+' || body[0] == '-') {
			body = body[1:]
		}
		ok = body != "" && isDigit(body[0]) && isDigit(body[len(body)-1])
		for i := 0; ok && i < len(body); i++ {
			ok = isDigit(body[i]) || body[i] == '_' && isDigit(body[i+1])
		}
		if ok {
			t = strings.ReplaceAll(t, "_", "")
			if digits := len(strings.TrimLeft(t, "+-")); digits > pyjson.MaxIntDigits {
				return Num{}, Raise("ValueError", "%s", pyjson.MsgStrToInt(digits))
			}
			if i, err := strconv.ParseInt(t, 10, 64); err == nil {
				return IntNum(i), nil
			}
			b, _ := new(big.Int).SetString(t, 10) // digits checked above
			return normInt(b), nil
		}
	}
	r := Repr(s)
	if utf8.RuneCountInString(r) > 200 {
		n := 0
		for i := range r {
			if n == 200 {
				r = r[:i]
				break
			}
			n++
		}
	}
	return Num{}, Raise("ValueError", "invalid literal for int() with base 10: %s", r)
}

// Round2 returns Python's round(v, 2): an int as it is; a float rounded
// to two decimals, half to even on its exact binary value (2.675 is 2.67,
// 0.125 is 0.12), inf and nan as they are. Anything else is the TypeError
// "type str doesn't define __round__ method".
func Round2(v any) (Num, error) {
	n, ok := NumOf(v)
	if !ok {
		return Num{}, typeError("type %s doesn't define __round__ method", TypeName(v))
	}
	if !n.isFloat || math.IsNaN(n.f) || math.IsInf(n.f, 0) {
		return n, nil
	}
	f, err := strconv.ParseFloat(strconv.FormatFloat(n.f, 'f', 2, 64), 64)
	if err != nil {
		return Num{}, Raise("OverflowError", "rounded value too large to represent")
	}
	return FloatNum(f), nil
}

// Format2 returns Python's "%.2f" % v: the number (an int converted to a
// float first) with exactly two decimals, half to even on the exact
// binary value, every digit of a large number written out; "inf",
// "-inf", "nan". Anything else is the TypeError "must be real number, not
// str".
func Format2(v any) (string, error) {
	n, ok := NumOf(v)
	if !ok {
		return "", typeError("must be real number, not %s", TypeName(v))
	}
	f, err := n.Float64()
	if err != nil {
		return "", err
	}
	switch {
	case math.IsNaN(f):
		return "nan", nil
	case math.IsInf(f, 1):
		return "inf", nil
	case math.IsInf(f, -1):
		return "-inf", nil
	}
	return strconv.FormatFloat(f, 'f', 2, 64), nil
}
