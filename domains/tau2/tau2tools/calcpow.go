package tau2tools

import (
	"math"
	"math/big"
	"sync"
)

// powPrec is the working precision of pow, in bits: far more than the 53
// of a float64, so that the one final rounding is the only one that shows.
const powPrec = 192

// ln2 is ln(2) at powPrec bits.
var ln2 = sync.OnceValue(func() *big.Float {
	// ln 2 = 2 atanh(1/3)
	third := new(big.Float).SetPrec(powPrec).Quo(newBig(1), newBig(3))
	return atanh2(third)
})

func newBig(x float64) *big.Float { return new(big.Float).SetPrec(powPrec).SetFloat64(x) }

// pow returns x**y for finite x > 0 and finite y, correctly rounded in
// all but vanishingly rare cases, as the C library's pow that CPython
// calls is; math.Pow is not (it gives 999999999999999.8 for 1e6**2.5).
// It reports false when the result overflows the float range.
func pow(x, y float64) (float64, bool) {
	if y == math.Trunc(y) && math.Abs(y) <= 64 {
		return powInt(x, int(y))
	}
	t := new(big.Float).SetPrec(powPrec).Mul(logBig(x), newBig(y))
	tf, _ := t.Float64()
	switch {
	case tf > 1000:
		return 0, false
	case tf < -1100:
		return 0, true
	}
	f, _ := expBig(t).Float64()
	if math.IsInf(f, 0) {
		return 0, false
	}
	return f, true
}

// powInt computes x**n exactly at high precision, then rounds once.
func powInt(x float64, n int) (float64, bool) {
	neg := n < 0
	if neg {
		n = -n
	}
	r, p := newBig(1), newBig(x)
	for ; n > 0; n >>= 1 {
		if n&1 == 1 {
			r.Mul(r, p)
		}
		p.Mul(p, p)
	}
	if neg {
		r.Quo(newBig(1), r)
	}
	f, _ := r.Float64()
	if math.IsInf(f, 0) {
		return 0, false
	}
	return f, true
}

// logBig returns ln(x) for x > 0: x = m·2^e with m in [1/√2, √2), and
// ln m = 2 atanh((m-1)/(m+1)).
func logBig(x float64) *big.Float {
	m := new(big.Float).SetPrec(powPrec)
	e := newBig(x).MantExp(m) // m in [0.5, 1)
	if m.Cmp(newBig(math.Sqrt2/2)) < 0 {
		m.SetMantExp(m, 1)
		e--
	}
	num := new(big.Float).SetPrec(powPrec).Sub(m, newBig(1))
	den := new(big.Float).SetPrec(powPrec).Add(m, newBig(1))
	r := atanh2(num.Quo(num, den))
	return r.Add(r, new(big.Float).SetPrec(powPrec).Mul(ln2(), newBig(float64(e))))
}

// atanh2 returns 2 atanh(z) = 2 (z + z³/3 + z⁵/5 + …) for |z| <= 1/3.
func atanh2(z *big.Float) *big.Float {
	z2 := new(big.Float).SetPrec(powPrec).Mul(z, z)
	sum := new(big.Float).SetPrec(powPrec).Set(z)
	term := new(big.Float).SetPrec(powPrec).Set(z)
	q := new(big.Float).SetPrec(powPrec)
	for k := 3; k < 400; k += 2 {
		term.Mul(term, z2)
		q.Quo(term, newBig(float64(k)))
		if q.Sign() == 0 || q.MantExp(nil)-sum.MantExp(nil) < -powPrec-4 {
			break
		}
		sum.Add(sum, q)
	}
	return sum.Mul(sum, newBig(2))
}

// expBig returns e**t for |t| below about 1100: t = k ln 2 + r, and e**r
// by its Taylor series on r/256, squared eight times.
func expBig(t *big.Float) *big.Float {
	kf, _ := new(big.Float).Quo(t, ln2()).Float64()
	k := math.Round(kf)
	r := new(big.Float).SetPrec(powPrec).Mul(ln2(), newBig(k))
	r.Sub(t, r)
	r.SetMantExp(r, -8)
	sum, term := newBig(1), newBig(1)
	for i := 1; i < 100; i++ {
		term.Mul(term, r)
		term.Quo(term, newBig(float64(i)))
		if term.Sign() == 0 || term.MantExp(nil) < -powPrec-4 {
			break
		}
		sum.Add(sum, term)
	}
	for range 8 {
		sum.Mul(sum, sum)
	}
	return sum.SetMantExp(sum, int(k))
}
