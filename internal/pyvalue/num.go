package pyvalue

import (
	"encoding/json"
	"math"
	"math/big"
	"strconv"

	"github.com/voiceeval/schematools/internal/pyjson"
)

// Num is a Python int or float. An int is exact at any size (int64 while
// it fits, math/big beyond); a float is a float64. Arithmetic follows
// Python: int op int is an int (except / which is a float), any float
// operand makes the result a float, the int converted first (OverflowError
// when it is too large for a float). bool is the int 0 or 1. The zero
// value is the int 0.
type Num struct {
	isFloat bool
	i       int64    // an int that fits in 64 bits (big == nil)
	big     *big.Int // an int that does not; never modified once set
	f       float64
}

// IntNum returns the Python int i.
func IntNum(i int64) Num { return Num{i: i} }

// BigNum returns the Python int x (copied).
func BigNum(x *big.Int) Num { return normInt(new(big.Int).Set(x)) }

// FloatNum returns the Python float f.
func FloatNum(f float64) Num { return Num{isFloat: true, f: f} }

// normInt returns x as an int Num, in 64 bits when it fits. x is kept.
func normInt(x *big.Int) Num {
	if x.IsInt64() {
		return Num{i: x.Int64()}
	}
	return Num{big: x}
}

// NumOf reads a value as the Python number it is: a json.Number as
// json.loads reads its token (an int unless it has '.', 'e' or 'E'; a
// float token out of range is ±inf or 0), float64 and float32, Go
// integers, *big.Int, and bool (an int). ok is false for anything else,
// including a json.Number that is not a JSON number.
func NumOf(v any) (n Num, ok bool) {
	switch x := v.(type) {
	case json.Number:
		isInt, ok := pyjson.Classify(string(x))
		if !ok {
			return Num{}, false
		}
		if isInt {
			if i, err := strconv.ParseInt(string(x), 10, 64); err == nil {
				return IntNum(i), true
			}
			b, _ := new(big.Int).SetString(string(x), 10)
			return normInt(b), b != nil
		}
		f, _ := pyjson.ParseFloat(string(x)) // a range error is ±Inf or 0, as Python reads it
		return FloatNum(f), true
	case float64:
		return FloatNum(x), true
	case float32:
		return FloatNum(float64(x)), true
	case bool:
		if x {
			return IntNum(1), true
		}
		return IntNum(0), true
	case int:
		return IntNum(int64(x)), true
	case int8:
		return IntNum(int64(x)), true
	case int16:
		return IntNum(int64(x)), true
	case int32:
		return IntNum(int64(x)), true
	case int64:
		return IntNum(x), true
	case uint:
		return uintNum(uint64(x)), true
	case uint8:
		return IntNum(int64(x)), true
	case uint16:
		return IntNum(int64(x)), true
	case uint32:
		return IntNum(int64(x)), true
	case uint64:
		return uintNum(x), true
	case *big.Int:
		if x == nil {
			return Num{}, false
		}
		return BigNum(x), true
	case Num:
		return x, true
	}
	return Num{}, false
}

func uintNum(u uint64) Num {
	if u <= math.MaxInt64 {
		return IntNum(int64(u))
	}
	return Num{big: new(big.Int).SetUint64(u)}
}

// IsFloat reports whether n is a float.
func (n Num) IsFloat() bool { return n.isFloat }

// Int64 returns an int that fits in 64 bits; ok is false for a float or
// a larger int.
func (n Num) Int64() (i int64, ok bool) {
	return n.i, !n.isFloat && n.big == nil
}

// BigInt returns an int as a new *big.Int; nil for a float.
func (n Num) BigInt() *big.Int {
	switch {
	case n.isFloat:
		return nil
	case n.big != nil:
		return new(big.Int).Set(n.big)
	}
	return big.NewInt(n.i)
}

// bigInt returns an int as a *big.Int the caller must not modify.
func (n Num) bigInt() *big.Int {
	if n.big != nil {
		return n.big
	}
	return big.NewInt(n.i)
}

// Float64 returns Python's float(n): a float as it is, an int rounded to
// the nearest float, or the OverflowError "int too large to convert to
// float".
func (n Num) Float64() (float64, error) {
	switch {
	case n.isFloat:
		return n.f, nil
	case n.big == nil:
		return float64(n.i), nil
	}
	f, _ := new(big.Float).SetInt(n.big).Float64() // rounded to nearest even, then ±Inf past the range
	if math.IsInf(f, 0) {
		return 0, Raise("OverflowError", "int too large to convert to float")
	}
	return f, nil
}

// Value returns n as a JSON tree value: an int as int64 or *big.Int, a
// float as float64. pyjson.Marshal writes it as json.dumps writes the
// number.
func (n Num) Value() any {
	switch {
	case n.isFloat:
		return n.f
	case n.big != nil:
		return new(big.Int).Set(n.big)
	}
	return n.i
}

