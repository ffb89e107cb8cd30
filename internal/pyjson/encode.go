package pyjson

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"reflect"
	"slices"
	"strconv"
	"unicode/utf8"
)

// Style is a pair of separators, and the ensure_ascii choice.
type Style struct {
	Item string // between items: "," or ", "
	Key  string // between a key and its value: ":" or ": "
	// Unicode is ensure_ascii=False: strings keep their non-ASCII
	// characters (and DEL) as they are, and only '"', '\\', the control
	// characters below U+0020 and lone surrogates are escaped
	// ([AppendStringStyle]). The zero value is ensure_ascii=True.
	Unicode bool
}

var (
	// Compact is separators=(",", ":").
	Compact = Style{Item: ",", Key: ":"}
	// Default is Python's default separators, (", ", ": ").
	Default = Style{Item: ", ", Key: ": "}
	// Unicode is json.dumps(v, ensure_ascii=False): the default
	// separators, non-ASCII text as it is.
	Unicode = Style{Item: ", ", Key: ": ", Unicode: true}
)

// MaxDepth bounds the nesting of encoded and decoded values. Deeper input
// is an error, never a stack overflow.
const MaxDepth = 10000

// ErrUnsupported means a value is not a JSON tree type.
var ErrUnsupported = errors.New("pyjson: unsupported value")

// ErrDepth means a value nests deeper than MaxDepth.
var ErrDepth = fmt.Errorf("pyjson: nesting deeper than %d", MaxDepth)

// ErrInvalidString means a Go string holds bytes that are neither UTF-8 nor
// a WTF-8 surrogate, so no Python str corresponds to it.
var ErrInvalidString = errors.New("pyjson: string is not valid UTF-8")

// MaxIntDigits is the most digits an integer may have: CPython's default
// int_max_str_digits (3.11 on), past which json.loads and json.dumps raise
// ValueError.
const MaxIntDigits = 4300

// ErrIntDigits is wrapped by the error for an integer longer than
// MaxIntDigits digits.
var ErrIntDigits = fmt.Errorf("pyjson: integer of more than %d digits", MaxIntDigits)

// digitCount is the number of digits of an integer's text (its sign
// aside).
func digitCount[T ~string | ~[]byte](text T) int {
	if len(text) > 0 && text[0] == '-' {
		return len(text) - 1
	}
	return len(text)
}

// CheckIntDigits returns an error wrapping ErrIntDigits, with the text of
// Python's ValueError, when the integer text has more digits than Python
// converts to a str (json.dumps raises then).
func CheckIntDigits[T ~string | ~[]byte](text T) error {
	if digitCount(text) > MaxIntDigits {
		return fmt.Errorf("%w: ValueError: %s", ErrIntDigits, MsgIntToStr)
	}
	return nil
}

// MsgIntToStr is CPython's ValueError text for writing an int of more than
// MaxIntDigits digits (str(), repr(), json.dumps).
const MsgIntToStr = "Exceeds the limit (4300 digits) for integer string conversion; use sys.set_int_max_str_digits() to increase the limit"

// MsgStrToInt is CPython's ValueError text for reading an int of n digits,
// more than MaxIntDigits (int(), json.loads).
func MsgStrToInt(n int) string {
	return fmt.Sprintf("Exceeds the limit (%d digits) for integer string conversion: value has %d digits; use sys.set_int_max_str_digits() to increase the limit", MaxIntDigits, n)
}

// ErrInvalidNumber means a json.Number does not hold a JSON number.
var ErrInvalidNumber = errors.New("pyjson: invalid number")

// Append appends the Python json.dumps(v, sort_keys=True) text of v to dst.
func Append(dst []byte, v any, style Style) ([]byte, error) {
	return appendValue(dst, v, style, 0)
}

// Marshal returns the Python json.dumps(v, sort_keys=True) text of v.
func Marshal(v any, style Style) ([]byte, error) { return Append(nil, v, style) }

