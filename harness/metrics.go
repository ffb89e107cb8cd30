package harness

import (
	"slices"

	"github.com/voiceeval/schematools/internal/pyvalue"
)

// notApplicable is the runner's "N/A" (is_action_match without a
// reference, is_successful without an applicable signal).
const notApplicable = "N/A"

// LatencyStats is the bridge's get_latency_stats.
type LatencyStats struct {
	Count                              int
	MeanMs, P50Ms, P95Ms, MinMs, MaxMs float64
}

// latencyStats computes get_latency_stats.
func latencyStats(ls []Latency) LatencyStats {
	if len(ls) == 0 {
		return LatencyStats{}
	}
	v := make([]float64, len(ls))
	for i, l := range ls {
		v[i] = l.LatencyMs
	}
	slices.Sort(v)
	n := len(v)
	// sum() of the sorted floats, compensated as Python 3.12's.
	return LatencyStats{Count: n, MeanMs: sumFloats(v) / float64(n), P50Ms: v[n/2], P95Ms: v[int(float64(n)*0.95)], MinMs: v[0], MaxMs: v[n-1]}
}

// Breakdown is success_breakdown: the whitelisted signals that passed,
// failed and were not applicable, and the others that had a value.
type Breakdown struct {
	Passed, Failed, NotApplicable, Excluded []string
}

// Metrics is one scenario's metrics.json. Optional keys are written only
// when set, where the runner writes them.
type Metrics struct {
	TotalTurns        int
	DurationSeconds   float64
	Turns             []Turn
	LatencyStats      LatencyStats
	Latencies         []Latency
	ScenarioName      string
	ScenarioDirectory string
	ScenarioDuration  float64
	StopReason        string
	CleanExit         bool
	// InsufficientAgentTurns is written (true) only when the gate fired.
	InsufficientAgentTurns bool
	// IsActionMatch is true, false or "N/A" (not applicable).
	IsActionMatch any
	JudgeScore    *float64
	JudgePassed   *bool
	TokenUsage    struct{ Agent, User Usage }
	// HasDBState: the scenario has an expected DB; then
	// db_state_expected_hash, db_state_match and db_state_actual_hash
	// (null when the bot sent none) are written.
	HasDBState          bool
	DBStateExpectedHash string
	DBStateMatch        bool
	DBStateActualHash   *string
	NLAssertionPassRate *float64
	// dbStateAssertionVerdicts (with DBStateAssertionPassRate) are
	// written when the scenario has db_state_assertions.
	dbStateAssertionVerdicts []pyvalue.Dict
	DBStateAssertionPassRate *float64
	SuccessBreakdown         Breakdown
	// IsSuccessful is true, false or "N/A" (not applicable).
	IsSuccessful any
	// IsTaskSuccessful is written when IsSuccessful is a bool.
	IsTaskSuccessful *bool
	// HarnessError says why a bot failed the scenario (ScoreFailure), as
	// "harness_error", after NeMo's keys; our addition, written only when
	// set.
	HarnessError string
	// Verification is the verdict on the summaries (VerifySummaries), as
	// "summary_verified" (true, false or "N/A" when skipped) and, unless
	// verified, "summary_verification" (the reason), last; our addition,
	// written only when the run was verified.
	Verification *Verification
}

// tokensDict is one side's token_usage: NeMo's n_calls, prompt and
// completion; when some calls reported no usage, prompt and completion
// are null and our calls_without_usage follows them.
func tokensDict(t Usage) pyvalue.Dict {
	if !t.known() {
		return pyvalue.Dict{{Key: "n_calls", Value: t.NCalls}, {Key: "prompt", Value: nil}, {Key: "completion", Value: nil},
			{Key: keyCallsWithoutUsage, Value: t.CallsWithoutUsage}}
	}
	return pyvalue.Dict{{Key: "n_calls", Value: t.NCalls}, {Key: "prompt", Value: t.Prompt}, {Key: "completion", Value: t.Completion}}
}

// keyCallsWithoutUsage is our token_usage key counting a side's calls
// that reported no usage, written only when there are some.
const keyCallsWithoutUsage = "calls_without_usage"

// Our metrics keys of the summary verification (Metrics.Verification).
const (
	keySummaryVerified     = "summary_verified"
	keySummaryVerification = "summary_verification"
)

func strList(s []string) []any {
	out := make([]any, len(s))
	for i, e := range s {
		out[i] = e
	}
	return out
}

// zeroOr is 0 (an int, as Python's literal) for zero, else f.
func zeroOr(f float64) any {
	if f == 0 {
		return 0
	}
	return f
}

