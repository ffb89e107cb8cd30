package harness

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/voiceeval/schematools/internal/evalstats"
)

// Trials are the verdicts of a run directory's trials and their
// statistics (ReadTrials). A run of one trial — NeMo's own runner's
// included — is a run of Trials 1.
type Trials struct {
	// Trials is the number of trial directories (1 for a run of one).
	Trials int
	// Scenarios are the scenarios with a result in some trial, in the
	// first trial's results.jsonl order (then the later trials').
	Scenarios []ScenarioTrials
	// Overall are the statistics over every scenario; Domains per domain
	// (the name's prefix before "__"), sorted by name.
	Overall TrialStats
	Domains []TrialStats
}

// ScenarioTrials are one scenario's verdicts, by trial - 1: "pass",
// "fail", "N/A" (is_successful "N/A": no success signal applied) or ""
// (the trial has no finished result for it). Successes and Runs count its
// passes and its runs with a verdict (pass or fail: N/A and missing are no
// sample).
type ScenarioTrials struct {
	Name, Domain    string
	Verdicts        []string
	Successes, Runs int
}

// TrialStats summarise the scenarios with at least one verdict. An
// estimate that cannot be made (no such scenario) is nil, never 0.
type TrialStats struct {
	// Domain is "" for the overall statistics.
	Domain string
	// Scenarios counts the scenarios with a verdict; Runs their runs with
	// one, Successes the passed ones.
	Scenarios, Runs, Successes int
	// PassAt1 is the mean over scenarios of c/n, with the Wilson interval
	// of Successes of Runs.
	PassAt1 *Interval
	// PassHatK[k-1] is pass^k, tau-bench's unbiased estimator (the mean of
	// C(c,k)/C(n,k)), for k = 1 up to the fewest runs of a scenario, with
	// a percentile bootstrap interval over scenarios.
	PassHatK []Interval
	// Flaky is the share of scenarios that both passed and failed.
	Flaky *float64
}

// Interval is an estimate and its 95% interval.
type Interval struct {
	Estimate, Lo, Hi float64
}

// Confidence and bootstrap settings of every interval ReadTrials gives;
// the fixed seed makes a run directory's statistics reproducible.
const (
	trialConfidence = 0.95
	bootstrapDraws  = 1000
	bootstrapSeed   = 0x5ca1ab1e
)

// ReadTrials reads a run directory — one of several trials (trial_1 …
// trial_n, as Evaluate writes with Trials > 1) or one run in NeMo's
// layout — and computes its trial statistics. A scenario's verdict in a
// trial is its last results.jsonl line's is_successful.
func ReadTrials(dir string) (*Trials, error) {
	_, tr, err := readTrials(dir)
	return tr, err
}

// readTrials is ReadTrials with the results files it read, by trial - 1.
func readTrials(dir string) ([]*resultsFile, *Trials, error) {
	files, at, err := readTrialFiles(dir)
	if err != nil {
		if at == "" {
			return nil, nil, err
		}
		return nil, nil, fmt.Errorf("harness: %s: %w", at, unprefixed{err})
	}
	return files, trialsOf(files), nil
}

// readTrialFiles reads the results.jsonl of each trial of a run
// directory: trial_1 … trial_n, or the directory itself for a run of one
// (NeMo's layout). On an error, at is the directory it concerns, "" when
// the error names it already.
func readTrialFiles(dir string) (files []*resultsFile, at string, err error) {
	n, err := trialsIn(dir)
	if err != nil {
		return nil, "", err
	}
	dirs := []string{dir}
	if n > 0 {
		dirs = dirs[:0]
		for t := 1; t <= n; t++ {
			dirs = append(dirs, trialDir(dir, t))
		}
	} else if _, err := os.Stat(filepath.Join(dir, fileResults)); err != nil {
		return nil, dir, fmt.Errorf("not a run directory (no %s, no %s1): %w", fileResults, trialDirPrefix, err)
	}
	for _, d := range dirs {
		rf, err := readResults(filepath.Join(d, fileResults))
		if err != nil {
			return nil, d, err
		}
		files = append(files, rf)
	}
	return files, "", nil
}

