package agenttest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
)

// anthropicRequest is a decoded Messages API request (POST /v1/messages):
// the fields the stand-in reads.
type anthropicRequest struct {
	MaxTokens int
	System    json.RawMessage // a string or a list of text blocks; nil when absent
	Messages  []anthropicMessage
}

// anthropicMessage is one message of a Messages API request, its content
// as blocks (a string content is one text block).
type anthropicMessage struct {
	Role    string
	Content []anthropicBlock
}

// anthropicBlock is one content block as the client sent it.
type anthropicBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text,omitempty"`
	ID        string          `json:"id,omitempty"`
	Name      string          `json:"name,omitempty"`
	Input     json.RawMessage `json:"input,omitempty"`
	ToolUseID string          `json:"tool_use_id,omitempty"`
	Content   json.RawMessage `json:"content,omitempty"` // a tool_result's: a string or blocks
	IsError   bool            `json:"is_error,omitempty"`
	Thinking  string          `json:"thinking,omitempty"`
	Signature string          `json:"signature,omitempty"`
	Data      string          `json:"data,omitempty"`
	Raw       json.RawMessage `json:"-"`
}

// decodeAnthropicRequest decodes a Messages API body, refusing what the API
// refuses with a 400: a body that is not one JSON object, no model, no
// max_tokens, no messages, a role other than user and assistant, a block
// without a type, a tool without name or input_schema, and a tool_use not
// answered by a tool_result in the next message (or a tool_result
// answering no tool_use of the message before).
func decodeAnthropicRequest(body []byte) (Request, error) {
	if len(body) > maxBody {
		return Request{}, fmt.Errorf("request body of %d bytes is over the %d-byte limit", len(body), maxBody)
	}
	var w struct {
		Model     *string           `json:"model"`
		MaxTokens *int              `json:"max_tokens"`
		Messages  []json.RawMessage `json:"messages"`
		System    json.RawMessage   `json:"system"`
		Tools     []json.RawMessage `json:"tools"`
		Stream    *bool             `json:"stream"`
		Choice    json.RawMessage   `json:"tool_choice"`
	}
	if err := decodeOne(body, &w); err != nil {
		return Request{}, err
	}
	if w.Model == nil || *w.Model == "" {
		return Request{}, errors.New("model: Field required")
	}
	if w.MaxTokens == nil || *w.MaxTokens < 1 {
		return Request{}, errors.New("max_tokens: Field required (at least 1)")
	}
	if len(w.Messages) == 0 {
		return Request{}, errors.New("messages: at least one message is required")
	}
	ar := &anthropicRequest{MaxTokens: *w.MaxTokens, System: w.System}
	r := Request{Dialect: dialectAnthropic, Model: *w.Model, Tools: w.Tools, Body: body, ToolChoice: w.Choice, anthropic: ar}
	if w.Stream != nil {
		r.Stream = *w.Stream
	}
	for i, raw := range w.Messages {
		var m struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		}
		if err := json.Unmarshal(raw, &m); err != nil {
			return Request{}, fmt.Errorf("messages.%d: %w", i, err)
		}
		if m.Role != "user" && m.Role != "assistant" {
			return Request{}, fmt.Errorf("messages.%d.role: Input should be 'user' or 'assistant'", i)
		}
		msg := anthropicMessage{Role: m.Role}
		var s string
		if json.Unmarshal(m.Content, &s) == nil {
			msg.Content = []anthropicBlock{{Type: "text", Text: s}}
		} else {
			var blocks []json.RawMessage
			if err := json.Unmarshal(m.Content, &blocks); err != nil {
				return Request{}, fmt.Errorf("messages.%d.content: a string or a list of blocks: %w", i, err)
			}
			for j, braw := range blocks {
				var b anthropicBlock
				if err := json.Unmarshal(braw, &b); err != nil || b.Type == "" {
					return Request{}, fmt.Errorf("messages.%d.content.%d: a block needs a type", i, j)
				}
				b.Raw = braw
				msg.Content = append(msg.Content, b)
			}
		}
		ar.Messages = append(ar.Messages, msg)
	}
	for i, raw := range w.Tools {
		var t struct {
			Name   string          `json:"name"`
			Schema json.RawMessage `json:"input_schema"`
		}
		if err := json.Unmarshal(raw, &t); err != nil || t.Name == "" || len(t.Schema) == 0 {
			return Request{}, fmt.Errorf("tools.%d: a tool needs name and input_schema", i)
		}
	}
	if err := ar.checkToolResults(); err != nil {
		return Request{}, err
	}
	return r, nil
}

