package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/voiceeval/schematools/agent/agenttest"
)

// A model server that fails every request, hangs, or streams forever
// fails each scenario within -llm-timeout + 5 s with the bot-error stop
// reason and the model's error in metrics.json and report.html — never
// [TIMEOUT] at the conversation's bound (an hour here) — and the run goes
// on to the next scenario. Failed before: the bot only logged the failed
// turn, and the harness waited out the scenario's duration.
func TestFailingModelFailsItsScenarioAtOnce(t *testing.T) {
	t.Parallel() // it waits out model timeouts
	const llmTimeout = 2 * time.Second
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	for _, tc := range []struct {
		name    string
		handler http.HandlerFunc
		want    string // in harness_error
	}{
		{"HTTP 500", func(w http.ResponseWriter, r *http.Request) {
			_, _ = io.Copy(io.Discard, r.Body)
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusInternalServerError)
			fmt.Fprint(w, `{"error": {"message": "the model crashed", "type": "server_error"}}`)
		}, "500 Internal Server Error"},
		{"hangs", func(_ http.ResponseWriter, r *http.Request) {
			_, _ = io.Copy(io.Discard, r.Body)
			select {
			case <-r.Context().Done():
			case <-release:
			}
		}, "context deadline exceeded"},
		{"streams forever", func(w http.ResponseWriter, r *http.Request) {
			_, _ = io.Copy(io.Discard, r.Body)
			w.Header().Set("Content-Type", "text/event-stream")
			for {
				if _, err := fmt.Fprint(w, `data: {"id":"x","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"la "},"finish_reason":null}]}`+"\n\n"); err != nil {
					return
				}
				w.(http.Flusher).Flush()
				select {
				case <-r.Context().Done():
					return
				case <-release:
					return
				case <-time.After(5 * time.Millisecond):
				}
			}
		}, "context deadline exceeded"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(tc.handler)
			defer srv.Close()
			names := []string{"tau2_airline__7", "tau2_retail__0"}
			out := t.TempDir()
			start := time.Now()
			var stdout, stderr bytes.Buffer
			code := run([]string{"-scenarios", strings.Join(names, ","), "-out", out, "-llm-url", srv.URL + "/v1", "-llm-model", "m",
				"-llm-timeout", llmTimeout.String(), "-timeout", "1h"}, &stdout, &stderr)
			took := time.Since(start)
			if code != 0 {
				t.Fatalf("exit %d\n%s", code, stderr.String())
			}
			t.Logf("%d scenarios in %v", len(names), took)
			if limit := time.Duration(len(names)) * (llmTimeout + 5*time.Second); took > limit {
				t.Errorf("the run took %v, past %v", took, limit)
			}
			dir, _, _ := strings.Cut(stdout.String(), ":")
			report, err := os.ReadFile(filepath.Join(dir, "report.html"))
			if err != nil {
				t.Fatal(err)
			}
			for _, n := range names {
				m := readMetrics(t, dir, n)
				if m["stop_reason"] != "[BOT_ERROR]" || m["is_successful"] != false {
					t.Errorf("%s: stop_reason %v, is_successful %v", n, m["stop_reason"], m["is_successful"])
				}
				herr, _ := m["harness_error"].(string)
				if !strings.Contains(herr, "agent bot reported an error: the bot's turn failed") || !strings.Contains(herr, tc.want) {
					t.Errorf("%s: harness_error %q, want the model's error (%q)", n, herr, tc.want)
				}
				if !strings.Contains(string(report), "<b>Harness error</b> failed: agent bot reported an error") {
					t.Errorf("report.html does not show the harness error")
				}
			}
		})
	}
}

// A server that sends no usage (some OpenAI-compatible servers ignore
// stream_options.include_usage): the scenario is still scored, and its
// token entries are unknown — null in metrics.json with the calls
// without usage counted, "unknown" in all_summary.txt and report.html —
// never 0.
func TestModelWithoutUsageIsScoredWithUnknownTokens(t *testing.T) {
	gold, _, err := (&golds{}).scripts("tau2_airline__7")
	if err != nil {
		t.Fatal(err)
	}
	standin := agenttest.New(gold...)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body map[string]any
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		delete(body, "stream_options") // the stand-in then streams no usage chunk
		b, _ := json.Marshal(body)
		r.Body = io.NopCloser(bytes.NewReader(b))
		r.ContentLength = int64(len(b))
		standin.ServeHTTP(w, r)
	}))
	defer srv.Close()
	var stdout, stderr bytes.Buffer
	if code := run([]string{"-scenarios", "tau2_airline__7", "-out", t.TempDir(), "-llm-url", srv.URL + "/v1", "-llm-model", "m",
		"-timeout", "30s", "-max-turns", "20"}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr.String())
	}
	dir, _, _ := strings.Cut(stdout.String(), ":")
	m := readMetrics(t, dir, "tau2_airline__7")
	if _, ok := m["harness_error"]; ok {
		t.Fatalf("not scored: %v", m["harness_error"])
	}
	if _, ok := m["is_successful"].(bool); !ok {
		t.Errorf("is_successful %v: the scenario is scored", m["is_successful"])
	}
	usage := m["token_usage"].(map[string]any)["agent"].(map[string]any)
	if usage["prompt"] != nil || usage["completion"] != nil || usage["n_calls"].(float64) < 1 || usage["calls_without_usage"] != usage["n_calls"] {
		t.Errorf("agent token_usage %v: want prompt and completion null, every call without usage", usage)
	}
	for _, f := range []string{"all_summary.txt", "report.html"} {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), "unknown") {
			t.Errorf("%s does not say the tokens are unknown", f)
		}
	}
}
