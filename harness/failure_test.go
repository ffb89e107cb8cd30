package harness

import (
	"context"
	"html"
	"strings"
	"testing"

	"github.com/voiceeval/schematools/domains/nemo/scenarios"
)

// A scenario a bot failed is scored from what there was, says why, and is
// never successful — even a run whose signals would all pass — and resume
// runs it again.
func TestFailedRunScoresUnsuccessful(t *testing.T) {
	shipped, err := scenarios.Get("customer_service__account_access")
	if err != nil {
		t.Fatal(err)
	}
	cs := fromShipped(shipped)
	full := &Run{Scenario: cs, Agent: enough(), FinalResponses: []string{cs.ReferenceAnswer}, StopReason: stopReasonExit,
		Turns: []Turn{{Role: "agent", Text: "Hello"}}, ScenarioDuration: 42.0}
	if m := score(t, full, opts()); m.IsSuccessful != true {
		t.Fatalf("the full run scores %v", m.IsSuccessful)
	}
	tests := []struct {
		name     string
		res      *ScenarioResult
		stop     string
		gate     bool
		errorHas string
	}{
		{"aborted before the run", &ScenarioResult{status: statusAborted, Reason: "[APPLY INIT] agent bot returned an error: boom"}, stopReasonAborted, true, "aborted: [APPLY INIT]"},
		{"failed mid-run", &ScenarioResult{status: statusFailed, Reason: "agent bot: connection closed", Run: &Run{Scenario: cs, Agent: Side{Tokens: Usage{NCalls: 1, Prompt: 10, Completion: 2}}}}, stopReasonBotFailed, true, "failed: agent bot: connection closed"},
		{"a pull unanswered after a clean run", &ScenarioResult{status: statusFailed, Reason: "user bot: get_scenario_summary: timed out", Run: full}, stopReasonExit, false, "failed: user bot: get_scenario_summary"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			run, err := failedRun(&cs, tt.res)
			if err != nil {
				t.Fatal(err)
			}
			res, err := Score(context.Background(), run, opts())
			if err != nil {
				t.Fatal(err)
			}
			m := res.Metrics
			if run.StopReason != tt.stop || m.StopReason != tt.stop {
				t.Errorf("stop reason %q / %q, want %q", run.StopReason, m.StopReason, tt.stop)
			}
			if m.IsSuccessful != false || m.IsTaskSuccessful == nil || *m.IsTaskSuccessful {
				t.Errorf("successful %v task %v", m.IsSuccessful, m.IsTaskSuccessful)
			}
			if m.InsufficientAgentTurns != tt.gate {
				t.Errorf("turn gate %v, want %v", m.InsufficientAgentTurns, tt.gate)
			}
			if !strings.HasPrefix(m.HarnessError, tt.errorHas) {
				t.Errorf("harness_error %q, want %q…", m.HarnessError, tt.errorHas)
			}
			d := m.dict()
			if last := d[len(d)-1]; last.Key != "harness_error" || last.Value != m.HarnessError {
				t.Errorf("metrics.json ends with %v", last)
			}
			line, err := newResultLine(res, 0)
			if err != nil {
				t.Fatal(err)
			}
			if done, why := classify(line, defaultMinAgentTurns); done || !strings.Contains(why, "a bot failed it") {
				t.Errorf("resume classifies it done=%v (%s)", done, why)
			}
			// The report says why, escaped, beside the stop reason.
			// Failed before: report.html never showed harness_error.
			page, err := renderReport(reportInput{Title: "t", Lines: []*resultLine{line}, Queued: 1, MinAgentTurns: defaultMinAgentTurns})
			if err != nil {
				t.Fatal(err)
			}
			if want := "<b>Harness error</b> " + html.EscapeString(m.HarnessError) + "</p>"; !strings.Contains(string(page), want) {
				t.Errorf("report.html lacks %q", want)
			}
			if want := "Stop reason <b>" + html.EscapeString(tt.stop) + "</b>"; !strings.Contains(string(page), want) {
				t.Errorf("report.html lacks %q", want)
			}
		})
	}
	if _, err := failedRun(&cs, &ScenarioResult{status: statusScored}); err == nil {
		t.Error("a scored scenario: no error")
	}
	// Without the key, metrics.json is NeMo's.
	m := score(t, full, opts())
	for _, it := range m.dict() {
		if it.Key == "harness_error" {
			t.Error("harness_error written for a scored run")
		}
	}
}
