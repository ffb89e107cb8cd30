package harness

import (
	"context"
	"fmt"
	"slices"

	"github.com/voiceeval/schematools/internal/pyvalue"
)

// Result is one scored scenario.
type Result struct {
	Metrics *Metrics
	// Prediction is final_agent_response.json's text (json.dump(results,
	// indent=2)).
	Prediction []byte
	// JudgeResult is judge_result.json's text, nil when no judge ran.
	JudgeResult []byte
	// Domain is the per-domain bucket (the name up to "__").
	Domain string

	// cost is cost.json (nil: not written; see scenarioCost).
	cost *costFile
}

// prediction is the bridge's _save_final_response: the pulled action list
// (user actions merged, tagged side "user", every action side "agent" by
// default) as [{"actions": [...]}], else the <final_response> texts, each
// json.loads'd or {"message": text}.
func prediction(r *Run) []any {
	var agent *Summary = r.Agent.Summary
	var actions []any
	if agent != nil {
		actions = agent.Actions
	}
	if r.User.Summary != nil && len(r.User.Summary.Actions) > 0 {
		merged := make([]any, 0, len(actions)+len(r.User.Summary.Actions))
		merged = append(merged, actions...)
		for _, a := range r.User.Summary.Actions {
			merged = append(merged, withKey(a, "side", "user", false))
		}
		actions = merged
	}
	if actions != nil {
		out := make([]any, len(actions))
		for i, a := range actions {
			out[i] = withKey(a, "side", "agent", true)
		}
		return []any{pyvalue.Dict{{Key: "actions", Value: out}}}
	}
	out := []any{}
	for _, text := range r.FinalResponses {
		v, err := pyvalue.Loads([]byte(text))
		if err != nil {
			v = pyvalue.Dict{{Key: "message", Value: text}}
		}
		out = append(out, v)
	}
	return out
}

// withKey is {**a, key: v} (asDefault false) or {key: v, **a} (asDefault
// true) on a dict action; any other value is kept (Python would raise).
func withKey(a any, key string, v any, asDefault bool) any {
	items, ok := dictItems(a)
	if !ok {
		return a
	}
	if _, isMap := a.(map[string]any); isMap {
		slices.SortFunc(items, func(x, y pyvalue.Item) int {
			if x.Key < y.Key {
				return -1
			}
			return 1
		})
	}
	if asDefault {
		return append(pyvalue.Dict{{Key: key, Value: v}}, items...).Items()
	}
	return set(slices.Clone(items), key, v)
}

// passes is the runner's _signal_passes: None/"N/A" → not applicable, a
// bool as is, a number true iff ≥ 1.0.
func passes(v any) *bool {
	switch x := v.(type) {
	case bool:
		return &x
	case float64:
		b := x >= 1.0
		return &b
	case *float64:
		if x == nil {
			return nil
		}
		b := *x >= 1.0
		return &b
	case *bool:
		return x
	}
	return nil
}

