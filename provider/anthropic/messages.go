package anthropic

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/voiceeval/schematools/agent"
	"github.com/voiceeval/schematools/provider/anthropic/internal/blocks"
	"github.com/voiceeval/schematools/provider/internal/turns"
	"github.com/voiceeval/schematools/tool"
)

// wireMessage is one Messages API message.
type wireMessage struct {
	Role    string            `json:"role"`
	Content []json.RawMessage `json:"content"`
}

// messagesOf renders a pipecat-shaped context as the Messages API takes it:
// the leading system messages as the system blocks (nil when there are
// none), and the messages.
//
//   - A response is the assistant's text message and the per-call
//     assistant/tool pairs after it; a pair whose assistant message
//     carries Native of this adapter starts a response of its own, other
//     consecutive pairs are one response (parallel calls). A response is
//     one assistant message — the content blocks as received (thinking
//     with its signature first) when Native holds them and its tool_use
//     ids are the context's, else its thinking blocks, the text and a
//     tool_use per call — then one user message with every tool_result.
//   - User text, and system messages after the first other message, are
//     user text blocks, merged into the user message before them; empty
//     text is left out (the API refuses empty text blocks).
func messagesOf(msgs []agent.Message) (json.RawMessage, []json.RawMessage, error) {
	var system []json.RawMessage
	i := 0
	for ; i < len(msgs) && msgs[i].Role == agent.RoleSystem; i++ {
		if msgs[i].Content != "" {
			system = append(system, textBlock(msgs[i].Content))
		}
	}
	var out []wireMessage
	add := func(role string, content ...json.RawMessage) {
		if len(content) == 0 {
			return
		}
		if n := len(out); n > 0 && out[n-1].Role == role {
			out[n-1].Content = append(out[n-1].Content, content...)
			return
		}
		out = append(out, wireMessage{Role: role, Content: content})
	}
	for _, st := range turns.Regroup(msgs[i:], nativeKey) {
		if !st.Response {
			m := st.Message
			if m.Role == agent.RoleTool {
				// A result without its call: its text, as the user's.
				add("user", textBlock("Tool result ("+m.ToolCallID+"): "+m.Content))
			} else if m.Content != "" {
				add("user", textBlock(m.Content))
			}
			continue
		}
		content, err := assistantContent(st.Native, st.Text, st.Calls)
		if err != nil {
			return nil, nil, fmt.Errorf("anthropic: message %d: %w", i+st.Start, err)
		}
		add("assistant", content...)
		results := make([]json.RawMessage, 0, len(st.Results))
		for _, r := range st.Results {
			results = append(results, toolResult(r))
		}
		add("user", results...)
	}
	raw := make([]json.RawMessage, len(out))
	for k, w := range out {
		b, err := json.Marshal(w)
		if err != nil {
			return nil, nil, fmt.Errorf("anthropic: message: %w", err)
		}
		raw[k] = b
	}
	var sys json.RawMessage
	if len(system) > 0 {
		sys, _ = json.Marshal(system)
	}
	return sys, raw, nil
}

// assistantContent is one response's blocks: native as it is when its
// tool_use ids are the calls', else native's thinking blocks, the text
// and the calls.
func assistantContent(native json.RawMessage, text string, calls []tool.ModelCall) ([]json.RawMessage, error) {
	var nb []json.RawMessage
	if len(native) > 0 {
		if err := json.Unmarshal(native, &nb); err != nil {
			return nil, fmt.Errorf("native content: %w", err)
		}
	}
	var ids []string
	var kept []json.RawMessage // thinking blocks
	for _, b := range nb {
		var h struct{ Type, ID string }
		if err := json.Unmarshal(b, &h); err != nil {
			return nil, fmt.Errorf("native content: %w", err)
		}
		switch h.Type {
		case "tool_use":
			ids = append(ids, h.ID)
		case "thinking", "redacted_thinking":
			kept = append(kept, b)
		}
	}
	want := make([]string, len(calls))
	for k, c := range calls {
		want[k] = c.ID
	}
	if len(nb) > 0 && slices.Equal(ids, want) {
		return nb, nil
	}
	out := kept
	if text != "" {
		out = append(out, textBlock(text))
	}
	for _, c := range calls {
		b, err := json.Marshal(struct {
			Type  string          `json:"type"`
			ID    string          `json:"id"`
			Name  string          `json:"name"`
			Input json.RawMessage `json:"input"`
		}{"tool_use", c.ID, c.Name, blocks.InputObject(c.Arguments)})
		if err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	return out, nil
}

func textBlock(s string) json.RawMessage {
	b, _ := json.Marshal(struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}{"text", s})
	return b
}

// toolResult is a tool message as a tool_result block, its content the
// result's JSON text as the context holds it.
func toolResult(m agent.Message) json.RawMessage {
	b, _ := json.Marshal(struct {
		Type      string `json:"type"`
		ToolUseID string `json:"tool_use_id"`
		Content   string `json:"content"`
	}{"tool_result", m.ToolCallID, m.Content})
	return b
}
