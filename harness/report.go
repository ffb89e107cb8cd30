package harness

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"html/template"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/voiceeval/schematools/internal/pyjson"
	"github.com/voiceeval/schematools/internal/pyvalue"
)

//go:embed report.html.tmpl
var reportTemplate string

//go:embed trialreport.html.tmpl
var trialReportTemplate string

// reportTmpl holds report.html's template ("report") and the trials'
// report ("trials"), which uses report's parts (style, scenario,
// trajectory, filter script).
var reportTmpl = template.Must(template.Must(template.New("report").Funcs(template.FuncMap{"clipChars": func() int { return clipChars }}).
	Parse(reportTemplate)).New("trials").Parse(trialReportTemplate))

// reportInput is what RenderReport reads.
type reportInput struct {
	// Title heads the page.
	Title string
	// Lines are the finished scenarios, in the order to show them.
	Lines []*resultLine
	// Queued is the number of queued scenarios (finished or not).
	Queued int
	// MinAgentTurns is --min-agent-turns, as for all_summary.txt.
	MinAgentTurns int
	// ScenarioDir returns a scenario's directory, where its db_diff.json,
	// latency_detail.json and pulled agent context are read; nil shows
	// none of them.
	ScenarioDir func(scenario string) string
}

type rateRow struct {
	Name          string
	Passed, Total int
	Unit          string
	Rate          string  // "66.67%" or "–"
	Pct           float64 // 0–100, for the bars
}

type domainRow struct {
	Domain              string
	Scenarios           int
	Success, TaskSucc   rateRow
	Signals             []rateRow
	BarY, BarW, LabelY  float64
	BarLabel, BarColour string
	// Latencies counts the domain's agent latency samples (metrics
	// latencies); P50 and P95 are NeMo's percentiles of them ("1234.5
	// ms"), "–" without samples.
	Latencies int
	P50, P95  string
}

type turnView struct {
	Role, Time string
	Text       clipped
	// Latency is the turn's response time where a sample matched it.
	Latency string
}

type diffRow struct{ Path, Kind, Expected, Actual string }

type signalView struct{ Name, State string }

type scenarioView struct {
	// ID is the section's anchor: the scenario's name
	// (report.html#<scenario>), unless the page uses it already.
	Name, Domain, ID      string
	Outcome, OutcomeClass string
	// DataOutcome is the filters' data-outcome: "pass", "fail", "na" (a
	// run), or "fail", "flaky" (the failing trial of a run of several).
	DataOutcome                      string
	StopReason, Duration, JudgeScore string
	HarnessError                     string // why the harness failed the scenario (metrics harness_error)
	Signals                          []signalView
	AgentTokens, UserTokens          Usage
	Turns                            []turnView
	MoreTurns                        int // turns past maxSteps, not shown
	ExpectedHash, ActualHash         string
	HasDB, DBMatch, Insufficient     bool
	Diff                             []diffRow
	MoreDiff                         int // DB diff rows past maxSteps, not shown
	DiffError                        string
	AssertionVerdicts                []diffRow

	// Cost is the scenario's cost from its cost.json ("$…" or "unknown:
	// why"); "" without one.
	Cost string

	// SummaryFlag is why a summary is not reproducible from its actions
	// (metrics summary_verified false: summary_verification); "" otherwise.
	SummaryFlag string

	// Trajectory is the agent's context: messages, tool calls and their
	// results (readTrajectory).
	Trajectory trajectory
	// Dir is the scenario directory relative to the page.
	Dir string
	// Trial, in the report of a run of several trials, is the trial shown
	// (TrialLink its report's section), Counts "flaky: c of n passed" or
	// "failed every trial: 0 of n passed".
	Trial             int
	TrialLink, Counts string
}

type reportView struct {
	Title            string
	Queued, Finished int
	Overall, Task    rateRow
	Domains          []domainRow
	Signals          []rateRow
	SignalNames      []string
	ChartH           float64
	Scenarios        []scenarioView

	// HasLatency: some scenario has a latency sample (the latency table
	// is shown).
	HasLatency bool

	// Cost is the cost section (nil: no scenario has a cost.json).
	Cost *costView

	// Checked counts the scenarios whose summaries were checked
	// (summary_verified true or false), Unreproducible those not
	// reproducible from their actions, Skipped those not checked ("N/A").
	Checked, Unreproducible, Skipped int
}