// String returns Python's str(n), which is also repr(n): "3",
// "100000000000000000000", "163.0", "1e+16", "inf", "nan".
func (n Num) String() string {
	switch {
	case n.isFloat:
		return floatRepr(n.f)
	case n.big != nil:
		return n.big.String()
	}
	return strconv.FormatInt(n.i, 10)
}

// floatRepr is Python's repr of a float.
func floatRepr(f float64) string {
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

// Sign returns -1, 0 or +1 (0 for a float NaN).
func (n Num) Sign() int {
	switch {
	case n.isFloat:
		switch {
		case n.f > 0:
			return 1
		case n.f < 0:
			return -1
		}
		return 0
	case n.big != nil:
		return n.big.Sign()
	case n.i > 0:
		return 1
	case n.i < 0:
		return -1
	}
	return 0
}

// IsZero reports Python's n == 0.
func (n Num) IsZero() bool { return n.Sign() == 0 && !(n.isFloat && math.IsNaN(n.f)) }

// Cmp compares n and m exactly, as Python does, even between a large int
// and a float: -1, 0 or +1. ok is false when either is NaN, where every
// comparison is false.
func (n Num) Cmp(m Num) (c int, ok bool) {
	switch {
	case !n.isFloat && !m.isFloat:
		if n.big == nil && m.big == nil {
			switch {
			case n.i < m.i:
				return -1, true
			case n.i > m.i:
				return 1, true
			}
			return 0, true
		}
		return n.bigInt().Cmp(m.bigInt()), true
	case n.isFloat && m.isFloat:
		switch {
		case math.IsNaN(n.f) || math.IsNaN(m.f):
			return 0, false
		case n.f < m.f:
			return -1, true
		case n.f > m.f:
			return 1, true
		}
		return 0, true
	case n.isFloat:
		c, ok := cmpIntFloat(m, n.f)
		return -c, ok
	}
	return cmpIntFloat(n, m.f)
}

// cmpIntFloat compares the int n with f exactly.
func cmpIntFloat(n Num, f float64) (int, bool) {
	switch {
	case math.IsNaN(f):
		return 0, false
	case math.IsInf(f, 1):
		return -1, true
	case math.IsInf(f, -1):
		return 1, true
	}
	if n.big == nil && f > -(1<<53) && f < 1<<53 {
		// |f| < 2^53: compare with the int as a float when it is exact.
		if n.i > -(1<<53) && n.i < 1<<53 {
			switch g := float64(n.i); {
			case g < f:
				return -1, true
			case g > f:
				return 1, true
			}
			return 0, true
		}
	}
	var x big.Float
	x.SetInt(n.bigInt())
	return x.Cmp(new(big.Float).SetFloat64(f)), true
}

// Equal reports Python's n == m (2 == 2.0; NaN equals nothing).
func (n Num) Equal(m Num) bool {
	c, ok := n.Cmp(m)
	return ok && c == 0
}

// Neg returns -n.
func (n Num) Neg() Num {
	switch {
	case n.isFloat:
		return FloatNum(-n.f)
	case n.big == nil && n.i != math.MinInt64:
		return IntNum(-n.i)
	}
	return normInt(new(big.Int).Neg(n.bigInt()))
}

// floats returns both operands as floats, for an operation with a float.
func floats(n, m Num) (float64, float64, error) {
	x, err := n.Float64()
	if err != nil {
		return 0, 0, err
	}
	y, err := m.Float64()
	return x, y, err
}

// Add returns n + m.
func (n Num) Add(m Num) (Num, error) {
	if n.isFloat || m.isFloat {
		x, y, err := floats(n, m)
		return FloatNum(x + y), err
	}
	if n.big == nil && m.big == nil {
		if r := n.i + m.i; (r > n.i) == (m.i > 0) {
			return IntNum(r), nil
		}
	}
	return normInt(new(big.Int).Add(n.bigInt(), m.bigInt())), nil
}

// Sub returns n - m.
func (n Num) Sub(m Num) (Num, error) {
	if n.isFloat || m.isFloat {
		x, y, err := floats(n, m)
		return FloatNum(x - y), err
	}
	if n.big == nil && m.big == nil {
		if r := n.i - m.i; (r < n.i) == (m.i > 0) {
			return IntNum(r), nil
		}
	}
	return normInt(new(big.Int).Sub(n.bigInt(), m.bigInt())), nil
}

// Mul returns n * m.
func (n Num) Mul(m Num) (Num, error) {
	if n.isFloat || m.isFloat {
		x, y, err := floats(n, m)
		return FloatNum(x * y), err
	}
	if n.big == nil && m.big == nil {
		if n.i == 0 || m.i == 0 {
			return IntNum(0), nil
		}
		if r := n.i * m.i; r/m.i == n.i && !(n.i == -1 && m.i == math.MinInt64) && !(m.i == -1 && n.i == math.MinInt64) {
			return IntNum(r), nil
		}
	}
	return normInt(new(big.Int).Mul(n.bigInt(), m.bigInt())), nil
}

// TrueDiv returns n / m, always a float: for two ints the exact quotient
// correctly rounded (OverflowError "integer division result too large for
// a float" past the float range); ZeroDivisionError "division by zero"
// (ints) or "float division by zero".
func (n Num) TrueDiv(m Num) (Num, error) {
	if n.isFloat || m.isFloat {
		x, y, err := floats(n, m)
		if err != nil {
			return Num{}, err
		}
		if y == 0 {
			return Num{}, Raise("ZeroDivisionError", "float division by zero")
		}
		return FloatNum(x / y), nil
	}
	if m.Sign() == 0 {
		return Num{}, Raise("ZeroDivisionError", "division by zero")
	}
	if n.big == nil && m.big == nil && n.i > -(1<<53) && n.i < 1<<53 && m.i > -(1<<53) && m.i < 1<<53 {
		return FloatNum(float64(n.i) / float64(m.i)), nil // both exact: one rounding
	}
	f, _ := new(big.Rat).SetFrac(n.bigInt(), m.bigInt()).Float64()
	if f == 0 && (n.Sign() < 0) != (m.Sign() < 0) {
		f = math.Copysign(0, -1) // 0 / -big is -0.0, as in Python
	}
	if math.IsInf(f, 0) {
		return Num{}, Raise("OverflowError", "integer division result too large for a float")
	}
	return FloatNum(f), nil
}

// FloorDiv returns n // m: the floor of the quotient, an int for two ints
// and a float otherwise; ZeroDivisionError "integer division or modulo by
// zero" or "float floor division by zero".
func (n Num) FloorDiv(m Num) (Num, error) {
	if n.isFloat || m.isFloat {
		x, y, err := floats(n, m)
		if err != nil {
			return Num{}, err
		}
		if y == 0 {
			return Num{}, Raise("ZeroDivisionError", "float floor division by zero")
		}
		q, _ := floatDivMod(x, y)
		return FloatNum(q), nil
	}
	if m.Sign() == 0 {
		return Num{}, Raise("ZeroDivisionError", "integer division or modulo by zero")
	}
	q, _ := intDivMod(n, m)
	return q, nil
}

// Mod returns n % m, whose sign is m's: an int for two ints and a float
// otherwise; ZeroDivisionError "integer modulo by zero" or "float modulo".
func (n Num) Mod(m Num) (Num, error) {
	if n.isFloat || m.isFloat {
		x, y, err := floats(n, m)
		if err != nil {
			return Num{}, err
		}
		if y == 0 {
			return Num{}, Raise("ZeroDivisionError", "float modulo")
		}
		_, r := floatDivMod(x, y)
		return FloatNum(r), nil
	}
	if m.Sign() == 0 {
		return Num{}, Raise("ZeroDivisionError", "integer modulo by zero")
	}
	_, r := intDivMod(n, m)
	return r, nil
}

// intDivMod returns the floor quotient and the remainder with the sign of
// the divisor (m != 0).
func intDivMod(n, m Num) (Num, Num) {
	if n.big == nil && m.big == nil && !(n.i == math.MinInt64 && m.i == -1) {
		q, r := n.i/m.i, n.i%m.i
		if r != 0 && (r < 0) != (m.i < 0) {
			q--
			r += m.i
		}
		return IntNum(q), IntNum(r)
	}
	q, r := new(big.Int).QuoRem(n.bigInt(), m.bigInt(), new(big.Int))
	if r.Sign() != 0 && r.Sign() != m.Sign() {
		q.Sub(q, big.NewInt(1))
		r.Add(r, m.bigInt())
	}
	return normInt(q), normInt(r)
}

// floatDivMod returns Python's x // y and x % y for floats (y != 0): the
// remainder from fmod moved to the divisor's sign (a zero remainder takes
// the divisor's sign), and the quotient (x - remainder) / y brought to
// the nearest integer below or at it, a zero quotient carrying the sign
// of x / y.
func floatDivMod(x, y float64) (q, r float64) {
	r = math.Mod(x, y)
	d := (x - r) / y
	if r != 0 {
		if (y < 0) != (r < 0) {
			r += y
			d--
		}
	} else {
		r = math.Copysign(0, y)
	}
	if d != 0 {
		q = math.Floor(d)
		if d-q > 0.5 {
			q++
		}
	} else {
		q = math.Copysign(0, x/y)
	}
	return q, r
}
