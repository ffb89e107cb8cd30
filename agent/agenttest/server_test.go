package agenttest_test

import (
	"bufio"
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

const body = `{"model":"m","messages":[{"role":"user","content":"hi"}],"tools":[{"type":"function","function":{"name":"f","parameters":{"type":"object","properties":{"b":{},"a":{}}}}}]`

func post(t *testing.T, url, b string) *http.Response {
	t.Helper()
	resp, err := http.Post(url+"/v1/chat/completions", "application/json", strings.NewReader(b))
	require.NoError(t, err)
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// events reads a stream's data lines.
func events(t *testing.T, r io.Reader) []string {
	t.Helper()
	var out []string
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 4<<20)
	for sc.Scan() {
		if d, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
			out = append(out, d)
		}
	}
	return out
}

func TestStreamWireFormat(t *testing.T) {
	s := agenttest.New(agenttest.Turn{Text: "Héllo wörld", Piece: 4, Calls: []tool.ModelCall{
		{ID: "call_1", Name: "f", Arguments: `{"b": 1, "a": "ü"}`}, {ID: "call_2", Name: "g", Arguments: ""}},
		Usage: &agenttest.Usage{PromptTokens: 5, CompletionTokens: 3, CachedTokens: 2}})
	srv := httptest.NewServer(s)
	defer srv.Close()
	resp := post(t, srv.URL, body+`,"stream":true,"stream_options":{"include_usage":true}}`)
	require.Equal(t, 200, resp.StatusCode)
	assert.Equal(t, "text/event-stream; charset=utf-8", resp.Header.Get("Content-Type"))
	ev := events(t, resp.Body)
	require.Greater(t, len(ev), 6)
	assert.Equal(t, "[DONE]", ev[len(ev)-1])
	assert.Contains(t, ev[0], `"delta":{"role":"assistant","content":""}`)
	assert.Contains(t, ev[0], `"usage":null`)
	usage := ev[len(ev)-2]
	assert.Contains(t, usage, `"choices":[]`)
	assert.Contains(t, usage, `"usage":{"prompt_tokens":5,"completion_tokens":3,"total_tokens":8,"prompt_tokens_details":{"cached_tokens":2}`)
	assert.Contains(t, ev[len(ev)-3], `"delta":{},"logprobs":null,"finish_reason":"tool_calls"`)

	var text, args strings.Builder
	opened := 0
	for _, e := range ev[:len(ev)-2] {
		var c struct {
			Choices []struct {
				Delta struct {
					Content   *string `json:"content"`
					ToolCalls []struct {
						Index    int    `json:"index"`
						ID       string `json:"id"`
						Function struct {
							Name      string `json:"name"`
							Arguments string `json:"arguments"`
						} `json:"function"`
					} `json:"tool_calls"`
				} `json:"delta"`
			} `json:"choices"`
		}
		require.NoError(t, json.Unmarshal([]byte(e), &c), e)
		d := c.Choices[0].Delta
		if d.Content != nil {
			text.WriteString(*d.Content)
		}
		for _, tc := range d.ToolCalls {
			if tc.ID != "" {
				opened++
				assert.Equal(t, opened-1, tc.Index)
			}
			if tc.Index == 0 {
				args.WriteString(tc.Function.Arguments)
			}
		}
	}
	assert.Equal(t, "Héllo wörld", text.String())
	assert.Equal(t, `{"b": 1, "a": "ü"}`, args.String())
	assert.Equal(t, 2, opened)

	reqs := s.Requests()
	require.Len(t, reqs, 1)
	assert.True(t, reqs[0].Stream)
	assert.True(t, reqs[0].IncludeUsage)
	assert.Equal(t, `{"type":"function","function":{"name":"f","parameters":{"type":"object","properties":{"b":{},"a":{}}}}}`, string(reqs[0].Tools[0]),
		"tool definitions are kept as sent")
}

