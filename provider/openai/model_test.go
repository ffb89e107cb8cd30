package openai_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/agent"
	"github.com/voiceeval/schematools/agent/agenttest"
	"github.com/voiceeval/schematools/provider/openai"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
	"github.com/voiceeval/schematools/tool/schema"
)

type orderParams struct {
	OrderID string `json:"order_id" jsonschema_description:"The order id, such as '#W0000000'." validate:"required"`
	Limit   int    `json:"limit,omitempty" validate:"omitempty,min=1"`
}

func orderTool(t testing.TB) tool.Tool {
	t.Helper()
	tl, err := tool.New("get_order_details", "Get an order <by id> & more.", func(_ context.Context, _ *state.Shared, p orderParams) (any, error) {
		return map[string]any{"order_id": p.OrderID, "status": "delivered"}, nil
	}, nil)
	require.NoError(t, err)
	return tl
}

func testSet(t testing.TB) *tool.Set {
	t.Helper()
	s, err := tool.NewSet(append([]tool.Tool{orderTool(t)}, tool.Harness(state.New(), nil)...)...)
	require.NoError(t, err)
	return s
}

func standIn(t *testing.T, turns ...agenttest.Turn) (*agenttest.Server, string) {
	t.Helper()
	s := agenttest.New(turns...)
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	return s, srv.URL + "/v1"
}

func newModel(url string, opts openai.Options) *openai.Model {
	opts.BaseURL, opts.APIKey = url, "test-key"
	return openai.New("gpt-test", &opts)
}

var (
	user  = []agent.Message{{Role: agent.RoleSystem, Content: "sys"}, {Role: agent.RoleUser, Content: "hi"}}
	turn  = agenttest.Turn{Text: "Looking — ünï.", Calls: []tool.ModelCall{{ID: "c1", Name: "get_order_details", Arguments: `{"order_id": "#W1"}`}, {ID: "c2", Name: "EndConversationTool", Arguments: "{}"}}, Usage: &agenttest.Usage{PromptTokens: 9, CompletionTokens: 4, CachedTokens: 2}, Piece: 3}
	wantC = []tool.ModelCall{{ID: "c1", Name: "get_order_details", Arguments: `{"order_id": "#W1"}`}, {ID: "c2", Name: "EndConversationTool", Arguments: "{}"}}
)

func TestStreamAndNonStream(t *testing.T) {
	for _, stream := range []bool{true, false} {
		t.Run(fmt.Sprint("stream=", stream), func(t *testing.T) {
			s, url := standIn(t, turn)
			var opts openai.Options
			if !stream {
				opts.NoStreaming = true
			}
			var deltas []string
			resp, err := newModel(url, opts).Complete(context.Background(), agent.Request{Messages: user, Tools: testSet(t),
				OnText: func(d string) { deltas = append(deltas, d) }})
			require.NoError(t, err)
			assert.Equal(t, "Looking — ünï.", resp.Text)
			assert.Equal(t, "Looking — ünï.", strings.Join(deltas, ""))
			if stream {
				assert.Greater(t, len(deltas), 3, "text deltas as they stream")
			}
			assert.Equal(t, wantC, resp.Calls)
			assert.Equal(t, "tool_calls", resp.FinishReason)
			assert.Equal(t, 13, resp.Usage.TotalTokens)
			require.NotNil(t, resp.Usage.CacheReadInputTokens)
			assert.Equal(t, 2, *resp.Usage.CacheReadInputTokens)
			assert.Equal(t, 0, *resp.Usage.ReasoningTokens)

			reqs := s.Requests()
			require.Len(t, reqs, 1)
			assert.Equal(t, "gpt-test", reqs[0].Model)
			assert.Equal(t, stream, reqs[0].Stream)
			assert.Equal(t, stream, reqs[0].IncludeUsage)
			require.Len(t, reqs[0].Messages, 2)
			assert.Equal(t, "hi", reqs[0].Messages[1].Text())
		})
	}
}

