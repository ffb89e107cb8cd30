package anthropic_test

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
	"github.com/voiceeval/schematools/provider/anthropic"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
	"github.com/voiceeval/schematools/tool/schema"
)

type orderParams struct {
	OrderID string `json:"order_id" jsonschema_description:"The order id, such as '#W0000000'." validate:"required"`
	Limit   int    `json:"limit,omitempty" validate:"omitempty,min=1"`
}

func testSet(t testing.TB) *tool.Set {
	t.Helper()
	tl, err := tool.New("get_order_details", "Get an order <by id> & more.", func(_ context.Context, _ *state.Shared, p orderParams) (any, error) {
		return map[string]any{"order_id": p.OrderID, "status": "delivered"}, nil
	}, nil)
	require.NoError(t, err)
	s, err := tool.NewSet(append([]tool.Tool{tl}, tool.Harness(state.New(), nil)...)...)
	require.NoError(t, err)
	return s
}

func standIn(t *testing.T, turns ...agenttest.Turn) (*agenttest.Server, string) {
	t.Helper()
	s := agenttest.New(turns...)
	s.Dialect = "anthropic"
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	return s, srv.URL
}

func newModel(url string, opts anthropic.Options) *anthropic.Model {
	opts.BaseURL, opts.APIKey = url, "test-key"
	return anthropic.New("claude-test", &opts)
}

var (
	user  = []agent.Message{{Role: agent.RoleSystem, Content: "sys"}, {Role: agent.RoleUser, Content: "hi"}}
	turn  = agenttest.Turn{Text: "Looking — ünï.", Thinking: "The user wants an order.", Calls: []tool.ModelCall{{ID: "c1", Name: "get_order_details", Arguments: `{"order_id": "#W1"}`}, {ID: "c2", Name: "EndConversationTool", Arguments: "{}"}}, Usage: &agenttest.Usage{PromptTokens: 9, CompletionTokens: 4, CachedTokens: 2, CacheCreationTokens: 3}, Piece: 3}
	wantC = []tool.ModelCall{{ID: "c1", Name: "get_order_details", Arguments: `{"order_id": "#W1"}`}, {ID: "c2", Name: "EndConversationTool", Arguments: "{}"}}
)

func TestStreamAndNonStream(t *testing.T) {
	for _, stream := range []bool{true, false} {
		t.Run(fmt.Sprint("stream=", stream), func(t *testing.T) {
			s, url := standIn(t, turn)
			var opts anthropic.Options
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
			// c2 has no arguments: one empty partial_json, read as {}. (The
			// non-streaming input is the API's compact JSON.)
			assert.Equal(t, wantC, contextCalls(resp.Calls))
			assert.Equal(t, "tool_use", resp.FinishReason)
			assert.Equal(t, agent.Usage{PromptTokens: 9, CompletionTokens: 4, TotalTokens: 13, CacheReadInputTokens: ptr(2), CacheCreationInputTokens: ptr(3)}, resp.Usage)
			var native []map[string]any
			require.NoError(t, json.Unmarshal(resp.Native[anthropic.NativeKey], &native))
			require.Len(t, native, 4)
			assert.Equal(t, "thinking", native[0]["type"])
			assert.Equal(t, "The user wants an order.", native[0]["thinking"])
			assert.Equal(t, "anthropic-sig-1", native[0]["signature"])

			reqs := s.Requests()
			require.Len(t, reqs, 1)
			assert.Equal(t, "claude-test", reqs[0].Model)
			assert.Equal(t, stream, reqs[0].Stream)
			assert.Equal(t, anthropic.DefaultMaxTokens, sent(t, reqs[0]).MaxTokens)
			assert.JSONEq(t, `[{"type":"text","text":"sys"}]`, string(sent(t, reqs[0]).System))
			require.Len(t, sent(t, reqs[0]).Messages, 1)
			assert.Equal(t, "hi", sent(t, reqs[0]).Messages[0].Content[0].Text)
		})
	}
}

func ptr(n int) *int { return &n }