func rateOf(name string, bs []bool, unit string) rateRow {
	r := rateRow{Name: name, Passed: count(bs), Total: len(bs), Unit: unit, Rate: "\u2013"}
	if len(bs) > 0 {
		r.Pct = float64(r.Passed) / float64(r.Total) * 100
		r.Rate = fixed(r.Pct, 2) + "%"
	}
	return r
}

func bucketSignals(b *buckets) []rateRow {
	return []rateRow{
		rateOf("Action match", b.ActionMatch, "scenarios"),
		rateOf("DB-state match", b.DBState, "scenarios"),
		rateOf("DB-state assertions", b.DBStateAssertion, "predicates"),
		rateOf("NL assertions", b.NLAssertion, "assertions"),
		rateOf("Judge passed", b.JudgePass, "scenarios"),
		rateOf("Clean exit", b.CleanExit, "scenarios"),
	}
}

// jsonText is json.dumps(v) of a diff value, for a table cell.
func jsonText(v any) string {
	b, err := pyvalue.AppendJSON(nil, v, pyjson.Default, false)
	if err != nil {
		return pyvalue.Repr(v)
	}
	return string(b)
}

// flattenDiff turns a db_diff.json tree (compute_db_diff's shape) into
// rows: one per added or removed table, record or field, and per changed
// value.
func flattenDiff(tree any) []diffRow {
	var rows []diffRow
	names := func(v any) []string {
		l, _ := v.([]any)
		out := make([]string, 0, len(l))
		for _, e := range l {
			out = append(out, pyvalue.Str(e))
		}
		return out
	}
	keys := func(v any) []string {
		var ks []string
		if d, ok := v.(pyvalue.Dict); ok {
			for _, it := range d.Items() {
				ks = append(ks, it.Key)
			}
		}
		slices.Sort(ks)
		return ks
	}
	var walk func(path string, node any)
	walk = func(path string, node any) {
		if t, ok := dictGet(node, "type"); ok {
			kind := pyvalue.Str(t)
			if kind == "list_differences" {
				ds, _ := dictGet(node, "differences")
				l, _ := ds.([]any)
				for _, d := range l {
					i, _ := dictGet(d, "index")
					sub, _ := dictGet(d, "diff")
					walk(fmt.Sprintf("%s[%s]", path, pyvalue.Str(i)), sub)
				}
				return
			}
			e, _ := dictGet(node, "expected")
			a, _ := dictGet(node, "actual")
			rows = append(rows, diffRow{Path: path, Kind: strings.ReplaceAll(kind, "_", " "), Expected: jsonText(e), Actual: jsonText(a)})
			return
		}
		for _, prefix := range []string{"records_", "fields_"} {
			if _, ok := dictGet(node, prefix+"modified"); !ok {
				continue
			}
			what := strings.TrimSuffix(prefix, "s_")
			add, _ := dictGet(node, prefix+"added")
			for _, n := range names(add) {
				rows = append(rows, diffRow{Path: path + "." + n, Kind: what + " added", Expected: "\u2014", Actual: "(present)"})
			}
			rem, _ := dictGet(node, prefix+"removed")
			for _, n := range names(rem) {
				rows = append(rows, diffRow{Path: path + "." + n, Kind: what + " removed", Expected: "(present)", Actual: "\u2014"})
			}
			mods, _ := dictGet(node, prefix+"modified")
			for _, k := range keys(mods) {
				sub, _ := dictGet(mods, k)
				walk(path+"."+k, sub)
			}
		}
	}
	ta, _ := dictGet(tree, "tables_added")
	for _, n := range names(ta) {
		rows = append(rows, diffRow{Path: n, Kind: "table added", Expected: "\u2014", Actual: "(present)"})
	}
	tr, _ := dictGet(tree, "tables_removed")
	for _, n := range names(tr) {
		rows = append(rows, diffRow{Path: n, Kind: "table removed", Expected: "(present)", Actual: "\u2014"})
	}
	tm, _ := dictGet(tree, "tables_modified")
	for _, k := range keys(tm) {
		sub, _ := dictGet(tm, k)
		walk(k, sub)
	}
	return rows
}

