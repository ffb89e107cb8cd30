package harness

import (
	"fmt"
	"math"
	"strings"

	"github.com/voiceeval/schematools/internal/evalstats"
	"github.com/voiceeval/schematools/internal/pyvalue"
)

// ScenarioChange is one scenario of a comparison, as each run holds it.
type ScenarioChange struct {
	Name, Domain string
	// Base and Head are the scenario's verdicts in each run, by trial - 1,
	// as ScenarioTrials has them ("pass", "fail", "N/A", "" for no
	// result); nil in a run that does not hold the scenario.
	Base, Head []string
	// BaseFailures and HeadFailures say, by trial - 1, why a trial did not
	// pass, from its results.jsonl metrics: the failed success signals,
	// the turn gate, harness_error, a stop reason other than [EXIT]; ""
	// for a pass or a trial without the scenario.
	BaseFailures, HeadFailures []string
	// Paired counts the trials in which both runs have a verdict (pass or
	// fail), trial k of base against trial k of head; BasePassed and
	// HeadPassed count the passes among them. The scenario's pass rates
	// are BasePassed/Paired and HeadPassed/Paired.
	Paired, BasePassed, HeadPassed int
}

// Comparison is what Compare found between two run directories.
type Comparison struct {
	// Base and Head are the run directories, as given.
	Base, Head string
	// BaseTrials and HeadTrials are their numbers of trials (1 for a run
	// of one, NeMo's runner's included).
	BaseTrials, HeadTrials int
	// BasePassAt1 and HeadPassAt1 are each run's pass@1 over all its
	// scenarios with a verdict, with its 95% Wilson interval (ReadTrials'
	// Overall); nil for a run without a verdict.
	BasePassAt1, HeadPassAt1 *Interval
	// Test names the test of the paired difference: "exact McNemar" (on
	// the discordant pairs) when a run has one trial, "paired permutation"
	// (sign flips of the per-scenario pass-rate differences) otherwise.
	Test string
	// P is the test's two-sided p-value (1 when no scenario changed);
	// Alpha the level it is held to.
	P, Alpha float64
	// MeanDiff is the mean over the compared scenarios of head's pass rate
	// minus base's: negative when head does worse (0 with none compared).
	MeanDiff float64
	// Regressions are the compared scenarios whose pass rate fell from
	// base to head, Improvements those whose rose, Unchanged the others.
	Regressions, Improvements, Unchanged []ScenarioChange
	// OnlyBase and OnlyHead are the scenarios one run holds and the other
	// does not; NotCompared those both hold with no trial in which both
	// have a verdict (N/A, or no result in the trials they share). Every
	// list is in base's results.jsonl order, then head's.
	OnlyBase, OnlyHead, NotCompared []ScenarioChange
}

// The permutation test's Monte Carlo settings (used beyond 20 non-zero
// differences; below, every sign pattern is counted): fixed, so that a
// comparison of two run directories always gives the same p-value.
const (
	compareResamples = 10000
	compareSeed      = 0xc0a1e5ce
	defaultAlpha     = 0.05
)

