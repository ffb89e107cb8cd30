package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/voiceeval/schematools/agent"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

// -llm-timeout and -llm-max-tokens: defaults, and the values refused.
func TestLLMTimeoutAndMaxTokensFlags(t *testing.T) {
	base := []string{"-scenarios", "tau2_retail__0", "-out", t.TempDir()}
	f, err := parse(base, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if f.llm.timeout != 60*time.Second || f.llm.maxTokens != 0 {
		t.Errorf("defaults: -llm-timeout %v, -llm-max-tokens %d; want 60s and 0", f.llm.timeout, f.llm.maxTokens)
	}
	for _, args := range [][]string{
		{"-llm-timeout", "0s"}, {"-llm-timeout", "-2s"}, {"-llm-max-tokens", "-1"}, {"-llm-max-tokens", "many"},
	} {
		if _, err := parse(append(base, args...), io.Discard); err == nil {
			t.Errorf("%v: no error", args)
		}
	}
	f, err = parse(append(base, "-llm-url", "http://127.0.0.1:8000/v1", "-llm-model", "m", "-llm-timeout", "3s", "-llm-max-tokens", "2048"), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if f.llm.timeout != 3*time.Second || f.llm.maxTokens != 2048 {
		t.Errorf("-llm-timeout %v, -llm-max-tokens %d; want 3s and 2048", f.llm.timeout, f.llm.maxTokens)
	}
}

// The bots' model sends -llm-max-tokens as max_completion_tokens (none by
// default), and a server that does not answer fails the call at
// -llm-timeout, not at the SDK's 60 s.
func TestLLMTimeoutAndMaxTokensReachTheModel(t *testing.T) {
	bodies := make(chan map[string]any, 2)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body map[string]any
		_ = json.NewDecoder(r.Body).Decode(&body)
		bodies <- body
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, `data: {"id":"x","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"ok"},"finish_reason":"stop"}]}`+"\n\ndata: [DONE]\n\n")
	}))
	defer srv.Close()
	msgs := []agent.Message{{Role: agent.RoleUser, Content: "hi"}}
	base := []string{"-scenarios", "tau2_retail__0", "-out", t.TempDir(), "-llm-url", srv.URL + "/v1/chat/completions", "-llm-model", "m"}
	for _, tt := range []struct {
		args []string
		want any
	}{{nil, nil}, {[]string{"-llm-max-tokens", "99"}, float64(99)}} {
		f, err := parse(append(base, tt.args...), io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := mustModel(t, f.llm).Complete(context.Background(), agent.Request{Messages: msgs})
		if err != nil {
			t.Fatal(err)
		}
		if resp.Text != "ok" || !resp.Usage.Missing {
			t.Errorf("%v: text %q, usage missing %v; want ok, true (the stand-in sends no usage)", tt.args, resp.Text, resp.Usage.Missing)
		}
		body := <-bodies
		if got, ok := body["max_completion_tokens"]; ok != (tt.want != nil) || got != tt.want {
			t.Errorf("%v: max_completion_tokens = %v (sent: %v), want %v", tt.args, got, ok, tt.want)
		}
	}

	release := make(chan struct{})
	hang := httptest.NewServer(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body) // so that the server notices the client leave
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	defer hang.Close()
	defer close(release)
	f, err := parse([]string{"-scenarios", "tau2_retail__0", "-out", t.TempDir(), "-llm-url", hang.URL + "/v1", "-llm-model", "m", "-llm-timeout", "200ms"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, err = mustModel(t, f.llm).Complete(context.Background(), agent.Request{Messages: msgs})
	if took := time.Since(start); !errors.Is(err, context.DeadlineExceeded) || took > 5*time.Second {
		t.Errorf("a hanging server: %v after %v; want a deadline within -llm-timeout", err, took)
	}
}

// -llm-temperature and -llm-seed are sent when given; -llm-text-calls
// repair makes a call the model wrote as JSON text a call, keep (the
// default, pipecat's) leaves it text.
func TestLLMSamplingAndTextCallFlags(t *testing.T) {
	bodies := make(chan map[string]any, 4)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body map[string]any
		_ = json.NewDecoder(r.Body).Decode(&body)
		bodies <- body
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, `data: {"id":"x","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"{\"name\": \"EndConversationTool\", \"arguments\": {}}"},"finish_reason":"stop"}]}`+"\n\ndata: [DONE]\n\n")
	}))
	defer srv.Close()
	set, err := tool.NewSet(tool.Harness(state.New(), nil)...)
	if err != nil {
		t.Fatal(err)
	}
	req := agent.Request{Messages: []agent.Message{{Role: agent.RoleUser, Content: "bye"}}, Tools: set}
	base := []string{"-scenarios", "tau2_retail__0", "-out", t.TempDir(), "-llm-url", srv.URL + "/v1", "-llm-model", "m"}
	for _, tc := range []struct {
		args      []string
		temp, sd  any
		wantCalls int
	}{
		{nil, nil, nil, 0},
		{[]string{"-llm-temperature", "0", "-llm-seed", "42", "-llm-text-calls", "repair"}, float64(0), float64(42), 1},
	} {
		f, err := parse(append(base, tc.args...), io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := mustModel(t, f.llm).Complete(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		body := <-bodies
		if body["temperature"] != tc.temp || body["seed"] != tc.sd || len(resp.Calls) != tc.wantCalls {
			t.Errorf("%v: temperature %v, seed %v, %d calls (text %q)", tc.args, body["temperature"], body["seed"], len(resp.Calls), resp.Text)
		}
	}
	if _, err := parse(append(base, "-llm-text-calls", "guess"), io.Discard); err == nil {
		t.Error("-llm-text-calls guess: no error")
	}
}

// The key the model and the judge send is the value of the variable
// -llm-key-env (-judge-api-key-name) names, or "EMPTY" when it is unset,
// empty or not named at all — never OPENAI_API_KEY in its place.
func TestKeyEnvSendsEmptyWhenUnset(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-not-this-one")
	t.Setenv("EVAL_TEST_KEY", "sk-this-one")
	auth := make(chan string, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		auth <- r.Header.Get("Authorization")
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, `data: {"id":"x","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"ok"},"finish_reason":"stop"}]}`+"\n\ndata: [DONE]\n\n")
	}))
	defer srv.Close()
	for env, want := range map[string]string{"": "Bearer EMPTY", "EVAL_TEST_UNSET": "Bearer EMPTY", "EVAL_TEST_KEY": "Bearer sk-this-one"} {
		m := mustModel(t, llmFlags{modelFlags: modelFlags{url: srv.URL + "/v1", model: "m", keyEnv: env}, timeout: 5 * time.Second, temperature: -1, seed: -1, textCalls: textCallsKeep})
		if _, err := m.Complete(context.Background(), agent.Request{Messages: []agent.Message{{Role: agent.RoleUser, Content: "hi"}}}); err != nil {
			t.Fatal(err)
		}
		if got := <-auth; got != want {
			t.Errorf("-llm-key-env %q: Authorization %q, want %q", env, got, want)
		}
	}
}

// mustModel is llmModel(f), failing the test on an error.
func mustModel(t *testing.T, f llmFlags) agent.Model {
	t.Helper()
	m, err := llmModel(context.Background(), f)
	if err != nil {
		t.Fatal(err)
	}
	return m
}