func appendValue(dst []byte, v any, st Style, depth int) ([]byte, error) {
	if depth > MaxDepth {
		return dst, ErrDepth
	}
	switch x := v.(type) {
	case nil:
		return append(dst, "null"...), nil
	case bool:
		if x {
			return append(dst, "true"...), nil
		}
		return append(dst, "false"...), nil
	case string:
		return AppendStringStyle(dst, x, st)
	case json.Number:
		return AppendNumber(dst, x)
	case float64:
		return AppendFloat(dst, x), nil
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		dst = append(dst, '{')
		var err error
		for i, k := range keys {
			if i > 0 {
				dst = append(dst, st.Item...)
			}
			if dst, err = AppendStringStyle(dst, k, st); err != nil {
				return dst, err
			}
			dst = append(dst, st.Key...)
			if dst, err = appendValue(dst, x[k], st, depth+1); err != nil {
				return dst, err
			}
		}
		return append(dst, '}'), nil
	case []any:
		dst = append(dst, '[')
		var err error
		for i, e := range x {
			if i > 0 {
				dst = append(dst, st.Item...)
			}
			if dst, err = appendValue(dst, e, st, depth+1); err != nil {
				return dst, err
			}
		}
		return append(dst, ']'), nil
	}
	if d, ok := AppendInteger(dst, v); ok {
		return d, CheckIntDigits(d[len(dst):])
	}
	return dst, fmt.Errorf("%w of type %T", ErrUnsupported, v)
}

// AppendInteger appends a Go integer (any int or uint type, or *big.Int)
// and reports whether v was one.
func AppendInteger(dst []byte, v any) ([]byte, bool) {
	switch x := v.(type) {
	case int:
		return strconv.AppendInt(dst, int64(x), 10), true
	case int64:
		return strconv.AppendInt(dst, x, 10), true
	case int8, int16, int32:
		return strconv.AppendInt(dst, reflect.ValueOf(x).Int(), 10), true
	case uint, uint8, uint16, uint32, uint64:
		return strconv.AppendUint(dst, reflect.ValueOf(x).Uint(), 10), true
	case *big.Int:
		if x == nil {
			return append(dst, "null"...), true
		}
		return x.Append(dst, 10), true
	}
	return dst, false
}

// AppendNumber appends a json.Number as Python prints the value json.loads
// makes of it: an integer token as a canonical integer ("-0" is "0"), a
// float token as the repr of the nearest float64 (overflow is Infinity).
func AppendNumber(dst []byte, n json.Number) ([]byte, error) {
	isInt, ok := Classify(string(n))
	if !ok {
		return dst, fmt.Errorf("%w %q", ErrInvalidNumber, string(n))
	}
	if isInt {
		return appendIntText(dst, string(n)), CheckIntDigits(n)
	}
	f, _ := ParseFloat(string(n)) // syntax checked; ErrRange gives ±Inf or 0
	return AppendFloat(dst, f), nil
}

// appendIntText appends a valid JSON integer token in canonical form.
func appendIntText(dst []byte, s string) []byte { return append(dst, IntText(s)...) }

// IntText returns a valid JSON integer token as Python prints the int it
// reads as: the token itself, except that "-0" is "0".
func IntText(s string) string {
	if s == "-0" {
		return "0"
	}
	return s
}

// Classify reports whether s is a JSON number token and whether Python
// reads it as an int (no '.', 'e' or 'E') rather than a float.
func Classify(s string) (isInt, ok bool) {
	i := 0
	digits := func() int { // skips a run of digits and returns its length
		start := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i - start
	}
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && s[i] >= '1' && s[i] <= '9':
		digits()
	default:
		return false, false
	}
	isInt = true
	if i < len(s) && s[i] == '.' {
		isInt = false
		i++
		if digits() == 0 {
			return false, false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		isInt = false
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false, false
		}
	}
	return isInt, i == len(s)
}

// shortEscape is the letter of the two-character escape json.dumps writes
// for an ASCII byte, or 0 when it writes \u00XX.
var shortEscape = [utf8.RuneSelf]byte{'"': '"', '\\': '\\', '\n': 'n', '\r': 'r', '\t': 't', '\b': 'b', '\f': 'f'}