// checkToolResults refuses a tool_use without its tool_result in the next
// message, and a tool_result for no tool_use of the message before.
func (ar *anthropicRequest) checkToolResults() error {
	for i, m := range ar.Messages {
		uses := map[string]bool{}
		if i > 0 && ar.Messages[i-1].Role == "assistant" {
			for _, b := range ar.Messages[i-1].Content {
				if b.Type == "tool_use" {
					uses[b.ID] = true
				}
			}
		}
		for j, b := range m.Content {
			if b.Type == "tool_result" {
				if m.Role != "user" || !uses[b.ToolUseID] {
					return apiMessage(fmt.Sprintf("messages.%d.content.%d: unexpected `tool_use_id` found in `tool_result` blocks: %s. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.", i, j, b.ToolUseID))
				}
				delete(uses, b.ToolUseID)
			}
		}
		if len(uses) > 0 && i > 0 {
			return apiMessage(fmt.Sprintf("messages.%d: `tool_use` ids were found without `tool_result` blocks immediately after: %s. Each `tool_use` block must have a corresponding `tool_result` block in the next message.", i-1, strings.Join(keys(uses), ", ")))
		}
	}
	if n := len(ar.Messages); ar.Messages[n-1].Role == "assistant" {
		for _, b := range ar.Messages[n-1].Content {
			if b.Type == "tool_use" {
				return fmt.Errorf("messages.%d: `tool_use` ids were found without `tool_result` blocks immediately after: %s", n-1, b.ID)
			}
		}
	}
	return nil
}

func keys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

// apiMessage is an error whose text is an API's own message, word for
// word (capitals and full stops included).
type apiMessage string

func (m apiMessage) Error() string { return string(m) }

// decodeOne decodes a body that must be exactly one JSON object.
func decodeOne(body []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(body))
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("invalid JSON body: %w", err)
	}
	if dec.More() {
		return errors.New("invalid JSON body: data after the object")
	}
	return nil
}

// anthropicStop is the stop_reason for a turn's finish reason.
func anthropicStop(a answer) string {
	switch fr := a.finish(); fr {
	case "tool_calls":
		return "tool_use"
	case "stop":
		return "end_turn"
	case "length":
		return "max_tokens"
	default:
		return fr
	}
}

// signature is the thinking signature the stand-in issues for turn n.
func signature(prefix string, n int) string { return prefix + "-sig-" + strconv.Itoa(n) }

type anthropicUsage struct {
	InputTokens   int `json:"input_tokens"`
	CacheCreation int `json:"cache_creation_input_tokens"`
	CacheRead     int `json:"cache_read_input_tokens"`
	OutputTokens  int `json:"output_tokens"`
}

// anthropicUsage splits the turn's usage as Anthropic reports it:
// input_tokens excludes the cache counts.
func (a answer) anthropicUsage() anthropicUsage {
	u := a.usage
	return anthropicUsage{InputTokens: max(u.PromptTokens-u.CachedTokens-u.CacheCreationTokens, 0), CacheCreation: u.CacheCreationTokens,
		CacheRead: u.CachedTokens, OutputTokens: u.CompletionTokens}
}

// inputObject is a call's arguments as a tool_use input: the JSON object
// as written, "{}" for empty text, other text as a JSON string (Anthropic
// only ever sends objects; a script's malformed arguments go through the
// stream as they are).
func inputObject(args string) json.RawMessage {
	t := strings.TrimSpace(args)
	if t == "" {
		return json.RawMessage("{}")
	}
	if json.Valid([]byte(t)) && t[0] == '{' {
		return json.RawMessage(t)
	}
	b, _ := json.Marshal(args)
	return b
}

// anthropicMessage is the non-streaming answer.
func (a answer) anthropicMessage() []byte {
	var content []any
	if a.turn.Thinking != "" {
		content = append(content, map[string]any{"type": "thinking", "thinking": a.turn.Thinking, "signature": a.sig})
	}
	if a.turn.Text != "" {
		content = append(content, map[string]any{"type": "text", "text": a.turn.Text})
	}
	for _, c := range a.turn.Calls {
		content = append(content, map[string]any{"type": "tool_use", "id": c.ID, "name": c.Name, "input": inputObject(c.Arguments)})
	}
	if content == nil {
		content = []any{}
	}
	b, _ := json.Marshal(map[string]any{"id": a.id, "type": "message", "role": "assistant", "model": a.model, "content": content,
		"stop_reason": anthropicStop(a), "stop_sequence": nil, "usage": a.anthropicUsage()})
	return b
}

