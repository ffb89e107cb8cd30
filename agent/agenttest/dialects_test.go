package agenttest_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/agent/agenttest"
	"github.com/voiceeval/schematools/tool"
)

const (
	anthropicBody = `{"model":"m","max_tokens":16,"messages":[{"role":"user","content":"hi"}]`
	geminiBody    = `{"contents":[{"role":"user","parts":[{"text":"hi"}]}]`
)

func postTo(t *testing.T, url, b string) *http.Response {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(b))
	require.NoError(t, err)
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// Each dialect's malformed requests get a 400 in that dialect's error
// shape; a route of another dialect is a 404 when the server is limited
// to one.
func TestDialectBadRequests(t *testing.T) {
	srv := httptest.NewServer(agenttest.New())
	defer srv.Close()
	tests := []struct {
		path, body, want string
	}{
		{"/v1/messages", `{"max_tokens":1,"messages":[{"role":"user","content":"x"}]}`, `"type":"invalid_request_error"`},
		{"/v1/messages", `{"model":"m","messages":[{"role":"user","content":"x"}]}`, `max_tokens`},
		{"/v1/messages", `{"model":"m","max_tokens":1,"messages":[{"role":"system","content":"x"}]}`, `'user' or 'assistant'`},
		{"/v1/messages", `{"model":"m","max_tokens":1,"messages":[{"role":"user","content":"x"},{"role":"assistant","content":[{"type":"tool_use","id":"a","name":"f","input":{}}]},{"role":"user","content":"y"}]}`, "without `tool_result`"},
		{"/v1/messages", `{"model":"m","max_tokens":1,"messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"zz","content":"1"}]}]}`, "unexpected `tool_use_id`"},
		{"/v1/messages", `{"model":"m","max_tokens":1,"messages":[{"role":"user","content":"x"}],"tools":[{"name":"f"}]}`, `input_schema`},
		{"/v1beta/models/m:generateContent", `{"contents":[]}`, `"status":"INVALID_ARGUMENT"`},
		{"/v1beta/models/m:generateContent", `{"contents":[{"role":"tool","parts":[{"text":"x"}]}]}`, `valid role`},
		{"/v1beta/models/m:generateContent", `{"contents":[{"role":"user","parts":[{"text":"x"}]},{"role":"model","parts":[{"functionCall":{"name":"f"}},{"functionCall":{"name":"g"}}]},{"role":"user","parts":[{"functionResponse":{"name":"f","response":{}}}]}]}`, `number of function response parts`},
		{"/v1beta/models/m:generateContent", `{"contents":[{"role":"user","parts":[{"functionResponse":{"name":"f","response":"COMPLETED"}}]}]}`, `Struct`},
		{"/v1beta/models/m:streamGenerateContent", `{"contents":[{"role":"user","parts":[{"text":"x"}]}]} {}`, `data after`},
	}
	for _, tt := range tests {
		r := postTo(t, srv.URL+tt.path, tt.body)
		assert.Equal(t, 400, r.StatusCode, "%s", tt.body)
		b, _ := io.ReadAll(r.Body)
		assert.Contains(t, string(b), tt.want, "%s", tt.body)
	}
	only := agenttest.New()
	only.Dialect = "gemini"
	srv2 := httptest.NewServer(only)
	defer srv2.Close()
	assert.Equal(t, 404, postTo(t, srv2.URL+"/v1/messages", anthropicBody+"}").StatusCode)
	assert.Equal(t, 404, postTo(t, srv2.URL+"/v1/chat/completions", body+"}").StatusCode)
	assert.Equal(t, 200, postTo(t, srv2.URL+"/v1beta/models/m:generateContent", geminiBody+"}").StatusCode)
}

// A stream in each dialect carries the turn as that API writes it; the
// faults apply.
func TestDialectStreams(t *testing.T) {
	turn := agenttest.Turn{Text: "hello", Thinking: "hm", Calls: []tool.ModelCall{{ID: "a", Name: "f", Arguments: `{"x": 1}`}, {ID: "b", Name: "g", Arguments: ""}},
		Usage: &agenttest.Usage{PromptTokens: 10, CompletionTokens: 5, CachedTokens: 3, CacheCreationTokens: 2, ReasoningTokens: 4}, Piece: 2}
	srv := httptest.NewServer(agenttest.New(turn, turn))
	defer srv.Close()

	ev := events(t, postTo(t, srv.URL+"/v1/messages", anthropicBody+`,"stream":true}`).Body)
	require.NotEmpty(t, ev)
	assert.Contains(t, ev[0], `"usage":{"input_tokens":5,"cache_creation_input_tokens":2,"cache_read_input_tokens":3,"output_tokens":1}`)
	assert.Contains(t, strings.Join(ev, "\n"), `"partial_json":""`, "a call without arguments: one empty partial_json")
	assert.Contains(t, ev[len(ev)-2], `"usage":{"output_tokens":5}`)
	assert.Equal(t, `{"type":"message_stop"}`, ev[len(ev)-1])

	ev = events(t, postTo(t, srv.URL+"/v1beta/models/m:streamGenerateContent?alt=sse", geminiBody+`}`).Body)
	require.NotEmpty(t, ev)
	var last struct {
		Candidates []struct {
			FinishReason string `json:"finishReason"`
		} `json:"candidates"`
		Usage map[string]int `json:"usageMetadata"`
	}
	require.NoError(t, json.Unmarshal([]byte(ev[len(ev)-1]), &last))
	assert.Equal(t, "STOP", last.Candidates[0].FinishReason)
	assert.Equal(t, map[string]int{"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 19, "cachedContentTokenCount": 3, "thoughtsTokenCount": 4}, last.Usage)
	assert.Contains(t, ev[0], `"thought":true`)

	cut := httptest.NewServer(agenttest.New(agenttest.Turn{Text: "long text to cut", Fault: agenttest.Fault{CutAfter: 3}}))
	defer cut.Close()
	_, err := io.ReadAll(postTo(t, cut.URL+"/v1/messages", anthropicBody+`,"stream":true}`).Body)
	assert.Error(t, err, "the connection is cut mid-stream")
}
