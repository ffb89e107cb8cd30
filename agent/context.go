package agent

import (
	"encoding/json"
	"slices"
	"sync"

	"github.com/voiceeval/schematools/tool"
)

// Context is the chat context of one conversation, as pipecat's
// LLMContext holds it. It is safe for concurrent use; the zero value is an
// empty context.
type Context struct {
	mu       sync.Mutex
	msgs     []Message
	inFlight int    // calls written with IN_PROGRESS and not answered yet
	gen      uint64 // bumped by Replace, so answers of an old context are refused
}

// NewContext returns a context holding msgs (typically the system
// prompt).
func NewContext(msgs ...Message) *Context {
	return &Context{msgs: slices.Clone(msgs)}
}

// Messages returns a copy of the messages, oldest first.
func (c *Context) Messages() []Message {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.msgs)
}

// Len returns the number of messages.
func (c *Context) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.msgs)
}

// Append adds msgs at the end (what pipecat's user aggregator does with a
// user's turn, {"role": "user", "content": text}).
func (c *Context) Append(msgs ...Message) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.msgs = append(c.msgs, msgs...)
}

// Replace discards the context and starts it again with msgs. Calls still
// in flight are forgotten: their results are refused.
func (c *Context) Replace(msgs ...Message) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.msgs = slices.Clone(msgs)
	c.inFlight = 0
	c.gen++
}

// CallsInProgress reports whether a call's tool message still holds
// "IN_PROGRESS" (rtvi.InFlight).
func (c *Context) CallsInProgress() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.inFlight > 0
}

// slot names one tool message the loop will answer.
type slot struct {
	index int
	gen   uint64
}

// addCall writes the pair pipecat's _handle_function_call_in_progress
// writes for one call (the assistant message carrying native, see
// [Message.Native]) and returns the tool message's slot.
func (c *Context) addCall(call tool.ModelCall, native map[string]json.RawMessage) slot {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.msgs = append(c.msgs,
		Message{Role: RoleAssistant, ToolCalls: []tool.ModelCall{call}, Native: native},
		Message{Role: RoleTool, Content: contentInProgress, ToolCallID: call.ID})
	c.inFlight++
	return slot{index: len(c.msgs) - 1, gen: c.gen}
}

// answer replaces the slot's "IN_PROGRESS" with content, as
// _update_function_call_result does, and reports whether it did: a slot
// answered already, or of a replaced context, is left alone.
func (c *Context) answer(s slot, content string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if s.gen != c.gen || s.index >= len(c.msgs) || c.msgs[s.index].Content != contentInProgress {
		return false
	}
	c.msgs[s.index].Content = content
	c.inFlight--
	return true
}
