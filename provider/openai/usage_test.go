package openai_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/agent"
	"github.com/voiceeval/schematools/provider/openai"
)

// cannedServer answers every request with body (an SSE stream when it
// starts with "data:", else JSON) and keeps the request bodies.
type cannedServer struct {
	body string
	mu   sync.Mutex
	reqs []map[string]any
}

func (s *cannedServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	var req map[string]any
	_ = json.Unmarshal(b, &req)
	s.mu.Lock()
	s.reqs = append(s.reqs, req)
	s.mu.Unlock()
	if len(s.body) > 5 && s.body[:5] == "data:" {
		w.Header().Set("Content-Type", "text/event-stream")
	} else {
		w.Header().Set("Content-Type", "application/json")
	}
	fmt.Fprint(w, s.body)
}

func (s *cannedServer) requests() []map[string]any {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.reqs
}

func serve(t *testing.T, h http.Handler) string {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL + "/v1"
}

const (
	chunkText  = `data: {"id":"x","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":"Hi"},"finish_reason":null}]}` + "\n\n"
	chunkStop  = `data: {"id":"x","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}` + "\n\n"
	chunkNull  = `data: {"id":"x","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"}],"usage":null}` + "\n\n"
	chunkUsage = `data: {"id":"x","object":"chat.completion.chunk","created":1,"model":"m","choices":[],"usage":{"prompt_tokens":9,"completion_tokens":4,"total_tokens":13}}` + "\n\n"
	chunkHalf  = `data: {"id":"x","object":"chat.completion.chunk","created":1,"model":"m","choices":[],"usage":{"total_tokens":13}}` + "\n\n"
	done       = "data: [DONE]\n\n"
	completion = `{"id":"x","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"Hi"},"finish_reason":"stop"}]%s}`
)

// A response without usage — a server that ignores
// stream_options.include_usage, or a non-streaming answer without the
// object, or usage without its counts — has Usage.Missing; reported
// usage, zeros included, has not.
func TestUsageNotSentIsMissing(t *testing.T) {
	tests := []struct {
		name    string
		body    string
		stream  bool
		missing bool
		prompt  int
	}{
		{"stream without usage", chunkText + chunkStop + done, true, true, 0},
		{"stream with null usage", chunkText + chunkNull + done, true, true, 0},
		{"stream with usage", chunkText + chunkStop + chunkUsage + done, true, false, 9},
		{"stream with usage lacking counts", chunkText + chunkStop + chunkHalf + done, true, true, 0},
		{"answer without usage", fmt.Sprintf(completion, ""), false, true, 0},
		{"answer with null usage", fmt.Sprintf(completion, `,"usage":null`), false, true, 0},
		{"answer with zero usage", fmt.Sprintf(completion, `,"usage":{"prompt_tokens":0,"completion_tokens":0,"total_tokens":0}`), false, false, 0},
		{"answer with usage", fmt.Sprintf(completion, `,"usage":{"prompt_tokens":9,"completion_tokens":4,"total_tokens":13}`), false, false, 9},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			url := serve(t, &cannedServer{body: tt.body})
			var opts openai.Options
			if !tt.stream {
				opts.NoStreaming = true
			}
			resp, err := newModel(url, opts).Complete(context.Background(), agent.Request{Messages: user})
			require.NoError(t, err)
			assert.Equal(t, "Hi", resp.Text)
			assert.Equal(t, tt.missing, resp.Usage.Missing)
			assert.Equal(t, tt.prompt, resp.Usage.PromptTokens)
		})
	}
}

// Options.MaxTokens sends max_completion_tokens, streaming or not; by default,
// or with 0 or less, none is sent.
func TestMaxTokensSent(t *testing.T) {
	for _, tt := range []struct {
		opts openai.Options
		want any // float64 as JSON decodes it, or nil when absent
	}{
		{openai.Options{}, nil},
		{openai.Options{MaxTokens: 0}, nil},
		{openai.Options{MaxTokens: -5}, nil},
		{openai.Options{MaxTokens: 256}, float64(256)},
		{openai.Options{MaxTokens: 256, NoStreaming: true}, float64(256)},
	} {
		body := chunkText + chunkStop + chunkUsage + done
		if tt.opts.NoStreaming {
			body = fmt.Sprintf(completion, "")
		}
		s := &cannedServer{body: body}
		_, err := newModel(serve(t, s), tt.opts).Complete(context.Background(), agent.Request{Messages: user})
		require.NoError(t, err)
		reqs := s.requests()
		require.Len(t, reqs, 1)
		got, ok := reqs[0]["max_completion_tokens"]
		assert.Equal(t, tt.want != nil, ok)
		assert.Equal(t, tt.want, got)
		assert.NotContains(t, reqs[0], "max_tokens", "max_completion_tokens only")
	}
}

// A server that never answers fails the request at Options.Timeout (each
// attempt's bound; the SDK does not retry a timed-out attempt), not at
// the 60 s default.
func TestHangingServerTimesOut(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(release) })
	for _, stream := range []bool{true, false} {
		opts := openai.Options{Timeout: 150 * time.Millisecond, MaxRetries: 1}
		if !stream {
			opts.NoStreaming = true
		}
		start := time.Now()
		_, err := newModel(srv.URL+"/v1", opts).Complete(context.Background(), agent.Request{Messages: user})
		took := time.Since(start)
		require.Error(t, err)
		assert.ErrorIs(t, err, context.DeadlineExceeded, "stream=%v: %v", stream, err)
		assert.GreaterOrEqual(t, took, 150*time.Millisecond)
		assert.Less(t, took, 5*time.Second, "at most two attempts of 150 ms and a backoff")
	}
}
