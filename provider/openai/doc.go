// Package openai is an [agent.Model] on the official OpenAI Go SDK
// (github.com/openai/openai-go/v3), for the Chat Completions API and any
// server that speaks it. It is a module of its own, so that the core
// module does not depend on the SDK.
//
//   - One [Model.Complete] is one Chat Completions request: the context's
//     messages as pipecat keeps them, the tool set exported by
//     tool/schema.OpenAI and sent byte for byte (its order kept; strict
//     with [WithStrict] — then give the loop tool.CallOptions.NullAsAbsent), streaming
//     by default with stream_options.include_usage, text deltas to
//     Request.OnText.
//   - Tool-call deltas are put together whatever a server does with them:
//     a delta with a new id opens a call even at a used index, one without
//     an id continues the last call opened at its index, a repeated name is
//     not appended, a call sent whole in one delta is taken whole.
//   - Usage maps to agent.Usage as pipecat maps it (cached_tokens to
//     CacheReadInputTokens, reasoning_tokens to ReasoningTokens, each set
//     when the server sent its details object). A response without usage
//     (a server that ignores include_usage), or whose usage lacks
//     prompt_tokens or completion_tokens, has Usage.Missing set.
//   - [WithMaxTokens] sends max_completion_tokens; by default none is
//     sent.
//   - Failures: the SDK retries 429, 408, 409 and 5xx answers and dropped
//     connections before a response starts, with exponential backoff and
//     Retry-After ([WithMaxRetries], 2 by default); each attempt has a
//     timeout ([WithTimeout], 60 s by default). A stream that fails once
//     it has started (cut, malformed chunk, no finish_reason) is an error
//     and is not retried, since its text may have been spoken.
//   - The key and base URL come from options, else from OPENAI_API_KEY and
//     OPENAI_BASE_URL, as the SDK reads them.
package openai
