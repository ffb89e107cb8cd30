package agenttest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// Request is a decoded Chat Completions request: the fields the stand-in
// reads, and the body as sent.
type Request struct {
	// Dialect is the API the request was made to: "openai" (POST
	// /v1/chat/completions), "anthropic" (POST /v1/messages) or "gemini"
	// (POST /v1beta/models/{model}:generateContent and
	// :streamGenerateContent).
	Dialect      string
	Model        string
	Messages     []Message
	Tools        []json.RawMessage // each tool definition as the client sent its bytes
	Stream       bool
	IncludeUsage bool            // stream_options.include_usage
	ToolChoice   json.RawMessage // as sent; nil when absent
	// Body is the request body as sent; Messages holds only Chat
	// Completions messages, so a test of the Anthropic or Gemini dialect
	// reads their messages, contents and system prompt from Body.
	Body []byte
	// anthropic and gemini hold what the stand-in reads of those
	// dialects' requests.
	anthropic *anthropicRequest
	gemini    *geminiRequest
}

// The dialects the stand-in speaks.
const (
	dialectOpenAI    = "openai"    // POST /v1/chat/completions
	dialectAnthropic = "anthropic" // POST /v1/messages
	dialectGemini    = "gemini"    // POST /v1beta/models/{model}:generateContent, :streamGenerateContent?alt=sse
)

// Message is one request message.
type Message struct {
	Role       string          `json:"role"`
	Content    json.RawMessage `json:"content,omitempty"` // a string, an array of parts, or null
	ToolCallID string          `json:"tool_call_id,omitempty"`
	ToolCalls  []struct {
		ID       string `json:"id"`
		Type     string `json:"type"`
		Function struct {
			Name      string `json:"name"`
			Arguments string `json:"arguments"`
		} `json:"function"`
	} `json:"tool_calls,omitempty"`
}

// Text returns the message's content when it is a string.
func (m Message) Text() string {
	var s string
	if json.Unmarshal(m.Content, &s) != nil {
		return ""
	}
	return s
}

// maxBody is the largest request body the stand-in reads.
const maxBody = 64 << 20

// decodeRequest decodes a Chat Completions request body, refusing what an
// OpenAI server refuses with a 400: a body that is not a JSON object, a
// missing model, no messages, a message without a known role, a tool
// message without tool_call_id, a tool that is not {"type": "function",
// "function": {"name": …}}.
func decodeRequest(body []byte) (Request, error) {
	if len(body) > maxBody {
		return Request{}, fmt.Errorf("request body of %d bytes is over the %d-byte limit", len(body), maxBody)
	}
	var w struct {
		Model         *string           `json:"model"`
		Messages      []json.RawMessage `json:"messages"`
		Tools         []json.RawMessage `json:"tools"`
		Stream        *bool             `json:"stream"`
		StreamOptions *struct {
			IncludeUsage *bool `json:"include_usage"`
		} `json:"stream_options"`
		ToolChoice json.RawMessage `json:"tool_choice"`
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	if err := dec.Decode(&w); err != nil {
		return Request{}, fmt.Errorf("invalid JSON body: %w", err)
	}
	if dec.More() {
		return Request{}, errors.New("invalid JSON body: data after the object")
	}
	if w.Model == nil || *w.Model == "" {
		return Request{}, errors.New("you must provide a model parameter")
	}
	if len(w.Messages) == 0 {
		return Request{}, errors.New("'messages' must be a non-empty array")
	}
	r := Request{Dialect: dialectOpenAI, Model: *w.Model, Tools: w.Tools, Body: body, ToolChoice: w.ToolChoice}
	if w.Stream != nil {
		r.Stream = *w.Stream
	}
	if w.StreamOptions != nil && w.StreamOptions.IncludeUsage != nil {
		r.IncludeUsage = *w.StreamOptions.IncludeUsage
	}
	for i, raw := range w.Messages {
		var m Message
		if err := json.Unmarshal(raw, &m); err != nil {
			return Request{}, fmt.Errorf("messages[%d]: %w", i, err)
		}
		switch m.Role {
		case "system", "developer", "user", "assistant":
		case "tool":
			if m.ToolCallID == "" {
				return Request{}, fmt.Errorf("messages[%d]: a tool message needs tool_call_id", i)
			}
		default:
			return Request{}, fmt.Errorf("messages[%d]: invalid role %q", i, m.Role)
		}
		r.Messages = append(r.Messages, m)
	}
	for i, raw := range w.Tools {
		var t struct {
			Type     string `json:"type"`
			Function *struct {
				Name string `json:"name"`
			} `json:"function"`
		}
		if err := json.Unmarshal(raw, &t); err != nil {
			return Request{}, fmt.Errorf("tools[%d]: %w", i, err)
		}
		if t.Type != "function" || t.Function == nil || t.Function.Name == "" {
			return Request{}, fmt.Errorf("tools[%d]: a tool must be {\"type\": \"function\", \"function\": {\"name\": …}}", i)
		}
	}
	return r, nil
}
