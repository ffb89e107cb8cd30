// Package anthropic is an [agent.Model] on Anthropic's official Go SDK
// (github.com/anthropics/anthropic-sdk-go/v2), for the Messages API. It is
// a module of its own, so that the core module does not depend on the
// SDK.
//
//   - [New] takes the model name and [Options] (nil: the defaults). The
//     key and base URL come from Options, else from ANTHROPIC_API_KEY and
//     ANTHROPIC_BASE_URL, as the SDK reads them.
//   - One [Model.Complete] is one Messages request (max_tokens:
//     Options.MaxTokens, 4096 by default): the context's leading system
//     messages as system, its messages grouped as the API wants them (one
//     assistant message per response, then one user message holding every
//     tool_result of it), the tools as tool/schema.Anthropic exports them,
//     sent as raw JSON (their order and their schemas' key order kept),
//     streaming by default, text deltas to Request.OnText.
//   - Calls: each tool_use block's id, name and input (a tool without
//     arguments: "{}"). FinishReason is the stop_reason as sent
//     ("tool_use", "end_turn", "max_tokens", …).
//   - The response's content blocks as received — thinking blocks with
//     their signatures, redacted_thinking — go to Response.Native under
//     "anthropic" and are sent back as they came in the next requests;
//     when the loop renamed a duplicate call id, the thinking blocks are
//     kept and the rest is rebuilt from the context.
//   - Usage: PromptTokens counts every input token (input_tokens plus
//     cache reads and writes); CacheReadInputTokens and
//     CacheCreationInputTokens are always set. A response that carried no
//     usage object has Usage.Missing set.
//   - Failures: the SDK retries 408, 409, 429, 5xx and 529 answers before
//     a response starts, with backoff and Retry-After (Options.MaxRetries,
//     2 by default); each attempt has a timeout (Options.Timeout, 60 s). A
//     stream that fails once it has started (cut, malformed event, an
//     event out of order, no message_delta or message_stop:
//     [ErrIncomplete]) is an error and is not retried.
//
// How this follows pipecat's Anthropic service:
// docs/parity/provider-anthropic.md.
package anthropic
