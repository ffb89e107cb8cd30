package tau2tools

import (
	"math"
	"math/big"
	"math/bits"
	"strings"

	"github.com/voiceeval/schematools/internal/pyvalue"
)

// valKind is the Python type of a calculate value. The character set
// allows only these: number literals, "()" (the empty tuple) and "..."
// (Ellipsis); complex numbers come from a negative number raised to a
// fractional power.
type valKind uint8

const (
	kInt valKind = iota
	kFloat
	kComplex
	kTuple // always the empty tuple: there are no commas
	kEllipsis
)

type value struct {
	k valKind
	n pyvalue.Num // kInt and kFloat
	c complex128
}

// numVal is the int or float n.
func numVal(n pyvalue.Num) value {
	if n.IsFloat() {
		return value{k: kFloat, n: n}
	}
	return value{k: kInt, n: n}
}

func floatVal(f float64) value      { return value{k: kFloat, n: pyvalue.FloatNum(f)} }
func complexVal(c complex128) value { return value{k: kComplex, c: c} }
func intOf(i int64) value           { return value{k: kInt, n: pyvalue.IntNum(i)} }
func typeError(format string) error { return raise(format) }
func isInteger(f float64) bool      { return f == math.Floor(f) }
func isOddInteger(f float64) bool   { return math.Mod(math.Abs(f), 2) == 1 }
func (v value) isNumber() bool      { return v.k <= kComplex }
func (v value) typeName() string {
	return [...]string{"int", "float", "complex", "tuple", "ellipsis"}[v.k]
}
func unsupported(op string, l, r value) error {
	if op == "**" {
		op = "** or pow()"
	}
	return typeError("unsupported operand type(s) for " + op + ": '" + l.typeName() + "' and '" + r.typeName() + "'")
}

// toFloat is Python's float(v).
func (v value) toFloat() (float64, error) {
	switch v.k {
	case kInt, kFloat:
		return v.n.Float64()
	}
	return 0, typeError("float() argument must be a string or a real number, not '" + v.typeName() + "'")
}

// toComplex converts a number operand of a complex operation.
func (v value) toComplex() (complex128, error) {
	if v.k == kComplex {
		return v.c, nil
	}
	f, err := v.n.Float64()
	return complex(f, 0), err
}

// bitLen is the bit length of the int n's magnitude.
func bitLen(n pyvalue.Num) int {
	if i, ok := n.Int64(); ok {
		u := uint64(i)
		if i < 0 {
			u = -u
		}
		return bits.Len64(u)
	}
	return n.BigInt().BitLen()
}

// str is Python's str(v), which a failed * or ** call argument prints.
func (v value) str() (string, error) {
	switch v.k {
	case kInt:
		// Python refuses to print integers above 4300 digits.
		if bitLen(v.n) > 14285 {
			return "", raise(msgIntStrLimit)
		}
		s := v.n.String()
		if len(strings.TrimPrefix(s, "-")) > maxLiteralDigits {
			return "", raise(msgIntStrLimit)
		}
		return s, nil
	case kFloat:
		return v.n.String(), nil
	case kComplex:
		return complexRepr(v.c), nil
	case kTuple:
		return "()", nil
	}
	return "Ellipsis", nil
}

// complexRepr is Python's repr of a complex: "2j", "(1-2.5j)".
func complexRepr(c complex128) string {
	part := func(f float64) string { return strings.TrimSuffix(pyvalue.Repr(f), ".0") }
	re, im := real(c), imag(c)
	if re == 0 && !math.Signbit(re) {
		return part(im) + "j"
	}
	ims := part(im)
	if !strings.HasPrefix(ims, "-") {
		ims = "+" + ims
	}
	return "(" + part(re) + ims + "j)"
}

func unaryOp(op string, x value) (value, error) {
	switch x.k {
	case kInt, kFloat:
		if op == "-" {
			return numVal(x.n.Neg()), nil
		}
		return x, nil
	case kComplex:
		if op == "-" {
			return complexVal(-x.c), nil
		}
		return x, nil
	}
	return value{}, typeError("bad operand type for unary " + op + ": '" + x.typeName() + "'")
}

func binaryOp(b *budget, op string, l, r value) (value, error) {
	switch {
	case !l.isNumber() || !r.isNumber():
		return sequenceOp(op, l, r)
	case l.k == kComplex || r.k == kComplex:
		return complexOp(op, l, r)
	}
	return b.numOp(op, l.n, r.n)
}

