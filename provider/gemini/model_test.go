package gemini_test

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
	"google.golang.org/genai"

	"github.com/voiceeval/schematools/agent"
	"github.com/voiceeval/schematools/agent/agenttest"
	"github.com/voiceeval/schematools/provider/gemini"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
	"github.com/voiceeval/schematools/tool/schema"
)

type orderParams struct {
	OrderID string         `json:"order_id" jsonschema_description:"The order id, such as '#W0000000'." validate:"required"`
	Limit   int            `json:"limit,omitempty" validate:"omitempty,min=1"`
	Extra   map[string]any `json:"extra,omitempty"`
}

func testSet(t testing.TB) *tool.Set {
	t.Helper()
	tl, err := tool.New("get_order_details", "Get an order <by id> & more.", func(_ context.Context, _ *state.Shared, p orderParams) (any, error) {
		return map[string]any{"order_id": p.OrderID, "status": "delivered", "extra": p.Extra}, nil
	}, nil)
	require.NoError(t, err)
	s, err := tool.NewSet(append([]tool.Tool{tl}, tool.Harness(state.New(), nil)...)...)
	require.NoError(t, err)
	return s
}

func standIn(t *testing.T, turns ...agenttest.Turn) (*agenttest.Server, string) {
	t.Helper()
	s := agenttest.New(turns...)
	s.Dialect = "gemini"
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	return s, srv.URL
}

func newModel(t testing.TB, url string, opts gemini.Options) *gemini.Model {
	t.Helper()
	opts.BaseURL, opts.APIKey, opts.RetryDelay = url, "test-key", time.Millisecond
	m, err := gemini.New(context.Background(), "gemini-test", &opts)
	require.NoError(t, err)
	return m
}

var (
	user = []agent.Message{{Role: agent.RoleSystem, Content: "sys"}, {Role: agent.RoleUser, Content: "hi"}}
	turn = agenttest.Turn{Text: "Looking — ünï.", Thinking: "The user wants an order.", Calls: []tool.ModelCall{
		{ID: "c1", Name: "get_order_details", Arguments: `{"order_id": "#W1", "extra": "{\"k\": [1, 2]}"}`},
		{ID: "c2", Name: "EndConversationTool", Arguments: "{}"}},
		Usage: &agenttest.Usage{PromptTokens: 9, CompletionTokens: 4, CachedTokens: 2, ReasoningTokens: 5}, Piece: 3}
	// Ids made up (the Gemini API sends none); extra, declared to Gemini
	// as JSON text, decoded by GeminiArguments.
	wantC = []tool.ModelCall{{ID: "gemini-call-2-1", Name: "get_order_details", Arguments: `{"extra":{"k":[1,2]},"order_id":"#W1"}`}, {ID: "gemini-call-2-2", Name: "EndConversationTool", Arguments: "{}"}}
)

func ptr(n int) *int { return &n }

func TestStreamAndNonStream(t *testing.T) {
	for _, stream := range []bool{true, false} {
		t.Run(fmt.Sprint("stream=", stream), func(t *testing.T) {
			s, url := standIn(t, turn)
			var opts gemini.Options
			if !stream {
				opts.NoStreaming = true
			}
			var deltas []string
			resp, err := newModel(t, url, opts).Complete(context.Background(), agent.Request{Messages: user, Tools: testSet(t),
				OnText: func(d string) { deltas = append(deltas, d) }})
			require.NoError(t, err)
			assert.Equal(t, "Looking — ünï.", resp.Text, "the thought is not text")
			assert.Equal(t, "Looking — ünï.", strings.Join(deltas, ""))
			if stream {
				assert.Greater(t, len(deltas), 3, "text deltas as they stream")
			}
			assert.Equal(t, wantC, resp.Calls)
			assert.Equal(t, "STOP", resp.FinishReason)
			assert.Equal(t, agent.Usage{PromptTokens: 9, CompletionTokens: 4, TotalTokens: 18, CacheReadInputTokens: ptr(2), ReasoningTokens: ptr(5)}, resp.Usage)
			var native []*genai.Part
			require.NoError(t, json.Unmarshal(resp.Native[gemini.NativeKey], &native))
			assert.True(t, native[0].Thought)
			var sigs int
			for _, p := range native {
				if len(p.ThoughtSignature) > 0 {
					sigs++
					assert.NotNil(t, p.FunctionCall, "the signature is on the first call")
				}
			}
			assert.Equal(t, 1, sigs)

			reqs := s.Requests()
			require.Len(t, reqs, 1)
			assert.Equal(t, "gemini-test", reqs[0].Model)
			assert.Equal(t, stream, reqs[0].Stream)
			assert.JSONEq(t, `{"parts":[{"text":"sys"}],"role":"user"}`, string(sent(t, reqs[0]).SystemInstruction))
			require.Len(t, sent(t, reqs[0]).Contents, 1)
			assert.Equal(t, "hi", sent(t, reqs[0]).Contents[0].Parts[0].Text)
		})
	}
}

