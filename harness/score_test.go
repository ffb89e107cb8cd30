package harness

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/voiceeval/schematools/domains/nemo/scenarios"
	"github.com/voiceeval/schematools/domains/tau2/telecom"
	"github.com/voiceeval/schematools/hooks"
)

var update = flag.Bool("update", false, "rewrite the golden metrics.json files")

func strp(s string) *string { return &s }

// ConvertShipped is nemoeval.Scenario, set by shipped_hook_test.go (an
// external test file: nemoeval imports harness, so this package's own test
// files cannot import it). Tests use the one converter the command uses.
var ConvertShipped func(*scenarios.Scenario) Scenario

// fromShipped converts a shipped NeMo scenario with ConvertShipped.
func fromShipped(s *scenarios.Scenario) Scenario { return ConvertShipped(s) }

func opts() Options {
	o := defaultOptions()
	o.Predicates = map[string]map[string]hooks.Predicate{"tau2_telecom": telecom.Hooks().Predicates}
	return o
}

func score(t *testing.T, r *Run, o Options) *Metrics {
	t.Helper()
	res, err := Score(context.Background(), r, o)
	if err != nil {
		t.Fatal(err)
	}
	return res.Metrics
}

func enough() Side { return Side{Tokens: Usage{NCalls: 5, Prompt: 100, Completion: 20}} }

