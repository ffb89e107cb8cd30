package harness

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"

	"github.com/voiceeval/schematools/internal/pyvalue"
)

// The files at the top of a run of several trials (NeMo's files are in
// each trial_<n> directory, unchanged).
const (
	fileTrialsJSON    = "trials.json"
	fileTrialsSummary = "trials_summary.txt"
)

// writeTrialFiles writes trials.json, trials_summary.txt and report.html
// (renderTrialReport) at the top of a run of several trials.
func writeTrialFiles(dir string) error {
	files, tr, err := readTrials(dir)
	if err != nil {
		return err
	}
	js, err := trialsJSON(tr)
	if err != nil {
		return err
	}
	if err := replaceFile(filepath.Join(dir, fileTrialsJSON), js); err != nil {
		return err
	}
	if err := replaceFile(filepath.Join(dir, fileTrialsSummary), []byte(trialsSummary(tr))); err != nil {
		return err
	}
	report, err := trialReport(dir, "", files, tr)
	if err != nil {
		return err
	}
	return replaceFile(filepath.Join(dir, fileReport), report)
}

// trialsJSON is trials.json: json.dump(indent=2) of
// {"trials", "confidence", "overall", "domains": {name: stats},
// "scenarios": [{"scenario", "domain", "successes", "runs", "verdicts"}]};
// an estimate that cannot be made is null.
func trialsJSON(tr *Trials) ([]byte, error) {
	doms := pyvalue.Dict{}
	for _, d := range tr.Domains {
		doms = append(doms, pyvalue.Item{Key: d.Domain, Value: statsDict(d)})
	}
	scs := make([]any, len(tr.Scenarios))
	for i, s := range tr.Scenarios {
		c, n := s.Successes, s.Runs
		vs := make([]any, len(s.Verdicts))
		for j, v := range s.Verdicts {
			if v == "" {
				vs[j] = nil // missing
			} else {
				vs[j] = v
			}
		}
		scs[i] = dict("scenario", s.Name, "domain", s.Domain, "successes", int64(c), "runs", int64(n), "verdicts", vs)
	}
	b, err := dumpIndent(dict(
		"trials", int64(tr.Trials),
		"confidence", trialConfidence,
		"overall", statsDict(tr.Overall),
		"domains", doms,
		"scenarios", scs,
	), 2)
	if err != nil {
		return nil, fmt.Errorf("harness: %s: %w", fileTrialsJSON, err)
	}
	return b, nil
}

func statsDict(st TrialStats) pyvalue.Dict {
	interval := func(iv *Interval) any {
		if iv == nil {
			return nil
		}
		return dict("estimate", finite(iv.Estimate), "lo", finite(iv.Lo), "hi", finite(iv.Hi))
	}
	ks := make([]any, len(st.PassHatK))
	for i := range st.PassHatK {
		ks[i] = append(dict("k", int64(i+1)), interval(&st.PassHatK[i]).(pyvalue.Dict)...)
	}
	var flaky any
	if st.Flaky != nil {
		flaky = finite(*st.Flaky)
	}
	return dict("scenarios", int64(st.Scenarios), "runs", int64(st.Runs), "successes", int64(st.Successes),
		"pass_at_1", interval(st.PassAt1), "pass_hat_k", ks, "flaky_share", flaky)
}

// finite is v, or None when v is not a finite number (JSON has none).
func finite(v float64) any {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return v
}

// trialsSummary is trials_summary.txt: the statistics overall and per
// domain, then the flaky scenarios and those failed in every trial.
func trialsSummary(tr *Trials) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Trials: %d per scenario, %d scenario(s) with a verdict\n", tr.Trials, tr.Overall.Scenarios)
	fmt.Fprintf(&b, "Intervals: %.0f%% (Wilson for pass@1; percentile bootstrap over scenarios, %d draws, for pass^k)\n", trialConfidence*100, bootstrapDraws)
	writeStats := func(title string, st TrialStats) {
		fmt.Fprintf(&b, "\n%s: %d scenario(s), %d run(s), %d passed\n", title, st.Scenarios, st.Runs, st.Successes)
		if st.PassAt1 == nil {
			b.WriteString("  no verdict: nothing to estimate\n")
			return
		}
		fmt.Fprintf(&b, "  pass@1  %s\n", intervalText(*st.PassAt1))
		for i, iv := range st.PassHatK {
			fmt.Fprintf(&b, "  pass^%-2d %s\n", i+1, intervalText(iv))
		}
		if st.Flaky != nil {
			fmt.Fprintf(&b, "  flaky   %.1f%% of scenarios\n", *st.Flaky*100)
		}
	}
	writeStats("Overall", tr.Overall)
	for _, d := range tr.Domains {
		writeStats("Domain "+d.Domain, d)
	}
	var flaky, failed []string
	for _, s := range tr.Scenarios {
		c, n := s.Successes, s.Runs
		switch {
		case n > 0 && c == 0:
			failed = append(failed, fmt.Sprintf("  %s 0/%d", s.Name, n))
		case c > 0 && c < n:
			flaky = append(flaky, fmt.Sprintf("  %s %d/%d", s.Name, c, n))
		}
	}
	fmt.Fprintf(&b, "\nFlaky scenarios (passed some trials, failed others): %d\n", len(flaky))
	for _, l := range flaky {
		b.WriteString(l + "\n")
	}
	fmt.Fprintf(&b, "\nFailed in every trial: %d\n", len(failed))
	for _, l := range failed {
		b.WriteString(l + "\n")
	}
	return b.String()
}

func intervalText(iv Interval) string {
	return fmt.Sprintf("%.3f [%.3f, %.3f]", iv.Estimate, iv.Lo, iv.Hi)
}