// The declarations go out as tool/schema.GeminiGo exports them, in set
// order, property order kept as propertyOrdering.
func TestToolsSentAsExported(t *testing.T) {
	set := testSet(t)
	s, url := standIn(t, agenttest.Turn{Text: "ok"})
	_, err := newModel(t, url, gemini.Options{}).Complete(context.Background(), agent.Request{Messages: user, Tools: set})
	require.NoError(t, err)
	want, _, err := schema.GeminiGo(set.Tools())
	require.NoError(t, err)
	got := s.Requests()[0].Tools
	require.Len(t, got, 1)
	assert.JSONEq(t, string(want), string(got[0]))
	assert.Contains(t, string(got[0]), `"propertyOrdering":["order_id","limit","extra"]`)
}

// Per-call pairs go out as one model content per response and one user
// content with every functionResponse; made-up ids stay home; results
// that are not objects are wrapped.
func TestContentsGrouped(t *testing.T) {
	msgs := append(user[:2:2],
		agent.Message{Role: agent.RoleAssistant, Content: "Let me see."},
		agent.Message{Role: agent.RoleAssistant, ToolCalls: []tool.ModelCall{{ID: "gemini-call-2-1", Name: "f", Arguments: `{"b": 1}`}}},
		agent.Message{Role: agent.RoleTool, Content: `{"ok": true}`, ToolCallID: "gemini-call-2-1"},
		agent.Message{Role: agent.RoleAssistant, ToolCalls: []tool.ModelCall{{ID: "vertex-id", Name: "g", Arguments: `{}`}}},
		agent.Message{Role: agent.RoleTool, Content: `COMPLETED`, ToolCallID: "vertex-id"},
		agent.Message{Role: agent.RoleUser, Content: "and?"},
	)
	sys, out, err := gemini.Contents(msgs)
	require.NoError(t, err)
	assert.Equal(t, "sys", sys.Parts[0].Text)
	b, err := json.Marshal(out)
	require.NoError(t, err)
	assert.JSONEq(t, `[
		{"role":"user","parts":[{"text":"hi"}]},
		{"role":"model","parts":[{"text":"Let me see."},{"functionCall":{"name":"f","args":{"b":1}}},{"functionCall":{"id":"vertex-id","name":"g"}}]},
		{"role":"user","parts":[{"functionResponse":{"name":"f","response":{"ok":true}}},{"functionResponse":{"id":"vertex-id","name":"g","response":{"output":"COMPLETED"}}},{"text":"and?"}]}
	]`, string(b))
}

