package harness

import (
	"bytes"
	_ "embed"
	"fmt"
	"html/template"
	"strings"
)

// permutationExact is evalstats.PairedPermutation's limit: up to this many
// non-zero differences every sign pattern is counted.
const permutationExact = 20

// listedAtMost bounds each Markdown list of scenarios (a pull-request
// comment holds 65536 characters); the page lists them all.
const listedAtMost = 100

// headline is the comparison's verdict in a few words, and its class
// ("fail", "warn", "pass").
func (c *Comparison) headline() (string, string) {
	switch {
	case c.significant():
		return fmt.Sprintf("Significant regressions: head does worse than base (%d regressed, %d improved; p = %s < α = %g)",
			len(c.Regressions), len(c.Improvements), pText(c.P), c.Alpha), "fail"
	case len(c.Regressions) > 0:
		return fmt.Sprintf("No significant regression: %d scenario(s) regressed, %d improved (p = %s, α = %g)",
			len(c.Regressions), len(c.Improvements), pText(c.P), c.Alpha), "warn"
	case len(c.Improvements) > 0:
		return fmt.Sprintf("No regression: %d scenario(s) improved (p = %s, α = %g)", len(c.Improvements), pText(c.P), c.Alpha), "pass"
	}
	return "No regression: no compared scenario changed", "pass"
}

// testText describes the test and its p-value.
func (c *Comparison) testText() string {
	if c.Test == testMcNemar {
		return fmt.Sprintf("exact McNemar test on the discordant pairs (b = %d regressions, c = %d improvements): p = %s, α = %g",
			len(c.Regressions), len(c.Improvements), pText(c.P), c.Alpha)
	}
	m := len(c.Regressions) + len(c.Improvements)
	how := fmt.Sprintf("exact over the 2^%d sign patterns", m)
	if m > permutationExact {
		how = fmt.Sprintf("%d random sign patterns, fixed seed", compareResamples)
	}
	return fmt.Sprintf("paired permutation test of the per-scenario pass-rate differences (%d changed, %s): mean change %+.1f points, p = %s, α = %g",
		m, how, c.MeanDiff*100, pText(c.P), c.Alpha)
}

// pairingText says what was paired.
func (c *Comparison) pairingText() string {
	compared := len(c.Regressions) + len(c.Improvements) + len(c.Unchanged)
	s := fmt.Sprintf("%d scenario(s) compared, trial by trial: %d regressed, %d improved, %d unchanged",
		compared, len(c.Regressions), len(c.Improvements), len(c.Unchanged))
	if c.BaseTrials != c.HeadTrials {
		s += fmt.Sprintf("; base has %d trial(s), head %d: only trials 1 to %d are paired", c.BaseTrials, c.HeadTrials, min(c.BaseTrials, c.HeadTrials))
	}
	if n := len(c.OnlyBase) + len(c.OnlyHead) + len(c.NotCompared); n > 0 {
		s += fmt.Sprintf("; %d not compared (listed below)", n)
	}
	return s
}

// sideCounts are the scenarios each run holds.
func (c *Comparison) sideCounts() (base, head int) {
	both := len(c.Regressions) + len(c.Improvements) + len(c.Unchanged) + len(c.NotCompared)
	return both + len(c.OnlyBase), both + len(c.OnlyHead)
}

func passAt1Text(iv *Interval) string {
	if iv == nil {
		return "–"
	}
	return fmt.Sprintf("%.1f%% [%.1f%%, %.1f%%]", iv.Estimate*100, iv.Lo*100, iv.Hi*100)
}

// verdictText is a verdict for reading: "missing" for no result.
func verdictText(v string) string {
	if v == "" {
		return "missing"
	}
	return v
}

// verdictsText is one run's verdicts of a scenario: "pass", or by trial
// "pass fail pass"; "–" for none.
func verdictsText(vs []string) string {
	if len(vs) == 0 {
		return "–"
	}
	ss := make([]string, len(vs))
	for i, v := range vs {
		ss[i] = verdictText(v)
	}
	return strings.Join(ss, " ")
}

// changeText is a scenario's base → head: "pass → fail" with one trial a
// side, "3/3 → 1/3" over the paired trials otherwise, the verdicts when
// nothing is paired.
func changeText(s ScenarioChange) string {
	switch {
	case s.Paired > 0 && len(s.Base) == 1 && len(s.Head) == 1:
		return s.Base[0] + " → " + s.Head[0]
	case s.Paired > 0:
		return fmt.Sprintf("%d/%d → %d/%d", s.BasePassed, s.Paired, s.HeadPassed, s.Paired)
	}
	return verdictsText(s.Base) + " → " + verdictsText(s.Head)
}

// mdCode is s as a Markdown code span that cannot break the line or the
// table it is in.
func mdCode(s string) string {
	s = strings.NewReplacer("`", "'", "\n", " ", "\r", " ", "|", `\|`).Replace(s)
	return "`" + s + "`"
}

