package agenttest

import (
	"time"

	"github.com/voiceeval/schematools/tool"
)

// Turn is one scripted model response.
type Turn struct {
	Text  string           `json:"text,omitempty"`
	Calls []tool.ModelCall `json:"calls,omitempty"`
	// Thinking is the model's reasoning, sent with a signature the
	// stand-in makes up: an Anthropic thinking block before the text, a
	// Gemini thought part with the signature on the first call part (the
	// first text part when there are no calls). The OpenAI dialect leaves
	// it out. A later request that calls the turn's tools without sending
	// the block or signature back as it was is answered 400, as the APIs
	// answer it.
	Thinking string `json:"thinking,omitempty"`
	// Usage is reported as given; nil means counts derived from the
	// request and the turn (prompt: one token per 4 request bytes,
	// completion: one per 4 bytes of text and arguments).
	Usage *Usage `json:"usage,omitempty"`
	// FinishReason overrides "tool_calls" / "stop".
	FinishReason string `json:"finish_reason,omitempty"`
	// Piece is how many bytes of text or arguments each stream chunk
	// carries; 0 means 7.
	Piece  int    `json:"piece,omitempty"`
	Fault  Fault  `json:"fault,omitzero"`
	Quirks Quirks `json:"quirks,omitzero"`
}

// Usage is a token count as OpenAI reports it.
type Usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
	CachedTokens     int `json:"cached_tokens,omitempty"`
	ReasoningTokens  int `json:"reasoning_tokens,omitempty"`
	// CacheCreationTokens is Anthropic's cache_creation_input_tokens
	// (the other dialects leave it out).
	CacheCreationTokens int `json:"cache_creation_tokens,omitempty"`
}

// Fault is what goes wrong with a turn.
type Fault struct {
	// Fail lists HTTP statuses answered, in turn, to the first requests
	// for this turn (with OpenAI's error body); the turn itself answers
	// the request after them. A client that gives up after an error
	// leaves the turn for its next request.
	Fail []int `json:"fail,omitempty"`
	// RetryAfter is sent as Retry-After (seconds) with a 429 or 503.
	RetryAfter string `json:"retry_after,omitempty"`
	// Delay is waited before answering (or until the request is
	// cancelled).
	Delay time.Duration `json:"delay,omitempty"`
	// CutAfter aborts the connection after this many stream events
	// (0: never).
	CutAfter int `json:"cut_after,omitempty"`
	// Malformed sends a chunk that is not JSON after the first event.
	Malformed bool `json:"malformed,omitempty"`
	// NoFinish ends the stream before its finish: no finish_reason chunk
	// (OpenAI), no message_delta and message_stop (Anthropic), no
	// finishReason (Gemini).
	NoFinish bool `json:"no_finish,omitempty"`
}

// Quirks are ways real servers number tool-call deltas.
type Quirks struct {
	// IDEveryChunk repeats the call's id, type and name in every
	// argument fragment (some vLLM and Ollama versions).
	IDEveryChunk bool `json:"id_every_chunk,omitempty"`
	// IndexZero gives every call index 0, told apart only by their ids
	// (some OpenAI-compatible proxies).
	IndexZero bool `json:"index_zero,omitempty"`
	// OneChunk sends each call whole in one delta.
	OneChunk bool `json:"one_chunk,omitempty"`
	// HTMLEscape sends the text HTML-escaped, as llama-cpp-python's
	// server does ("I'm" arrives as "I&#39;m"; fed back, it drifts further
	// each turn).
	HTMLEscape bool `json:"html_escape,omitempty"`
	// NoUsage sends no usage, even when the request asks for it with
	// stream_options.include_usage, as some OpenAI-compatible servers do.
	NoUsage bool `json:"no_usage,omitempty"`
	// CallIDs sends the calls' ids in Gemini's functionCall parts (Vertex
	// AI does; the Gemini API leaves them out, which is the default).
	CallIDs bool `json:"call_ids,omitempty"`
}

// GoldTurns returns the turns that play a task's gold actions: one turn
// per action, each a single call (ids "gold_1", …), then a goodbye with
// the call to end (the end tool's name, e.g. "EndConversationTool"; ""
// for none), then the goodbye text alone for the turn after it.
func GoldTurns(actions []tool.ModelCall, end string) []Turn {
	turns := make([]Turn, 0, len(actions)+2)
	for i, a := range actions {
		id := a.ID
		if id == "" {
			id = "gold_" + itoa(i+1)
		}
		turns = append(turns, Turn{Calls: []tool.ModelCall{{ID: id, Name: a.Name, Arguments: a.Arguments}}})
	}
	bye := "Everything is done. Thank you for calling, goodbye."
	if end != "" {
		turns = append(turns, Turn{Text: bye, Calls: []tool.ModelCall{{ID: "gold_end", Name: end, Arguments: "{}"}}})
	}
	return append(turns, Turn{Text: bye})
}
