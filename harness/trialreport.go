package harness

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strconv"
)

// trialStatRow is a line of the trials' statistics table.
type trialStatRow struct {
	Name                       string
	Scenarios, Runs, Successes int
	PassAt1, Flaky             string
	// PassHatK[k-1] is pass^k with its interval, "–" where it cannot be
	// estimated (k above a scenario's fewest runs).
	PassHatK []string
}

// trialMark is one trial's verdict of a scenario.
type trialMark struct {
	Trial                  int
	Verdict, Symbol, Class string
	Href                   string // the trial report's section ("" when the trial has no result)
}

// trialScenarioRow is a line of the per-scenario table.
type trialScenarioRow struct {
	Name, Domain, Anchor string
	// Outcome is "pass" (every trial with a verdict passed), "fail" (none
	// did), "flaky" (some did) or "na" (no verdict).
	Outcome    string
	C, N       int
	Marks      []trialMark
	HasSection bool // the page shows a failing trial's trajectory
}

type trialReportView struct {
	Title   string
	Trials  int
	KS      []int
	Stats   []trialStatRow
	Rows    []trialScenarioRow
	Flaky   int
	Failed  int // scenarios failed in every trial with a verdict
	Passing int
	// Sections are the failed and flaky scenarios, each with its first
	// failing trial.
	Sections []scenarioView
	// Cost is each trial's cost and their sum (nil: no trial has a
	// cost_summary.json).
	Cost *costView
}

// trialOutcome classifies c successes of n runs with a verdict.
func trialOutcome(c, n int) string {
	switch {
	case n == 0:
		return "na"
	case c == n:
		return "pass"
	case c == 0:
		return "fail"
	}
	return "flaky"
}

// renderTrialReport returns the report.html at the top of a run of
// several trials (dir holds trial_1 … trial_n): the statistics ReadTrials
// gives, overall and per domain; per scenario its successes, a mark per
// trial linked to trial_<t>/report.html#<scenario>; then, for each
// scenario failed in some trial, its first failing trial as a trial
// report shows it (outcome, DB diff, transcript, trajectory), read from
// that trial's scenario directory. Failed-only and flaky-only filters
// hide the other scenarios.
func renderTrialReport(dir, title string) ([]byte, error) {
	files, tr, err := readTrials(dir)
	if err != nil {
		return nil, err
	}
	return trialReport(dir, title, files, tr)
}

// trialReport is renderTrialReport with the trials' results files read
// (by trial - 1) and their statistics.
func trialReport(dir, title string, files []*resultsFile, tr *Trials) ([]byte, error) {
	if title == "" {
		title = filepath.Base(dir)
	}
	// The line a scenario's verdict comes from: its last in each trial.
	lines := make([]map[string]*resultLine, len(files))
	for t, rf := range files {
		lines[t] = rf.Latest()
	}
	v := trialReportView{Title: title, Trials: tr.Trials, Cost: trialsCost(dir, tr.Trials)}
	for k := 1; k <= tr.Trials; k++ {
		v.KS = append(v.KS, k)
	}
	statRow := func(name string, st TrialStats) trialStatRow {
		r := trialStatRow{Name: name, Scenarios: st.Scenarios, Runs: st.Runs, Successes: st.Successes, PassAt1: "\u2013", Flaky: "\u2013"}
		if st.PassAt1 != nil {
			r.PassAt1 = intervalText(*st.PassAt1)
		}
		for k := range tr.Trials {
			s := "\u2013"
			if k < len(st.PassHatK) {
				s = intervalText(st.PassHatK[k])
			}
			r.PassHatK = append(r.PassHatK, s)
		}
		if st.Flaky != nil {
			r.Flaky = fixed(*st.Flaky*100, 1) + "%"
		}
		return r
	}
	v.Stats = append(v.Stats, statRow("Overall", tr.Overall))
	for _, d := range tr.Domains {
		v.Stats = append(v.Stats, statRow(d.Domain, d))
	}
	for _, s := range tr.Scenarios {
		c, n := s.Successes, s.Runs
		row := trialScenarioRow{Name: s.Name, Domain: s.Domain, Anchor: anchorOf(s.Name), Outcome: trialOutcome(c, n), C: c, N: n}
		switch row.Outcome {
		case "pass":
			v.Passing++
		case "fail":
			v.Failed++
		case "flaky":
			v.Flaky++
		}
		first := 0
		for i, verdict := range s.Verdicts {
			t := i + 1
			m := trialMark{Trial: t, Verdict: verdict}
			switch verdict {
			case verdictPass:
				m.Symbol, m.Class = "\u2713", "pass"
			case verdictFail:
				m.Symbol, m.Class = "\u2717", "fail"
				if first == 0 {
					first = t
				}
			case verdictNA:
				m.Symbol, m.Class = "N/A", "na"
			default:
				m.Symbol, m.Class, m.Verdict = "\u2013", "missing", "missing"
			}
			if verdict != "" {
				m.Href = trialDirPrefix + strconv.Itoa(t) + "/" + fileReport + "#" + row.Anchor
			}
			row.Marks = append(row.Marks, m)
		}
		if l := lines[max(first, 1)-1][s.Name]; first > 0 && l != nil {
			rel := trialDirPrefix + strconv.Itoa(first)
			sv := scenarioOf(l, filepath.Join(trialDir(dir, first), s.Name), rel+"/"+s.Name)
			sv.DataOutcome = row.Outcome
			sv.Trial, sv.TrialLink = first, rel+"/"+fileReport+"#"+row.Anchor
			sv.Counts = fmt.Sprintf("flaky: %d of %d passed", c, n)
			if row.Outcome == "fail" {
				sv.Counts = fmt.Sprintf("failed every trial: %d of %d passed", c, n)
			}
			v.Sections = append(v.Sections, sv)
			row.HasSection = true
		}
		v.Rows = append(v.Rows, row)
	}
	spendBudget(v.Sections, trajectoryBudget)
	var buf bytes.Buffer
	if err := reportTmpl.ExecuteTemplate(&buf, "trials", v); err != nil {
		return nil, fmt.Errorf("harness: %s: %w", fileReport, err)
	}
	return buf.Bytes(), nil
}
