package evalstats

// PassHatK returns tau-bench's unbiased estimate of pass^k, the chance
// that k independent trials of a scenario all succeed, averaged over the
// scenarios: the mean of C(c,k)/C(n,k) for c successes of n trials. Each
// ratio is computed as the product of (c-i)/(n-i) for i < k, so it cannot
// overflow. With k = 1 it is pass@1, the mean of c/n.
//
// The plug-in mean of (c/n)^k estimates the same quantity with an upward
// bias for k > 1 (E[(c/n)²] = p² + p(1-p)/n), which matters at the few
// trials a voice agent affords.
//
// ok is false, and the estimate NaN, when there is no scenario, k < 1, an
// outcome is invalid, or any scenario has fewer than k trials: such a
// scenario cannot estimate pass^k, and leaving it out would silently change
// the scenario set the number speaks about.
func PassHatK(outcomes []Outcome, k int) (float64, bool) {
	if len(outcomes) == 0 || k < 1 {
		return nan(), false
	}
	sum := 0.0
	for _, o := range outcomes {
		if !o.valid() || o.Trials < k {
			return nan(), false
		}
		r := 1.0
		for i := 0; i < k && r != 0; i++ {
			r *= float64(o.Successes-i) / float64(o.Trials-i)
		}
		sum += r
	}
	return sum / float64(len(outcomes)), true
}