// sequenceOp covers operations involving the empty tuple or Ellipsis:
// "()" concatenates with "()" and repeats by an int; all else is a
// TypeError worded as Python words it.
func sequenceOp(op string, l, r value) (value, error) {
	switch {
	case op == "+" && l.k == kTuple:
		if r.k == kTuple {
			return l, nil
		}
		return value{}, typeError(`can only concatenate tuple (not "` + r.typeName() + `") to tuple`)
	case op == "*" && (l.k == kTuple || r.k == kTuple):
		seq, n := l, r
		if l.k != kTuple {
			seq, n = r, l
		}
		if n.k != kInt {
			return value{}, typeError("can't multiply sequence by non-int of type '" + n.typeName() + "'")
		}
		if _, ok := n.n.Int64(); !ok {
			return value{}, raise(msgIndexOverflow)
		}
		return seq, nil
	}
	return value{}, unsupported(op, l, r)
}

// budget bounds the integer work of one evaluation.
type budget struct {
	left int // bits of integer results still allowed
}

// spend charges bits of work to the budget, failing when it is exhausted.
func (bu *budget) spend(bits int) error {
	bu.left -= bits
	if bu.left < 0 {
		return raise(msgIntTooLarge)
	}
	return nil
}

// checkIntSize refuses an integer above maxIntBits and charges its size.
func (bu *budget) checkIntSize(n pyvalue.Num) (value, error) {
	size := bitLen(n)
	if size > maxIntBits {
		return value{}, raise(msgIntTooLarge)
	}
	if err := bu.spend(size); err != nil {
		return value{}, err
	}
	return numVal(n), nil
}

// numOp is a op b for two ints or floats: Python's arithmetic
// (pyvalue.Num), except that every division by zero reads "division by
// zero", as the calculate tool reports it, and that int results are
// charged to the budget.
func (bu *budget) numOp(op string, a, b pyvalue.Num) (value, error) {
	ints := !a.IsFloat() && !b.IsFloat()
	var r pyvalue.Num
	var err error
	switch op {
	case "+":
		r, err = a.Add(b)
	case "-":
		r, err = a.Sub(b)
	case "*":
		if ints && bitLen(a)+bitLen(b)-1 > maxIntBits {
			return value{}, raise(msgIntTooLarge)
		}
		r, err = a.Mul(b)
	case "/", "//":
		if b.IsZero() {
			return value{}, raise(msgDivisionByZero)
		}
		if op == "/" {
			r, err = a.TrueDiv(b)
		} else {
			r, err = a.FloorDiv(b)
		}
		if err != nil {
			return value{}, err
		}
		return numVal(r), nil
	default: // "**"
		if ints && b.Sign() >= 0 {
			return bu.intPow(a.BigInt(), b.BigInt())
		}
		// A float operand, or a negative exponent, makes it a float power.
		x, err := a.Float64()
		if err != nil {
			return value{}, err
		}
		y, err := b.Float64()
		if err != nil {
			return value{}, err
		}
		return floatPow(x, y)
	}
	if err != nil {
		return value{}, err
	}
	if ints {
		return bu.checkIntSize(r)
	}
	return numVal(r), nil
}

// intPow is int ** int for an exponent b >= 0.
func (bu *budget) intPow(a, b *big.Int) (value, error) {
	if a.CmpAbs(big.NewInt(1)) <= 0 { // 0, 1 and -1 stay small
		if a.Sign() < 0 && b.Bit(0) == 0 {
			return intOf(1), nil
		}
		if b.Sign() == 0 {
			return intOf(1), nil
		}
		return numVal(pyvalue.BigNum(a)), nil
	}
	if !b.IsInt64() || b.Int64() > maxIntBits || int64(a.BitLen()-1)*b.Int64() > maxIntBits {
		return value{}, raise(msgIntTooLarge)
	}
	// The result has about (bits of a) × b bits; squarings on the way cost
	// as much again.
	if err := bu.spend(a.BitLen() * int(b.Int64())); err != nil {
		return value{}, err
	}
	return bu.checkIntSize(pyvalue.BigNum(new(big.Int).Exp(a, b, nil)))
}