func outcome(v any) (string, string) {
	switch v {
	case true:
		return "passed", "pass"
	case false:
		return "failed", "fail"
	}
	return pyvalue.Str(v), "na"
}

// tokensOf is one side's token_usage of a metrics dict.
func tokensOf(m pyvalue.Dict, side string) Usage {
	sub, _ := dictGet(get(m, "token_usage"), side)
	return tokensOfDict(sub)
}

// pageIDs are the ids the report pages use for themselves; a scenario
// of such a name is anchored "scenario-<name>".
var pageIDs = map[string]bool{"overall": true, "domains": true, "latency": true, "chart": true, "signals": true,
	"summaries": true, "failed-only": true, "flaky-only": true, "stats": true, "trial-scenarios": true, "scenarios": true}

// anchorOf is the id of a scenario's section: its name (report.html#name).
func anchorOf(name string) string {
	if pageIDs[name] || strings.HasPrefix(name, "scenario-") {
		return "scenario-" + name
	}
	return name
}

// scenarioOf is the view of a scenario's result line; dir is its
// scenario directory ("": none, no file is read), rel that directory
// relative to the page.
func scenarioOf(l *resultLine, dir, rel string) scenarioView {
	m := l.Metrics
	v := scenarioView{Name: l.Scenario, Domain: l.Domain, ID: anchorOf(l.Scenario), Dir: rel,
		StopReason: pyvalue.Str(get(m, "stop_reason")), Duration: fixed(num(get(m, "scenario_duration")), 1) + " s",
		AgentTokens: tokensOf(m, "agent"), UserTokens: tokensOf(m, "user"),
		Insufficient: pyvalue.Truthy(get(m, "insufficient_agent_turns"))}
	v.Outcome, v.OutcomeClass = outcome(get(m, "is_successful"))
	v.DataOutcome = v.OutcomeClass
	if has(m, "harness_error") {
		v.HarnessError = pyvalue.Str(get(m, "harness_error"))
	}
	if get(m, keySummaryVerified) == false {
		v.SummaryFlag = pyvalue.Str(get(m, keySummaryVerification))
		if v.SummaryFlag == "" {
			v.SummaryFlag = "(no reason given)"
		}
	}
	if has(m, "judge_score") {
		v.JudgeScore = fixed(num(get(m, "judge_score")), 2)
	}
	bd, _ := get(m, "success_breakdown").(pyvalue.Dict)
	for _, k := range []string{"passed", "failed", "not_applicable", "excluded"} {
		l, _ := get(bd, k).([]any)
		for _, s := range l {
			v.Signals = append(v.Signals, signalView{Name: pyvalue.Str(s), State: k})
		}
	}
	var detail []byte
	if dir != "" {
		detail, _ = readOptional(filepath.Join(dir, fileLatencyDetail), maxContextBytes)
	}
	agentMarks, userMarks := latencyMarks(m, detail)
	turns, _ := get(m, "turns").([]any)
	texts := map[string][]string{}
	at := map[string][]int{}
	for _, t := range turns {
		if len(v.Turns) >= maxSteps {
			v.MoreTurns++
			continue
		}
		r, _ := dictGet(t, "role")
		x, _ := dictGet(t, "text")
		ts, _ := dictGet(t, "timestamp")
		role, text := pyvalue.Str(r), pyvalue.Str(x)
		texts[role], at[role] = append(texts[role], text), append(at[role], len(v.Turns))
		v.Turns = append(v.Turns, turnView{Role: role, Text: clip(text, clipChars), Time: pyvalue.Str(ts)})
	}
	for role, marks := range map[string][]latencyMark{"agent": agentMarks, "user": userMarks} {
		for i, l := range placeMarks(texts[role], marks) {
			v.Turns[at[role][i]].Latency = l
		}
	}
	if has(m, signalDBStateMatch) {
		v.HasDB, v.DBMatch = true, get(m, signalDBStateMatch) == true
		v.ExpectedHash = pyvalue.Str(get(m, "db_state_expected_hash"))
		v.ActualHash = pyvalue.Str(get(m, "db_state_actual_hash"))
	}
	vs, _ := get(m, "db_state_assertion_verdicts").([]any)
	for _, a := range vs {
		f, _ := dictGet(a, "func_name")
		p, _ := dictGet(a, "passed")
		msg, _ := dictGet(a, "message")
		state := "failed"
		if pyvalue.Truthy(p) {
			state = "passed"
		}
		v.AssertionVerdicts = append(v.AssertionVerdicts, diffRow{Path: pyvalue.Str(f), Kind: state, Expected: pyvalue.Str(msg)})
	}
	if dir == "" {
		v.Trajectory = trajectory{Why: "no scenario directory"}
		return v
	}
	b, err := readOptional(filepath.Join(dir, fileDBDiff), maxContextBytes)
	switch {
	case err != nil:
		v.DiffError = err.Error()
	case b != nil:
		tree, err := pyvalue.Loads(b)
		if err != nil {
			v.DiffError = fileDBDiff + ": " + err.Error()
		} else {
			v.Diff = flattenDiff(tree)
			if len(v.Diff) > maxSteps {
				v.MoreDiff, v.Diff = len(v.Diff)-maxSteps, v.Diff[:maxSteps]
			}
			for i := range v.Diff {
				d := &v.Diff[i]
				d.Path, d.Expected, d.Actual = clipString(d.Path), clipString(d.Expected), clipString(d.Actual)
			}
		}
	}
	v.Trajectory = readTrajectory(dir, agentMarks)
	return v
}

