// Package anthropic is an [agent.Model] on Anthropic's official Go SDK
// (github.com/anthropics/anthropic-sdk-go/v2), for the Messages API. It is
// a module of its own, so that the core module does not depend on the
// SDK.
//
//   - One [Model.Complete] is one Messages request (max_tokens
//     [Options].MaxTokens, 4096 by default): the context's leading system
//     messages as system, its messages grouped as the API wants them
//     (messages: one assistant message per response, then one user
//     message holding every tool_result of it), the tools as
//     tool/schema.Anthropic exports them, sent as raw JSON (their order
//     and their schemas' key order kept), streaming by default, text
//     deltas to Request.OnText.
//   - Calls: each tool_use block's id, name and input, the input as its
//     input_json_delta fragments joined (a tool without arguments sends one
//     empty partial_json: its input is "{}"), or, not streaming, as the
//     API wrote it. FinishReason is the stop_reason as sent ("tool_use",
//     "end_turn", "max_tokens", …).
//   - The response's content blocks as received — thinking blocks with
//     their signatures, redacted_thinking — go to Response.Native under
//     [NativeKey] and are sent back as they came in the next requests;
//     when the loop renamed a duplicate call id, the thinking blocks are
//     kept and the rest is rebuilt from the context.
//   - Usage, as pipecat's Anthropic service maps it: PromptTokens =
//     input_tokens + cache_read_input_tokens + cache_creation_input_tokens
//     (input_tokens excludes the cache); CompletionTokens = output_tokens;
//     TotalTokens their sum; CacheReadInputTokens =
//     cache_read_input_tokens, CacheCreationInputTokens =
//     cache_creation_input_tokens (both always set). In a stream the
//     input and cache counts come from message_start, output_tokens from
//     message_delta (whose input counts, cumulative, win when sent). A
//     response that carried no usage object (an Anthropic-compatible
//     server that sends none) has Usage.Missing set.
//   - Failures: the SDK retries 408, 409, 429 and 5xx answers (and 529,
//     overloaded) before a response starts, with backoff and Retry-After
//     ([Options].MaxRetries, 2 by default); each attempt has a timeout
//     ([Options].Timeout, 60 s). A stream that fails once it has started (cut,
//     malformed event, an event out of order, no message_delta or
//     message_stop) is an error ([ErrIncomplete]) and is not retried.
//   - The key and base URL come from options, else from ANTHROPIC_API_KEY
//     and ANTHROPIC_BASE_URL, as the SDK reads them.
package anthropic