// Markdown is a summary of the comparison fit for a pull-request comment:
// the verdict, each run's pass@1 with its interval, the test and its
// p-value, the regressions and improvements by name with base → head
// ("pass → fail", or over trials "3/3 → 1/3"), and the scenarios not
// compared (in one run only, or without a paired verdict). Lists stop at
// 100 names; HTML lists every one.
func (c *Comparison) Markdown() string {
	var b strings.Builder
	head, class := c.headline()
	mark := map[string]string{"fail": "❌", "warn": "⚠️", "pass": "✅"}[class]
	fmt.Fprintf(&b, "### %s %s\n\n", mark, head)
	nb, nh := c.sideCounts()
	b.WriteString("| | base | head |\n|---|---|---|\n")
	fmt.Fprintf(&b, "| run | %s | %s |\n", mdCode(c.Base), mdCode(c.Head))
	fmt.Fprintf(&b, "| trials | %d | %d |\n", c.BaseTrials, c.HeadTrials)
	fmt.Fprintf(&b, "| scenarios | %d | %d |\n", nb, nh)
	fmt.Fprintf(&b, "| pass@1 (95%% Wilson) | %s | %s |\n\n", passAt1Text(c.BasePassAt1), passAt1Text(c.HeadPassAt1))
	fmt.Fprintf(&b, "**Test**: %s.  \n**Compared**: %s.\n", c.testText(), c.pairingText())
	list := func(title string, l []ScenarioChange) {
		if len(l) == 0 {
			return
		}
		fmt.Fprintf(&b, "\n#### %s (%d)\n", title, len(l))
		for i, s := range l {
			if i == listedAtMost {
				fmt.Fprintf(&b, "- … and %d more (see the comparison page)\n", len(l)-i)
				break
			}
			fmt.Fprintf(&b, "- %s: %s\n", mdCode(s.Name), changeText(s))
		}
	}
	list("Regressions", c.Regressions)
	list("Improvements", c.Improvements)
	list("Only in base", c.OnlyBase)
	list("Only in head", c.OnlyHead)
	list("Not compared: no trial with a verdict in both runs", c.NotCompared)
	return b.String()
}

//go:embed compare.html.tmpl
var compareTemplate string

var compareTmpl = template.Must(template.New("compare").Parse(compareTemplate))

type compareTrialRow struct {
	Trial                    int
	Base, BaseClass, BaseWhy string
	Head, HeadClass, HeadWhy string
}

type compareScenarioView struct {
	Name, Domain, Change, Class string
	Trials                      []compareTrialRow
}

type compareGroupView struct {
	ID, Title, Note string
	Scenarios       []compareScenarioView
}

type compareView struct {
	Headline, HeadlineClass  string
	Base, Head               string
	BaseTrials, HeadTrials   int
	BaseCount, HeadCount     int
	BasePassAt1, HeadPassAt1 string
	Test, Pairing            string
	Groups                   []compareGroupView
	Unchanged                []compareScenarioView
}

func verdictClass(v string) string {
	switch v {
	case verdictPass:
		return "pass"
	case verdictFail:
		return "fail"
	case verdictNA:
		return "na"
	}
	return "missing"
}

func changeView(s ScenarioChange, class string) compareScenarioView {
	v := compareScenarioView{Name: s.Name, Domain: s.Domain, Change: changeText(s), Class: class}
	at := func(vs []string, why []string, t int) (string, string, string) {
		if t >= len(vs) {
			return "–", "missing", ""
		}
		w := ""
		if t < len(why) {
			w = why[t]
		}
		return verdictText(vs[t]), verdictClass(vs[t]), w
	}
	for t := range max(len(s.Base), len(s.Head)) {
		r := compareTrialRow{Trial: t + 1}
		r.Base, r.BaseClass, r.BaseWhy = at(s.Base, s.BaseFailures, t)
		r.Head, r.HeadClass, r.HeadWhy = at(s.Head, s.HeadFailures, t)
		v.Trials = append(v.Trials, r)
	}
	return v
}

// HTML is the comparison page: one self-contained file (inline CSS, no
// script, nothing fetched; everything shown escaped by html/template) with
// the verdict, each run's pass@1, the test, then every changed or
// uncompared scenario — regressions first — with its verdicts trial by
// trial in base and head and, for a trial that did not pass, why (the
// failed success signals, the turn gate, harness_error, the stop reason);
// the unchanged scenarios are listed by name.
func (c *Comparison) HTML() ([]byte, error) {
	head, class := c.headline()
	nb, nh := c.sideCounts()
	v := compareView{Headline: head, HeadlineClass: class, Base: c.Base, Head: c.Head,
		BaseTrials: c.BaseTrials, HeadTrials: c.HeadTrials, BaseCount: nb, HeadCount: nh,
		BasePassAt1: passAt1Text(c.BasePassAt1), HeadPassAt1: passAt1Text(c.HeadPassAt1),
		Test: c.testText(), Pairing: c.pairingText()}
	group := func(id, title, note, class string, l []ScenarioChange) {
		if len(l) == 0 {
			return
		}
		g := compareGroupView{ID: id, Title: fmt.Sprintf("%s (%d)", title, len(l)), Note: note}
		for _, s := range l {
			g.Scenarios = append(g.Scenarios, changeView(s, class))
		}
		v.Groups = append(v.Groups, g)
	}
	group("regressions", "Regressions", "pass rate fell from base to head", "regression", c.Regressions)
	group("improvements", "Improvements", "pass rate rose from base to head", "improvement", c.Improvements)
	group("only-base", "Only in base", "not in head", "only", c.OnlyBase)
	group("only-head", "Only in head", "not in base", "only", c.OnlyHead)
	group("not-compared", "Not compared", "no trial with a verdict (pass or fail) in both runs", "only", c.NotCompared)
	for _, s := range c.Unchanged {
		v.Unchanged = append(v.Unchanged, compareScenarioView{Name: s.Name, Change: changeText(s)})
	}
	var buf bytes.Buffer
	if err := compareTmpl.Execute(&buf, v); err != nil {
		return nil, fmt.Errorf("harness: comparison page: %w", err)
	}
	return buf.Bytes(), nil
}
