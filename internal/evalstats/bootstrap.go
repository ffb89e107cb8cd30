package evalstats

import (
	"math"
	"math/rand/v2"
	"slices"
)

// seq is the PCG stream every generator of the package uses; the caller's
// seed picks the state.
const seq = 0x9e3779b97f4a7c15

func newRand(seed uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, seq))
}

// Bootstrap returns the percentile bootstrap interval, at confidence conf,
// of stat over the scenarios: it draws resamples sets of len(outcomes)
// scenarios with replacement, computes stat on each, and returns the
// (1-conf)/2 and (1+conf)/2 quantiles of the results (linearly
// interpolated between order statistics). The same seed gives the same
// interval.
//
// stat is called with one buffer the bootstrap reuses: it must not keep
// the slice or change it. (NaN, NaN) is returned for no scenarios, a nil
// stat, resamples < 1, conf outside (0, 1), or when stat returns NaN on a
// resample (a statistic undefined on some resample has no interval).
func Bootstrap(outcomes []Outcome, stat func([]Outcome) float64, conf float64, resamples int, seed uint64) (lo, hi float64) {
	n := len(outcomes)
	if n == 0 || stat == nil || resamples < 1 || !(conf > 0 && conf < 1) {
		return nan(), nan()
	}
	r := newRand(seed)
	buf := make([]Outcome, n)
	vals := make([]float64, resamples)
	for j := range vals {
		for i := range buf {
			buf[i] = outcomes[r.IntN(n)]
		}
		v := stat(buf)
		if math.IsNaN(v) {
			return nan(), nan()
		}
		vals[j] = v
	}
	slices.Sort(vals)
	return quantile(vals, (1-conf)/2), quantile(vals, (1+conf)/2)
}

// quantile returns the q-quantile of the sorted xs, interpolating linearly
// between the order statistics at (len-1)·q (R's type 7, numpy's default).
func quantile(xs []float64, q float64) float64 {
	h := float64(len(xs)-1) * q
	i := int(h)
	if i >= len(xs)-1 {
		return xs[len(xs)-1]
	}
	return xs[i] + (h-float64(i))*(xs[i+1]-xs[i])
}

// BootstrapMeans is Bootstrap for statistics that are means over the
// scenarios of a value per scenario, several at once: values[s][i] is
// statistic s's value for scenario i (pass^k's is C(c,k)/C(n,k)). Every
// resample of the scenarios serves every statistic, so one call costs
// what one Bootstrap does. It returns each statistic's interval; (NaN,
// NaN) for all on the conditions Bootstrap gives NaN for, and for a
// statistic whose values are not len(values[0]) long or hold a NaN.
func BootstrapMeans(values [][]float64, conf float64, resamples int, seed uint64) (lo, hi []float64) {
	lo, hi = make([]float64, len(values)), make([]float64, len(values))
	n := 0
	if len(values) > 0 {
		n = len(values[0])
	}
	bad := n == 0 || resamples < 1 || !(conf > 0 && conf < 1)
	for _, v := range values {
		bad = bad || len(v) != n || slices.ContainsFunc(v, math.IsNaN)
	}
	if bad {
		for s := range values {
			lo[s], hi[s] = nan(), nan()
		}
		return lo, hi
	}
	r := newRand(seed)
	sums := make([][]float64, len(values))
	for s := range sums {
		sums[s] = make([]float64, resamples)
	}
	idx := make([]int, n)
	for j := range resamples {
		for t := range idx {
			idx[t] = r.IntN(n)
		}
		for s, v := range values {
			sum := 0.0
			for _, i := range idx {
				sum += v[i]
			}
			sums[s][j] = sum
		}
	}
	for s, vals := range sums {
		for j := range vals {
			vals[j] /= float64(n)
		}
		slices.Sort(vals)
		lo[s], hi[s] = quantile(vals, (1-conf)/2), quantile(vals, (1+conf)/2)
	}
	return lo, hi
}
