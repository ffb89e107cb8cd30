package tau2tools

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"

	"github.com/voiceeval/schematools/internal/pyjson"
)

// ErrIntRange means an integer does not fit in 64 bits. Python's ints have
// no bound; the DB arithmetic of the ports stops there (tau2 amounts are
// far below it).
var ErrIntRange = errors.New("integer outside the 64-bit range")

// Num is a Python number read from a DB or computed from one: an int or
// a float, kept apart as Python keeps them. Arithmetic follows Python: int
// op int is an int, anything with a float is a float, and comparisons
// between an int and a float are exact. The zero value is the int 0.
type Num struct {
	isFloat bool
	i       int64
	f       float64
}

// Int returns the Python int i.
func Int(i int64) Num { return Num{i: i} }

// Float returns the Python float f.
func Float(f float64) Num { return Num{isFloat: true, f: f} }

// NumOf reads a JSON number as Python's json.loads would have made it:
// a json.Number token with '.', 'e' or 'E' is a float, any other an int;
// float64 and float32 are floats, Go integers are ints, and booleans are
// the ints 0 and 1 (Python's bool is an int). Anything else — a string,
// None, a list — is an error worded like the TypeError Python would raise
// for arithmetic on it.
func NumOf(v any) (Num, error) {
	switch x := v.(type) {
	case json.Number:
		isInt, ok := pyjson.Classify(string(x))
		if !ok {
			return Num{}, fmt.Errorf("invalid number %q", string(x))
		}
		if isInt {
			i, err := strconv.ParseInt(string(x), 10, 64)
			if err != nil {
				return Num{}, fmt.Errorf("%s: %w", string(x), ErrIntRange)
			}
			return Int(i), nil
		}
		f, err := pyjson.ParseFloat(string(x))
		if err != nil && !errors.Is(err, strconv.ErrRange) {
			return Num{}, fmt.Errorf("invalid number %q", string(x))
		}
		return Float(f), nil // out of range: ±Inf or 0, as Python reads it
	case float64:
		return Float(x), nil
	case float32:
		return Float(float64(x)), nil
	case bool:
		if x {
			return Int(1), nil
		}
		return Int(0), nil
	case int:
		return Int(int64(x)), nil
	case int8:
		return Int(int64(x)), nil
	case int16:
		return Int(int64(x)), nil
	case int32:
		return Int(int64(x)), nil
	case int64:
		return Int(x), nil
	case uint8:
		return Int(int64(x)), nil
	case uint16:
		return Int(int64(x)), nil
	case uint32:
		return Int(int64(x)), nil
	case uint:
		if uint64(x) > math.MaxInt64 {
			return Num{}, ErrIntRange
		}
		return Int(int64(x)), nil
	case uint64:
		if x > math.MaxInt64 {
			return Num{}, ErrIntRange
		}
		return Int(int64(x)), nil
	}
	return Num{}, fmt.Errorf("a number was expected, not %s", PyTypeName(v))
}

// IsFloat reports whether n is a Python float.
func (n Num) IsFloat() bool { return n.isFloat }

// Float64 returns n as a float64 (Python's float(n)).
func (n Num) Float64() float64 {
	if n.isFloat {
		return n.f
	}
	return float64(n.i)
}

// Int64 returns an int's value, and a float's value truncated.
func (n Num) Int64() int64 {
	if n.isFloat {
		return int64(n.f)
	}
	return n.i
}

// Add returns n + m.
func (n Num) Add(m Num) (Num, error) {
	if n.isFloat || m.isFloat {
		return Float(n.Float64() + m.Float64()), nil
	}
	r := n.i + m.i
	if (n.i >= 0) == (m.i >= 0) && (r >= 0) != (n.i >= 0) {
		return Num{}, fmt.Errorf("%d + %d: %w", n.i, m.i, ErrIntRange)
	}
	return Int(r), nil
}

// Sub returns n - m.
func (n Num) Sub(m Num) (Num, error) {
	if n.isFloat || m.isFloat {
		return Float(n.Float64() - m.Float64()), nil
	}
	r := n.i - m.i
	if (n.i >= 0) != (m.i >= 0) && (r >= 0) != (n.i >= 0) {
		return Num{}, fmt.Errorf("%d - %d: %w", n.i, m.i, ErrIntRange)
	}
	return Int(r), nil
}