// AppendFloat appends Python's repr of f as json.dumps writes it: NaN,
// Infinity and -Infinity bare; otherwise the shortest digits that round
// trip, in fixed notation when the decimal exponent is in [-4, 16) (with
// ".0" when integral) and as d[.ddd]e±XX otherwise.
func AppendFloat(dst []byte, f float64) []byte {
	switch {
	case math.IsNaN(f):
		return append(dst, "NaN"...)
	case math.IsInf(f, 1):
		return append(dst, "Infinity"...)
	case math.IsInf(f, -1):
		return append(dst, "-Infinity"...)
	}
	var scratch [32]byte
	e := strconv.AppendFloat(scratch[:0], f, 'e', -1, 64)
	// e is [-]d[.ddd]e±dd
	neg := e[0] == '-'
	if neg {
		e = e[1:]
		dst = append(dst, '-')
	}
	var digits [24]byte
	nd := 0
	i := 0
	for ; e[i] != 'e'; i++ {
		if e[i] != '.' {
			digits[nd] = e[i]
			nd++
		}
	}
	exp, _ := strconv.Atoi(string(e[i+1:]))
	if exp < -4 || exp >= 16 {
		dst = append(dst, digits[0])
		if nd > 1 {
			dst = append(dst, '.')
			dst = append(dst, digits[1:nd]...)
		}
		dst = append(dst, 'e')
		if exp < 0 {
			dst = append(dst, '-')
			exp = -exp
		} else {
			dst = append(dst, '+')
		}
		if exp < 10 {
			dst = append(dst, '0')
		}
		return strconv.AppendInt(dst, int64(exp), 10)
	}
	point := exp + 1 // digits before the decimal point
	switch {
	case point <= 0:
		dst = append(dst, '0', '.')
		for range -point {
			dst = append(dst, '0')
		}
		return append(dst, digits[:nd]...)
	case point >= nd:
		dst = append(dst, digits[:nd]...)
		for range point - nd {
			dst = append(dst, '0')
		}
		return append(dst, '.', '0')
	default:
		dst = append(dst, digits[:point]...)
		dst = append(dst, '.')
		return append(dst, digits[point:nd]...)
	}
}

// AppendIntegralFloat appends a finite, integral float as the exact
// integer Python's int(f) gives: 1e23 is 99999999999999991611392.
func AppendIntegralFloat(dst []byte, f float64) []byte {
	if f > -1e18 && f < 1e18 {
		return strconv.AppendInt(dst, int64(f), 10)
	}
	bf := new(big.Float).SetFloat64(f)
	bi, _ := bf.Int(nil)
	return bi.Append(dst, 10)
}

// hex is lowercase, as Python writes \uXXXX escapes.
const hex = "0123456789abcdef"

