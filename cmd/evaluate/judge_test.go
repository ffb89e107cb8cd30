package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/voiceeval/schematools/agent/agenttest"
)

// With -judge-url and -judge-model the judge is NeMo's LLMJudge request,
// sent by the official openai-go SDK (provider/openai) to the server —
// here agenttest's stand-in, given as NeMo gives its URL (the chat
// completions endpoint) — and its verdict scores NL_ASSERTION and
// JUDGE_PASSED.
func TestJudgeFlags(t *testing.T) {
	verdict := `{"score": 0.95, "reason": "matches", "nl_assertion_verdicts": [{"index": 1, "passed": true, "reason": "said so"}]}`
	standin := agenttest.New(agenttest.Turn{Text: "Thinking done.\n```json\n" + verdict + "\n```"})
	standin.Loop = true
	srv := httptest.NewServer(standin)
	defer srv.Close()
	const name = "tau2_retail__103" // db_state_match, nl_assertion, clean_exit
	var stdout, stderr bytes.Buffer
	args := []string{"-scenarios", name, "-out", t.TempDir(), "-judge-url", srv.URL + "/v1/chat/completions", "-judge-model", "judge-1"}
	if code := run(args, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr.String())
	}
	dir, _, _ := strings.Cut(stdout.String(), ":")
	m := readMetrics(t, dir, name)
	if m["judge_score"] != 0.95 || m["judge_passed"] != true || m["nl_assertion_pass_rate"] != 1.0 || m["is_successful"] != true {
		t.Errorf("judge %v passed %v nl rate %v successful %v", m["judge_score"], m["judge_passed"], m["nl_assertion_pass_rate"], m["is_successful"])
	}
	if _, err := os.Stat(filepath.Join(dir, name, "judge_result.json")); err != nil {
		t.Error(err)
	}
	reqs := standin.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d judge requests, want 1", len(reqs))
	}
	r := reqs[0]
	if r.Model != "judge-1" || r.Stream || len(r.Messages) != 2 || r.Messages[0].Role != "system" || r.Messages[1].Role != "user" {
		t.Errorf("request %+v", r)
	}
	if got := string(r.Messages[0].Content); !strings.Contains(got, "You are a judge that evaluates voice agent performance") {
		t.Errorf("system prompt %v", r.Messages[0].Content)
	}
	var body map[string]any
	if err := json.Unmarshal(r.Body, &body); err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]any{"temperature": 1.0, "top_p": 0.95, "seed": 42.0, "max_tokens": 100000.0} {
		if body[k] != want {
			t.Errorf("%s = %v, want %v (NeMo's default)", k, body[k], want)
		}
	}
	if ct, _ := body["chat_template_kwargs"].(map[string]any); ct["enable_thinking"] != true {
		t.Errorf("chat_template_kwargs %v", body["chat_template_kwargs"])
	}

	// Without a judge the same scenario scores those signals not
	// applicable, as NeMo with --judge-url "".
	stdout.Reset()
	if code := run([]string{"-scenarios", name, "-out", t.TempDir()}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d", code)
	}
	dir, _, _ = strings.Cut(stdout.String(), ":")
	m = readMetrics(t, dir, name)
	if _, ok := m["judge_score"]; ok || !strings.Contains(fmt.Sprint(m["success_breakdown"]), "nl_assertion") {
		t.Errorf("no judge: %v", m)
	}
}

// -llm-url drives the in-process bots with a real model through the
// official SDK: here the stand-in plays the agent's gold and the user.
func TestLLMFlags(t *testing.T) {
	gold, _, err := (&golds{}).scripts("tau2_airline__7")
	if err != nil {
		t.Fatal(err)
	}
	// The agent and the user share the one server, as they share a vLLM:
	// the agent plays its gold calls in one burst and ends the call, the
	// user's one request takes the goodbye.
	standin := agenttest.New(gold...)
	srv := httptest.NewServer(standin)
	defer srv.Close()
	var stdout, stderr bytes.Buffer
	args := []string{"-scenarios", "tau2_airline__7", "-out", t.TempDir(), "-llm-url", srv.URL + "/v1", "-llm-model", "m", "-timeout", "20s", "-max-turns", "20"}
	if code := run(args, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr.String())
	}
	if standin.Served() == 0 {
		t.Fatal("the stand-in was never asked")
	}
	tools := 0
	for _, r := range standin.Requests() {
		if r.Model != "m" {
			t.Errorf("model %q", r.Model)
		}
		if len(r.Tools) > 0 {
			tools++
		}
	}
	if tools == 0 {
		t.Error("no request carried the agent's tools")
	}
	dir, _, _ := strings.Cut(stdout.String(), ":")
	if _, err := os.Stat(filepath.Join(dir, "tau2_airline__7", "metrics.json")); err != nil {
		t.Error(err)
	}
}