// clipString is s clipped to clipChars characters, the cut marked.
func clipString(s string) string {
	c := clip(s, clipChars)
	if c.Clipped {
		return c.Text + fmt.Sprintf("… [clipped: %d of %d characters]", clipChars, c.Chars)
	}
	return c.Text
}

// readOptional reads path: nil without an error when it does not exist;
// a file over limit bytes is an error.
func readOptional(path string, limit int64) ([]byte, error) {
	st, err := os.Stat(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if st.Size() > limit {
		return nil, fmt.Errorf("%s is %d bytes, over the report's bound of %d", filepath.Base(path), st.Size(), limit)
	}
	return os.ReadFile(path)
}

// renderReport returns report.html: one self-contained page (inline CSS,
// a small inline script for the filter, no network) with the run's pass
// rates per domain and per signal — the same buckets as all_summary.txt,
// as tables and an inline SVG bar chart — then each scenario, anchored by
// its name: its outcome, signals, stop reason, token usage, transcript
// with per-turn latency and, where the run has them, its DB diff and its
// trajectory (trajectory.go), within the bounds there. Everything shown
// is escaped by html/template.
func renderReport(in reportInput) ([]byte, error) {
	agg := newAggregator(in.MinAgentTurns)
	scenarios := map[string]int{}
	lats := map[string][]float64{}
	for _, l := range in.Lines {
		agg.Add(l)
		scenarios[l.Domain]++
		lats[l.Domain] = append(lats[l.Domain], latenciesOf(l.Metrics)...)
	}
	v := reportView{Title: in.Title, Queued: in.Queued, Finished: len(in.Lines),
		Overall: rateOf("Overall success", agg.Run.Success, "scenarios"), Task: rateOf("Task success (excl. clean_exit)", agg.Run.TaskSuccess, "scenarios"),
		Signals: bucketSignals(&agg.Run)}
	for _, s := range v.Signals {
		v.SignalNames = append(v.SignalNames, s.Name)
	}
	var ds []string
	for d := range scenarios {
		ds = append(ds, d)
	}
	slices.Sort(ds)
	for i, d := range ds {
		b := agg.PerDomain[d]
		row := domainRow{Domain: d, Scenarios: scenarios[d], Success: rateOf(d, b.Success, "scenarios"), TaskSucc: rateOf(d, b.TaskSuccess, "scenarios"), Signals: bucketSignals(b)}
		row.Latencies, row.P50, row.P95 = len(lats[d]), "\u2013", "\u2013"
		if ls := lats[d]; len(ls) > 0 {
			// As all_summary.txt's overall statistics: sorted[n//2],
			// sorted[int(n*0.95)].
			slices.Sort(ls)
			row.P50, row.P95 = fixed(ls[len(ls)/2], 1)+" ms", fixed(ls[int(float64(len(ls))*0.95)], 1)+" ms"
			v.HasLatency = true
		}
		row.BarY = float64(i)*28 + 4
		row.LabelY = row.BarY + 15
		row.BarW = row.Success.Pct * 4
		row.BarLabel = row.Success.Rate
		row.BarColour = "#2f855a"
		if row.Success.Total > 0 && row.Success.Pct < 50 {
			row.BarColour = "#c05621"
		}
		v.Domains = append(v.Domains, row)
	}
	v.ChartH = float64(len(ds))*28 + 8
	for _, l := range in.Lines {
		switch get(l.Metrics, keySummaryVerified) {
		case true:
			v.Checked++
		case false:
			v.Checked++
			v.Unreproducible++
		case notApplicable:
			v.Skipped++
		}
		dir := ""
		if in.ScenarioDir != nil {
			dir = in.ScenarioDir(l.Scenario)
		}
		v.Scenarios = append(v.Scenarios, scenarioOf(l, dir, l.Scenario))
	}
	spendBudget(v.Scenarios, trajectoryBudget)
	v.Cost = reportCost(in.Lines, in.ScenarioDir, v.Scenarios)
	var buf bytes.Buffer
	if err := reportTmpl.ExecuteTemplate(&buf, "report", v); err != nil {
		return nil, fmt.Errorf("harness: report.html: %w", err)
	}
	return buf.Bytes(), nil
}

// RenderReport returns the report.html of the run in runDir (written by
// Evaluate, which writes report.html itself): one self-contained page
// (inline CSS, a small inline script for the filters, no network) with
// the run's pass rates per domain and per signal — the same buckets as
// all_summary.txt, as tables and an inline SVG bar chart — then each
// scenario of results.jsonl, in its order, at report.html#<scenario>: its
// outcome, signals, stop reason, token usage, transcript with per-turn
// latency, its DB diff (db_diff.json) and, collapsed, its trajectory (the
// pulled agent context's messages and tool calls, each with its result;
// long texts clipped). A failed-only filter hides the other scenarios.
// Everything shown is escaped by html/template.
//
// The page is titled with the directory's name; the queue's length and
// the turn gate (for the summary's numbers, as all_summary.txt) are the
// last invocation's in run_args.json (resolved_scenario_count,
// parsed_args min_agent_turns), else the finished scenarios and NeMo's 3.
//
// When runDir is a run of several trials (trial_1 … trial_n), the page is
// the trials' report: the trial statistics overall and per domain, each
// scenario's verdict per trial (linked to the trials' reports), and for a
// scenario failed in some trial the trajectory of its first failing
// trial, with failed-only and flaky-only filters.
func RenderReport(runDir string) ([]byte, error) {
	n, err := trialsIn(runDir)
	if err != nil {
		if _, serr := os.Stat(filepath.Join(runDir, fileResults)); serr != nil {
			return nil, err
		}
	}
	if n > 0 {
		return renderTrialReport(runDir, "")
	}
	f, err := readResults(filepath.Join(runDir, fileResults))
	if err != nil {
		return nil, err
	}
	in := reportInput{Title: filepath.Base(runDir), Lines: f.Lines, Queued: len(f.Lines), MinAgentTurns: defaultMinAgentTurns,
		ScenarioDir: func(name string) string { return filepath.Join(runDir, name) }}
	if args, err := lastInvocation(runDir); err == nil && args != nil {
		if c, ok := dictGet(args, "resolved_scenario_count"); ok && isPyNumber(c) && int(pyInt(c)) >= len(f.Lines) {
			in.Queued = int(pyInt(c))
		}
		pa, _ := dictGet(args, "parsed_args")
		if m, ok := dictGet(pa, "min_agent_turns"); ok && isPyNumber(m) && pyInt(m) >= 0 {
			in.MinAgentTurns = int(pyInt(m))
		}
	}
	return renderReport(in)
}
