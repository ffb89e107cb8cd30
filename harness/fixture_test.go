package harness

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/voiceeval/schematools/dbhash"
	"github.com/voiceeval/schematools/domains/nemo/scenarios"
)

// fixtureQueue is the fixed run of the layout, summary, resume and report
// tests: three domains, a push-path success, a DB mismatch with both DBs
// known, a stalled agent, and a judged scenario with an NL assertion.
var fixtureQueue = []string{"customer_service__account_access", "eva_airline__1_1_3", "eva_airline__1_1_4", "tau2_retail__103"}

const fixtureTimestamp = "20260101_120000"

func shipped(t testing.TB, name string) (*scenarios.Scenario, Scenario) {
	t.Helper()
	s, err := scenarios.Get(name)
	if err != nil {
		t.Fatal(err)
	}
	return s, fromShipped(s)
}

func mustHash(t testing.TB, v any) string {
	t.Helper()
	h, err := dbhash.Hash(v)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// fixtureToolContext is eva_airline__1_1_3's agent context: tool calls
// paired with their results by id (a result with hostile text, one long
// enough to be clipped in report.html, a call left unanswered, a result
// no call asked for), and the agent's answer the latency sample times.
var fixtureToolContext = []byte(`[
  {"role": "system", "content": "You are an agent."},
  {"role": "user", "content": "Hello"},
  {"role": "assistant", "content": "Hello, how can I help?"},
  {"role": "user", "content": "I’m locked out of <my> account & \"stuck\"."},
  {"role": "assistant", "tool_calls": [{"id": "call_1", "function": {"name": "get_reservation", "arguments": "{\"confirmation\": \"ABC123\"}"}, "type": "function"}]},
  {"role": "tool", "content": "{\"status\": \"confirmed\", \"note\": \"<script>alert(2)</script>\"}", "tool_call_id": "call_1"},
  {"role": "assistant", "tool_calls": [{"id": "call_2", "function": {"name": "cancel_reservation", "arguments": "{\"confirmation\": \"ABC123\", \"reason\": \"` + strings.Repeat("lost ", 420) + `\"}"}, "type": "function"}]},
  {"role": "tool", "content": "{\"status\": \"cancelled\"}", "tool_call_id": "call_2"},
  {"role": "assistant", "tool_calls": [{"id": "call_3", "function": {"name": "add_bag", "arguments": "{\"confirmation\": \"ABC123\"}"}, "type": "function"}]},
  {"role": "tool", "content": "{\"error\": \"stale\"}", "tool_call_id": "call_9"},
  {"role": "assistant", "content": "Let me check <script>alert(1)</script> that for you."}
]`)

// fixtureOutput scores and returns scenario name of the fixed run, with
// its directory under w.
func fixtureOutput(t testing.TB, w *runWriter, name string) *scenarioOutput {
	t.Helper()
	sh, sc := shipped(t, name)
	segs := []Segment{
		{Start: 1.0, End: 3.25, Speaker: "agent", Text: "Hello, how can I help?"},
		{Start: 4.5, End: 7.0, Speaker: "user", Text: "I\u2019m locked out of <my> account & \"stuck\"."},
		{Start: 7.8, End: 9.9, Speaker: "agent", Text: "Let me check <script>alert(1)</script> that for you."},
		{Start: 9.6, End: 9.7, Speaker: "user", Text: "[INTERRUPTED]"},
	}
	turns := []Turn{
		{Timestamp: "2026-01-01T12:00:03.250000", Role: "agent", Text: segs[0].Text},
		{Timestamp: "2026-01-01T12:00:07", Role: "user", Text: segs[1].Text},
		{Timestamp: "2026-01-01T12:00:09.700001", Role: "user", Text: segs[3].Text},
		{Timestamp: "2026-01-01T12:00:09.900000", Role: "agent", Text: segs[2].Text},
	}
	lats := []Latency{{UserTranscript: segs[1].Text, AgentTranscript: segs[2].Text, LatencyMs: 812.5}, {UserTranscript: "ok", AgentTranscript: "Done \"now\"", LatencyMs: 640.25}}
	ctx := []byte("[\n  {\n    \"role\": \"system\",\n    \"content\": \"You are an agent.\"\n  },\n  {\n    \"role\": \"user\",\n    \"content\": \"Hello\"\n  }\n]")
	r := &Run{Scenario: sc, StopReason: stopReasonExit, Turns: turns, Latencies: lats, Segments: segs,
		Agent:           Side{Context: ctx, Tokens: Usage{NCalls: 5, Prompt: 12345, Completion: 678}},
		User:            Side{Context: []byte("[]"), Tokens: Usage{NCalls: 4, Prompt: 2000, Completion: 300}},
		DurationSeconds: 61.25, ScenarioDuration: 63.5, ScenarioDirectory: w.ScenarioDir(name),
		LogStartTime: "2026-01-01T12:00:00.000123", EndTime: "2026-01-01T12:01:03.5"}
	out := &scenarioOutput{Run: r, Config: sh.Config}
	o := opts()
	switch name {
	case "customer_service__account_access":
		r.FinalResponses = []string{sc.ReferenceAnswer}
	case "eva_airline__1_1_3":
		r.Agent.Context = fixtureToolContext
		expected := map[string]any{"reservations": map[string]any{"ABC123": map[string]any{"status": "confirmed", "seat": "12A", "bags": json.Number("1")}}, "users": map[string]any{"u1": map[string]any{"name": "Ann"}}}
		actual := map[string]any{"reservations": map[string]any{"ABC123": map[string]any{"status": "cancelled", "seat": "12A", "bags": json.Number("2")}, "ZZZ999": map[string]any{"status": "new"}}, "users": map[string]any{"u1": map[string]any{"name": "Ann"}}}
		r.Scenario.ExpectedDBHash = mustHash(t, expected)
		h := mustHash(t, actual)
		r.Agent.Summary = &Summary{Actions: []any{}, DBHash: &h, DB: actual}
		r.User.Summary = &Summary{Actions: []any{}}
		out.ExpectedDB = expected
	case "eva_airline__1_1_4":
		r.StopReason, r.Agent.Tokens = stopReasonTimeout, Usage{NCalls: 1, Prompt: 500, Completion: 10}
		r.Segments, r.Turns, r.Latencies = segs[:1], turns[:1], nil
		r.ScenarioDuration, r.DurationSeconds = 900.0, 900.0
	case "tau2_retail__103":
		h := sc.ExpectedDBHash
		r.Agent.Summary = &Summary{Actions: []any{}, DBHash: &h}
		r.User.Summary = &Summary{Actions: []any{}, DBHash: &h}
		o.Judge = JudgeFunc(func(context.Context, JudgeRequest) (json.RawMessage, error) {
			return json.RawMessage(`{"score": 0.95, "reason": "ok", "nl_assertion_verdicts": [{"index": 1, "passed": true, "reason": "said so"}]}`), nil
		})
	}
	res, err := Score(context.Background(), r, o)
	if err != nil {
		t.Fatal(err)
	}
	out.Result = res
	return out
}
