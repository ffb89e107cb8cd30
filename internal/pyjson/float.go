package pyjson

import (
	"math"
	"math/big"
	"strconv"
	"strings"
)

// ParseFloat returns the float64 nearest to the decimal number s, ties to
// even, as Python's float() rounds the exact value of any decimal text.
// It takes what strconv.ParseFloat takes and returns the same errors
// (±Inf with a range error on overflow); the difference is in decimal
// texts strconv misreads: more than 800 significant digits, whose decimal
// point it misplaces, and exponents past about 10,000 (golang/go#42436),
// which it clamps. Those take an exact path; every other text goes to
// strconv as it is, so the common case costs nothing more.
func ParseFloat(s string) (float64, error) {
	d, ok := scanDecimal(s)
	if !ok || !d.long() {
		return strconv.ParseFloat(s, 64)
	}
	f := d.float()
	if math.IsInf(f, 0) {
		return f, &strconv.NumError{Func: "ParseFloat", Num: strings.Clone(s), Err: strconv.ErrRange}
	}
	return f, nil
}

// decimal is a scanned decimal text: sign, the digits before and after the
// point, and the exponent (saturated far beyond any float's range).
type decimal struct {
	neg       bool
	int, frac string
	exp       int64
	expDigits int // how many exponent digits the text has
}

// expLimit saturates exponents: beyond it every nonzero value is 0 or Inf
// whatever its digits (inputs shorter than 1 TB).
const expLimit = 1 << 40

// scanDecimal reads [+-]digits[.digits][(e|E)[+-]digits] with at least one
// digit in the mantissa; anything else is left to strconv.
func scanDecimal(s string) (decimal, bool) {
	var d decimal
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		d.neg = s[i] == '-'
		i++
	}
	start := i
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	d.int = s[start:i]
	if i < len(s) && s[i] == '.' {
		i++
		start = i
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		d.frac = s[start:i]
	}
	if d.int == "" && d.frac == "" {
		return d, false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		negExp := false
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			negExp = s[i] == '-'
			i++
		}
		start = i
		for ; i < len(s) && isDigit(s[i]); i++ {
			if d.exp < expLimit {
				d.exp = d.exp*10 + int64(s[i]-'0')
			}
		}
		d.expDigits = i - start
		if d.expDigits == 0 {
			return d, false
		}
		if negExp {
			d.exp = -d.exp
		}
	}
	return d, i == len(s)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// strconvDigits is how many mantissa digits strconv is trusted with: its
// slow path keeps 800 and errs beyond. Its exponent is exact below 10,000.
const strconvDigits = 700

// long reports whether strconv would misread d.
func (d decimal) long() bool {
	return len(d.int)+len(d.frac) > strconvDigits || d.expDigits > 4
}

// keptDigits is how many significant digits the exact path keeps. A
// float64 and the midpoint between two of them have at most 767
// significant digits, so the digits up to here, plus one nonzero digit
// standing for any nonzero digit dropped, decide the rounding exactly.
const keptDigits = 780

// float rounds d's exact value to the nearest float64.
func (d decimal) float() float64 {
	digits := d.int + d.frac
	exp := d.exp - int64(len(d.frac))
	digits = strings.TrimLeft(digits, "0")
	trimmed := strings.TrimRight(digits, "0")
	exp += int64(len(digits) - len(trimmed))
	digits = trimmed
	sign := 1.0
	if d.neg {
		sign = -1
	}
	// The value is digits × 10^exp, in [10^(exp+n-1), 10^(exp+n)).
	n := int64(len(digits))
	switch {
	case n == 0 || exp+n < -330: // below half the smallest subnormal
		return math.Copysign(0, sign)
	case exp+n-1 > 309: // above the largest float
		return math.Inf(int(sign))
	}
	if n > keptDigits {
		sticky := strings.TrimRight(digits[keptDigits:], "0") != ""
		exp += n - keptDigits
		digits = digits[:keptDigits]
		if sticky {
			digits += "1"
			exp--
		}
	}
	num, _ := new(big.Int).SetString(digits, 10) // digits only: always parses
	pow := new(big.Int).Exp(big.NewInt(10), big.NewInt(max(exp, -exp)), nil)
	var r big.Rat
	if exp >= 0 {
		r.SetInt(num.Mul(num, pow))
	} else {
		r.SetFrac(num, pow)
	}
	f, _ := r.Float64()
	return sign * f
}