// Mul returns n * m.
func (n Num) Mul(m Num) (Num, error) {
	if n.isFloat || m.isFloat {
		return Float(n.Float64() * m.Float64()), nil
	}
	if n.i == 0 || m.i == 0 {
		return Int(0), nil
	}
	r := n.i * m.i
	if r/m.i != n.i || (n.i == -1 && m.i == math.MinInt64) || (m.i == -1 && n.i == math.MinInt64) {
		return Num{}, fmt.Errorf("%d * %d: %w", n.i, m.i, ErrIntRange)
	}
	return Int(r), nil
}

// Neg returns -n.
func (n Num) Neg() (Num, error) {
	if n.isFloat {
		return Float(-n.f), nil
	}
	if n.i == math.MinInt64 {
		return Num{}, fmt.Errorf("-(%d): %w", n.i, ErrIntRange)
	}
	return Int(-n.i), nil
}

// Cmp compares n and m exactly, as Python does: -1, 0 or +1. ok is false
// when either is NaN, where every Python comparison is false.
func (n Num) Cmp(m Num) (c int, ok bool) {
	switch {
	case !n.isFloat && !m.isFloat:
		return cmp.Compare(n.i, m.i), true
	case n.isFloat && m.isFloat:
		if math.IsNaN(n.f) || math.IsNaN(m.f) {
			return 0, false
		}
		return cmp.Compare(n.f, m.f), true // no NaN here
	case n.isFloat:
		c, ok := cmpIntFloat(m.i, n.f)
		return -c, ok
	default:
		return cmpIntFloat(n.i, m.f)
	}
}

// Less reports Python's n < m.
func (n Num) Less(m Num) bool {
	c, ok := n.Cmp(m)
	return ok && c < 0
}

// Equal reports Python's n == m (so 2 == 2.0).
func (n Num) Equal(m Num) bool {
	c, ok := n.Cmp(m)
	return ok && c == 0
}

// IsZero reports Python's n == 0.
func (n Num) IsZero() bool { return n.Equal(Int(0)) }

// Max returns Python's max(n, m): n, unless m is greater.
func Max(n, m Num) Num {
	if n.Less(m) {
		return m
	}
	return n
}

// Value returns n as a DB value: a json.Number holding Python's text of
// it ("3", "163.0", "1e+16"), as json.loads would have read it, so that
// it hashes and encodes as the Python original's value does. NaN and ±Inf
// have no JSON token and are returned as float64.
func (n Num) Value() any {
	if !n.isFloat {
		return json.Number(strconv.FormatInt(n.i, 10))
	}
	if math.IsInf(n.f, 0) || math.IsNaN(n.f) {
		return n.f
	}
	return json.Number(pyjson.AppendFloat(nil, n.f))
}

// String returns Python's str(n): "3", "163.0", "1e+16", "inf", "nan".
func (n Num) String() string {
	if !n.isFloat {
		return strconv.FormatInt(n.i, 10)
	}
	return FloatRepr(n.f)
}

// FloatRepr returns Python's repr (and str) of f: the shortest digits that
// read back as f, "1200.0" for whole numbers, exponent form below 1e-4 and
// from 1e16 ("1e-05", "1e+16"), and "inf", "-inf", "nan".
func FloatRepr(f float64) string {
	switch {
	case math.IsNaN(f):
		return "nan"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	return string(pyjson.AppendFloat(nil, f))
}

// Round2 returns Python's round(f, 2): f rounded to two decimals, half to
// even on f's exact binary value (2.675 gives 2.67), as Python's
// correctly rounded decimal conversion does. NaN and ±Inf come back as they
// are.
func Round2(f float64) float64 {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return f
	}
	r, err := strconv.ParseFloat(strconv.FormatFloat(f, 'f', 2, 64), 64)
	if err != nil {
		return f
	}
	return r
}

// cmpIntFloat compares an int64 with a float64 exactly.
func cmpIntFloat(i int64, f float64) (int, bool) {
	switch {
	case math.IsNaN(f):
		return 0, false
	case f >= 1<<63:
		return -1, true
	case f < -(1 << 63):
		return 1, true
	}
	t := math.Trunc(f)
	if c := cmp.Compare(i, int64(t)); c != 0 {
		return c, true
	}
	// Equal integer parts: the fraction decides.
	switch frac := f - t; {
	case frac > 0:
		return -1, true
	case frac < 0:
		return 1, true
	}
	return 0, true
}