// dict returns metrics as the runner's dict, keys in its order.
func (m *Metrics) dict() pyvalue.Dict {
	turns := make([]any, len(m.Turns))
	for i, t := range m.Turns {
		turns[i] = pyvalue.Dict{{Key: "timestamp", Value: t.Timestamp}, {Key: "role", Value: t.Role}, {Key: "text", Value: t.Text}}
	}
	lats := make([]any, len(m.Latencies))
	for i, l := range m.Latencies {
		lats[i] = pyvalue.Dict{{Key: "user_transcript", Value: l.UserTranscript}, {Key: "agent_transcript", Value: l.AgentTranscript}, {Key: "latency_ms", Value: l.LatencyMs}}
	}
	s := m.LatencyStats
	var stats pyvalue.Dict
	if s.Count == 0 {
		stats = pyvalue.Dict{{Key: "count", Value: 0}, {Key: "mean_ms", Value: 0}, {Key: "p50_ms", Value: 0}, {Key: "p95_ms", Value: 0}, {Key: "min_ms", Value: 0}, {Key: "max_ms", Value: 0}}
	} else {
		stats = pyvalue.Dict{{Key: "count", Value: s.Count}, {Key: "mean_ms", Value: s.MeanMs}, {Key: "p50_ms", Value: s.P50Ms}, {Key: "p95_ms", Value: s.P95Ms}, {Key: "min_ms", Value: s.MinMs}, {Key: "max_ms", Value: s.MaxMs}}
	}
	d := pyvalue.Dict{
		{Key: "total_turns", Value: m.TotalTurns},
		{Key: "duration_seconds", Value: zeroOr(m.DurationSeconds)},
		{Key: "turns", Value: turns},
		{Key: "latency_stats", Value: stats},
		{Key: "latencies", Value: lats},
		{Key: "scenario_name", Value: m.ScenarioName},
		{Key: "scenario_directory", Value: m.ScenarioDirectory},
		{Key: "scenario_duration", Value: m.ScenarioDuration},
		{Key: "stop_reason", Value: m.StopReason},
		{Key: "clean_exit", Value: m.CleanExit},
	}
	add := func(k string, v any) { d = append(d, pyvalue.Item{Key: k, Value: v}) }
	if m.InsufficientAgentTurns {
		add("insufficient_agent_turns", true)
	}
	add("is_action_match", m.IsActionMatch)
	if m.JudgeScore != nil {
		add("judge_score", *m.JudgeScore)
	}
	if m.JudgePassed != nil {
		add("judge_passed", *m.JudgePassed)
	}
	add("token_usage", pyvalue.Dict{{Key: "agent", Value: tokensDict(m.TokenUsage.Agent)}, {Key: "user", Value: tokensDict(m.TokenUsage.User)}})
	if m.HasDBState {
		add("db_state_expected_hash", m.DBStateExpectedHash)
		add("db_state_match", m.DBStateMatch)
		var actual any
		if m.DBStateActualHash != nil {
			actual = *m.DBStateActualHash
		}
		add("db_state_actual_hash", actual)
	}
	if m.NLAssertionPassRate != nil {
		add("nl_assertion_pass_rate", *m.NLAssertionPassRate)
	}
	if m.dbStateAssertionVerdicts != nil {
		vs := make([]any, len(m.dbStateAssertionVerdicts))
		for i, v := range m.dbStateAssertionVerdicts {
			vs[i] = v
		}
		add("db_state_assertion_verdicts", vs)
		var rate any
		if m.DBStateAssertionPassRate != nil {
			rate = *m.DBStateAssertionPassRate
		}
		add("db_state_assertion_pass_rate", rate)
	}
	b := m.SuccessBreakdown
	add("success_breakdown", pyvalue.Dict{
		{Key: "passed", Value: strList(b.Passed)}, {Key: "failed", Value: strList(b.Failed)},
		{Key: "not_applicable", Value: strList(b.NotApplicable)}, {Key: "excluded", Value: strList(b.Excluded)},
	})
	add("is_successful", m.IsSuccessful)
	if m.IsTaskSuccessful != nil {
		add("is_task_successful", *m.IsTaskSuccessful)
	}
	if m.HarnessError != "" {
		add("harness_error", m.HarnessError)
	}
	if v := m.Verification; v != nil {
		add(keySummaryVerified, v.Value())
		if v.Reason != "" {
			add(keySummaryVerification, v.Reason)
		}
	}
	return d
}

// MarshalJSON returns metrics.json's text: json.dump(metrics, f,
// indent=2), no final newline.
func (m *Metrics) MarshalJSON() ([]byte, error) { return dumpIndent(m.dict(), 2) }
