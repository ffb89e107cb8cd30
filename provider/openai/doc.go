// Package openai is an [agent.Model] on the official OpenAI Go SDK
// (github.com/openai/openai-go/v3), for the Chat Completions API and any
// server that speaks it. It is a module of its own, so that the core
// module does not depend on the SDK.
//
//   - [New] takes the model name and [Options] (nil: the defaults). The
//     key and base URL come from Options, else from OPENAI_API_KEY and
//     OPENAI_BASE_URL, as the SDK reads them.
//   - One [Model.Complete] is one Chat Completions request: the context's
//     messages as agent renders them, the tool set as tool/schema.OpenAI
//     exports it, sent byte for byte (strict with Options.Strict — then
//     give the loop tool.CallOptions.NullAsAbsent), streaming by default
//     with stream_options.include_usage, text deltas to Request.OnText.
//     Options.MaxTokens sends max_completion_tokens; by default none is
//     sent.
//   - Tool-call deltas are put together whatever a server does with them:
//     a delta with a new id opens a call even at a used index, one without
//     an id continues the last call opened at its index, a repeated name is
//     not appended, a call sent whole in one delta is taken whole.
//   - Usage: prompt, completion and total tokens; cached_tokens to
//     CacheReadInputTokens and reasoning_tokens to ReasoningTokens, each
//     set when the server sent its details object. A response without
//     usage, or whose usage lacks prompt_tokens or completion_tokens, has
//     Usage.Missing set.
//   - Failures: the SDK retries 429, 408, 409 and 5xx answers and dropped
//     connections before a response starts, with exponential backoff and
//     Retry-After (Options.MaxRetries, 2 by default); each attempt has a
//     timeout (Options.Timeout, 60 s by default). A stream that fails once
//     it has started (cut, malformed chunk, no finish_reason:
//     [ErrIncomplete]) is an error and is not retried, since its text may
//     have been spoken.
//
// How this follows pipecat's OpenAI service: docs/parity/provider-openai.md.
package openai
