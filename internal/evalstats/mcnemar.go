package evalstats

import "math"

// McNemarExact returns the exact two-sided p-value of McNemar's test on
// paired pass/fail results. Only the discordant pairs count: b pairs where
// A passed and B failed, c where A failed and B passed. Under the null
// hypothesis each discordant pair goes either way with probability 1/2, so
// p = min(1, 2·P(X <= min(b, c))) for X ~ Binomial(b+c, 1/2). No discordant
// pair gives 1; a negative count, or b+c past the largest int, gives NaN.
//
// Up to 1000 discordant pairs the binomial coefficients are summed
// directly (exact for small counts: b=1, c=9 gives 22/1024); beyond, the
// sum is taken relative to its largest term, scaled in log space with
// math.Lgamma, so counts of 100000 and more are fine.
func McNemarExact(b, c int) float64 {
	if b < 0 || c < 0 || b > math.MaxInt-c {
		return nan()
	}
	n := b + c
	if n == 0 {
		return 1
	}
	m := min(b, c)
	if n <= 1000 {
		return mcnemarDirect(n, m)
	}
	return mcnemarLog(n, m)
}

// mcnemarDirect returns min(1, 2·Σ_{i<=m} C(n,i)/2^n), the coefficients
// built up from C(n,0) = 1; n <= 1000 keeps them below the largest float64.
func mcnemarDirect(n, m int) float64 {
	term, sum := 1.0, 1.0
	for i := 1; i <= m; i++ {
		term = term * float64(n-i+1) / float64(i)
		sum += term
	}
	return min(1, math.Ldexp(2*sum, -n))
}

// mcnemarLog returns the same as mcnemarDirect for any n: the terms are
// summed downwards from C(n,m), the largest for m <= n/2, as ratios to it,
// until they no longer change the sum; C(n,m)/2^n comes from math.Lgamma.
func mcnemarLog(n, m int) float64 {
	term, sum := 1.0, 1.0
	for i := m; i > 0; i-- {
		term = term * float64(i) / float64(n-i+1) // C(n,i-1)/C(n,m)
		sum += term
		if term < sum*1e-17 {
			break
		}
	}
	ln1, _ := math.Lgamma(float64(n + 1))
	lm, _ := math.Lgamma(float64(m + 1))
	lnm, _ := math.Lgamma(float64(n - m + 1))
	logTop := ln1 - lm - lnm - float64(n)*math.Ln2
	return min(1, 2*math.Exp(logTop+math.Log(sum)))
}