// Thought signatures come back as received, through the loop; a context
// without them gets Gemini's 400.
func TestSignaturesSentBack(t *testing.T) {
	for _, stream := range []bool{true, false} {
		turns := []agenttest.Turn{
			{Thinking: "Look it up first.", Calls: []tool.ModelCall{{ID: "x", Name: "get_order_details", Arguments: `{"order_id": "#W1"}`}, {ID: "y", Name: "get_order_details", Arguments: `{"order_id": "#W2"}`}}},
			{Text: "Delivered."},
		}
		s, url := standIn(t, turns...)
		var opts gemini.Options
		if !stream {
			opts.NoStreaming = true
		}
		loop := &agent.Loop{Model: newModel(t, url, opts), Tools: testSet(t), Context: agent.NewContext(user[0])}
		_, err := loop.Turn(context.Background(), "hi")
		require.NoError(t, err, "stream=%v", stream)
		reqs := s.Requests()
		require.Len(t, reqs, 2)
		model := sent(t, reqs[1]).Contents[1]
		assert.Equal(t, "model", model.Role)
		assert.True(t, model.Parts[0].Thought)
		assert.NotEmpty(t, model.Parts[1].ThoughtSignature)
		assert.Len(t, sent(t, reqs[1]).Contents[2].Parts, 2, "both results in one content")

		msgs := loop.Context.Messages()
		for i := range msgs {
			msgs[i].Native = nil
		}
		s.Append(agenttest.Turn{Text: "never"})
		_, err = newModel(t, url, gemini.Options{MaxRetries: -1}).Complete(context.Background(), agent.Request{Messages: msgs})
		require.Error(t, err)
		assert.Contains(t, err.Error(), "Function call is missing a thought_signature")
	}
}

// An id the API sends is kept, and sent back.
func TestCallIDsKept(t *testing.T) {
	s, url := standIn(t, agenttest.Turn{Calls: []tool.ModelCall{{ID: "v1", Name: "get_order_details", Arguments: `{"order_id": "#W1"}`}}, Quirks: agenttest.Quirks{CallIDs: true}}, agenttest.Turn{Text: "ok"})
	loop := &agent.Loop{Model: newModel(t, url, gemini.Options{}), Tools: testSet(t), Context: agent.NewContext(user[0])}
	res, err := loop.Turn(context.Background(), "hi")
	require.NoError(t, err)
	assert.Equal(t, "v1", res.Calls[0].ID)
	c := sent(t, s.Requests()[1]).Contents
	assert.Equal(t, "v1", c[1].Parts[0].FunctionCall.ID)
	assert.Equal(t, "v1", c[2].Parts[0].FunctionResponse.ID)
}

func TestFaults(t *testing.T) {
	tests := []struct {
		name     string
		turn     agenttest.Turn
		opts     gemini.Options
		wantErr  string
		requests int
	}{
		{"429 then answered", agenttest.Turn{Text: "ok", Fault: agenttest.Fault{Fail: []int{429}}}, gemini.Options{}, "", 2},
		{"500 then 503 then answered", agenttest.Turn{Text: "ok", Fault: agenttest.Fault{Fail: []int{500, 503}}}, gemini.Options{}, "", 3},
		{"500 past the retries", agenttest.Turn{Text: "ok", Fault: agenttest.Fault{Fail: []int{500, 500, 500}}}, gemini.Options{}, "500", 3},
		{"400 is not retried", agenttest.Turn{Text: "ok", Fault: agenttest.Fault{Fail: []int{400}}}, gemini.Options{}, "400", 1},
		{"retries bounded by the option", agenttest.Turn{Text: "ok", Fault: agenttest.Fault{Fail: []int{500}}}, gemini.Options{MaxRetries: -1}, "500", 1},
		{"stream cut", agenttest.Turn{Text: "long enough to split in pieces", Fault: agenttest.Fault{CutAfter: 2}}, gemini.Options{}, "", 1},
		{"malformed chunk", agenttest.Turn{Text: "x", Fault: agenttest.Fault{Malformed: true}}, gemini.Options{}, "unmarshal", 1},
		{"no finishReason", agenttest.Turn{Text: "x", Fault: agenttest.Fault{NoFinish: true}}, gemini.Options{}, "ended before", 1},
		{"slower than the timeout", agenttest.Turn{Text: "x", Fault: agenttest.Fault{Delay: 2 * time.Second}}, gemini.Options{Timeout: 50 * time.Millisecond, MaxRetries: -1}, "deadline", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, url := standIn(t, tt.turn)
			resp, err := newModel(t, url, tt.opts).Complete(context.Background(), agent.Request{Messages: user})
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
