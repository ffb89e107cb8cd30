package evalstats

import "math"

// Wilson returns the Wilson score interval of the proportion
// successes/trials at confidence conf (0.95 for a 95% interval). Unlike
// the Wald interval p ± z·√(p(1-p)/n) it stays inside [0, 1], is not
// empty at 0 or n successes, and keeps near its nominal coverage for small
// n. Zero trials give (0, 1); negative counts, successes > trials, or conf
// outside (0, 1) give (NaN, NaN).
func Wilson(successes, trials int, conf float64) (lo, hi float64) {
	if successes < 0 || trials < successes || !(conf > 0 && conf < 1) {
		return nan(), nan()
	}
	if trials == 0 {
		return 0, 1
	}
	z := normalQuantile((1 + conf) / 2)
	n := float64(trials)
	p := float64(successes) / n
	z2n := z * z / n
	center := (p + z2n/2) / (1 + z2n)
	half := z / (1 + z2n) * math.Sqrt(p*(1-p)/n+z2n/(4*n))
	lo, hi = max(center-half, 0), min(center+half, 1)
	if successes == 0 {
		lo = 0
	}
	if successes == trials {
		hi = 1
	}
	return lo, hi
}
