// Package gemini is an [agent.Model] on Google's official Go SDK
// (google.golang.org/genai), for the Gemini API's generateContent. It is
// a module of its own, so that the core module does not depend on the
// SDK.
//
//   - [New] takes the model name and [Options] (nil: the defaults). The
//     key comes from Options, else from GEMINI_API_KEY or GOOGLE_API_KEY,
//     as the SDK reads them.
//   - One [Model.Complete] is one generateContent request
//     (streamGenerateContent?alt=sse by default, text parts to
//     Request.OnText): the context's leading system messages as the
//     system instruction, its messages grouped as Gemini wants them (one
//     model content per response, then one user content with a
//     functionResponse per result), the tools as tool/schema.GeminiGo
//     exports them. Options.MaxTokens sets maxOutputTokens; Options.Config
//     carries the other generation settings.
//   - Calls: each functionCall part of the first candidate, in order. An
//     id the API sent is kept and sent back; a call without one gets an id
//     made up as "gemini-call-" + the context's length + the call's
//     number, never sent to the API. Arguments go through
//     schema.GeminiArguments. FinishReason is the candidate's as sent
//     ("STOP", "MAX_TOKENS", …).
//   - The response's parts as received — thought parts, thoughtSignature
//     — go to Response.Native under "gemini" and are sent back as they
//     came (Gemini 3 answers 400 without the signatures); when the
//     context's calls no longer match them, the thought parts and the
//     first signature are kept and the rest is rebuilt.
//   - Usage: promptTokenCount, candidatesTokenCount, totalTokenCount,
//     cachedContentTokenCount to CacheReadInputTokens and
//     thoughtsTokenCount to ReasoningTokens (both always set); in a stream
//     the last usageMetadata wins; a response without any has
//     Usage.Missing set.
//   - Failures: the SDK retries 408, 429 and 5xx answers and transport
//     errors (Options.MaxRetries, 2 by default; Options.RetryDelay, 1 s
//     doubling; Retry-After is not read); Options.Timeout (60 s) bounds
//     each request, its stream included. A stream that fails once it
//     started (cut, malformed chunk, no finishReason: [ErrIncomplete]) is
//     an error and is not retried; a blocked prompt is an error.
//
// How this follows pipecat's Google service: docs/parity/provider-gemini.md.
package gemini
