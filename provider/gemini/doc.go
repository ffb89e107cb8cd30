// Package gemini is an [agent.Model] on Google's official Go SDK
// (google.golang.org/genai), for the Gemini API's generateContent. It is
// a module of its own, so that the core module does not depend on the
// SDK.
//
//   - One [Model.Complete] is one generateContent request
//     (streamGenerateContent?alt=sse by default, text parts to
//     Request.OnText): the context's leading system messages as the
//     system instruction, its messages grouped as Gemini wants them
//     (one model content per response, then one user content
//     with a functionResponse per result), the tools as
//     tool/schema.GeminiGo exports them, read into the SDK's genai.Tool
//     (the SDK sends JSON objects with sorted keys, so their order
//     travels as propertyOrdering).
//   - Calls: each functionCall part of the first candidate, in order. The
//     Gemini API sends no call ids: the adapter makes one up
//     ("gemini-call-" + the context's length + the call's number,
//     unique in a conversation whose context only grows) and never sends
//     it back; an id the API sent is kept and sent back. Arguments are
//     the args object (keys sorted, as the SDK decodes it into a map)
//     through schema.GeminiArguments, which decodes the parameters the
//     export declared as JSON text. Results that are not a JSON object go
//     back as {"output": …}, as the SDK's docs ask. FinishReason is the
//     candidate's as sent ("STOP", "MAX_TOKENS", …).
//   - The response's parts as received — thought parts, thoughtSignature
//     — go to Response.Native under [NativeKey] and are sent back as they
//     came, so that Gemini 3 does not answer 400 "Function call is
//     missing a thought_signature"; when the context's calls no longer
//     match them, the thought parts and the first signature are kept and
//     the rest is rebuilt.
//   - Usage, as pipecat's Google service maps usageMetadata: PromptTokens
//     = promptTokenCount (cached tokens included), CompletionTokens =
//     candidatesTokenCount, TotalTokens = totalTokenCount (thoughts
//     included), CacheReadInputTokens = cachedContentTokenCount,
//     ReasoningTokens = thoughtsTokenCount (both always set: the API
//     leaves zeros out); toolUsePromptTokenCount is not counted. In a
//     stream the last usageMetadata wins (each is cumulative); a
//     response without any has Usage.Missing set. [Options].MaxTokens sets
//     maxOutputTokens.
//   - Failures: the SDK retries 408, 429 and 5xx answers and transport
//     errors ([Options].MaxRetries, 2 by default; [Options].RetryDelay, 1 s
//     doubling; Retry-After is not read); [Options].Timeout (60 s) bounds each
//     request, its stream included. A stream that fails once it started
//     (cut, malformed chunk, no finishReason: [ErrIncomplete]) is an error
//     and is not retried; a blocked prompt is an error.
//   - The key comes from [Options].APIKey, else GEMINI_API_KEY or
//     GOOGLE_API_KEY, as the SDK reads them.
package gemini