// The tools go out byte for byte as tool/schema exports them, in set
// order; strict is an option.
func TestToolsSentAsExported(t *testing.T) {
	set := testSet(t)
	for _, strict := range []bool{false, true} {
		s, url := standIn(t, agenttest.Turn{Text: "ok"})
		var opts openai.Options
		opts.Strict = strict
		_, err := newModel(url, opts).Complete(context.Background(), agent.Request{Messages: user, Tools: set})
		require.NoError(t, err)
		want, err := schema.OpenAI(set.Tools(), &schema.Options{Strict: strict})
		require.NoError(t, err)
		got := s.Requests()[0].Tools
		require.Len(t, got, len(want))
		for i := range want {
			assert.Equal(t, string(want[i]), string(got[i]), "strict=%v tool %d", strict, i)
		}
		assert.Contains(t, string(got[0]), `\u003cby id\u003e \u0026`, "as encoding/json escapes the export")
	}
}

// The context goes out as pipecat keeps it.
func TestMessagesSent(t *testing.T) {
	s, url := standIn(t, agenttest.Turn{Text: "ok"})
	msgs := append(user[:2:2],
		agent.Message{Role: agent.RoleAssistant, ToolCalls: []tool.ModelCall{{ID: "c1", Name: "f", Arguments: `{"b": 1, "a": 2}`}}},
		agent.Message{Role: agent.RoleTool, Content: `{"ok": true}`, ToolCallID: "c1"})
	_, err := newModel(url, openai.Options{}).Complete(context.Background(), agent.Request{Messages: msgs})
	require.NoError(t, err)
	r := s.Requests()[0]
	assert.Contains(t, string(r.Body), `{"role":"assistant","tool_calls":[{"id":"c1","function":{"name":"f","arguments":"{\"b\": 1, \"a\": 2}"},"type":"function"}]}`)
	assert.Contains(t, string(r.Body), `{"role":"tool","content":"{\"ok\": true}","tool_call_id":"c1"}`)
	assert.Empty(t, r.Tools, "no set, no tools")
}

func TestFaults(t *testing.T) {
	tests := []struct {
		name     string
		turn     agenttest.Turn
		opts     openai.Options
		wantErr  string
		requests int
	}{
		{"429 then answered", agenttest.Turn{Text: "ok", Fault: agenttest.Fault{Fail: []int{429}, RetryAfter: "0"}}, openai.Options{}, "", 2},
		{"500 twice then answered", agenttest.Turn{Text: "ok", Fault: agenttest.Fault{Fail: []int{500, 503}}}, openai.Options{}, "", 3},
		{"500 past the retries", agenttest.Turn{Text: "ok", Fault: agenttest.Fault{Fail: []int{500, 500, 500}}}, openai.Options{}, "500", 3},
		{"400 is not retried", agenttest.Turn{Text: "ok", Fault: agenttest.Fault{Fail: []int{400}}}, openai.Options{}, "400", 1},
		{"retries bounded by the option", agenttest.Turn{Text: "ok", Fault: agenttest.Fault{Fail: []int{500}}}, openai.Options{MaxRetries: -1}, "500", 1},
		{"stream cut mid-call", agenttest.Turn{Calls: []tool.ModelCall{{ID: "c", Name: "f", Arguments: `{"a": "long enough to split"}`}}, Fault: agenttest.Fault{CutAfter: 4}}, openai.Options{}, "stream", 1},
		{"malformed chunk", agenttest.Turn{Text: "x", Fault: agenttest.Fault{Malformed: true}}, openai.Options{}, "stream", 1},
		{"slower than the timeout", agenttest.Turn{Text: "x", Fault: agenttest.Fault{Delay: 2 * time.Second}}, openai.Options{Timeout: 50 * time.Millisecond, MaxRetries: -1}, "deadline", 1},
		{"no finish_reason", agenttest.Turn{Text: "x", FinishReason: ""}, openai.Options{}, "", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, url := standIn(t, tt.turn)
			resp, err := newModel(url, tt.opts).Complete(context.Background(), agent.Request{Messages: user})
			if tt.wantErr == "" {
				require.NoError(t, err)
				assert.Equal(t, tt.turn.Text, resp.Text)
			} else {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.wantErr)
			}
			assert.Len(t, s.Requests(), tt.requests)
		})
	}
}