// Compare compares two run directories — each one of Evaluate's (one
// trial or several) or one of NeMo's own runner, whose layout is the same
// — scenario by scenario, paired by name and trial: trial k of base
// against trial k of head, where both have a verdict. A scenario whose
// pass rate over those trials fell is a regression, one whose rate rose
// an improvement; the scenarios only one run holds, or that cannot be
// paired, are listed apart, never dropped. alpha is the level of the
// test: head's regressions are significant when its p-value is below it
// (0: 0.05; otherwise in (0, 1)).
//
// The paired difference is tested two-sided: with a run of one trial by
// the exact McNemar test on the discordant pairs (b regressions against
// c improvements), with trials on both sides by the sign-flip permutation
// test of the per-scenario pass-rate differences (exact up to 20 changed
// scenarios; beyond, 10000 sign patterns from a fixed seed).
//
// It reads results.jsonl (each trial's), as ReadTrials does; a directory
// that is not a run, or a results file it cannot read, is an error naming
// the file.
func Compare(base, head string, alpha float64) (*Comparison, error) {
	level := alpha
	if level == 0 {
		level = defaultAlpha
	}
	if !(level > 0 && level < 1) {
		return nil, fmt.Errorf("harness: Compare: alpha %v is not in (0, 1)", alpha)
	}
	b, err := readCompared("base", base)
	if err != nil {
		return nil, err
	}
	h, err := readCompared("head", head)
	if err != nil {
		return nil, err
	}
	c := &Comparison{Base: base, Head: head, BaseTrials: b.trials.Trials, HeadTrials: h.trials.Trials,
		BasePassAt1: b.trials.Overall.PassAt1, HeadPassAt1: h.trials.Overall.PassAt1, Alpha: level}

	inHead := make(map[string]*ScenarioTrials, len(h.trials.Scenarios))
	for i := range h.trials.Scenarios {
		inHead[h.trials.Scenarios[i].Name] = &h.trials.Scenarios[i]
	}
	var diffs []float64
	regressed, improved := 0, 0
	for _, bs := range b.trials.Scenarios {
		ch := ScenarioChange{Name: bs.Name, Domain: bs.Domain, Base: bs.Verdicts, BaseFailures: b.failures[bs.Name]}
		hs := inHead[bs.Name]
		if hs == nil {
			c.OnlyBase = append(c.OnlyBase, ch)
			continue
		}
		delete(inHead, bs.Name)
		ch.Head, ch.HeadFailures = hs.Verdicts, h.failures[hs.Name]
		for t := range min(len(ch.Base), len(ch.Head)) {
			if !isSample(ch.Base[t]) || !isSample(ch.Head[t]) {
				continue
			}
			ch.Paired++
			if ch.Base[t] == verdictPass {
				ch.BasePassed++
			}
			if ch.Head[t] == verdictPass {
				ch.HeadPassed++
			}
		}
		switch {
		case ch.Paired == 0:
			c.NotCompared = append(c.NotCompared, ch)
			continue
		case ch.HeadPassed < ch.BasePassed:
			c.Regressions = append(c.Regressions, ch)
			regressed++
		case ch.HeadPassed > ch.BasePassed:
			c.Improvements = append(c.Improvements, ch)
			improved++
		default:
			c.Unchanged = append(c.Unchanged, ch)
		}
		diffs = append(diffs, float64(ch.HeadPassed-ch.BasePassed)/float64(ch.Paired))
	}
	for _, hs := range h.trials.Scenarios {
		if inHead[hs.Name] != nil {
			c.OnlyHead = append(c.OnlyHead, ScenarioChange{Name: hs.Name, Domain: hs.Domain, Head: hs.Verdicts, HeadFailures: h.failures[hs.Name]})
		}
	}
	sum := 0.0
	for _, d := range diffs {
		sum += d
	}
	if len(diffs) > 0 {
		c.MeanDiff = sum / float64(len(diffs))
	}
	if c.BaseTrials == 1 || c.HeadTrials == 1 {
		c.Test = testMcNemar
		c.P = evalstats.McNemarExact(regressed, improved)
	} else {
		c.Test = testPermutation
		c.P = evalstats.PairedPermutation(diffs, compareResamples, compareSeed)
	}
	if math.IsNaN(c.P) { // cannot happen with counts and rates; never pass it on
		return nil, fmt.Errorf("harness: Compare: the %s test gave no p-value", c.Test)
	}
	return c, nil
}

const (
	testMcNemar     = "exact McNemar"
	testPermutation = "paired permutation"
)

// isSample reports whether a verdict is a pass/fail sample.
func isSample(v string) bool { return v == verdictPass || v == verdictFail }

// significant reports whether head does worse than base at the level:
// p < Alpha and head's mean pass rate over the compared scenarios lower
// (with one trial: more regressions than improvements).
func (c *Comparison) significant() bool {
	return c.P < c.Alpha && c.MeanDiff < 0
}

