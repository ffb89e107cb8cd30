package main

import (
	"bytes"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/voiceeval/schematools/agent/agenttest"
)

// What real small models and their servers do that a clean stand-in does
// not, and what the project does with each (docs/decisions.md, "A real
// model in the loop"): pipecat's answer unless said otherwise.
//
//   - HTML-escaped text (llama-cpp-python's server): tolerated, kept as
//     sent — pipecat speaks and keeps it so, and the next turn's drift is
//     the server's to fix;
//   - runaway output until max_tokens (a forced call's newlines): spoken
//     as it came, whitespace reads "[INTERRUPTED]" (the bridge's rule); the
//     scenario is scored;
//   - a slow first token: waited for, within -llm-timeout;
//   - a call written as JSON text: kept as text by default, made a call
//     with -llm-text-calls repair (TestLLMSamplingAndTextCallFlags);
//   - no usage: unknown tokens (TestModelWithoutUsageIsScoredWithUnknownTokens).
func TestRealModelQuirks(t *testing.T) {
	t.Parallel() // it waits for slow tokens and a run's bound
	for _, tc := range []struct {
		name    string
		turn    agenttest.Turn
		timeout string // the conversation's bound
		check   func(t *testing.T, metrics map[string]any, context string)
	}{
		{"HTML-escaped text", agenttest.Turn{Text: "I'm here & ready.", Quirks: agenttest.Quirks{HTMLEscape: true}}, "60s",
			func(t *testing.T, m map[string]any, ctx string) {
				if !strings.Contains(ctx, "I&#39;m here &amp; ready.") || strings.Contains(ctx, "I'm here") {
					t.Errorf("the context does not keep the text as sent:\n%s", ctx)
				}
			}},
		// Nothing is relayed after an [INTERRUPTED] turn: the run waits for
		// its bound, which is short here.
		{"runaway newlines until the length limit", agenttest.Turn{Text: strings.Repeat("\n", 200), FinishReason: "length"}, "3s",
			func(t *testing.T, m map[string]any, _ string) {
				turns, _ := m["turns"].([]any)
				if len(turns) == 0 || turns[0].(map[string]any)["text"] != "[INTERRUPTED]" {
					t.Errorf("turns %v, want [INTERRUPTED] ones", turns)
				}
			}},
		{"a slow first token", agenttest.Turn{Text: "Sorry for the wait.", Fault: agenttest.Fault{Delay: 1500 * time.Millisecond}}, "60s",
			func(t *testing.T, m map[string]any, _ string) {
				if m["stop_reason"] != "[TURN_LIMIT]" {
					t.Errorf("stop reason %v, want the turn limit (no error)", m["stop_reason"])
				}
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			standin := agenttest.New(tc.turn)
			standin.Loop = true
			srv := httptest.NewServer(standin)
			defer srv.Close()
			var stdout, stderr bytes.Buffer
			if code := run([]string{"-scenarios", "tau2_retail__0", "-out", t.TempDir(), "-llm-url", srv.URL + "/v1", "-llm-model", "m",
				"-llm-timeout", "5s", "-max-turns", "2", "-timeout", tc.timeout}, &stdout, &stderr); code != 0 {
				t.Fatalf("exit %d\n%s", code, stderr.String())
			}
			dir, _, _ := strings.Cut(stdout.String(), ":")
			m := readMetrics(t, dir, "tau2_retail__0")
			if m["harness_error"] != nil {
				t.Fatalf("not scored: %v", m["harness_error"])
			}
			ctx, err := os.ReadFile(filepath.Join(dir, "tau2_retail__0", "bot_logs_agent", "llm_context.json"))
			if err != nil {
				t.Fatal(err)
			}
			tc.check(t, m, string(ctx))
		})
	}
}
