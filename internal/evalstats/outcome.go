package evalstats

// Outcome is one scenario's result over repeated trials: Successes of
// Trials passed. It is valid when 0 <= Successes <= Trials.
type Outcome struct {
	Successes, Trials int
}

func (o Outcome) valid() bool {
	return 0 <= o.Successes && o.Successes <= o.Trials
}

// FlakyShare returns the share of scenarios that passed some trials and
// failed others (0 < Successes < Trials). It returns NaN for no scenarios
// or when an outcome is invalid.
func FlakyShare(outcomes []Outcome) float64 {
	if len(outcomes) == 0 {
		return nan()
	}
	flaky := 0
	for _, o := range outcomes {
		if !o.valid() {
			return nan()
		}
		if 0 < o.Successes && o.Successes < o.Trials {
			flaky++
		}
	}
	return float64(flaky) / float64(len(outcomes))
}
