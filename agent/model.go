package agent

import (
	"context"
	"encoding/json"

	"github.com/voiceeval/schematools/tool"
)

// Model is one stateless model call. Implementations must not keep or
// change Request.Messages, and must be safe for concurrent use.
type Model interface {
	Complete(ctx context.Context, req Request) (Response, error)
}

// ModelFunc makes a function a [Model].
type ModelFunc func(ctx context.Context, req Request) (Response, error)

// Complete calls f.
func (f ModelFunc) Complete(ctx context.Context, req Request) (Response, error) { return f(ctx, req) }

// Request is what one model call sees.
type Request struct {
	// Messages is the context so far, oldest first (read only).
	Messages []Message
	// Tools is the set the model may call; nil means none. A provider
	// exports it in its dialect (tool/schema) and may cache the export per
	// set, which is immutable.
	Tools *tool.Set
	// OnText, when set, receives the assistant's text as it streams
	// (deltas, in order, on the calling goroutine). Providers that do not
	// stream call it once with the whole text, or not at all.
	OnText func(delta string)
	// NoCalls forbids tool calls on this call (tool_choice "none" in each
	// provider's dialect): the tools stay declared, as the context's calls
	// need them, and the model is asked for words. [Loop.ToolSteps] sets
	// it. A model may still answer with calls; the loop answers them.
	NoCalls bool
}

// Response is what one model call answered.
type Response struct {
	Text string // the assistant's text ("" when it only called tools)
	// Calls are its tool calls, in the model's order; Arguments is the
	// model's raw JSON text.
	Calls        []tool.ModelCall
	Usage        Usage
	FinishReason string // "stop", "tool_calls", "length", … as the provider says
	// Native is provider-native data to send back with this response's
	// turn (see [Message.Native]); the loop puts it on the first assistant
	// message it writes for the response.
	Native map[string]json.RawMessage
}

// Usage is the token count of one model call. Its fields are those of
// rtvi.Usage, so rtvi.Usage(u) converts it; optional counts are
// nil when the provider does not report them.
//
// The zero Usage is a reported count of zero tokens, as stand-ins without
// a real model report it; an adapter whose response carried no usage sets
// Missing instead, so that no one reads its zeros as counts.
type Usage struct {
	PromptTokens, CompletionTokens, TotalTokens int
	CacheReadInputTokens                        *int
	CacheCreationInputTokens                    *int
	ReasoningTokens                             *int
	InputAudioTokens                            *int
	OutputAudioTokens                           *int
	CacheReadInputAudioTokens                   *int
	// Missing says the provider reported no usage for the call (an
	// OpenAI-compatible server that ignores stream_options.include_usage,
	// say): the counts are unknown, and left zero.
	Missing bool
}