// However a server numbers the call deltas, the calls come out whole.
func TestCallDeltaQuirks(t *testing.T) {
	three := []tool.ModelCall{{ID: "a", Name: "get_order_details", Arguments: `{"order_id": "#W1"}`}, {ID: "b", Name: "x", Arguments: `{}`}, {ID: "c", Name: "get_order_details", Arguments: `{"order_id": "#W3", "limit": 2}`}}
	want := []tool.ModelCall{{ID: "a", Name: "get_order_details", Arguments: `{"order_id": "#W1"}`}, {ID: "b", Name: "x", Arguments: `{}`}, {ID: "c", Name: "get_order_details", Arguments: `{"order_id": "#W3", "limit": 2}`}}
	for _, q := range []agenttest.Quirks{{}, {IndexZero: true}, {IDEveryChunk: true}, {OneChunk: true}, {IndexZero: true, IDEveryChunk: true}} {
		_, url := standIn(t, agenttest.Turn{Calls: three, Quirks: q, Piece: 2})
		resp, err := newModel(url, openai.Options{}).Complete(context.Background(), agent.Request{Messages: user})
		require.NoError(t, err)
		assert.Equal(t, want, resp.Calls, "%+v", q)
	}
}

// The loop on the stand-in: what a model gets wrong becomes structured
// results, every call is answered once, and the turn goes on.
func TestLoopOnTheStandIn(t *testing.T) {
	big := `{"order_id": "` + strings.Repeat("é", 1<<19) + `"}` // 1 MB of arguments
	var many []tool.ModelCall
	for i := range 500 {
		many = append(many, tool.ModelCall{ID: fmt.Sprintf("m%d", i), Name: "get_order_details", Arguments: fmt.Sprintf(`{"order_id": "#W%d"}`, i)})
	}
	turns := []agenttest.Turn{
		{Calls: []tool.ModelCall{
			{ID: "u1", Name: "no_such_tool", Arguments: "{}"},
			{ID: "b1", Name: "get_order_details", Arguments: `{"order_id": `},
			{ID: "r1", Name: "get_order_details", Arguments: `{"order_id": "#W1"}`},
			{ID: "r1", Name: "get_order_details", Arguments: `{"order_id": "#W2"}`},
		}},
		{Calls: []tool.ModelCall{{ID: "big", Name: "get_order_details", Arguments: big}}, Piece: 64 << 10},
		{Calls: many, Piece: 64},
	}
	turns = append(turns, agenttest.GoldTurns([]tool.ModelCall{{Name: "get_order_details", Arguments: `{"order_id": "#W9"}`}}, "EndConversationTool")...)
	s, url := standIn(t, turns...)
	conv := agent.NewContext(user[0])
	var usages []agent.Usage
	loop := &agent.Loop{Model: newModel(url, openai.Options{}), Tools: testSet(t), Context: conv,
		Hooks: agent.Hooks{OnResponse: func(_ context.Context, _ int, r agent.Response) { usages = append(usages, r.Usage) }}}
	res, err := loop.Turn(context.Background(), "hi")
	require.NoError(t, err)
	assert.True(t, res.Ended)
	assert.Equal(t, 5, s.Served())
	assert.Len(t, usages, 5)
	for _, u := range usages {
		assert.Positive(t, u.TotalTokens)
	}
	contents := map[string]string{}
	msgs := conv.Messages()
	for i, m := range msgs {
		if len(m.ToolCalls) > 0 {
			require.Equal(t, m.ToolCalls[0].ID, msgs[i+1].ToolCallID)
			_, dup := contents[msgs[i+1].ToolCallID]
			require.False(t, dup)
			contents[msgs[i+1].ToolCallID] = msgs[i+1].Content
		}
	}
	assert.Contains(t, contents["u1"], `"unknown_tool"`)
	assert.Contains(t, contents["b1"], `"json_invalid"`)
	assert.Contains(t, contents["r1"], `#W1`)
	assert.Contains(t, contents["r1_dup2"], `"duplicate_call_id"`)
	assert.True(t, strings.HasSuffix(contents["big"], `"status": "delivered"}`), "the 1 MB call is answered")
	assert.Equal(t, 4+1+500+2, len(contents))
	assert.Contains(t, contents["gold_end"], `Exit message sent.`)

	// The last request carried the whole context back, pairs in place.
	reqs := s.Requests()
	last := reqs[len(reqs)-1]
	n := len(last.Messages)
	assert.Equal(t, 1+1+4*2+2+500*2+2, n)
	assert.Equal(t, "assistant", last.Messages[n-2].Role)
	assert.Equal(t, "tool", last.Messages[n-1].Role)
	assert.Equal(t, "gold_1", last.Messages[n-1].ToolCallID)
	assert.True(t, json.Valid(last.Body))
}