func TestCompletion(t *testing.T) {
	s := agenttest.New(agenttest.Turn{Text: "hi"}, agenttest.Turn{Calls: []tool.ModelCall{{ID: "c", Name: "f", Arguments: "{}"}}})
	srv := httptest.NewServer(s)
	defer srv.Close()
	b, _ := io.ReadAll(post(t, srv.URL, body+`}`).Body)
	assert.Contains(t, string(b), `"object":"chat.completion"`)
	assert.Contains(t, string(b), `"message":{"role":"assistant","content":"hi","refusal":null}`)
	assert.Contains(t, string(b), `"finish_reason":"stop"`)
	b, _ = io.ReadAll(post(t, srv.URL, body+`}`).Body)
	assert.Contains(t, string(b), `"message":{"role":"assistant","content":null,"refusal":null,"tool_calls":[{"id":"c","type":"function","function":{"name":"f","arguments":"{}"}}]}`)
	b, _ = io.ReadAll(post(t, srv.URL, body+`}`).Body)
	assert.Contains(t, string(b), `"content":"script finished"`)
	assert.Equal(t, 3, s.Served())
}

func TestFaults(t *testing.T) {
	s := agenttest.New(agenttest.Turn{Text: "ok", Fault: agenttest.Fault{Fail: []int{429, 500}, RetryAfter: "0"}})
	srv := httptest.NewServer(s)
	defer srv.Close()
	r := post(t, srv.URL, body+`}`)
	assert.Equal(t, 429, r.StatusCode)
	assert.Equal(t, "0", r.Header.Get("Retry-After"))
	b, _ := io.ReadAll(r.Body)
	assert.JSONEq(t, `{"error":{"message":"scripted fault: HTTP 429","type":"rate_limit_exceeded","param":null,"code":null}}`, string(b))
	assert.Equal(t, 500, post(t, srv.URL, body+`}`).StatusCode)
	assert.Equal(t, 200, post(t, srv.URL, body+`}`).StatusCode)

	cut := agenttest.New(agenttest.Turn{Calls: []tool.ModelCall{{ID: "c", Name: "f", Arguments: `{"long": "argument text"}`}}, Fault: agenttest.Fault{CutAfter: 3}})
	srv2 := httptest.NewServer(cut)
	defer srv2.Close()
	resp := post(t, srv2.URL, body+`,"stream":true}`)
	_, err := io.ReadAll(resp.Body)
	assert.Error(t, err, "the connection is cut mid-stream")

	bad := agenttest.New(agenttest.Turn{Text: "x", Fault: agenttest.Fault{Malformed: true}})
	srv3 := httptest.NewServer(bad)
	defer srv3.Close()
	ev := events(t, post(t, srv3.URL, body+`,"stream":true}`).Body)
	assert.False(t, json.Valid([]byte(ev[1])))
}

func TestBadRequests(t *testing.T) {
	srv := httptest.NewServer(agenttest.New())
	defer srv.Close()
	for _, b := range []string{
		``, `[]`, `{"messages":[{"role":"user","content":"x"}]}`, `{"model":"m","messages":[]}`,
		`{"model":"m","messages":[{"role":"robot"}]}`, `{"model":"m","messages":[{"role":"tool","content":"x"}]}`,
		`{"model":"m","messages":[{"role":"user"}],"tools":[{"type":"function"}]}`, `{"model":"m","messages":[{"role":"user"}]} {}`,
	} {
		r := post(t, srv.URL, b)
		assert.Equal(t, 400, r.StatusCode, "%s", b)
		eb, _ := io.ReadAll(r.Body)
		assert.Contains(t, string(eb), `"type":"invalid_request_error"`)
	}
	r, err := http.Get(srv.URL + "/v1/chat/completions")
	require.NoError(t, err)
	r.Body.Close()
	assert.Equal(t, 405, r.StatusCode)
}

func TestGoldTurns(t *testing.T) {
	turns := agenttest.GoldTurns([]tool.ModelCall{{Name: "a", Arguments: `{"x": 1}`}, {ID: "mine", Name: "b"}}, "EndConversationTool")
	require.Len(t, turns, 4)
	assert.Equal(t, "gold_1", turns[0].Calls[0].ID)
	assert.Equal(t, "mine", turns[1].Calls[0].ID)
	assert.Equal(t, "EndConversationTool", turns[2].Calls[0].Name)
	assert.Empty(t, turns[3].Calls)
}
