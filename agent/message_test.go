package agent_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/agent"
	"github.com/voiceeval/schematools/tool"
)

// json.dumps(json.loads(raw), ensure_ascii=False), as CPython 3.11 writes it.
func TestContextArguments(t *testing.T) {
	tests := []struct{ raw, want string }{
		{"", "{}"}, {"  \n", "{}"},
		{"null", "null"}, {"NaN", "NaN"},
		{`[1,{"b":1,"a":-0.0}]`, `[1, {"b": 1, "a": -0.0}]`},
		{`{"a":1e400}`, `{"a": Infinity}`},
		{`"s"`, `"s"`},
		{`{"a":1,"a":2,"b":3}`, `{"a": 2, "b": 3}`},
		{`{"x":"\u00e9\ud83d\ude00"}`, `{"x": "é😀"}`},
		{`{"x":"\ud83d"}`, `{"x": "\ud83d"}`}, // a lone surrogate stays escaped: no UTF-8 text holds it
		{`{"a":`, `{"a":`},                    // not JSON: kept as the model sent it
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, agent.ContextArguments(tt.raw), "%q", tt.raw)
	}
}

func TestResultContent(t *testing.T) {
	type res struct {
		Status string  `json:"status"`
		Amount float64 `json:"amount"`
		Note   string  `json:"note"`
	}
	tests := []struct {
		in   any
		want string
	}{
		{nil, "COMPLETED"}, {"", "COMPLETED"}, {0, "COMPLETED"}, {false, "COMPLETED"},
		{[]any{}, "COMPLETED"}, {map[string]any{}, "COMPLETED"},
		{"text", `"text"`},
		{map[string]any{"b": 1.0, "a": "<é>"}, `{"a": "<é>", "b": 1.0}`},
		{res{"ok", 2.5, "<&>"}, `{"status": "ok", "amount": 2.5, "note": "<&>"}`},
	}
	for _, tt := range tests {
		got, err := agent.ResultContent(tt.in)
		require.NoError(t, err)
		assert.Equal(t, tt.want, got, "%#v", tt.in)
	}
	_, err := agent.ResultContent(func() {})
	assert.Error(t, err)
}

func TestMessageJSONRoundTrip(t *testing.T) {
	msgs := []agent.Message{
		{Role: agent.RoleSystem, Content: "sys"},
		{Role: agent.RoleUser, Content: ""},
		{Role: agent.RoleAssistant, ToolCalls: []tool.ModelCall{{ID: "c1", Name: "f", Arguments: `{"a": 1}`}}},
		{Role: agent.RoleTool, Content: "IN_PROGRESS", ToolCallID: "c1"},
	}
	for _, m := range msgs {
		b, err := json.Marshal(m)
		require.NoError(t, err)
		var back agent.Message
		require.NoError(t, json.Unmarshal(b, &back))
		assert.Equal(t, m, back, "%s", b)
	}
	b, _ := json.Marshal(msgs[2])
	assert.Equal(t, `{"role":"assistant","tool_calls":[{"id":"c1","function":{"name":"f","arguments":"{\"a\": 1}"},"type":"function"}]}`, string(b),
		"encoding/json compacts; the key order stays pipecat's")
	_, err := agent.Message{Role: "user", Content: "\xff"}.MarshalJSON()
	assert.Error(t, err)
}
