package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/agent"
)

// -llm-timeout, -llm-max-tokens and -llm-tool-steps: defaults, and the
// values refused.
func TestLLMFlags(t *testing.T) {
	url := []string{"-llm-url", "http://127.0.0.1:8000/v1"}
	f, err := parse(url, io.Discard)
	require.NoError(t, err)
	assert.Equal(t, 60*time.Second, f.llmTimeout)
	assert.Equal(t, 0, f.llmMaxTokens)
	for _, args := range [][]string{
		{"-llm-timeout", "0s"}, {"-llm-timeout", "-1s"}, {"-llm-max-tokens", "-1"}, {"-llm-max-tokens", "x"}, {"-llm-tool-steps", "-1"},
	} {
		_, err := parse(append(url, args...), io.Discard)
		assert.Error(t, err, "%v", args)
	}
	assert.Equal(t, 0, f.toolSteps)
	f, err = parse(append(url, "-llm-timeout", "5s", "-llm-max-tokens", "512", "-llm-tool-steps", "2"), io.Discard)
	require.NoError(t, err)
	assert.Equal(t, 2, f.toolSteps)
	assert.Equal(t, 5*time.Second, f.llmTimeout)
	assert.Equal(t, 512, f.llmMaxTokens)
}

// The bot's model sends -llm-max-tokens as max_completion_tokens, and a
// server that does not answer fails the call at -llm-timeout.
func TestLLMFlagsReachTheModel(t *testing.T) {
	bodies := make(chan map[string]any, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body map[string]any
		_ = json.NewDecoder(r.Body).Decode(&body)
		bodies <- body
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, `data: {"id":"x","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"ok"},"finish_reason":"stop"}]}`+"\n\ndata: [DONE]\n\n")
	}))
	defer srv.Close()
	f, err := parse([]string{"-llm-url", srv.URL + "/v1", "-llm-max-tokens", "77"}, io.Discard)
	require.NoError(t, err)
	msgs := []agent.Message{{Role: agent.RoleUser, Content: "hi"}}
	m, err := llmModel(context.Background(), f)
	require.NoError(t, err)
	resp, err := m.Complete(context.Background(), agent.Request{Messages: msgs})
	require.NoError(t, err)
	assert.True(t, resp.Usage.Missing, "the stand-in sends no usage")
	assert.Equal(t, float64(77), (<-bodies)["max_completion_tokens"])

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
	f, err = parse([]string{"-llm-url", hang.URL + "/v1", "-llm-timeout", "200ms"}, io.Discard)
	require.NoError(t, err)
	start := time.Now()
	m, err = llmModel(context.Background(), f)
	require.NoError(t, err)
	_, err = m.Complete(context.Background(), agent.Request{Messages: msgs})
	require.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Less(t, time.Since(start), 5*time.Second)
}
