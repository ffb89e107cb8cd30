package agent_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/voiceeval/schematools/agent"
	"github.com/voiceeval/schematools/rtvi"
	"github.com/voiceeval/schematools/rtvi/rtviws"
	"github.com/voiceeval/schematools/tool"
)

// roundModel answers a call, then text, then a call, …: one tool round
// per two model calls.
type roundModel struct{ n int }

var roundCall = []tool.ModelCall{{ID: "call_1", Name: "echo", Arguments: `{"order_id": "#W0000001"}`}}

func (m *roundModel) Complete(context.Context, agent.Request) (agent.Response, error) {
	m.n++
	if m.n%2 == 1 {
		return agent.Response{Calls: roundCall, FinishReason: "tool_calls"}, nil
	}
	return agent.Response{Text: "Your order is on its way.", FinishReason: "stop"}, nil
}

// BenchmarkToolRound is the loop's overhead for one tool round: a model
// call with one call, the call on the live path, its result written, and
// the model call that answers with text (the model and the tool cost
// nothing).
func BenchmarkToolRound(b *testing.B) {
	conv := agent.NewContext()
	l := &agent.Loop{Model: &roundModel{}, Tools: newSet(b, echoTool()), Context: conv}
	sys := agent.Message{Role: agent.RoleSystem, Content: "You are a retail agent."}
	user := agent.Message{Role: agent.RoleUser, Content: "Where is my order?"}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		conv.Replace(sys, user)
		if _, err := l.Run(ctx); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkContextHistory is get_context_history on a 200-message
// context: rtvi's dispatcher asking the Conversation and writing the
// Python literal.
func BenchmarkContextHistory(b *testing.B) {
	conv := agent.NewContext(agent.Message{Role: agent.RoleSystem, Content: strings.Repeat("You are a retail agent. ", 40)})
	for i := 0; conv.Len() < 200; i++ {
		conv.Append(agent.Message{Role: agent.RoleUser, Content: fmt.Sprintf("Please check order #W%07d — thank you.", i)})
		conv.Append(agent.Message{Role: agent.RoleAssistant, Content: "Let me check that for you."})
		conv.Append(agent.Message{Role: agent.RoleAssistant, ToolCalls: []tool.ModelCall{{ID: fmt.Sprintf("call_%d", i), Name: "get_order_details", Arguments: fmt.Sprintf(`{"order_id": "#W%07d"}`, i)}}})
		conv.Append(agent.Message{Role: agent.RoleTool, ToolCallID: fmt.Sprintf("call_%d", i),
			Content: fmt.Sprintf(`{"order_id": "#W%07d", "status": "delivered", "items": [{"name": "Desk Lamp", "price": 149.99}], "address": {"city": "Zürich"}}`, i)})
	}
	d := rtvi.NewDispatcher(rtvi.Config{Conversation: rtviws.NewConversation(conv)})
	raw, _ := json.Marshal(map[string]any{"label": "rtvi-ai", "type": "client-message", "id": "h",
		"data": map[string]any{"t": "get_context_history"}})
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := d.Handle(ctx, raw); err != nil {
			b.Fatal(err)
		}
	}
}
