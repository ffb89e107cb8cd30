package harness

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/voiceeval/schematools/internal/pyvalue"
)

// num is float(v) of a metrics number (0 when it is not one).
func num(v any) float64 {
	f, err := pyvalue.Float(v)
	if err != nil {
		return 0
	}
	return f
}

// fixed is Python's format(v, ".Nf").
func fixed(v float64, prec int) string { return strconv.FormatFloat(v, 'f', prec, 64) }

// thousands is Python's format(n, ",").
func thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// gfmt is Python's format(n, "g") of an int.
func gfmt(n int) string { return strconv.FormatFloat(float64(n), 'g', 6, 64) }

func get(m pyvalue.Dict, k string) any { v, _ := m.Get(k); return v }

func has(m pyvalue.Dict, k string) bool { _, ok := m.Get(k); return ok }

// latenciesOf is [lat["latency_ms"] for lat in result["latencies"]].
func latenciesOf(m pyvalue.Dict) []float64 {
	list, _ := get(m, "latencies").([]any)
	out := make([]float64, 0, len(list))
	for _, l := range list {
		v, _ := dictGet(l, "latency_ms")
		out = append(out, num(v))
	}
	return out
}

// allSummary returns all_summary.txt as run_dynamic_evaluation writes it
// (runner.py 806–1000): lines are all_results in order, total is
// len(scenarios) (every queued scenario), minAgentTurns is
// --min-agent-turns. The buckets are an Aggregator's over the same lines.
func allSummary(lines []*resultLine, total, minAgentTurns int) []byte {
	agg := newAggregator(minAgentTurns)
	for _, l := range lines {
		agg.Add(l)
	}
	var b strings.Builder
	p := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	rule := strings.Repeat("-", 80)
	b.WriteString("EVALUATION SUMMARY\n")
	b.WriteString(strings.Repeat("=", 80) + "\n\n")

	var turns int64
	durs := make([]float64, len(lines))
	durInt := make([]bool, len(lines))
	for i, l := range lines {
		turns += pyInt(get(l.Metrics, "total_turns"))
		d := get(l.Metrics, "scenario_duration")
		durs[i] = num(d)
		_, isF := d.(float64)
		durInt[i] = !isF && !strings.ContainsAny(pyvalue.Str(d), ".eE")
	}
	dsum, _ := pySum(durs, durInt)
	p("Total Scenarios: %d\n", total)
	p("Total Duration: %smins\n", fixed(dsum/60, 1))
	p("Total Turns: %d\n\n", turns)

	b.WriteString("Per-Scenario Results:\n")
	b.WriteString(rule + "\n")
	for _, l := range lines {
		m := l.Metrics
		stats, _ := get(m, "latency_stats").(pyvalue.Dict)
		p("\n====== %s ======:\n", pyvalue.Str(get(m, "scenario_name")))
		p("  Is successful: %s\n", pyvalue.Str(get(m, "is_successful")))
		if has(m, "is_task_successful") {
			p("  Is task-successful (excl. clean_exit): %s\n", pyvalue.Str(get(m, "is_task_successful")))
		}
		p("    Action-list match: %s\n", pyvalue.Str(get(m, signalActionMatch)))
		if has(m, signalDBStateMatch) {
			p("    DB-state match: %s\n", pyvalue.Str(get(m, signalDBStateMatch)))
		}
		if has(m, "db_state_assertion_pass_rate") {
			p("    DB-state-assertion pass rate: %s%%\n", fixed(num(get(m, "db_state_assertion_pass_rate"))*100, 2))
		}
		if has(m, "nl_assertion_pass_rate") {
			p("    NL-assertion pass rate: %s%%\n", fixed(num(get(m, "nl_assertion_pass_rate"))*100, 2))
		}
		if has(m, "judge_score") {
			p("    Judge score: %s\n", fixed(num(get(m, "judge_score")), 2))
		}
		if has(m, signalJudgePassed) {
			p("    Judge passed: %s\n", pyvalue.Str(get(m, signalJudgePassed)))
		}
		bd, _ := get(m, "success_breakdown").(pyvalue.Dict)
		failed, _ := get(bd, "failed").([]any)
		if len(failed) > 0 {
			names := make([]string, len(failed))
			for i, f := range failed {
				names[i] = pyvalue.Str(f)
			}
			p("    Failed signals: %s\n", strings.Join(names, ", "))
		}
		p("  Turns: %s\n", pyvalue.Str(get(m, "total_turns")))
		if pyvalue.Truthy(get(m, "insufficient_agent_turns")) {
			b.WriteString("  [COUNTED AS FAILURE: insufficient agent turns / stalled \u2014 excluded from per-signal rates]\n")
		}
		dur := num(get(m, "scenario_duration"))
		p("  Duration: %ss\n", fixed(dur, 1))
		if dur > 0 {
			p("  Turns/min: %s\n", fixed(num(get(m, "total_turns"))/(dur/60), 1))
		}
		n := pyInt(get(stats, "count"))
		p("  Latency Measurements: %s\n", pyvalue.Str(get(stats, "count")))
		if n > 0 {
			for _, k := range [][2]string{{"Mean", "mean_ms"}, {"P50", "p50_ms"}, {"P95", "p95_ms"}, {"Min", "min_ms"}, {"Max", "max_ms"}} {
				p("    %s: %sms\n", k[0], fixed(num(get(stats, k[1])), 1))
			}
		}
	}

	var all []float64
	for _, l := range lines {
		all = append(all, latenciesOf(l.Metrics)...)
	}
	slices.Sort(all)
	stat := func(f func() float64) string {
		if len(all) == 0 {
			return "-1.0"
		}
		return fixed(f(), 1)
	}
	n := len(all)
	b.WriteString("\n\nOverall Latency Statistics:\n")
	b.WriteString(rule + "\n")
	p("  Total Measurements: %d\n", n)
	p("  Mean: %sms\n", stat(func() float64 { return sumFloats(all) / float64(n) }))
	p("  P50: %sms\n", stat(func() float64 { return all[n/2] }))
	p("  P95: %sms\n", stat(func() float64 { return all[int(float64(n)*0.95)] }))
	p("  Min: %sms\n", stat(func() float64 { return all[0] }))
	p("  Max: %sms\n", stat(func() float64 { return all[n-1] }))

	if k := len(agg.InsufficientTurnsSkipped); k > 0 {
		p("\n\nWARNING: %d scenario(s) had fewer than %d agent turn(s) (likely stalled LLM / server hang) and were counted as failures.\n", k, minAgentTurns)
		p("Stalled scenarios: %s\n", strings.Join(agg.InsufficientTurnsSkipped, ", "))
		p("Run with --resume <TIMESTAMP> --min-agent-turns %d to retry them.\n", minAgentTurns)
	}

	r := &agg.Run
	rate := func(bs []bool) string { return fixed(float64(count(bs))/float64(len(bs))*100, 2) }
	rate6 := func(bs []bool) string { return fmt.Sprintf("%6s", rate(bs)) }
	if len(r.Success) > 0 {
		p("\n\nOverall Success Rate: %s%% (%d/%d scenarios \u2014 strict conjunction across all applicable signals)\n", rate(r.Success), count(r.Success), len(r.Success))
		if len(r.TaskSuccess) > 0 {
			p("Task Success Rate (excl. clean_exit): %s%% (%d/%d scenarios)\n", rate(r.TaskSuccess), count(r.TaskSuccess), len(r.TaskSuccess))
		}
	} else {
		b.WriteString("\n\nOverall Success Rate: N/A (no scenarios had any applicable signal)\n")
	}

	b.WriteString("\nPer-signal pass rates:\n")
	line := func(label string, bs []bool, unit string) {
		if len(bs) > 0 {
			p("  %s%s%% (%d/%d %s)\n", label, rate6(bs), count(bs), len(bs), unit)
		}
	}
	line("Action-list match:           ", r.ActionMatch, "scenarios")
	line("DB-State match:              ", r.DBState, "scenarios")
	line("DB-State-Assertion pass:     ", r.DBStateAssertion, "predicates")
	line("NL-Assertion pass:           ", r.NLAssertion, "assertions")
	if len(r.JudgeScore) > 0 {
		p("  Judge score mean:            %s (across %d scenarios)\n", fixed(sumFloats(r.JudgeScore)/float64(len(r.JudgeScore)), 3), len(r.JudgeScore))
	}
	line("Judge passed (>= threshold): ", r.JudgePass, "scenarios")
	line("Clean exit: ", r.CleanExit, "scenarios")

	if agg.Tokens.Agent.NCalls+agg.Tokens.User.NCalls > 0 {
		b.WriteString("\n\nToken Usage:\n")
		b.WriteString(rule + "\n")
		var grand Usage
		for _, side := range []struct {
			name string
			t    Usage
		}{{"agent", agg.Tokens.Agent}, {"user", agg.Tokens.User}} {
			grand.add(side.t)
			if !side.t.known() {
				p("  %s: %d call(s), prompt=unknown, completion=unknown, total=unknown (%d call(s) without usage)\n", side.name, side.t.NCalls, side.t.CallsWithoutUsage)
				continue
			}
			st := side.t.Prompt + side.t.Completion
			p("  %s: %d call(s), prompt=%s, completion=%s, total=%s\n", side.name, side.t.NCalls, thousands(side.t.Prompt), thousands(side.t.Completion), thousands(st))
		}
		if !grand.known() {
			p("  Run total: unknown (%d call(s) without usage)\n", grand.CallsWithoutUsage)
		} else {
			p("  Run total: %s tokens\n", thousands(grand.Prompt+grand.Completion))
		}
	}

	domains := func(pick func(*buckets) []bool) []string {
		var ds []string
		for d, bk := range agg.PerDomain {
			if len(pick(bk)) > 0 {
				ds = append(ds, d)
			}
		}
		slices.Sort(ds)
		return ds
	}
	section := func(head string, pick func(*buckets) []bool, g bool) {
		ds := domains(pick)
		if len(ds) <= 1 {
			return
		}
		b.WriteString(head)
		b.WriteString(rule + "\n")
		for _, d := range ds {
			bs := pick(agg.PerDomain[d])
			c := strconv.Itoa(count(bs))
			if g {
				c = gfmt(count(bs))
			}
			p("  %s: %s%% (%s/%d)\n", d, rate(bs), c, len(bs))
		}
	}
	section("\n\nPer-Domain Success Rate:\n", func(b *buckets) []bool { return b.Success }, true)
	section("\nPer-Domain Task Success Rate (excl. clean_exit):\n", func(b *buckets) []bool { return b.TaskSuccess }, true)
	section("\nPer-Domain DB-State Match Rate:\n", func(b *buckets) []bool { return b.DBState }, false)
	section("\nPer-Domain NL-Assertion Pass Rate:\n", func(b *buckets) []bool { return b.NLAssertion }, false)
	section("\nPer-Domain DB-State-Assertion Pass Rate:\n", func(b *buckets) []bool { return b.DBStateAssertion }, false)
	return []byte(b.String())
}

