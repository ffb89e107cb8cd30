package rtviws

import (
	"context"

	"github.com/voiceeval/schematools/agent"
	"github.com/voiceeval/schematools/internal/pyvalue"
	"github.com/voiceeval/schematools/rtvi"
)

// NewConversation serves c to rtvi: it returns the rtvi.Conversation
// (get_context_history, update_system_prompt) of a bot whose brain keeps
// its chat context in c. Reset replaces c's messages with the scenario's
// prompt; Messages gives them as pipecat's ordered dicts. The result also
// implements rtvi.InFlight (c's calls in progress), which a Config whose
// InFlight is nil uses. [AgentBrain.Wire] sets it up for its own context.
func NewConversation(c *agent.Context) rtvi.Conversation { return &conversation{c: c} }

// conversation is NewConversation's rtvi.Conversation and rtvi.InFlight.
type conversation struct{ c *agent.Context }

var (
	_ rtvi.Conversation = (*conversation)(nil)
	_ rtvi.InFlight     = (*conversation)(nil)
)

// Reset replaces the context with messages (rtvi's system prompt).
func (v *conversation) Reset(_ context.Context, messages []rtvi.ChatMessage) error {
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
func (v *conversation) Messages(context.Context) ([]any, error) {
	msgs := v.c.Messages()
	out := make([]any, len(msgs))
	for i, m := range msgs {
		out[i] = messageDict(m)
	}
	return out, nil
}

// CallsInProgress reports whether calls are in progress.
func (v *conversation) CallsInProgress() bool { return v.c.CallsInProgress() }

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