// anthropicStream writes the turn as the Messages API streams it.
func (a answer) anthropicStream(w http.ResponseWriter) {
	send := a.sse(w, true)
	u := a.anthropicUsage()
	start := u
	start.OutputTokens = 1
	send("message_start", map[string]any{"type": "message_start", "message": map[string]any{"id": a.id, "type": "message", "role": "assistant",
		"model": a.model, "content": []any{}, "stop_reason": nil, "stop_sequence": nil, "usage": start}})
	send("ping", map[string]any{"type": "ping"})
	if a.turn.Fault.Malformed {
		send("content_block_delta", json.RawMessage(`{"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "unterminated`))
	}
	piece := a.piece()
	index := 0
	block := func(start map[string]any, deltas []map[string]any) {
		send("content_block_start", map[string]any{"type": "content_block_start", "index": index, "content_block": start})
		for _, d := range deltas {
			send("content_block_delta", map[string]any{"type": "content_block_delta", "index": index, "delta": d})
		}
		send("content_block_stop", map[string]any{"type": "content_block_stop", "index": index})
		index++
	}
	if a.turn.Thinking != "" {
		var ds []map[string]any
		for _, p := range pieces(a.turn.Thinking, piece) {
			ds = append(ds, map[string]any{"type": "thinking_delta", "thinking": p})
		}
		ds = append(ds, map[string]any{"type": "signature_delta", "signature": a.sig})
		block(map[string]any{"type": "thinking", "thinking": "", "signature": ""}, ds)
	}
	if a.turn.Text != "" {
		var ds []map[string]any
		for _, p := range pieces(a.turn.Text, piece) {
			ds = append(ds, map[string]any{"type": "text_delta", "text": p})
		}
		block(map[string]any{"type": "text", "text": ""}, ds)
	}
	for _, c := range a.turn.Calls {
		// A call without arguments gets one empty partial_json, as the
		// API sends it.
		ds := []map[string]any{{"type": "input_json_delta", "partial_json": ""}}
		if t := strings.TrimSpace(c.Arguments); t != "" && t != "{}" {
			ds = ds[:0]
			for _, p := range pieces(c.Arguments, piece) {
				ds = append(ds, map[string]any{"type": "input_json_delta", "partial_json": p})
			}
		}
		block(map[string]any{"type": "tool_use", "id": c.ID, "name": c.Name, "input": map[string]any{}}, ds)
	}
	if a.turn.Fault.NoFinish {
		return
	}
	send("message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": anthropicStop(a), "stop_sequence": nil},
		"usage": map[string]any{"output_tokens": u.OutputTokens}})
	send("message_stop", map[string]any{"type": "message_stop"})
}

// sse returns a function writing one event (named when named is set),
// honouring the turn's CutAfter.
func (a answer) sse(w http.ResponseWriter, named bool) func(event string, v any) {
	h := w.Header()
	h.Set("Content-Type", "text/event-stream; charset=utf-8")
	h.Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	flusher, _ := w.(http.Flusher)
	events := 0
	return func(event string, v any) {
		if cut := a.turn.Fault.CutAfter; cut > 0 && events >= cut {
			if flusher != nil {
				flusher.Flush()
			}
			panic(http.ErrAbortHandler)
		}
		data, ok := v.(json.RawMessage)
		if !ok {
			data, _ = json.Marshal(v)
		}
		if named {
			_, _ = w.Write([]byte("event: " + event + "\n"))
		}
		_, _ = w.Write([]byte("data: "))
		_, _ = w.Write(data)
		_, _ = w.Write([]byte("\n\n"))
		events++
		if flusher != nil {
			flusher.Flush()
		}
	}
}

func (a answer) piece() int {
	if a.turn.Piece > 0 {
		return a.turn.Piece
	}
	return 7
}

// anthropicErrorType is the error type Anthropic names a status with.
func anthropicErrorType(status int) string {
	switch status {
	case 400:
		return "invalid_request_error"
	case 401:
		return "authentication_error"
	case 403:
		return "permission_error"
	case 404:
		return "not_found_error"
	case 413:
		return "request_too_large"
	case 429:
		return "rate_limit_error"
	case 529:
		return "overloaded_error"
	}
	return "api_error"
}

func writeAnthropicError(w http.ResponseWriter, status int, msg string) {
	b, _ := json.Marshal(map[string]any{"type": "error", "error": map[string]any{"type": anthropicErrorType(status), "message": msg}})
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("request-id", "req_standin")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// checkThinking refuses an assistant turn that calls a tool the stand-in
// issued with a thinking block, and does not send that block back as it
// was (thinking text and signature).
func (s *Server) checkThinking(ar *anthropicRequest) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, m := range ar.Messages {
		if m.Role != "assistant" {
			continue
		}
		for _, b := range m.Content {
			if b.Type != "tool_use" {
				continue
			}
			want, ok := s.thinking[b.ID]
			if !ok {
				continue
			}
			first := m.Content[0]
			if first.Type != "thinking" || first.Thinking != want.text || first.Signature != want.sig {
				return apiMessage(fmt.Sprintf("messages.%d.content.0.type: Expected `thinking` or `redacted_thinking`, but found `%s`. When `thinking` is enabled, a final `assistant` message must start with a thinking block (preceeding the lastmost set of `tool_use` and `tool_result` blocks). We recommend you include thinking blocks from previous turns.", i, first.Type))
			}
		}
	}
	return nil
}

// issueThinking records the thinking block a turn's calls came with.
func (s *Server) issueThinking(t Turn, sig string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range t.Calls {
		s.thinking[c.ID] = issued{text: t.Thinking, sig: sig}
	}
}