// floatPow is CPython's float ** float, special cases included: a
// negative base to a fractional power is a complex power.
func floatPow(iv, iw float64) (value, error) {
	switch {
	case iw == 0:
		return floatVal(1), nil
	case math.IsNaN(iv):
		return floatVal(iv), nil
	case math.IsNaN(iw):
		if iv == 1 {
			return floatVal(1), nil
		}
		return floatVal(iw), nil
	case math.IsInf(iw, 0):
		iv = math.Abs(iv)
		switch {
		case iv == 1:
			return floatVal(1), nil
		case (iw > 0) == (iv > 1):
			return floatVal(math.Abs(iw)), nil
		}
		return floatVal(0), nil
	case math.IsInf(iv, 0):
		odd := isOddInteger(iw)
		if iw > 0 {
			if odd {
				return floatVal(iv), nil
			}
			return floatVal(math.Abs(iv)), nil
		}
		if odd {
			return floatVal(math.Copysign(0, iv)), nil
		}
		return floatVal(0), nil
	case iv == 0:
		if iw < 0 {
			return value{}, raise(msgZeroNegative)
		}
		if isOddInteger(iw) {
			return floatVal(iv), nil
		}
		return floatVal(0), nil
	}
	negate := false
	if iv < 0 {
		if !isInteger(iw) {
			return complexPow(complex(iv, 0), complex(iw, 0))
		}
		iv = -iv
		negate = isOddInteger(iw)
	}
	if iv == 1 {
		if negate {
			return floatVal(-1), nil
		}
		return floatVal(1), nil
	}
	ix, ok := pow(iv, iw)
	if !ok {
		return value{}, raise(msgFloatRange)
	}
	if negate {
		ix = -ix
	}
	return floatVal(ix), nil
}

func complexOp(op string, l, r value) (value, error) {
	if op == "//" {
		return value{}, unsupported(op, l, r)
	}
	a, err := l.toComplex()
	if err != nil {
		return value{}, err
	}
	b, err := r.toComplex()
	if err != nil {
		return value{}, err
	}
	switch op {
	case "+":
		return complexVal(a + b), nil
	case "-":
		return complexVal(a - b), nil
	case "*":
		return complexVal(cProd(a, b)), nil
	case "/":
		q, ok := cQuot(a, b)
		if !ok {
			return value{}, raise(msgDivisionByZero)
		}
		return complexVal(q), nil
	}
	return complexPow(a, b)
}

func cProd(a, b complex128) complex128 {
	return complex(real(a)*real(b)-imag(a)*imag(b), real(a)*imag(b)+imag(a)*real(b))
}

// cQuot is CPython's complex division (Smith's method); ok is false for a
// zero divisor.
func cQuot(a, b complex128) (complex128, bool) {
	absRe, absIm := math.Abs(real(b)), math.Abs(imag(b))
	switch {
	case absRe >= absIm:
		if absRe == 0 {
			return 0, false
		}
		ratio := imag(b) / real(b)
		denom := real(b) + imag(b)*ratio
		return complex((real(a)+imag(a)*ratio)/denom, (imag(a)-real(a)*ratio)/denom), true
	case absIm >= absRe:
		ratio := real(b) / imag(b)
		denom := real(b)*ratio + imag(b)
		return complex((real(a)*ratio+imag(a))/denom, (imag(a)*ratio-real(a))/denom), true
	}
	return complex(math.NaN(), math.NaN()), true
}

// complexPow is CPython's complex ** complex: repeated multiplication for
// small integer exponents, the polar formula otherwise.
func complexPow(a, b complex128) (value, error) {
	var p complex128
	zeroDiv := false
	if imag(b) == 0 && isInteger(real(b)) && math.Abs(real(b)) <= 100 {
		n := int(real(b))
		if n >= 0 {
			p = cPowu(a, n)
		} else {
			var ok bool
			p, ok = cQuot(1, cPowu(a, -n))
			zeroDiv = !ok
		}
	} else {
		switch {
		case b == 0:
			p = 1
		case a == 0:
			zeroDiv = imag(b) != 0 || real(b) < 0
		default:
			vabs := math.Hypot(real(a), imag(a))
			length := math.Pow(vabs, real(b))
			at := math.Atan2(imag(a), real(a))
			phase := at * real(b)
			if imag(b) != 0 {
				length /= math.Exp(at * imag(b))
				phase += imag(b) * math.Log(vabs)
			}
			p = complex(length*math.Cos(phase), length*math.Sin(phase))
		}
	}
	switch {
	case zeroDiv:
		return value{}, raise(msgZeroComplex)
	case math.IsInf(real(p), 0) || math.IsInf(imag(p), 0):
		return value{}, raise(msgComplexOverflow)
	}
	return complexVal(p), nil
}

func cPowu(x complex128, n int) complex128 {
	r, p := complex128(1), x
	for mask := 1; mask > 0 && n >= mask; mask <<= 1 {
		if n&mask != 0 {
			r = cProd(r, p)
		}
		p = cProd(p, p)
	}
	return r
}
