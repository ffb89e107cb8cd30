package harness

import (
	"encoding/json"
	"math"

	"github.com/voiceeval/schematools/internal/pyvalue"
)

// buckets are one level of RunAggregator's pass-rate buckets (the run, or
// one domain): each signal's outcomes in the order the scenarios were
// added. JudgeScore holds the raw judge scores; NLAssertion and
// DBStateAssertion hold one outcome per assertion, not per scenario.
type buckets struct {
	Success, TaskSuccess, ActionMatch, JudgePass, DBState, NLAssertion, DBStateAssertion, CleanExit []bool
	JudgeScore                                                                                      []float64
}

// aggregator is NeMo's RunAggregator (runner.py 43–212): the run-level and
// per-domain buckets and the token totals, folded in one scenario at a
// time by Add exactly as add_scenario folds a metrics dict (the runner's
// live path fills the same buckets the same way).
type aggregator struct {
	// MinAgentTurns is --min-agent-turns: a scenario whose agent n_calls
	// is below it counts as a failure in Success and TaskSuccess only.
	MinAgentTurns int
	Run           buckets
	// PerDomain is keyed by the scenario name up to "__".
	PerDomain map[string]*buckets
	// Tokens sums token_usage per side; a side's prompt and completion
	// are unknown when a scenario's were (Tokens.Known).
	Tokens struct{ Agent, User Usage }
	// InsufficientTurnsSkipped names the stalled scenarios, in order.
	InsufficientTurnsSkipped []string
}

// newAggregator returns an empty aggregator.
func newAggregator(minAgentTurns int) *aggregator {
	return &aggregator{MinAgentTurns: minAgentTurns, PerDomain: map[string]*buckets{}}
}

func (a *aggregator) domain(d string) *buckets {
	b := a.PerDomain[d]
	if b == nil {
		b = &buckets{}
		a.PerDomain[d] = b
	}
	return b
}

// isPyNumber is isinstance(v, (int, float)) on a json.loads value (a bool
// is an int).
func isPyNumber(v any) bool {
	switch x := v.(type) {
	case bool, float64, int, int64:
		return true
	case json.Number:
		_, err := pyvalue.Float(x)
		return err == nil
	}
	return false
}

// pyInt is an int-valued metrics entry (sub.get(key, 0)); anything else
// adds 0.
func pyInt(v any) int64 {
	switch x := v.(type) {
	case bool:
		if x {
			return 1
		}
		return 0
	case json.Number:
		n, err := x.Int64()
		if err == nil {
			return n
		}
	case int:
		return int64(x)
	case int64:
		return x
	}
	return 0
}

// Add folds one finished scenario into the buckets (add_scenario).
func (a *aggregator) Add(l *resultLine) {
	m, d := l.Metrics, a.domain(l.Domain)
	addTokens := func() {
		tu, _ := m.Get("token_usage")
		for _, side := range []string{"agent", "user"} {
			sub, _ := dictGet(tu, side)
			t := &a.Tokens.Agent
			if side == "user" {
				t = &a.Tokens.User
			}
			t.add(tokensOfDict(sub))
		}
	}
	if a.MinAgentTurns > 0 {
		// count_agent_responses: token_usage.agent.n_calls when an int.
		// (NeMo falls back to counting assistant messages in
		// llm_context.json for runs older than token_usage; a metrics dict
		// this package wrote always has it.)
		tu, _ := m.Get("token_usage")
		ag, _ := dictGet(tu, "agent")
		n, ok := dictGet(ag, "n_calls")
		if num, isNum := n.(json.Number); ok && isNum {
			if c, err := num.Int64(); err == nil && c < int64(a.MinAgentTurns) {
				name, _ := m.Get("scenario_name")
				s, isStr := name.(string)
				if !isStr {
					s = "?"
				}
				a.InsufficientTurnsSkipped = append(a.InsufficientTurnsSkipped, s)
				a.Run.Success = append(a.Run.Success, false)
				d.Success = append(d.Success, false)
				a.Run.TaskSuccess = append(a.Run.TaskSuccess, false)
				d.TaskSuccess = append(d.TaskSuccess, false)
				addTokens()
				return
			}
		}
	}
	boolSignal := func(key string, run, dom *[]bool) {
		if v, _ := m.Get(key); v != nil {
			if b, ok := v.(bool); ok {
				*run = append(*run, b)
				*dom = append(*dom, b)
			}
		}
	}
	boolSignal(signalActionMatch, &a.Run.ActionMatch, &d.ActionMatch)
	if js, _ := m.Get("judge_score"); isPyNumber(js) {
		f, _ := pyvalue.Float(js)
		a.Run.JudgeScore = append(a.Run.JudgeScore, f)
		d.JudgeScore = append(d.JudgeScore, f)
	}
	boolSignal(signalJudgePassed, &a.Run.JudgePass, &d.JudgePass)
	boolSignal(signalDBStateMatch, &a.Run.DBState, &d.DBState)
	boolSignal(signalCleanExit, &a.Run.CleanExit, &d.CleanExit)
	if r, _ := m.Get("nl_assertion_pass_rate"); isPyNumber(r) {
		a.Run.NLAssertion = append(a.Run.NLAssertion, l.NLVerdicts...)
		d.NLAssertion = append(d.NLAssertion, l.NLVerdicts...)
	}
	vs, _ := m.Get("db_state_assertion_verdicts")
	list, _ := vs.([]any)
	for _, v := range list {
		p, _ := dictGet(v, "passed")
		a.Run.DBStateAssertion = append(a.Run.DBStateAssertion, pyvalue.Truthy(p))
		d.DBStateAssertion = append(d.DBStateAssertion, pyvalue.Truthy(p))
	}
	if s, ok := m.Get("is_successful"); ok {
		if b, isBool := s.(bool); isBool {
			a.Run.Success = append(a.Run.Success, b)
			d.Success = append(d.Success, b)
			task := true
			bd, _ := m.Get("success_breakdown")
			failed, _ := dictGet(bd, "failed")
			fl, _ := failed.([]any)
			for _, f := range fl {
				if f != signalCleanExit {
					task = false
				}
			}
			a.Run.TaskSuccess = append(a.Run.TaskSuccess, task)
			d.TaskSuccess = append(d.TaskSuccess, task)
		}
	}
	addTokens()
}

// count is sum(bools).
func count(bs []bool) int {
	n := 0
	for _, b := range bs {
		if b {
			n++
		}
	}
	return n
}

// pySum is CPython 3.12's sum() of a list of numbers from the start 0:
// ints added exactly until the first float, then floats with Neumaier's
// compensated summation (ints after that added plainly), the compensation
// added at the end when finite. NeMo requires Python ≥ 3.12. It reports
// whether the result is still an int.
func pySum(vals []float64, isInt []bool) (float64, bool) {
	var i int64
	k := 0
	for ; k < len(vals) && isInt[k]; k++ {
		i += int64(vals[k])
	}
	if k == len(vals) {
		return float64(i), true
	}
	f, c := float64(i)+vals[k], 0.0
	for k++; k < len(vals); k++ {
		x := vals[k]
		if isInt[k] {
			f += x
			continue
		}
		t := f + x
		if math.Abs(f) >= math.Abs(x) {
			c += (f - t) + x
		} else {
			c += (x - t) + f
		}
		f = t
	}
	if c != 0 && !math.IsInf(c, 0) && !math.IsNaN(c) {
		f += c
	}
	return f, false
}

// sumFloats is pySum of floats.
func sumFloats(vals []float64) float64 {
	f, _ := pySum(vals, make([]bool, len(vals)))
	return f
}