// trialsOf computes the trial statistics of a run's results files, by
// trial - 1.
func trialsOf(files []*resultsFile) *Trials {
	tr := &Trials{Trials: len(files)}
	index := map[string]int{}
	for t, rf := range files {
		for _, l := range rf.Lines {
			i, ok := index[l.Scenario]
			if !ok {
				i = len(tr.Scenarios)
				index[l.Scenario] = i
				tr.Scenarios = append(tr.Scenarios, ScenarioTrials{Name: l.Scenario, Domain: l.Domain, Verdicts: make([]string, len(files))})
			}
			tr.Scenarios[i].Verdicts[t] = verdictOf(l)
		}
	}
	for i := range tr.Scenarios {
		s := &tr.Scenarios[i]
		for _, v := range s.Verdicts {
			switch v {
			case verdictPass:
				s.Successes, s.Runs = s.Successes+1, s.Runs+1
			case verdictFail:
				s.Runs++
			}
		}
	}
	tr.Overall = trialStats("", tr.Scenarios)
	byDomain := map[string][]ScenarioTrials{}
	for _, s := range tr.Scenarios {
		byDomain[s.Domain] = append(byDomain[s.Domain], s)
	}
	domains := make([]string, 0, len(byDomain))
	for d := range byDomain {
		domains = append(domains, d)
	}
	slices.Sort(domains)
	for _, d := range domains {
		tr.Domains = append(tr.Domains, trialStats(d, byDomain[d]))
	}
	return tr
}

// The verdicts of ScenarioTrials.
const (
	verdictPass = "pass"
	verdictFail = "fail"
	verdictNA   = "N/A"
)

func verdictOf(l *resultLine) string {
	switch v, _ := l.Metrics.Get("is_successful"); v {
	case true:
		return verdictPass
	case false:
		return verdictFail
	case "N/A":
		return verdictNA
	}
	return verdictFail // a result with no readable verdict is not a success
}

// trialStats computes the statistics of scenarios.
func trialStats(domain string, scenarios []ScenarioTrials) TrialStats {
	st := TrialStats{Domain: domain}
	var outcomes []evalstats.Outcome
	fewest := 0
	for _, s := range scenarios {
		c, n := s.Successes, s.Runs
		if n == 0 {
			continue
		}
		outcomes = append(outcomes, evalstats.Outcome{Successes: c, Trials: n})
		st.Runs, st.Successes = st.Runs+n, st.Successes+c
		if fewest == 0 || n < fewest {
			fewest = n
		}
	}
	st.Scenarios = len(outcomes)
	if st.Scenarios == 0 {
		return st
	}
	p1, _ := evalstats.PassHatK(outcomes, 1)
	lo, hi := evalstats.Wilson(st.Successes, st.Runs, trialConfidence)
	st.PassAt1 = &Interval{Estimate: p1, Lo: lo, Hi: hi}
	// pass^k is the mean of a value per scenario, C(c,k)/C(n,k): one
	// bootstrap over the scenarios serves every k.
	values := make([][]float64, fewest)
	for k := 1; k <= fewest; k++ {
		for _, o := range outcomes {
			v, _ := evalstats.PassHatK([]evalstats.Outcome{o}, k)
			values[k-1] = append(values[k-1], v)
		}
	}
	los, his := evalstats.BootstrapMeans(values, trialConfidence, bootstrapDraws, bootstrapSeed)
	for k := 1; k <= fewest; k++ {
		est, _ := evalstats.PassHatK(outcomes, k)
		st.PassHatK = append(st.PassHatK, Interval{Estimate: est, Lo: los[k-1], Hi: his[k-1]})
	}
	f := evalstats.FlakyShare(outcomes)
	st.Flaky = &f
	return st
}