// contextCalls returns calls with their arguments as the context writes
// them.
func contextCalls(calls []tool.ModelCall) []tool.ModelCall {
	out := make([]tool.ModelCall, len(calls))
	for i, c := range calls {
		c.Arguments = agent.ContextArguments(c.Arguments)
		out[i] = c
	}
	return out
}

// The tools go out byte for byte as tool/schema exports them, in set
// order.
func TestToolsSentAsExported(t *testing.T) {
	set := testSet(t)
	s, url := standIn(t, agenttest.Turn{Text: "ok"})
	_, err := newModel(url, anthropic.Options{}).Complete(context.Background(), agent.Request{Messages: user, Tools: set})
	require.NoError(t, err)
	want, err := schema.Anthropic(set.Tools(), nil)
	require.NoError(t, err)
	got := s.Requests()[0].Tools
	require.Len(t, got, len(want))
	for i := range want {
		assert.Equal(t, string(want[i]), string(got[i]), "tool %d", i)
	}
}

// A context of per-call pairs goes out as one assistant message per
// response and one user message with all its results; a later user text
// joins the results' message.
func TestMessagesGrouped(t *testing.T) {
	msgs := append(user[:2:2],
		agent.Message{Role: agent.RoleAssistant, Content: "Let me see."},
		agent.Message{Role: agent.RoleAssistant, ToolCalls: []tool.ModelCall{{ID: "a", Name: "f", Arguments: `{"b": 1, "a": 2}`}}},
		agent.Message{Role: agent.RoleTool, Content: `{"ok": true}`, ToolCallID: "a"},
		agent.Message{Role: agent.RoleAssistant, ToolCalls: []tool.ModelCall{{ID: "b", Name: "g", Arguments: `{}`}}},
		agent.Message{Role: agent.RoleTool, Content: `COMPLETED`, ToolCallID: "b"},
		// The next response, marked by its native blocks.
		agent.Message{Role: agent.RoleAssistant, ToolCalls: []tool.ModelCall{{ID: "c", Name: "f", Arguments: `{"x": "é"}`}},
			Native: map[string]json.RawMessage{anthropic.NativeKey: json.RawMessage(`[{"type":"thinking","thinking":"t","signature":"s"},{"type":"tool_use","id":"c","name":"f","input":{"x":"é"}}]`)}},
		agent.Message{Role: agent.RoleTool, Content: `{"n": 1}`, ToolCallID: "c"},
		agent.Message{Role: agent.RoleUser, Content: "and?"},
	)
	sys, out, err := anthropic.Messages(msgs)
	require.NoError(t, err)
	assert.JSONEq(t, `[{"type":"text","text":"sys"}]`, string(sys))
	want := []string{
		`{"role":"user","content":[{"type":"text","text":"hi"}]}`,
		`{"role":"assistant","content":[{"type":"text","text":"Let me see."},{"type":"tool_use","id":"a","name":"f","input":{"b":1,"a":2}},{"type":"tool_use","id":"b","name":"g","input":{}}]}`,
		`{"role":"user","content":[{"type":"tool_result","tool_use_id":"a","content":"{\"ok\": true}"},{"type":"tool_result","tool_use_id":"b","content":"COMPLETED"}]}`,
		`{"role":"assistant","content":[{"type":"thinking","thinking":"t","signature":"s"},{"type":"tool_use","id":"c","name":"f","input":{"x":"é"}}]}`,
		`{"role":"user","content":[{"type":"tool_result","tool_use_id":"c","content":"{\"n\": 1}"},{"type":"text","text":"and?"}]}`,
	}
	require.Len(t, out, len(want))
	for i := range want {
		assert.Equal(t, want[i], string(out[i]), "message %d", i)
	}
	// The stand-in takes it (every tool_use answered in the next message).
	s, url := standIn(t, agenttest.Turn{Text: "ok"})
	_, err = newModel(url, anthropic.Options{}).Complete(context.Background(), agent.Request{Messages: msgs})
	require.NoError(t, err)
	assert.Len(t, s.Requests(), 1)
}

