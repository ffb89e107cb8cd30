// Package turns regroups a pipecat-shaped agent context into the turns of
// a provider that takes one assistant message per response (Anthropic's
// Messages API, Gemini's contents).
package turns

import (
	"encoding/json"

	"github.com/voiceeval/schematools/agent"
	"github.com/voiceeval/schematools/tool"
)

// Group is one element of a context regrouped by [Regroup]: either a
// single message that is not part of a response (Response false: a user,
// system or orphaned tool message, in Message), or one model response
// (Response true) rebuilt from pipecat's per-call pairs.
type Group struct {
	Response bool
	// Message is the lone message when Response is false.
	Message agent.Message
	// Start is the index in the context of the response's first message.
	Start int
	// Native is that first message's Native[key] (nil when absent).
	Native json.RawMessage
	// Text is the response's text message content ("" when it had none).
	Text string
	// Calls are the response's tool calls in order; Results the tool
	// messages that followed them, in order.
	Calls   []tool.ModelCall
	Results []agent.Message
}

// Regroup regroups a pipecat-shaped context into what a provider that
// takes one assistant turn per response needs: a response is an assistant
// text message and the per-call assistant/tool pairs after it; a pair whose
// assistant message carries Native[key] starts a response of its own (the
// provider answered it separately), other consecutive pairs are one
// response (parallel calls). Every other message is a Group of its own.
func Regroup(msgs []agent.Message, key string) []Group {
	var out []Group
	for i := 0; i < len(msgs); {
		m := msgs[i]
		if m.Role != agent.RoleAssistant {
			out = append(out, Group{Message: m, Start: i})
			i++
			continue
		}
		s := Group{Response: true, Start: i, Native: m.Native[key]}
		if len(m.ToolCalls) == 0 {
			s.Text = m.Content
			i++
		}
		for i < len(msgs) && msgs[i].Role == agent.RoleAssistant && len(msgs[i].ToolCalls) > 0 && (i == s.Start || msgs[i].Native[key] == nil) {
			s.Calls = append(s.Calls, msgs[i].ToolCalls...)
			i++
			for i < len(msgs) && msgs[i].Role == agent.RoleTool {
				s.Results = append(s.Results, msgs[i])
				i++
			}
		}
		out = append(out, s)
	}
	return out
}
