package agenttest

import (
	"encoding/json"
	"html"
	"net/http"
	"unicode/utf8"
)

// answer writes one turn.
type answer struct {
	turn    Turn
	id      string
	model   string
	created int64
	usage   Usage
	sig     string // the thought signature of a turn with Thinking
}

type chunk struct {
	ID      string          `json:"id"`
	Object  string          `json:"object"`
	Created int64           `json:"created"`
	Model   string          `json:"model"`
	Choices []choice        `json:"choices"`
	Usage   json.RawMessage `json:"usage,omitempty"`
}

type choice struct {
	Index        int             `json:"index"`
	Delta        *delta          `json:"delta,omitempty"`
	Message      *message        `json:"message,omitempty"`
	Logprobs     json.RawMessage `json:"logprobs"`
	FinishReason *string         `json:"finish_reason"`
}

type delta struct {
	Role      string      `json:"role,omitempty"`
	Content   *string     `json:"content,omitempty"`
	ToolCalls []toolDelta `json:"tool_calls,omitempty"`
}

type toolDelta struct {
	Index    int     `json:"index"`
	ID       string  `json:"id,omitempty"`
	Type     string  `json:"type,omitempty"`
	Function fnDelta `json:"function"`
}

type fnDelta struct {
	Name      string `json:"name,omitempty"`
	Arguments string `json:"arguments"`
}

type message struct {
	Role      string     `json:"role"`
	Content   *string    `json:"content"`
	Refusal   *string    `json:"refusal"`
	ToolCalls []toolCall `json:"tool_calls,omitempty"`
}

type toolCall struct {
	ID       string  `json:"id"`
	Type     string  `json:"type"`
	Function fnDelta `json:"function"`
}

type usageJSON struct {
	PromptTokens        int `json:"prompt_tokens"`
	CompletionTokens    int `json:"completion_tokens"`
	TotalTokens         int `json:"total_tokens"`
	PromptTokensDetails struct {
		CachedTokens int `json:"cached_tokens"`
	} `json:"prompt_tokens_details"`
	CompletionTokensDetails struct {
		ReasoningTokens int `json:"reasoning_tokens"`
	} `json:"completion_tokens_details"`
}

var null = json.RawMessage("null")

func (a answer) usageJSON() json.RawMessage {
	var u usageJSON
	u.PromptTokens, u.CompletionTokens, u.TotalTokens = a.usage.PromptTokens, a.usage.CompletionTokens, a.usage.TotalTokens
	u.PromptTokensDetails.CachedTokens = a.usage.CachedTokens
	u.CompletionTokensDetails.ReasoningTokens = a.usage.ReasoningTokens
	b, _ := json.Marshal(u)
	return b
}

func (a answer) finish() string {
	if a.turn.FinishReason != "" {
		return a.turn.FinishReason
	}
	if len(a.turn.Calls) > 0 {
		return "tool_calls"
	}
	return "stop"
}

// text is the turn's text as the server sends it.
func (a answer) text() string {
	if a.turn.Quirks.HTMLEscape {
		return html.EscapeString(a.turn.Text)
	}
	return a.turn.Text
}

// completion is the non-streaming answer.
func (a answer) completion() []byte {
	m := &message{Role: "assistant"}
	if a.turn.Text != "" || len(a.turn.Calls) == 0 {
		t := a.text()
		m.Content = &t
	}
	for _, c := range a.turn.Calls {
		m.ToolCalls = append(m.ToolCalls, toolCall{ID: c.ID, Type: "function", Function: fnDelta{Name: c.Name, Arguments: c.Arguments}})
	}
	fr := a.finish()
	var usage json.RawMessage
	if !a.turn.Quirks.NoUsage {
		usage = a.usageJSON()
	}
	b, _ := json.Marshal(chunk{ID: a.id, Object: "chat.completion", Created: a.created, Model: a.model,
		Choices: []choice{{Message: m, Logprobs: null, FinishReason: &fr}}, Usage: usage})
	return b
}

// stream writes the turn as server-sent events.
func (a answer) stream(w http.ResponseWriter, includeUsage bool) {
	h := w.Header()
	h.Set("Content-Type", "text/event-stream; charset=utf-8")
	h.Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	flusher, _ := w.(http.Flusher)
	events := 0
	send := func(data []byte) {
		if cut := a.turn.Fault.CutAfter; cut > 0 && events >= cut {
			if flusher != nil {
				flusher.Flush()
			}
			panic(http.ErrAbortHandler) // the connection is cut mid-stream
		}
		_, _ = w.Write([]byte("data: "))
		_, _ = w.Write(data)
		_, _ = w.Write([]byte("\n\n"))
		events++
		if flusher != nil {
			flusher.Flush()
		}
	}
	includeUsage = includeUsage && !a.turn.Quirks.NoUsage
	var usage json.RawMessage
	if includeUsage {
		usage = null
	}
	emit := func(d *delta, finish *string) {
		b, _ := json.Marshal(chunk{ID: a.id, Object: "chat.completion.chunk", Created: a.created, Model: a.model,
			Choices: []choice{{Delta: d, Logprobs: null, FinishReason: finish}}, Usage: usage})
		send(b)
	}
	empty := ""
	emit(&delta{Role: "assistant", Content: &empty}, nil)
	if a.turn.Fault.Malformed {
		send([]byte(`{"id": "` + a.id + `", "choices": [{"delta": {"content": "unterminated`))
	}
	piece := a.turn.Piece
	if piece <= 0 {
		piece = 7
	}
	for _, p := range pieces(a.text(), piece) {
		emit(&delta{Content: &p}, nil)
	}
	q := a.turn.Quirks
	for i, c := range a.turn.Calls {
		idx := i
		if q.IndexZero {
			idx = 0
		}
		if q.OneChunk {
			emit(&delta{ToolCalls: []toolDelta{{Index: idx, ID: c.ID, Type: "function", Function: fnDelta{Name: c.Name, Arguments: c.Arguments}}}}, nil)
			continue
		}
		emit(&delta{ToolCalls: []toolDelta{{Index: idx, ID: c.ID, Type: "function", Function: fnDelta{Name: c.Name}}}}, nil)
		for _, p := range pieces(c.Arguments, piece) {
			td := toolDelta{Index: idx, Function: fnDelta{Arguments: p}}
			if q.IDEveryChunk {
				td.ID, td.Type, td.Function.Name = c.ID, "function", c.Name
			}
			emit(&delta{ToolCalls: []toolDelta{td}}, nil)
		}
	}
	if a.turn.Fault.NoFinish {
		return
	}
	fr := a.finish()
	emit(&delta{}, &fr)
	if includeUsage {
		b, _ := json.Marshal(chunk{ID: a.id, Object: "chat.completion.chunk", Created: a.created, Model: a.model,
			Choices: []choice{}, Usage: a.usageJSON()})
		send(b)
	}
	send([]byte("[DONE]"))
}

// pieces splits s into pieces of about n bytes, cut at rune boundaries.
func pieces(s string, n int) []string {
	var out []string
	for len(s) > 0 {
		end := min(n, len(s))
		for end < len(s) && !utf8.RuneStart(s[end]) {
			end++
		}
		out = append(out, s[:end])
		s = s[end:]
	}
	return out
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
