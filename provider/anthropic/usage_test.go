package anthropic_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/agent"
	"github.com/voiceeval/schematools/agent/agenttest"
	"github.com/voiceeval/schematools/provider/anthropic"
)

// canned answers every request with body: an SSE stream when it starts
// with "event:", else JSON.
func canned(t *testing.T, body string) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		if strings.HasPrefix(body, "event:") {
			w.Header().Set("Content-Type", "text/event-stream")
		} else {
			w.Header().Set("Content-Type", "application/json")
		}
		fmt.Fprint(w, body)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// sse is a text answer "Hi" as the Messages API streams it, with the
// given usage objects (empty: none) in message_start and message_delta.
func sse(startUsage, deltaUsage string) string {
	ev := func(name, data string) string { return "event: " + name + "\ndata: " + data + "\n\n" }
	return ev("message_start", `{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[],"stop_reason":null,"stop_sequence":null`+startUsage+`}}`) +
		ev("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`) +
		ev("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hi"}}`) +
		ev("content_block_stop", `{"type":"content_block_stop","index":0}`) +
		ev("message_delta", `{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null}`+deltaUsage+`}`) +
		ev("message_stop", `{"type":"message_stop"}`)
}

const message = `{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[{"type":"text","text":"Hi"}],"stop_reason":"end_turn","stop_sequence":null%s}`

// A response that carried no usage object has Usage.Missing; one that
// did, zeros included, has not.
func TestUsageNotSentIsMissing(t *testing.T) {
	tests := []struct {
		name    string
		body    string
		stream  bool
		missing bool
		prompt  int
	}{
		{"stream without usage", sse("", ""), true, true, 0},
		{"stream with usage in message_start only", sse(`,"usage":{"input_tokens":9,"output_tokens":1}`, ""), true, false, 9},
		{"stream with usage in message_delta only", sse("", `,"usage":{"output_tokens":4}`), true, false, 0},
		{"stream with usage", sse(`,"usage":{"input_tokens":9,"output_tokens":1}`, `,"usage":{"output_tokens":4}`), true, false, 9},
		{"answer without usage", fmt.Sprintf(message, ""), false, true, 0},
		{"answer with null usage", fmt.Sprintf(message, `,"usage":null`), false, true, 0},
		{"answer with zero usage", fmt.Sprintf(message, `,"usage":{"input_tokens":0,"output_tokens":0}`), false, false, 0},
		{"answer with usage", fmt.Sprintf(message, `,"usage":{"input_tokens":9,"output_tokens":4}`), false, false, 9},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var opts anthropic.Options
			if !tt.stream {
				opts.NoStreaming = true
			}
			resp, err := newModel(canned(t, tt.body), opts).Complete(context.Background(), agent.Request{Messages: user})
			require.NoError(t, err)
			assert.Equal(t, "Hi", resp.Text)
			assert.Equal(t, tt.missing, resp.Usage.Missing)
			assert.Equal(t, tt.prompt, resp.Usage.PromptTokens)
		})
	}
}

// Options.MaxTokens sets max_tokens, which the API requires: 0 or less keeps
// the default.
func TestMaxTokensSent(t *testing.T) {
	for _, tt := range []struct {
		n, want int
	}{{0, anthropic.DefaultMaxTokens}, {-1, anthropic.DefaultMaxTokens}, {300, 300}} {
		s, url := standIn(t, agenttest.Turn{Text: "ok"})
		_, err := newModel(url, anthropic.Options{MaxTokens: tt.n}).Complete(context.Background(), agent.Request{Messages: user})
		require.NoError(t, err)
		reqs := s.Requests()
		require.Len(t, reqs, 1)
		assert.Equal(t, tt.want, sent(t, reqs[0]).MaxTokens, "MaxTokens %d", tt.n)
	}
}
