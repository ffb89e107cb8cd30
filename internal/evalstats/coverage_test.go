package evalstats

import (
	"math"
	"math/rand/v2"
	"testing"
)

// The simulated evaluation: 309 scenarios, 3 trials each, scenario i
// succeeding with probability covProbs[i%6] on every trial.
const (
	covScenarios = 309
	covTrials    = 3
	covSeeds     = 100
	covResamples = 1000
)

var covProbs = [...]float64{0, 0.2, 0.5, 0.8, 0.95, 1}

func covP(i int) float64 { return covProbs[i%len(covProbs)] }

// simulate fills out with one run of the scenarios; trials, when not nil,
// gets each trial's result (scenario-major), for pairing two runs.
func simulate(r *rand.Rand, out []Outcome, trials []bool) {
	for i := range out {
		c := 0
		for j := range covTrials {
			ok := r.Float64() < covP(i)
			if ok {
				c++
			}
			if trials != nil {
				trials[i*covTrials+j] = ok
			}
		}
		out[i] = Outcome{c, covTrials}
	}
}

// truePassK is the analytic pass^k of the simulated scenarios: mean p_i^k.
func truePassK(k int) float64 {
	sum := 0.0
	for i := range covScenarios {
		sum += math.Pow(covP(i), float64(k))
	}
	return sum / covScenarios
}

// plugInPassK is the biased estimator: the mean of (c/n)^k.
func plugInPassK(k int) func([]Outcome) float64 {
	return func(o []Outcome) float64 {
		sum := 0.0
		for _, x := range o {
			r, v := float64(x.Successes)/float64(x.Trials), 1.0
			for range k {
				v *= r
			}
			sum += v
		}
		return sum / float64(len(o))
	}
}

func unbiasedPassK(k int) func([]Outcome) float64 {
	return func(o []Outcome) float64 {
		v, _ := PassHatK(o, k)
		return v
	}
}

// The acceptance criterion at the statistics level: over 100
// seeds, the 95% intervals contain the true pass@1 and pass^k in at least
// 95 of them, while the plug-in estimator's intervals for k = 2, 3 do not.
func TestCoverage(t *testing.T) {
	outcomes := make([]Outcome, covScenarios)
	wilson := 0
	unbiased := make([]int, covTrials+1) // by k
	biased := make([]int, covTrials+1)
	// Means over the seeds of each estimate and of the interval widths.
	meanU, meanB := make([]float64, covTrials+1), make([]float64, covTrials+1)
	widthU, widthB := make([]float64, covTrials+1), make([]float64, covTrials+1)
	for seed := range uint64(covSeeds) {
		simulate(rand.New(rand.NewPCG(seed, 1)), outcomes, nil)
		succ := 0
		for _, o := range outcomes {
			succ += o.Successes
		}
		lo, hi := Wilson(succ, covScenarios*covTrials, 0.95)
		if truth := truePassK(1); lo <= truth && truth <= hi {
			wilson++
		}
		for k := 1; k <= covTrials; k++ {
			truth := truePassK(k)
			lo, hi := Bootstrap(outcomes, unbiasedPassK(k), 0.95, covResamples, seed+1000)
			if lo <= truth && truth <= hi {
				unbiased[k]++
			}
			meanU[k] += unbiasedPassK(k)(outcomes) / covSeeds
			widthU[k] += (hi - lo) / covSeeds
			if k == 1 {
				continue // (c/n)^1 is PassHatK with k = 1
			}
			lo, hi = Bootstrap(outcomes, plugInPassK(k), 0.95, covResamples, seed+1000)
			if lo <= truth && truth <= hi {
				biased[k]++
			}
			meanB[k] += plugInPassK(k)(outcomes) / covSeeds
			widthB[k] += (hi - lo) / covSeeds
		}
	}
	t.Logf("pass@1 in the Wilson interval: %d/%d seeds", wilson, covSeeds)
	for k := 1; k <= covTrials; k++ {
		t.Logf("pass^%d (true %.4f) in the bootstrap interval of PassHatK: %d/%d seeds (mean estimate %.4f, mean width %.4f)",
			k, truePassK(k), unbiased[k], covSeeds, meanU[k], widthU[k])
	}
	for k := 2; k <= covTrials; k++ {
		t.Logf("pass^%d in the bootstrap interval of mean((c/n)^%d): %d/%d seeds (mean estimate %.4f, mean width %.4f)",
			k, k, biased[k], covSeeds, meanB[k], widthB[k])
	}
	if wilson < 95 {
		t.Errorf("Wilson covered pass@1 in %d of %d seeds, want >= 95", wilson, covSeeds)
	}
	for k := 1; k <= covTrials; k++ {
		if unbiased[k] < 95 {
			t.Errorf("PassHatK k=%d covered in %d of %d seeds, want >= 95", k, unbiased[k], covSeeds)
		}
	}
	for k := 2; k <= covTrials; k++ {
		if biased[k] >= 95 {
			t.Errorf("mean((c/n)^%d) covered in %d of %d seeds: the test no longer shows its bias", k, biased[k], covSeeds)
		}
	}
	// The bias itself, averaged over the seeds (seed-to-seed noise in
	// these means is 0.001 to 0.0016): the plug-in estimate sits mean
	// p_i(1-p_i)/3 = 0.034 above pass^2, PassHatK on it.
	for k := 1; k <= covTrials; k++ {
		if d := meanU[k] - truePassK(k); math.Abs(d) > 0.01 {
			t.Errorf("PassHatK k=%d is off by %.4f on average over the seeds", k, d)
		}
	}
	for k := 2; k <= covTrials; k++ {
		if d := meanB[k] - truePassK(k); d < 0.02 {
			t.Errorf("mean((c/n)^%d) is above pass^%d by only %.4f on average over the seeds", k, k, d)
		}
	}
}

// An A/A comparison: two independent runs of the same scenarios. A test at
// the 0.05 level rejects in about 5% of seeds; many more would make it
// anti-conservative (a "significant" change that is noise).
func TestAAFalsePositives(t *testing.T) {
	a, b := make([]Outcome, covScenarios), make([]Outcome, covScenarios)
	ta, tb := make([]bool, covScenarios*covTrials), make([]bool, covScenarios*covTrials)
	diffs := make([]float64, covScenarios)
	perm, mcn := 0, 0
	for seed := range uint64(covSeeds) {
		simulate(rand.New(rand.NewPCG(seed, 2)), a, ta)
		simulate(rand.New(rand.NewPCG(seed, 3)), b, tb)
		for i := range diffs {
			diffs[i] = float64(a[i].Successes-b[i].Successes) / covTrials
		}
		if PairedPermutation(diffs, 999, seed) < 0.05 {
			perm++
		}
		// McNemar pairs trial j of scenario i in run A with the same in B.
		bc, cb := 0, 0
		for j := range ta {
			switch {
			case ta[j] && !tb[j]:
				bc++
			case !ta[j] && tb[j]:
				cb++
			}
		}
		if McNemarExact(bc, cb) < 0.05 {
			mcn++
		}
	}
	t.Logf("A/A rejections at 0.05: PairedPermutation %d/%d seeds, McNemarExact %d/%d", perm, covSeeds, mcn, covSeeds)
	if perm > 10 || mcn > 10 {
		t.Errorf("A/A rejections: PairedPermutation %d, McNemarExact %d of %d seeds; want <= 10 each", perm, mcn, covSeeds)
	}
}