func TestCleanExitAndGate(t *testing.T) {
	sc := Scenario{Name: "x__1", SuccessSignals: []string{signalCleanExit}}
	tests := []struct {
		name       string
		stop       string
		calls      int64
		minTurns   int
		successful any
		task       *bool
		flagged    bool
	}{
		{"exit", stopReasonExit, 3, 3, true, ptr(true), false},
		{"timeout", stopReasonTimeout, 3, 3, false, ptr(true), false},
		{"error reason", "connection lost", 9, 3, false, ptr(true), false},
		{"below the gate", stopReasonExit, 2, 3, false, ptr(false), true},
		{"gate off", stopReasonExit, 0, 0, true, ptr(true), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := defaultOptions()
			o.MinAgentTurns = tt.minTurns
			m := score(t, &Run{Scenario: sc, StopReason: tt.stop, Agent: Side{Tokens: Usage{NCalls: tt.calls}}}, o)
			if m.IsSuccessful != tt.successful || *m.IsTaskSuccessful != *tt.task || m.InsufficientAgentTurns != tt.flagged {
				t.Errorf("is_successful %v task %v flagged %v", m.IsSuccessful, *m.IsTaskSuccessful, m.InsufficientAgentTurns)
			}
			if m.CleanExit != (tt.stop == stopReasonExit) {
				t.Errorf("clean_exit %v", m.CleanExit)
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }

func TestActionMatch(t *testing.T) {
	ref := `{"actions": [{"name": "book", "arguments": {"n": 2, "who": "Ann"}}]}`
	act := func(args map[string]any) []any { return []any{map[string]any{"name": "book", "arguments": args}} }
	tests := []struct {
		name    string
		ref     string
		agent   *Summary
		user    *Summary
		push    []string
		strict  bool
		want    any
		predSub string
	}{
		{"no reference", "", nil, nil, nil, false, notApplicable, "[]"},
		{"pulled match, extra keys and float 2.0", ref, &Summary{Actions: act(map[string]any{"n": 2.0, "who": "Ann", "x": 1})}, nil, nil, false, true, `"side": "agent"`},
		{"pulled mismatch", ref, &Summary{Actions: act(map[string]any{"n": 3, "who": "Ann"})}, nil, nil, false, false, ""},
		{"number as text", ref, &Summary{Actions: act(map[string]any{"n": "2.0000001", "who": "Ann"})}, nil, nil, false, true, ""},
		{"case matters", ref, &Summary{Actions: act(map[string]any{"n": 2, "who": "ann"})}, nil, nil, false, false, ""},
		{"pull wins over push", ref, &Summary{Actions: []any{}}, nil, []string{`{"actions": [{"name": "book", "arguments": {"n": 2, "who": "Ann"}}]}`}, false, false, ""},
		{"push when nothing pulled", ref, &Summary{}, nil, []string{`{"actions": [{"name": "book", "arguments": {"n": 2, "who": "Ann"}}]}`}, false, true, ""},
		{"push, last of several", `{"a": 1}`, nil, nil, []string{`{"a": 1}`, `{"a": 2}`}, false, false, ""},
		{"push, not JSON", `{"message": "hi"}`, nil, nil, []string{"hi"}, false, true, `"message": "hi"`},
		{"user actions merged, tagged", `{"actions": [{"name": "toggle", "side": "user"}]}`, &Summary{Actions: []any{}}, &Summary{Actions: []any{map[string]any{"name": "toggle"}}}, nil, false, true, `"side": "user"`},
		{"user actions without agent summary", `{"actions": [{"name": "toggle", "side": "user"}]}`, nil, &Summary{Actions: []any{map[string]any{"name": "toggle"}}}, nil, false, true, ""},
		{"list reference, any order", `[{"a": 1}, {"b": 2}]`, nil, nil, []string{`{"b": 2}`, `{"c": 3}`, `{"a": 1.0}`}, false, true, ""},
		{"list reference, strict", `[{"a": 1}, {"b": 2}]`, nil, nil, []string{`{"b": 2}`, `{"c": 3}`, `{"a": 1.0}`}, true, false, ""},
		{"no prediction at all", ref, nil, nil, nil, false, false, "[]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := defaultOptions()
			o.StrictMatch = tt.strict
			sc := Scenario{Name: "x__1", ReferenceAnswer: tt.ref, SuccessSignals: []string{signalActionMatch, signalCleanExit}}
			res, err := Score(context.Background(), &Run{Scenario: sc, Agent: Side{Summary: tt.agent, Tokens: Usage{NCalls: 3}}, User: Side{Summary: tt.user}, FinalResponses: tt.push, StopReason: stopReasonExit}, o)
			if err != nil {
				t.Fatal(err)
			}
			if res.Metrics.IsActionMatch != tt.want {
				t.Errorf("is_action_match %v, want %v; prediction %s", res.Metrics.IsActionMatch, tt.want, res.Prediction)
			}
			if !strings.Contains(string(res.Prediction), tt.predSub) {
				t.Errorf("prediction %s lacks %s", res.Prediction, tt.predSub)
			}
			if tt.want == notApplicable && strings.Join(res.Metrics.SuccessBreakdown.NotApplicable, ",") != signalActionMatch {
				t.Errorf("breakdown %+v", res.Metrics.SuccessBreakdown)
			}
		})
	}
}

func TestDBStateMatch(t *testing.T) {
	sc := Scenario{Name: "x__1", ExpectedDBHash: "abc", SuccessSignals: []string{signalDBStateMatch, signalCleanExit}}
	tests := []struct {
		name  string
		agent *Summary
		want  bool
		has   bool
	}{
		{"equal", &Summary{DBHash: strp("abc")}, true, true},
		{"different", &Summary{DBHash: strp("abd")}, false, true},
		{"no hash sent", &Summary{}, false, true},
		{"no summary", nil, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := score(t, &Run{Scenario: sc, Agent: Side{Summary: tt.agent, Tokens: Usage{NCalls: 3}}, StopReason: stopReasonExit}, defaultOptions())
			if m.DBStateMatch != tt.want || m.HasDBState != tt.has || m.IsSuccessful != tt.want {
				t.Errorf("match %v has %v successful %v", m.DBStateMatch, m.HasDBState, m.IsSuccessful)
			}
		})
	}
	// Without an expected DB the signal is not applicable and the keys absent.
	m := score(t, &Run{Scenario: Scenario{Name: "y", SuccessSignals: []string{signalDBStateMatch}}, Agent: enough()}, defaultOptions())
	if m.HasDBState || m.IsSuccessful != notApplicable {
		t.Errorf("no expected DB: has %v successful %v", m.HasDBState, m.IsSuccessful)
	}
	b, _ := m.MarshalJSON()
	if strings.Contains(string(b), `"db_state_match":`) || strings.Contains(string(b), `"is_task_successful"`) {
		t.Errorf("metrics %s", b)
	}
}

func TestDBStateAssertion(t *testing.T) {
	pass := func(db, args map[string]any) (bool, error) { return db["ok"] == true, nil }
	boom := func(db, args map[string]any) (bool, error) { return false, errors.New("bad") }
	o := defaultOptions()
	o.Predicates = map[string]map[string]hooks.Predicate{"d": {"p": pass, "boom": boom}}
	a := func(side, fn string) Assertion { return Assertion{Side: side, FuncName: fn, AssertValue: true} }
	tests := []struct {
		name   string
		as     []Assertion
		agent  map[string]any
		user   map[string]any
		rate   float64
		errSub string
	}{
		{"all pass", []Assertion{a("agent", "p"), a("user", "p")}, map[string]any{"ok": true}, map[string]any{"ok": true}, 1, ""},
		{"one fails", []Assertion{a("agent", "p"), a("user", "p")}, map[string]any{"ok": true}, map[string]any{"ok": false}, 0.5, ""},
		{"no user db", []Assertion{a("user", "p")}, nil, nil, 0, "No user DB available"},
		{"unknown predicate", []Assertion{a("agent", "q")}, map[string]any{}, nil, 0, "No predicate 'q' registered under domain='d'. Available: ['boom', 'p']."},
		{"raises", []Assertion{a("agent", "boom")}, map[string]any{}, nil, 0, "Predicate raised: bad"},
		{"bad side", []Assertion{a("assistant", "p")}, map[string]any{}, nil, 0, "Unknown side 'assistant'"},
		{"no assert_value", []Assertion{{Side: "agent", FuncName: "p"}}, map[string]any{"ok": true}, nil, 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sc := Scenario{Name: "x__1", Domain: "d", DBStateAssertions: tt.as, SuccessSignals: []string{signalDBStateAssertion}}
			m := score(t, &Run{Scenario: sc, Agent: Side{Summary: &Summary{DB: tt.agent}, Tokens: Usage{NCalls: 3}}, User: Side{Summary: &Summary{DB: tt.user}}}, o)
			if *m.DBStateAssertionPassRate != tt.rate || m.IsSuccessful != (tt.rate == 1) {
				t.Errorf("rate %v successful %v", *m.DBStateAssertionPassRate, m.IsSuccessful)
			}
			b, _ := m.MarshalJSON()
			if tt.errSub != "" && !strings.Contains(string(b), tt.errSub) {
				t.Errorf("metrics lack %q: %s", tt.errSub, b)
			}
		})
	}
}