// Score scores a run exactly as NeMo's run_dynamic_evaluation does
// (runner.py, around lines 441–753). It fails only on input it cannot read
// (a reference answer or context that is not JSON).
func Score(ctx context.Context, r *Run, o Options) (*Result, error) {
	sc := &r.Scenario
	m := &Metrics{
		TotalTurns: len(r.Turns), DurationSeconds: r.DurationSeconds, Turns: r.Turns,
		LatencyStats: latencyStats(r.Latencies), Latencies: r.Latencies,
		ScenarioName: sc.Name, ScenarioDirectory: r.ScenarioDirectory, ScenarioDuration: r.ScenarioDuration,
		StopReason: r.StopReason, CleanExit: r.StopReason == stopReasonExit,
		Verification: r.Verification,
	}
	m.TokenUsage.Agent, m.TokenUsage.User = r.Agent.Tokens, r.User.Tokens
	res := &Result{Metrics: m, Domain: prefix(sc.Name)}
	insufficient := o.MinAgentTurns > 0 && r.Agent.Tokens.NCalls < int64(o.MinAgentTurns) // model calls, their usage reported or not

	pred := prediction(r)
	predText, err := dumpIndent(pred, 2)
	if err != nil {
		return nil, fmt.Errorf("harness: final_agent_response.json: %w", err)
	}
	res.Prediction = predText
	var ref any
	if sc.ReferenceAnswer != "" {
		if ref, err = pyvalue.Loads([]byte(sc.ReferenceAnswer)); err != nil {
			return nil, fmt.Errorf("harness: %s: reference_answer.json: %w", sc.Name, err)
		}
	}

	// Signal 1: action-list match (runner.py 465–480).
	if sc.ReferenceAnswer == "" {
		m.IsActionMatch = notApplicable
	} else {
		m.IsActionMatch = checkTaskSuccess(ref, pred, matchOptions{
			ignoreCapitalization: sc.IgnoreCapitalization, ignorePunctuation: sc.IgnorePunctuation,
			cleanText: sc.CleanText, disallowExtraItems: o.StrictMatch || sc.DisallowExtraItems,
		})
	}

	// Signal 2: the judge (runner.py 495–577); its model calls are
	// metered for cost.json.
	var jm *judgeMeter
	if o.Judge != nil {
		var refText, predJudge *string
		if ref != nil {
			b, err := dumpIndent(normalizePayload(ref), 2)
			if err != nil {
				return nil, err
			}
			s := string(b)
			refText = &s
		}
		b, err := dumpIndent(normalizePayload(pred), 2)
		if err != nil {
			return nil, err
		}
		ps := string(b)
		predJudge = &ps
		var conv []Turn
		if o.JudgeIncludeConversation {
			conv = r.Turns
		}
		req, evidence, err := judgeRequest(refText, predJudge, conv, r.Agent.Context, r.User.Context, sc.NLAssertions)
		if err != nil {
			return nil, err
		}
		jm = &judgeMeter{}
		out := runJudge(withJudgeMeter(ctx, jm), o.Judge, req, evidence)
		if res.JudgeResult, err = dumpIndent(out.result, 2); err != nil {
			return nil, fmt.Errorf("harness: judge_result.json: %w", err)
		}
		score := out.score
		m.JudgeScore = &score
		if o.JudgeThreshold != nil {
			p := score >= *o.JudgeThreshold
			m.JudgePassed = &p
		}
		if len(sc.NLAssertions) > 0 && len(out.verdicts) > 0 {
			n := 0
			for _, v := range out.verdicts {
				if p, _ := dictGet(v, "passed"); pyvalue.Truthy(p) {
					n++
				}
			}
			rate := float64(n) / float64(len(out.verdicts))
			m.NLAssertionPassRate = &rate
		}
	}
	if insufficient {
		m.InsufficientAgentTurns = true
	}

	// DB-state hash match (runner.py 623–642).
	if sc.ExpectedDBHash != "" {
		m.HasDBState = true
		m.DBStateExpectedHash = sc.ExpectedDBHash
		var actual *string
		if r.Agent.Summary != nil {
			actual = r.Agent.Summary.DBHash
		}
		m.DBStateActualHash = actual
		m.DBStateMatch = actual != nil && *actual == sc.ExpectedDBHash
	}

	// DB-state assertions (runner.py 666–694).
	if len(sc.DBStateAssertions) > 0 {
		var db, userDB map[string]any
		if r.Agent.Summary != nil {
			db = r.Agent.Summary.DB
		}
		if r.User.Summary != nil {
			userDB = r.User.Summary.DB
		}
		preds := o.Predicates[sc.Domain]
		m.dbStateAssertionVerdicts = make([]pyvalue.Dict, len(sc.DBStateAssertions))
		n := 0
		for i, a := range sc.DBStateAssertions {
			v := evaluateAssertion(preds, sc.Domain, a, db, userDB)
			m.dbStateAssertionVerdicts[i] = v
			if p, _ := v.Get("passed"); p == true {
				n++
			}
		}
		rate := float64(n) / float64(len(sc.DBStateAssertions))
		m.DBStateAssertionPassRate = &rate
	}

	// The composite (runner.py 704–744, Scenario.compute_is_successful).
	checks := map[string]*bool{
		signalActionMatch:      passes(m.IsActionMatch),
		signalDBStateMatch:     nil,
		signalDBStateAssertion: passes(m.DBStateAssertionPassRate),
		signalNLAssertion:      passes(m.NLAssertionPassRate),
		signalJudgePassed:      m.JudgePassed,
		signalCleanExit:        &m.CleanExit,
	}
	if m.HasDBState {
		checks[signalDBStateMatch] = &m.DBStateMatch
	}
	for _, s := range sc.SuccessSignals {
		if !slices.Contains(signals, s) {
			return nil, fmt.Errorf("harness: %s: unknown success signal %q", sc.Name, s)
		}
	}
	if len(sc.SuccessSignals) == 0 {
		return nil, fmt.Errorf("harness: %s: success_signals is empty", sc.Name)
	}
	b := Breakdown{Passed: []string{}, Failed: []string{}, NotApplicable: []string{}, Excluded: []string{}}
	applicable, all := 0, true
	for _, s := range signals {
		v := checks[s]
		in := slices.Contains(sc.SuccessSignals, s)
		switch {
		case in && v == nil:
			b.NotApplicable = append(b.NotApplicable, s)
		case in && *v:
			b.Passed = append(b.Passed, s)
		case in:
			b.Failed = append(b.Failed, s)
		case v != nil:
			b.Excluded = append(b.Excluded, s)
		}
		if in && v != nil {
			applicable++
			all = all && *v
		}
	}
	m.SuccessBreakdown = b
	f := false
	switch {
	case insufficient:
		m.IsSuccessful = false
		m.IsTaskSuccessful = &f
	case applicable == 0:
		m.IsSuccessful = notApplicable
	default:
		m.IsSuccessful = all
		task := !slices.ContainsFunc(b.Failed, func(s string) bool { return s != signalCleanExit })
		m.IsTaskSuccessful = &task
	}
	if r.Failure != "" {
		// A scenario a bot failed (FailedRun): our addition.
		m.HarnessError = r.Failure
		m.IsSuccessful = false
		m.IsTaskSuccessful = &f
	}
	res.cost = scenarioCost(r, jm, o)
	return res, nil
}

func prefix(name string) string {
	for i := 0; i+1 < len(name); i++ {
		if name[i] == '_' && name[i+1] == '_' {
			return name[:i]
		}
	}
	return name
}