// Thinking blocks come back exactly as received, through the loop; a
// model that dropped them would be answered 400.
func TestThinkingSentBack(t *testing.T) {
	for _, stream := range []bool{true, false} {
		turns := append([]agenttest.Turn{{Thinking: "Look it up first.", Calls: []tool.ModelCall{{ID: "t1", Name: "get_order_details", Arguments: `{"order_id": "#W1"}`}}}},
			agenttest.Turn{Text: "Delivered."})
		s, url := standIn(t, turns...)
		var opts anthropic.Options
		if !stream {
			opts.NoStreaming = true
		}
		loop := &agent.Loop{Model: newModel(url, opts), Tools: testSet(t), Context: agent.NewContext(user[0])}
		_, err := loop.Turn(context.Background(), "hi")
		require.NoError(t, err, "stream=%v", stream)
		reqs := s.Requests()
		require.Len(t, reqs, 2)
		first := sent(t, reqs[1]).Messages[1].Content[0]
		assert.Equal(t, "thinking", first.Type)
		assert.Equal(t, "anthropic-sig-1", first.Signature)

		// Without the native blocks, the stand-in answers 400.
		msgs := loop.Context.Messages()
		for i := range msgs {
			msgs[i].Native = nil
		}
		s.Append(agenttest.Turn{Text: "never"})
		_, err = newModel(url, anthropic.Options{MaxRetries: -1}).Complete(context.Background(), agent.Request{Messages: msgs})
		require.Error(t, err)
		assert.Contains(t, err.Error(), "Expected `thinking` or `redacted_thinking`")
	}
}

func TestFaults(t *testing.T) {
	tests := []struct {
		name     string
		turn     agenttest.Turn
		opts     anthropic.Options
		wantErr  string
		requests int
	}{
		{"429 then answered", agenttest.Turn{Text: "ok", Fault: agenttest.Fault{Fail: []int{429}, RetryAfter: "0"}}, anthropic.Options{}, "", 2},
		{"500 then 529 then answered", agenttest.Turn{Text: "ok", Fault: agenttest.Fault{Fail: []int{500, 529}}}, anthropic.Options{}, "", 3},
		{"500 past the retries", agenttest.Turn{Text: "ok", Fault: agenttest.Fault{Fail: []int{500, 500, 500}}}, anthropic.Options{}, "500", 3},
		{"400 is not retried", agenttest.Turn{Text: "ok", Fault: agenttest.Fault{Fail: []int{400}}}, anthropic.Options{}, "400", 1},
		{"retries bounded by the option", agenttest.Turn{Text: "ok", Fault: agenttest.Fault{Fail: []int{500}}}, anthropic.Options{MaxRetries: -1}, "500", 1},
		{"stream cut mid-call", agenttest.Turn{Calls: []tool.ModelCall{{ID: "c", Name: "f", Arguments: `{"a": "long enough to split"}`}}, Fault: agenttest.Fault{CutAfter: 5}}, anthropic.Options{}, "", 1},
		{"malformed event", agenttest.Turn{Text: "x", Fault: agenttest.Fault{Malformed: true}}, anthropic.Options{}, "stream", 1},
		{"no message_delta", agenttest.Turn{Text: "x", Fault: agenttest.Fault{NoFinish: true}}, anthropic.Options{}, "ended before", 1},
		{"slower than the timeout", agenttest.Turn{Text: "x", Fault: agenttest.Fault{Delay: 2 * time.Second}}, anthropic.Options{Timeout: 50 * time.Millisecond, MaxRetries: -1}, "deadline", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, url := standIn(t, tt.turn)
			resp, err := newModel(url, tt.opts).Complete(context.Background(), agent.Request{Messages: user})
			switch {
			case tt.turn.Fault.CutAfter > 0:
				require.Error(t, err, "a cut stream is an error")
			case tt.wantErr == "":
				require.NoError(t, err)
				assert.Equal(t, tt.turn.Text, resp.Text)
			default:
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.wantErr)
			}
			assert.Len(t, s.Requests(), tt.requests)
		})
	}
}