func TestJudgeSignals(t *testing.T) {
	verdict := func(s string) Judge {
		return JudgeFunc(func(ctx context.Context, req JudgeRequest) (json.RawMessage, error) { return json.RawMessage(s), nil })
	}
	nl := []string{"A", "B"}
	tests := []struct {
		name    string
		judge   Judge
		nl      []string
		signals []string
		score   *float64
		passed  *bool
		nlRate  *float64
		success any
	}{
		{"no judge", nil, nl, []string{signalJudgePassed, signalNLAssertion}, nil, nil, nil, notApplicable},
		{"pass", verdict(`{"score": 0.9, "reason": "ok"}`), nil, []string{signalJudgePassed}, ptr(0.9), ptr(true), nil, true},
		{"below threshold", verdict(`{"score": "0.89"}`), nil, []string{signalJudgePassed}, ptr(0.89), ptr(false), nil, false},
		{"error scores 0", JudgeFunc(func(context.Context, JudgeRequest) (json.RawMessage, error) { return nil, errors.New("down") }), nl, []string{signalJudgePassed, signalNLAssertion}, ptr(0.0), ptr(false), ptr(0.0), false},
		{"no score key", verdict(`{"reason": "?"}`), nil, []string{signalJudgePassed}, ptr(0.0), ptr(false), nil, false},
		{"nl all pass", verdict(`{"score": 1, "nl_assertion_verdicts": [{"index": 2, "passed": true}, {"index": 1, "passed": true}]}`), nl, []string{signalNLAssertion}, ptr(1.0), ptr(true), ptr(1.0), true},
		{"nl missing one", verdict(`{"score": 1, "nl_assertion_verdicts": [{"index": 1, "passed": true}, {"index": 7, "passed": true}]}`), nl, []string{signalNLAssertion}, ptr(1.0), ptr(true), ptr(0.5), false},
		{"nl passed must be true", verdict(`{"score": 1, "nl_assertion_verdicts": [{"index": 1, "passed": 1}, {"index": 2, "passed": true}]}`), nl, []string{signalNLAssertion}, ptr(1.0), ptr(true), ptr(0.5), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := defaultOptions()
			o.Judge = tt.judge
			sc := Scenario{Name: "x__1", ReferenceAnswer: `{"message": "hi"}`, NLAssertions: tt.nl, SuccessSignals: tt.signals}
			res, err := Score(context.Background(), &Run{Scenario: sc, Agent: enough(), FinalResponses: []string{"hi"}}, o)
			if err != nil {
				t.Fatal(err)
			}
			m := res.Metrics
			eq := func(a, b *float64) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }
			if !eq(m.JudgeScore, tt.score) || (m.JudgePassed == nil) != (tt.passed == nil) || (tt.passed != nil && *m.JudgePassed != *tt.passed) ||
				!eq(m.NLAssertionPassRate, tt.nlRate) || m.IsSuccessful != tt.success {
				t.Errorf("score %v passed %v nl %v successful %v; judge_result %s", m.JudgeScore, m.JudgePassed, m.NLAssertionPassRate, m.IsSuccessful, res.JudgeResult)
			}
		})
	}
}

