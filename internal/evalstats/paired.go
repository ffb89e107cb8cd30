package evalstats

import "math"

// exactLimit is the most non-zero differences PairedPermutation enumerates
// exactly (2^20 sign patterns, half of them by symmetry).
const exactLimit = 20

// PairedPermutation returns the two-sided p-value of the paired sign-flip
// permutation test of mean(diffs) = 0: under the null hypothesis each
// difference (say one scenario's pass rate in run A minus that in run B)
// is as likely to have either sign, so the observed |Σ diffs| is compared
// with |Σ ±diffs| over sign patterns. Zero differences do not change any
// sum and are left out. With at most 20 non-zero differences every pattern
// is enumerated and the p-value is exact; with more, resamples random
// patterns are drawn from seed and p = (1+hits)/(1+resamples), the
// observed pattern counted in, so p is never 0 and the test keeps its
// level. Sums within 1e-9·Σ|diffs| of the observed one count as equal, so
// float rounding cannot drop a tie.
//
// All differences zero (or none) gives 1. A NaN or infinite difference,
// or resamples < 1, gives NaN.
func PairedPermutation(diffs []float64, resamples int, seed uint64) float64 {
	if resamples < 1 {
		return nan()
	}
	var nz []float64
	obs, scale := 0.0, 0.0
	for _, d := range diffs {
		if math.IsNaN(d) || math.IsInf(d, 0) {
			return nan()
		}
		if d != 0 {
			nz = append(nz, d)
			obs += d
			scale += math.Abs(d)
		}
	}
	if len(nz) == 0 {
		return 1
	}
	thr := math.Abs(obs) - 1e-9*scale
	if len(nz) <= exactLimit {
		return signFlipExact(nz, thr)
	}
	return signFlipMonteCarlo(nz, thr, resamples, seed)
}

// signFlipExact returns the share of the 2^len(d) sign patterns whose
// |sum| is at least thr. A pattern and its negation have the same |sum|,
// so the last sign stays + and the count covers both.
func signFlipExact(d []float64, thr float64) float64 {
	k := len(d) - 1
	last := d[k]
	hits := 0
	for mask := uint32(0); mask < 1<<k; mask++ {
		s := last
		for i, x := range d[:k] {
			if mask&(1<<i) != 0 {
				s -= x
			} else {
				s += x
			}
		}
		if math.Abs(s) >= thr {
			hits++
		}
	}
	return float64(hits) / float64(uint32(1)<<k)
}

// signFlipMonteCarlo draws resamples random sign patterns, 64 signs per
// random word, and returns (1+hits)/(1+resamples).
func signFlipMonteCarlo(d []float64, thr float64, resamples int, seed uint64) float64 {
	r := newRand(seed)
	hits := 0
	for range resamples {
		s := 0.0
		var bits uint64
		for i, x := range d {
			if i%64 == 0 {
				bits = r.Uint64()
			}
			if bits&1 != 0 {
				s -= x
			} else {
				s += x
			}
			bits >>= 1
		}
		if math.Abs(s) >= thr {
			hits++
		}
	}
	return float64(1+hits) / float64(1+resamples)
}