// allLatenciesCSV returns all_latencies.csv (runner.py 796–804): a header,
// then per scenario and latency the quoted scenario name and transcripts
// (quotes doubled) and the latency in ms with one decimal.
func allLatenciesCSV(lines []*resultLine) []byte {
	var b strings.Builder
	b.WriteString("Scenario,User_Transcript,Agent_Transcript,Latency_ms\n")
	q := func(v any) string { return strings.ReplaceAll(pyvalue.Str(v), `"`, `""`) }
	for _, l := range lines {
		name := pyvalue.Str(get(l.Metrics, "scenario_name"))
		list, _ := get(l.Metrics, "latencies").([]any)
		for _, lat := range list {
			u, _ := dictGet(lat, "user_transcript")
			a, _ := dictGet(lat, "agent_transcript")
			ms, _ := dictGet(lat, "latency_ms")
			fmt.Fprintf(&b, "\"%s\",\"%s\",\"%s\",%s\n", name, q(u), q(a), fixed(num(ms), 1))
		}
	}
	return []byte(b.String())
}

// allMetricsLines returns all_metrics.json of the lines' metrics dicts:
// json.dump(all_results, indent=2).
func allMetricsLines(lines []*resultLine) ([]byte, error) {
	l := make([]any, len(lines))
	for i, r := range lines {
		l[i] = r.Metrics
	}
	return dumpIndent(l, 2)
}
