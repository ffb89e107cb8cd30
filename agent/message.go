package agent

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/voiceeval/schematools/internal/pyjson"
	"github.com/voiceeval/schematools/internal/pyvalue"
	"github.com/voiceeval/schematools/tool"
)

// Roles of the context's messages.
const (
	RoleSystem    = "system"
	RoleUser      = "user"
	RoleAssistant = "assistant"
	RoleTool      = "tool"
)

// Contents pipecat writes in a tool message before, or instead of, a
// result (llm_response_universal.py: "IN_PROGRESS" in
// _handle_function_call_in_progress, "COMPLETED" for a falsy result in
// _handle_function_call_finished, "CANCELLED" in
// _handle_function_call_cancel).
const (
	contentInProgress = "IN_PROGRESS"
	contentCompleted  = "COMPLETED"
	contentCancelled  = "CANCELLED"
)

// Message is one message of the chat context, in the OpenAI shape
// pipecat's LLMContext holds. Which keys it has follows from its fields:
// ToolCalls set: {"role", "tool_calls"} (pipecat writes no content there);
// ToolCallID set: {"role", "content", "tool_call_id"}; otherwise
// {"role", "content"}.
type Message struct {
	Role    string
	Content string // text; for a tool message the result's JSON text
	// ToolCalls are an assistant message's calls (pipecat writes one per
	// message), their Arguments the JSON text the context shows: the
	// model's arguments as json.dumps(json.loads(text),
	// ensure_ascii=False) writes them ([ContextArguments]).
	ToolCalls  []tool.ModelCall
	ToolCallID string // a tool message's call id
	// Native is provider-native data of the response this assistant
	// message starts (thinking blocks with their signatures, Gemini's
	// thoughtSignature parts), keyed by provider ("anthropic", "gemini"),
	// which the provider's adapter sends back exactly as received. It is
	// opaque to the context: never rendered by MarshalJSON or in
	// get_context_history, and not read by UnmarshalJSON.
	Native map[string]json.RawMessage
}

// MarshalJSON writes m as Python's json.dumps(message, ensure_ascii=False)
// writes the dict pipecat builds for it: pipecat's key order, ", " and
// ": " separators, non-ASCII text as it is.
func (m Message) MarshalJSON() ([]byte, error) { return m.appendJSON(nil) }

// appendJSON appends the text [Message.MarshalJSON] returns.
func (m Message) appendJSON(dst []byte) ([]byte, error) {
	var err error
	str := func(s string) {
		if err == nil {
			dst, err = pyjson.AppendStringStyle(dst, s, pyjson.Unicode)
		}
	}
	dst = append(dst, `{"role": `...)
	str(m.Role)
	switch {
	case len(m.ToolCalls) > 0:
		// _handle_function_call_in_progress: {"role", "tool_calls":
		// [{"id", "function": {"name", "arguments"}, "type"}]}.
		dst = append(dst, `, "tool_calls": [`...)
		for i, c := range m.ToolCalls {
			if i > 0 {
				dst = append(dst, ", "...)
			}
			dst = append(dst, `{"id": `...)
			str(c.ID)
			dst = append(dst, `, "function": {"name": `...)
			str(c.Name)
			dst = append(dst, `, "arguments": `...)
			str(c.Arguments)
			dst = append(dst, `}, "type": "function"}`...)
		}
		dst = append(dst, "]}"...)
	case m.Role == RoleTool || m.ToolCallID != "":
		dst = append(dst, `, "content": `...)
		str(m.Content)
		dst = append(dst, `, "tool_call_id": `...)
		str(m.ToolCallID)
		dst = append(dst, '}')
	default:
		dst = append(dst, `, "content": `...)
		str(m.Content)
		dst = append(dst, '}')
	}
	if err != nil {
		return nil, fmt.Errorf("agent: message: %w", err)
	}
	return dst, nil
}

// UnmarshalJSON reads a message in the shape MarshalJSON writes (or any
// OpenAI chat message with string content).
func (m *Message) UnmarshalJSON(data []byte) error {
	var w struct {
		Role      string `json:"role"`
		Content   string `json:"content"`
		ToolCalls []struct {
			ID       string `json:"id"`
			Function struct {
				Name      string `json:"name"`
				Arguments string `json:"arguments"`
			} `json:"function"`
		} `json:"tool_calls"`
		ToolCallID string `json:"tool_call_id"`
	}
	if err := json.Unmarshal(data, &w); err != nil {
		return fmt.Errorf("agent: message: %w", err)
	}
	*m = Message{Role: w.Role, Content: w.Content, ToolCallID: w.ToolCallID}
	for _, c := range w.ToolCalls {
		m.ToolCalls = append(m.ToolCalls, tool.ModelCall{ID: c.ID, Name: c.Function.Name, Arguments: c.Function.Arguments})
	}
	return nil
}

// ContextArguments returns the arguments text the context shows for a
// model's raw arguments: json.dumps(json.loads(raw), ensure_ascii=False),
// the model's key order kept (docs/decisions.md "Argument key order":
// tool.DecodeArgs builds a map, which loses it, so this decodes the text
// again in order). Empty or blank text is "{}", as pipecat's OpenAI
// service reads it (base_llm.py: `arguments or "{}"`); text json.loads
// refuses is returned as it is (pipecat drops such a call; the loop
// answers it with a validation result instead).
func ContextArguments(raw string) string {
	if out, ok := appendPlainArguments(nil, raw); ok {
		return string(out)
	}
	return contextArgumentsSlow(raw)
}

// contextArgumentsSlow is [ContextArguments] through the full,
// order-keeping decode.
func contextArgumentsSlow(raw string) string {
	b := bytes.TrimSpace([]byte(raw))
	if len(b) == 0 {
		return "{}"
	}
	v, err := pyvalue.Loads(b)
	if err != nil {
		return raw
	}
	out, err := pyvalue.AppendJSON(nil, v, pyjson.Unicode, false)
	if err != nil {
		return raw
	}
	return string(out)
}

// ResultContent returns the content pipecat writes for a tool's result
// (_handle_function_call_finished): "COMPLETED" for a falsy result (None,
// False, zero, "", an empty list or dict), otherwise
// json.dumps(result, ensure_ascii=False). JSON trees (maps with their keys
// sorted, as a Go map has no order) are written directly, float64 as
// Python's float repr; other values (a tool's result structs) go through
// encoding/json first and keep their field order.
func ResultContent(result any) (string, error) {
	if !truthy(result) {
		return contentCompleted, nil
	}
	out, err := pyvalue.AppendJSON(nil, result, pyjson.Unicode, false)
	if err == nil {
		return string(out), nil
	}
	if !errors.Is(err, pyjson.ErrUnsupported) {
		return "", fmt.Errorf("agent: result: %w", err)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(result); err != nil {
		return "", fmt.Errorf("agent: result: %w", err)
	}
	v, err := pyvalue.Loads(buf.Bytes())
	if err != nil {
		return "", fmt.Errorf("agent: result: %w", err)
	}
	if !truthy(v) {
		return contentCompleted, nil
	}
	out, err = pyvalue.AppendJSON(nil, v, pyjson.Unicode, false)
	if err != nil {
		return "", fmt.Errorf("agent: result: %w", err)
	}
	return string(out), nil
}

// truthy is Python's bool() of a result; Go values pyvalue does not know
// (structs, pointers) are true unless nil.
func truthy(v any) bool {
	if v == nil {
		return false
	}
	return pyvalue.Truthy(v)
}
