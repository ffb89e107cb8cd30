package evalstats

import "math"

func nan() float64 { return math.NaN() }

// normalQuantile returns x with Φ(x) = p for the standard normal
// distribution: Acklam's rational approximation (relative error below
// 1.15e-9) refined by one Halley step on math.Erfc, which brings it to
// about machine precision, tails included. It returns -Inf for 0, +Inf for
// 1 and NaN outside [0, 1].
func normalQuantile(p float64) float64 {
	switch {
	case math.IsNaN(p) || p < 0 || p > 1:
		return nan()
	case p == 0:
		return math.Inf(-1)
	case p == 1:
		return math.Inf(1)
	}
	const (
		a1, a2, a3 = -3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02
		a4, a5, a6 = 1.383577518672690e+02, -3.066479806614716e+01, 2.506628277459239e+00
		b1, b2, b3 = -5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02
		b4, b5     = 6.680131188771972e+01, -1.328068155288572e+01
		c1, c2, c3 = -7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00
		c4, c5, c6 = -2.549732539343734e+00, 4.374664141464968e+00, 2.938163982698783e+00
		d1, d2     = 7.784695709041462e-03, 3.224671290700398e-01
		d3, d4     = 2.445134137142996e+00, 3.754408661907416e+00
		pLow       = 0.02425
	)
	var x float64
	switch {
	case p < pLow:
		q := math.Sqrt(-2 * math.Log(p))
		x = (((((c1*q+c2)*q+c3)*q+c4)*q+c5)*q + c6) / ((((d1*q+d2)*q+d3)*q+d4)*q + 1)
	case p <= 1-pLow:
		q := p - 0.5
		r := q * q
		x = (((((a1*r+a2)*r+a3)*r+a4)*r+a5)*r + a6) * q / (((((b1*r+b2)*r+b3)*r+b4)*r+b5)*r + 1)
	default:
		q := math.Sqrt(-2 * math.Log1p(-p))
		x = -(((((c1*q+c2)*q+c3)*q+c4)*q+c5)*q + c6) / ((((d1*q+d2)*q+d3)*q+d4)*q + 1)
	}
	// Halley step: e is Φ(x) - p, u = e/φ(x). In the upper tail the error
	// is taken on the complement, 1-Φ(x) = Erfc(x/√2)/2, where 1-p is
	// still exact enough.
	var e float64
	if x > 0 {
		e = (1 - p) - 0.5*math.Erfc(x/math.Sqrt2)
	} else {
		e = 0.5*math.Erfc(-x/math.Sqrt2) - p
	}
	u := e * math.Sqrt(2*math.Pi) * math.Exp(x*x/2)
	return x - u/(1+x*u/2)
}