func TestJudgeRequestText(t *testing.T) {
	var got JudgeRequest
	o := defaultOptions()
	o.JudgeIncludeConversation = true
	o.Judge = JudgeFunc(func(ctx context.Context, req JudgeRequest) (json.RawMessage, error) {
		got = req
		return json.RawMessage(`{"score": 1}`), nil
	})
	sc := Scenario{Name: "x__1", ReferenceAnswer: "[{\"message\": \"caf\u00e9\"}]", NLAssertions: []string{"Agent greets"}, SuccessSignals: []string{signalJudgePassed}}
	r := &Run{Scenario: sc, Agent: Side{Context: []byte("[\n  {\n    \"role\": \"user\",\n    \"content\": \"Hello\"\n  }\n]"), Tokens: Usage{NCalls: 3}},
		User: Side{Context: []byte("[]")}, FinalResponses: []string{"hi"}, Turns: []Turn{{Role: "agent", Text: "Hi there"}}}
	if _, err := Score(context.Background(), r, o); err != nil {
		t.Fatal(err)
	}
	want := "<reference>\n{\n  \"message\": \"caf\\u00e9\"\n}\n</reference>\n\n<prediction>\n{\n  \"message\": \"hi\"\n}\n</prediction>\n\n" +
		"<conversation>\n[agent]: Hi there\n</conversation>\n\n<nl_assertions>\n1. Agent greets\n</nl_assertions>\n\n" +
		"<agent_context_history>\n[\n  {\n    \"role\": \"user\",\n    \"content\": \"Hello\"\n  }\n]\n</agent_context_history>"
	if got.UserContent != want {
		t.Errorf("user content\n%s\nwant\n%s", got.UserContent, want)
	}
	if got.SystemPrompt != scenarioJudgePrompt || !strings.HasPrefix(scenarioJudgePrompt, "You are a judge that evaluates voice agent performance") {
		t.Error("system prompt")
	}
}

func TestExtractVerdict(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"score": 1}`, `{"score": 1}`},
		{"Sure:\n```json\n{\"score\": 0.5, \"reason\": \"x\"}\n```", `{"score": 0.5, "reason": "x"}`},
		{`I think {"score": 0.7, "reason": "r"} is fair`, `{"score": 0.7, "reason": "r"}`},
		{"no json", ""},
	}
	for _, tt := range tests {
		got, err := parseVerdict(tt.in)
		if (err != nil) != (tt.want == "") || string(got) != tt.want {
			t.Errorf("%q: %s, %v", tt.in, got, err)
		}
	}
}

