package rtvi

import (
	"context"
	"sync/atomic"

	"github.com/voiceeval/schematools/tool"
)

// The dispatcher drives the bot through these small interfaces. A bot
// implements the ones it has; every field of [Config] that holds one may be
// nil.

// ChatMessage is a message the dispatcher puts into the conversation: the
// system prompt of a scenario.
type ChatMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// Conversation is the bot's LLM context: what pipecat's user and assistant
// context aggregators hold.
type Conversation interface {
	// Reset discards the conversation and starts it again with messages
	// (the scenario's system prompt). The slice is the conversation's own.
	Reset(ctx context.Context, messages []ChatMessage) error
	// Messages returns the conversation so far, oldest first. Elements may
	// be JSON trees (map[string]any, []any, strings, numbers, []byte for
	// binary media) or any value encoding/json can marshal, such as an LLM
	// client's message structs, whose fields keep their order in the
	// transcript ({'role': ..., 'content': ...}); a map's keys come out
	// sorted.
	Messages(ctx context.Context) ([]any, error)
}

// ToolInstaller replaces the tools the bot's LLM can call. A Config without
// one has tool calling turned off: update_system_prompt then changes the
// prompt and the state but installs no tools.
type ToolInstaller interface {
	InstallTools(ctx context.Context, set *tool.Set) error
}

// Resetter is a service the bot resets between scenarios and on reset
// (speech-to-text, text-to-speech, ...).
type Resetter interface {
	Reset(ctx context.Context) error
}

// InFlight reports whether a tool call of the bot is still being carried
// out. get_context_history waits (boundedly) until none is, so the last
// call of a conversation is in the transcript it returns.
type InFlight interface {
	CallsInProgress() bool
}

// CallTracker counts the tool calls in progress; it implements [InFlight].
// Wrap each tool call in Begin and the function it returns. The zero value
// is ready to use and it is safe for concurrent use.
type CallTracker struct{ n atomic.Int64 }

// Begin records the start of a call and returns the function that records
// its end. Calling that function more than once counts once.
func (c *CallTracker) Begin() (end func()) {
	c.n.Add(1)
	var once atomic.Bool
	return func() {
		if once.CompareAndSwap(false, true) {
			c.n.Add(-1)
		}
	}
}

// CallsInProgress reports whether any call has begun and not ended.
func (c *CallTracker) CallsInProgress() bool { return c.n.Load() > 0 }
