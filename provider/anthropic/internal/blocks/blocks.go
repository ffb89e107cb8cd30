// Package blocks puts together the content blocks of an Anthropic
// Messages stream from its content_block_start, content_block_delta and
// content_block_stop events, without the SDK, so that it can be fuzzed at
// full speed.
//
//   - Blocks are kept in the order of their index; a delta or stop for an
//     index never started, a delta of the wrong kind for its block, and a
//     second start at an index are errors.
//   - A tool_use block's input is its input_json_delta fragments joined;
//     fragments that are all empty (a tool without arguments sends one
//     empty partial_json) leave the input of its start, "{}" when that is
//     empty.
//   - Thinking blocks keep their text and signature, redacted_thinking its
//     data, so that they can be sent back as they came ([Accumulator.Native]).
package blocks

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Block is one content block.
type Block struct {
	Type      string // "text", "tool_use", "thinking", "redacted_thinking", or another the API adds
	Text      string // text
	ID, Name  string // tool_use
	Input     strings.Builder
	start     string // tool_use: the input of content_block_start
	Thinking  string
	Signature string
	Data      string          // redacted_thinking
	Raw       json.RawMessage // the start's content_block, for types not known here
	stopped   bool
}

// Accumulator holds the blocks of one stream. The zero value is ready.
type Accumulator struct {
	blocks []*Block
	index  map[int64]*Block
}

// Start is a content_block_start's content_block.
type Start struct {
	Type, ID, Name, Text, Thinking, Signature, Data string
	Input                                           json.RawMessage // tool_use: its input
	Raw                                             json.RawMessage // the content_block as sent
}

// Start opens the block at index (content_block_start).
func (a *Accumulator) Start(index int64, st Start) error {
	if a.index == nil {
		a.index = map[int64]*Block{}
	}
	if _, ok := a.index[index]; ok {
		return fmt.Errorf("content block %d started twice", index)
	}
	if st.Type == "" {
		return fmt.Errorf("content block %d has no type", index)
	}
	b := &Block{Type: st.Type, ID: st.ID, Name: st.Name, Text: st.Text, Thinking: st.Thinking, Signature: st.Signature, Data: st.Data, Raw: st.Raw}
	if st.Type == "tool_use" || st.Type == "server_tool_use" {
		if st.ID == "" || st.Name == "" {
			return fmt.Errorf("content block %d: a tool_use needs an id and a name", index)
		}
		b.start = string(st.Input)
	}
	a.index[index] = b
	a.blocks = append(a.blocks, b)
	return nil
}

// Delta adds a content_block_delta of type typ to the block at index;
// value is its text, partial_json, thinking or signature.
func (a *Accumulator) Delta(index int64, typ, value string) error {
	b, ok := a.index[index]
	if !ok || b.stopped {
		return fmt.Errorf("a %s for content block %d, which is not open", typ, index)
	}
	switch {
	case typ == "text_delta" && b.Type == "text":
		b.Text += value
	case typ == "input_json_delta" && (b.Type == "tool_use" || b.Type == "server_tool_use"):
		b.Input.WriteString(value)
	case typ == "thinking_delta" && b.Type == "thinking":
		b.Thinking += value
	case typ == "signature_delta" && b.Type == "thinking":
		b.Signature += value
	case typ == "citations_delta" && b.Type == "text":
	default:
		return fmt.Errorf("a %s for content block %d, a %s block", typ, index, b.Type)
	}
	return nil
}

// Stop closes the block at index.
func (a *Accumulator) Stop(index int64) error {
	b, ok := a.index[index]
	if !ok || b.stopped {
		return fmt.Errorf("content_block_stop for content block %d, which is not open", index)
	}
	b.stopped = true
	return nil
}

// Blocks returns the blocks in stream order.
func (a *Accumulator) Blocks() []*Block { return a.blocks }

// Arguments returns a tool_use block's input text.
func (b *Block) Arguments() string {
	if s := b.Input.String(); strings.TrimSpace(s) != "" {
		return s
	}
	if strings.TrimSpace(b.start) != "" && b.start != "null" {
		return b.start
	}
	return "{}"
}

// Native returns the blocks as the Messages API takes them back in an
// assistant message: thinking with its signature, redacted_thinking with
// its data, text, and tool_use with its input (an input that is not a
// JSON object, as a cut stream leaves it, is sent as {}).
func (a *Accumulator) Native() (json.RawMessage, error) {
	out := make([]any, 0, len(a.blocks))
	for _, b := range a.blocks {
		switch b.Type {
		case "text":
			out = append(out, map[string]any{"type": "text", "text": b.Text})
		case "thinking":
			out = append(out, map[string]any{"type": "thinking", "thinking": b.Thinking, "signature": b.Signature})
		case "redacted_thinking":
			out = append(out, map[string]any{"type": "redacted_thinking", "data": b.Data})
		case "tool_use":
			out = append(out, map[string]any{"type": "tool_use", "id": b.ID, "name": b.Name, "input": InputObject(b.Arguments())})
		default:
			if t := strings.TrimSpace(string(b.Raw)); t != "" && t[0] == '{' && json.Valid(b.Raw) {
				out = append(out, json.RawMessage(t))
			}
		}
	}
	return json.Marshal(out)
}

// InputObject returns args as a tool_use input: the JSON object when it
// is one, else {}.
func InputObject(args string) json.RawMessage {
	t := strings.TrimSpace(args)
	if t != "" && t[0] == '{' && json.Valid([]byte(t)) {
		return json.RawMessage(t)
	}
	return json.RawMessage("{}")
}