// safe marks the bytes written as themselves: printable ASCII except the
// quote and the backslash.
var safe = func() (t [256]bool) {
	for c := 0x20; c < 0x7f; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// AppendString appends s as a Python ensure_ascii JSON string. A WTF-8
// surrogate is escaped as \udXXX; any other invalid UTF-8 is an error
// wrapping ErrInvalidString.
func AppendString(dst []byte, s string) ([]byte, error) {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		// Skip eight safe bytes at a time.
		for i+8 <= len(s) && safe8(binary.LittleEndian.Uint64([]byte(s[i:i+8]))) {
			i += 8
		}
		if i >= len(s) {
			break
		}
		c := s[i]
		if safe[c] {
			i++
			continue
		}
		dst = append(dst, s[start:i]...)
		if c < utf8.RuneSelf {
			if e := shortEscape[c]; e != 0 {
				dst = append(dst, '\\', e)
			} else {
				dst = appendU(dst, rune(c))
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			sr, ok := surrogateAt(s, i)
			if !ok {
				return dst, fmt.Errorf("%w: byte %#x at offset %d", ErrInvalidString, c, i)
			}
			r, size = sr, 3
		}
		if r > 0xffff {
			r -= 0x10000
			dst = appendU(dst, 0xd800+(r>>10)&0x3ff)
			dst = appendU(dst, 0xdc00+r&0x3ff)
		} else {
			dst = appendU(dst, r)
		}
		i += size
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"'), nil
}

// AppendStringStyle appends s as [AppendString] does, or, when st.Unicode
// is set, as json.dumps(s, ensure_ascii=False) writes it: only '"', '\\'
// and the control characters below U+0020 escaped (the short escapes
// where Python has them, \u00XX otherwise), every other character — DEL,
// non-ASCII text — as it is; a WTF-8 lone surrogate, which Python would
// leave in its str but no UTF-8 text can hold, is escaped as \udXXX. Invalid UTF-8 that is
// not a surrogate is an error wrapping ErrInvalidString either way.
func AppendStringStyle(dst []byte, s string, st Style) ([]byte, error) {
	if !st.Unicode {
		return AppendString(dst, s)
	}
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				sr, ok := surrogateAt(s, i)
				if !ok {
					return dst, fmt.Errorf("%w: byte %#x at offset %d", ErrInvalidString, c, i)
				}
				// A lone surrogate has no UTF-8 form: escaped, so that
				// the text stays UTF-8 (Python keeps the code point in
				// its str, which no UTF-8 encoder takes).
				dst = append(dst, s[start:i]...)
				dst = appendU(dst, sr)
				i += 3
				start = i
				continue
			}
			i += size
			continue
		}
		if c >= 0x20 && c != '"' && c != '\\' {
			i++
			continue
		}
		dst = append(dst, s[start:i]...)
		if e := shortEscape[c]; e != 0 {
			dst = append(dst, '\\', e)
		} else {
			dst = appendU(dst, rune(c))
		}
		i++
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"'), nil
}

// safe8 reports whether all eight bytes of w are safe: at least 0x20,
// below 0x7f, and neither '"' nor '\\'.
func safe8(w uint64) bool {
	const (
		lo   = 0x0101010101010101
		hi   = 0x8080808080808080
		dq   = 0x2222222222222222
		bs   = 0x5c5c5c5c5c5c5c5c
		del  = 0x7f7f7f7f7f7f7f7f
		ctrl = 0x2020202020202020
	)
	hasZero := func(x uint64) uint64 { return (x - lo) &^ x & hi }
	bad := w&hi | // non-ASCII
		(w-ctrl)&^w&hi | // below 0x20
		hasZero(w^dq) | hasZero(w^bs) | hasZero(w^del)
	return bad == 0
}

func appendU(dst []byte, r rune) []byte {
	return append(dst, '\\', 'u', hex[r>>12&0xf], hex[r>>8&0xf], hex[r>>4&0xf], hex[r&0xf])
}

// surrogateAt decodes the WTF-8 encoding of a surrogate code point
// (ED A0..BF 80..BF) at s[i:].
func surrogateAt(s string, i int) (rune, bool) {
	if i+2 >= len(s) || s[i] != 0xed || s[i+1] < 0xa0 || s[i+1] > 0xbf || s[i+2] < 0x80 || s[i+2] > 0xbf {
		return 0, false
	}
	return 0xd000 | rune(s[i+1]&0x3f)<<6 | rune(s[i+2]&0x3f), true
}

// DecodeRune decodes the code point at the start of s as Python sees a
// decoded str: UTF-8, or the WTF-8 bytes of a lone surrogate (the form
// Decode keeps "\ud83d" in) read as that surrogate. Any other invalid
// byte is utf8.RuneError of size 1.
func DecodeRune(s string) (rune, int) {
	r, size := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError && size == 1 {
		if sr, ok := surrogateAt(s, 0); ok {
			return sr, 3
		}
	}
	return r, size
}

// AppendSurrogate appends the WTF-8 encoding of the surrogate code point r
// (0xD800-0xDFFF), the form in which decoded lone surrogates are kept.
func AppendSurrogate(dst []byte, r rune) []byte {
	return append(dst, 0xed, byte(0xa0|(r>>6)&0x1f), byte(0x80|r&0x3f))
}