// Gate is the comparison's decision: an error saying what failed when
// head's regressions are significant at the level (p < Alpha, and head
// does worse on average: more regressions than improvements), or, with
// strict, when any scenario regressed; nil otherwise. Scenarios only one
// run holds, or not compared, do not fail it (Markdown and HTML list
// them).
func (c *Comparison) Gate(strict bool) error {
	names := func(list []ScenarioChange) string {
		const shown = 10
		var ns []string
		for i, s := range list {
			if i == shown {
				ns = append(ns, fmt.Sprintf("and %d more", len(list)-shown))
				break
			}
			ns = append(ns, s.Name)
		}
		return strings.Join(ns, ", ")
	}
	switch {
	case c.significant():
		return fmt.Errorf("significant regressions: %d scenario(s) regressed, %d improved, %s p = %s < alpha %g: %s",
			len(c.Regressions), len(c.Improvements), c.Test, pText(c.P), c.Alpha, names(c.Regressions))
	case strict && len(c.Regressions) > 0:
		return fmt.Errorf("strict: %d scenario(s) regressed (%s p = %s, not significant at alpha %g): %s",
			len(c.Regressions), c.Test, pText(c.P), c.Alpha, names(c.Regressions))
	}
	return nil
}

// pText is a p-value for reading: 3 significant digits.
func pText(p float64) string { return fmt.Sprintf("%.3g", p) }

// comparedRun is what Compare reads of one run directory.
type comparedRun struct {
	trials *Trials
	// failures are, per scenario and by trial - 1, why it did not pass.
	failures map[string][]string
}

// readCompared reads a run directory for Compare; side ("base" or
// "head") and the directory name every error.
func readCompared(side, dir string) (*comparedRun, error) {
	fail := func(at string, err error) error {
		return fmt.Errorf("harness: Compare: %s run %s: %w", side, at, unprefixed{err})
	}
	files, at, err := readTrialFiles(dir)
	if err != nil {
		if at == "" {
			at = dir
		}
		return nil, fail(at, err)
	}
	r := &comparedRun{trials: trialsOf(files), failures: map[string][]string{}}
	for t, rf := range files {
		for name, l := range rf.Latest() {
			if r.failures[name] == nil {
				r.failures[name] = make([]string, len(files))
			}
			if verdictOf(l) != verdictPass {
				r.failures[name][t] = failureOf(l.Metrics)
			}
		}
	}
	return r, nil
}

// failureOf says why a run did not pass, from its metrics: the failed
// success signals, the turn gate, harness_error, a stop reason other
// than [EXIT].
func failureOf(m pyvalue.Dict) string {
	var parts []string
	bd, _ := get(m, "success_breakdown").(pyvalue.Dict)
	if l, _ := get(bd, "failed").([]any); len(l) > 0 {
		var ss []string
		for _, s := range l {
			ss = append(ss, pyvalue.Str(s))
		}
		parts = append(parts, "failed: "+strings.Join(ss, ", "))
	}
	if pyvalue.Truthy(get(m, "insufficient_agent_turns")) {
		parts = append(parts, "too few agent turns")
	}
	if has(m, "harness_error") {
		parts = append(parts, "harness error: "+pyvalue.Str(get(m, "harness_error")))
	}
	if has(m, "stop_reason") {
		if s := pyvalue.Str(get(m, "stop_reason")); s != "[EXIT]" {
			parts = append(parts, "stop: "+s)
		}
	}
	if v := get(m, "is_successful"); v != true && v != false && v != notApplicable {
		parts = append(parts, "no verdict: is_successful "+pyvalue.Repr(v))
	}
	return strings.Join(parts, "; ")
}

// unprefixed is an error of this package without its "harness: " prefix,
// for wrapping in an error that has its own.
type unprefixed struct{ err error }

func (u unprefixed) Error() string { return strings.TrimPrefix(u.err.Error(), "harness: ") }
func (u unprefixed) Unwrap() error { return u.err }