// TestShippedScenarios checks every shipped scenario: its signals are
// known, the data each needs is there, and an empty run scores.
func TestShippedScenarios(t *testing.T) {
	all, err := scenarios.All()
	if err != nil {
		t.Fatal(err)
	}
	preds := telecom.Hooks().Predicates
	for _, s := range all {
		sc := fromShipped(s)
		for _, sig := range sc.SuccessSignals {
			ok := true
			switch sig {
			case signalActionMatch, signalJudgePassed:
				ok = sc.ReferenceAnswer != ""
			case signalDBStateMatch:
				ok = len(sc.ExpectedDBHash) == 64
			case signalDBStateAssertion:
				ok = len(sc.DBStateAssertions) > 0
				for _, a := range sc.DBStateAssertions {
					ok = ok && preds[a.FuncName] != nil && sc.Domain == "tau2_telecom"
				}
			case signalNLAssertion:
				ok = len(sc.NLAssertions) > 0
			case signalCleanExit:
			default:
				t.Errorf("%s: unknown signal %q", s.Name, sig)
			}
			if !ok {
				t.Errorf("%s: %s lacks its data", s.Name, sig)
			}
		}
		if _, err := Score(context.Background(), &Run{Scenario: sc, StopReason: stopReasonTimeout}, opts()); err != nil {
			t.Errorf("%s: %v", s.Name, err)
		}
	}
}

// TestGoldenMetrics compares metrics.json for a few shipped scenarios and
// runs against testdata/golden (-update rewrites).
func TestGoldenMetrics(t *testing.T) {
	get := func(name string) Scenario {
		s, err := scenarios.Get(name)
		if err != nil {
			t.Fatal(err)
		}
		return fromShipped(s)
	}
	names, _ := scenarios.Names()
	var telecomName string
	for _, n := range names {
		if strings.HasPrefix(n, "tau2_telecom__") {
			telecomName = n
			break
		}
	}
	eva := get("eva_airline__1_1_3")
	cs := get("customer_service__account_access")
	tel := get(telecomName)
	turns := []Turn{{Timestamp: "2026-01-01T10:00:01.000001", Role: "agent", Text: "Hello, how can I help?"}, {Timestamp: "2026-01-01T10:00:05.5", Role: "user", Text: "I\u2019m locked out."}}
	lats := []Latency{{UserTranscript: "I\u2019m locked out.", AgentTranscript: "Let me check.", LatencyMs: 812.5}, {UserTranscript: "ok", AgentTranscript: "Done", LatencyMs: 640.25}}
	tests := []struct {
		file string
		run  *Run
	}{
		{"eva_match_exit", &Run{Scenario: eva, Agent: Side{Summary: &Summary{Actions: []any{}, DBHash: strp(eva.ExpectedDBHash)}, Tokens: Usage{NCalls: 7, Prompt: 12000, Completion: 340}},
			User: Side{Summary: &Summary{Actions: []any{}}, Tokens: Usage{NCalls: 6, Prompt: 9000, Completion: 200}}, StopReason: stopReasonExit, Turns: turns, Latencies: lats,
			DurationSeconds: 61.25, ScenarioDuration: 63.5, ScenarioDirectory: "eval_x/eva_airline__1_1_3"}},
		{"eva_timeout_stalled", &Run{Scenario: eva, Agent: Side{Tokens: Usage{NCalls: 1, Prompt: 500, Completion: 10}}, StopReason: stopReasonTimeout, ScenarioDuration: 900.0, ScenarioDirectory: "eval_x/eva_airline__1_1_3"}},
		{"customer_service_push", &Run{Scenario: cs, Agent: enough(), FinalResponses: []string{cs.ReferenceAnswer}, StopReason: stopReasonExit, Turns: turns, ScenarioDuration: 42.0, DurationSeconds: 41.0}},
		{"telecom_no_db", &Run{Scenario: tel, Agent: Side{Summary: &Summary{Actions: []any{map[string]any{"name": "get_customer_by_phone", "arguments": map[string]any{"phone_number": "555"}}}}, Tokens: Usage{NCalls: 4, Prompt: 1, Completion: 1}},
			User: Side{Summary: &Summary{Actions: []any{map[string]any{"name": "toggle_airplane_mode", "arguments": map[string]any{}}}}}, StopReason: stopReasonExit, ScenarioDuration: 100.0}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			m := score(t, tt.run, opts())
			got, err := m.MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", "golden", tt.file+".metrics.json")
			if *update {
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != string(want) {
				t.Errorf("%s differs:\n%s", path, got)
			}
		})
	}
}
