package agent_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/agent"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

func TestTextCalls(t *testing.T) {
	names := []string{"FindUserIdByNameZipTool", "GetUserDetailsTool"}
	for _, tc := range []struct {
		name, text string
		want       []tool.ModelCall
	}{
		{"bare", `{"name": "GetUserDetailsTool", "arguments": {"user_id": "sara_doe_496"}}`,
			[]tool.ModelCall{{Name: "GetUserDetailsTool", Arguments: `{"user_id": "sara_doe_496"}`}}},
		// What the 0.5B model wrote in tau2_retail__0.
		{"fenced", "```json\n{\n  \"name\": \"FindUserIdByNameZipTool\",\n  \"arguments\": {\n    \"first_name\": \"John\"\n  }\n}\n```",
			[]tool.ModelCall{{Name: "FindUserIdByNameZipTool", Arguments: "{\n    \"first_name\": \"John\"\n  }"}}},
		{"a list", `[{"name": "GetUserDetailsTool", "arguments": {}}, {"name": "FindUserIdByNameZipTool", "arguments": {"zip": "1"}}]`,
			[]tool.ModelCall{{Name: "GetUserDetailsTool", Arguments: `{}`}, {Name: "FindUserIdByNameZipTool", Arguments: `{"zip": "1"}`}}},
		{"text around it", `Sure: {"name": "GetUserDetailsTool", "arguments": {}}`, nil},
		{"an unknown tool", `{"name": "DropTablesTool", "arguments": {}}`, nil},
		{"other keys", `{"name": "GetUserDetailsTool", "arguments": {}, "why": "x"}`, nil},
		{"arguments not an object", `{"name": "GetUserDetailsTool", "arguments": "user_id=1"}`, nil},
		{"two values", `{"name": "GetUserDetailsTool", "arguments": {}} {}`, nil},
		{"plain text", "Hello! How can I help?", nil},
		{"an open fence", "```json\n{\"name\": \"GetUserDetailsTool\", \"arguments\": {}}", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := agent.TextCalls(tc.text, names)
			assert.Equal(t, tc.want != nil, ok)
			assert.Equal(t, tc.want, got)
		})
	}
}

// The wrapper makes such text calls, with ids; a response with real calls
// or other text is left alone.
func TestRepairTextCalls(t *testing.T) {
	set, err := tool.NewSet(tool.Harness(state.New(), nil)...)
	require.NoError(t, err)
	answers := []agent.Response{
		{Text: `{"name": "EndConversationTool", "arguments": {}}`, FinishReason: "stop", Usage: agent.Usage{PromptTokens: 5}},
		{Text: "Hello.", FinishReason: "stop"},
		{Text: `{"name": "EndConversationTool", "arguments": {}}`, FinishReason: "stop"},
	}
	m := agent.RepairTextCalls(agent.ModelFunc(func(_ context.Context, _ agent.Request) (agent.Response, error) {
		r := answers[0]
		answers = answers[1:]
		return r, nil
	}))
	r, err := m.Complete(context.Background(), agent.Request{Tools: set})
	require.NoError(t, err)
	assert.Equal(t, agent.Response{Calls: []tool.ModelCall{{ID: "text-call-1", Name: "EndConversationTool", Arguments: "{}"}}, FinishReason: "tool_calls", Usage: agent.Usage{PromptTokens: 5}}, r)
	r, err = m.Complete(context.Background(), agent.Request{Tools: set})
	require.NoError(t, err)
	assert.Equal(t, "Hello.", r.Text)
	// Asked for words, the model's text stays text.
	r, err = m.Complete(context.Background(), agent.Request{Tools: set, NoCalls: true})
	require.NoError(t, err)
	assert.Equal(t, agent.Response{Text: `{"name": "EndConversationTool", "arguments": {}}`, FinishReason: "stop"}, r)
}

// TextCalls never panics, and what it reads as calls names offered tools
// with object arguments that are valid JSON.
func FuzzTextCalls(f *testing.F) {
	for _, s := range []string{`{"name": "A", "arguments": {"x": 1}}`, "```json\n[{\"name\": \"B\", \"arguments\": {}}]\n```", `[]`, `{"name": "A"}`, "```"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		calls, ok := agent.TextCalls(text, []string{"A", "B"})
		if !ok {
			if calls != nil {
				t.Fatalf("calls without ok: %v", calls)
			}
			return
		}
		for _, c := range calls {
			var args map[string]any
			if (c.Name != "A" && c.Name != "B") || json.Unmarshal([]byte(c.Arguments), &args) != nil {
				t.Fatalf("call %+v from %q", c, text)
			}
		}
	})
}
