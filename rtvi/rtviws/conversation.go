package rtviws

import (
	"context"

	"github.com/voiceeval/schematools/agent"
	"github.com/voiceeval/schematools/internal/pyvalue"
	"github.com/voiceeval/schematools/rtvi"
)

// Conversation serves an [agent.Context] to rtvi: it is the
// rtvi.Conversation (get_context_history, update_system_prompt) and
// rtvi.InFlight of a bot whose brain keeps its chat context in one.
// [AgentBrain.Wire] sets it; a bot of its own makes one with
// [NewConversation].
type Conversation struct{ c *agent.Context }

// NewConversation returns c as an rtvi.Conversation and rtvi.InFlight.
func NewConversation(c *agent.Context) *Conversation { return &Conversation{c: c} }

var (
	_ rtvi.Conversation = (*Conversation)(nil)
	_ rtvi.InFlight     = (*Conversation)(nil)
)

// Reset replaces the context with messages (rtvi's system prompt).
func (v *Conversation) Reset(_ context.Context, messages []rtvi.ChatMessage) error {
	msgs := make([]agent.Message, len(messages))
	for i, m := range messages {
		msgs[i] = agent.Message{Role: m.Role, Content: m.Content}
	}
	v.c.Replace(msgs...)
	return nil
}

// Messages returns the messages as ordered dicts, each with pipecat's
// keys in pipecat's order, which rtvi writes as Python's str() of the
// list.
func (v *Conversation) Messages(context.Context) ([]any, error) {
	msgs := v.c.Messages()
	out := make([]any, len(msgs))
	for i, m := range msgs {
		out[i] = messageDict(m)
	}
	return out, nil
}

// CallsInProgress reports whether calls are in progress.
func (v *Conversation) CallsInProgress() bool { return v.c.CallsInProgress() }

// messageDict returns m as the dict pipecat holds.
func messageDict(m agent.Message) pyvalue.Dict {
	switch {
	case len(m.ToolCalls) > 0:
		calls := make([]any, len(m.ToolCalls))
		for i, c := range m.ToolCalls {
			calls[i] = pyvalue.Dict{
				{Key: "id", Value: c.ID},
				{Key: "function", Value: pyvalue.Dict{{Key: "name", Value: c.Name}, {Key: "arguments", Value: c.Arguments}}},
				{Key: "type", Value: "function"},
			}
		}
		return pyvalue.Dict{{Key: "role", Value: m.Role}, {Key: "tool_calls", Value: calls}}
	case m.Role == agent.RoleTool || m.ToolCallID != "":
		return pyvalue.Dict{{Key: "role", Value: m.Role}, {Key: "content", Value: m.Content}, {Key: "tool_call_id", Value: m.ToolCallID}}
	}
	return pyvalue.Dict{{Key: "role", Value: m.Role}, {Key: "content", Value: m.Content}}
}
