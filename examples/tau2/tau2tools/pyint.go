package tau2tools

import (
	"math/big"
	"unicode"

	"github.com/voiceeval/schematools/internal/pyjson"
)

// maxIntDigits is CPython's default limit on the digits of an int read
// from a string.
const maxIntDigits = 4300

// PyInt is Python's int(s) for a string in base 10: surrounding
// whitespace (Python's set) is ignored, one sign is allowed, digits may
// be any Unicode decimal digits ("٥" is 5) with single underscores between
// them. Anything else is the ValueError Python raises, "invalid literal
// for int() with base 10: '…'" (the string's repr), and more than 4300
// digits is CPython's "Exceeds the limit" ValueError.
func PyInt(s string) (*big.Int, error) {
	t := pyjson.Strip(s)
	neg := false
	if t != "" && (t[0] == '+' || t[0] == '-') {
		neg = t[0] == '-'
		t = t[1:]
	}
	digits := make([]byte, 0, len(t))
	afterDigit := false
	for _, r := range t {
		if r == '_' && afterDigit {
			afterDigit = false
			continue
		}
		d, ok := decimalDigit(r)
		if !ok {
			return nil, invalidInt(s)
		}
		digits = append(digits, '0'+d)
		afterDigit = true
	}
	if !afterDigit {
		return nil, invalidInt(s) // empty, or ends with an underscore
	}
	if len(digits) > maxIntDigits {
		return nil, Raise("ValueError", "Exceeds the limit (%d digits) for integer string conversion: value has %d digits; use sys.set_int_max_str_digits() to increase the limit", maxIntDigits, len(digits))
	}
	n, ok := new(big.Int).SetString(string(digits), 10)
	if !ok {
		return nil, invalidInt(s)
	}
	if neg {
		n.Neg(n)
	}
	return n, nil
}

func invalidInt(s string) error {
	return Raise("ValueError", "invalid literal for int() with base 10: %s", PyRepr(s))
}

// decimalDigit returns the value of a Unicode decimal digit (category
// Nd). Decimal digits come in runs of ten, zero to nine, so a digit's
// value is its distance from the start of its range, modulo ten.
func decimalDigit(r rune) (byte, bool) {
	if r >= '0' && r <= '9' {
		return byte(r - '0'), true
	}
	if r < 0x80 || !unicode.Is(unicode.Nd, r) {
		return 0, false
	}
	for _, rg := range unicode.Nd.R16 {
		if r >= rune(rg.Lo) && r <= rune(rg.Hi) {
			return byte((r - rune(rg.Lo)) % 10), true
		}
	}
	for _, rg := range unicode.Nd.R32 {
		if r >= rune(rg.Lo) && r <= rune(rg.Hi) {
			return byte((r - rune(rg.Lo)) % 10), true
		}
	}
	return 0, false
}
