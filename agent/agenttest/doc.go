// Package agenttest is an OpenAI-compatible Chat Completions stand-in
// server driven by a script, and an in-process scripted model, for testing
// model adapters and bots without a model.
//
//   - [Model] is an agent.Model playing a script's turns in order, in
//     process (no HTTP): [Model.Arm] sets the script, Fallback answers
//     past it (or, armed to stall, nothing until the context ends).
//   - [Server] is an http.Handler (use it with httptest.NewServer, or
//     serve it from a command: cmd/standin) answering POST
//     /v1/chat/completions and /chat/completions; each request takes the
//     script's next [Turn] (with [Server.Loop], the script starts again
//     when it runs out; without, a text turn "script finished" answers).
//   - A turn is text, tool calls (any number, any arguments — unknown
//     tools, malformed or 1 MB arguments, repeated ids are just script
//     content), usage and a finish reason ("tool_calls" when there are
//     calls, "stop" otherwise, unless set). [GoldTurns] makes the turns
//     of a task's gold actions.
//   - Streaming ("stream": true) is written the way OpenAI writes it:
//     "data: {chunk}" events, the first with the role, text in pieces of
//     [Turn.Piece] bytes, each call opened with its index, id, type and
//     name and empty arguments, its arguments in pieces, a last chunk with
//     an empty delta and the finish_reason, a usage chunk with empty
//     choices when stream_options.include_usage is set, then "data:
//     [DONE]". Non-streaming requests get one chat.completion object.
//   - Faults ([Fault]): HTTP errors before a turn is answered (400, 429
//     with Retry-After, 500: OpenAI's error body), a delay before
//     answering, a stream cut after n events (the connection is aborted),
//     a malformed chunk, and server quirks in how call deltas are
//     numbered ([Quirks]).
//   - The same script answers in the Anthropic and Gemini dialects:
//     POST /v1/messages (a stream is
//     message_start with the input and cache usage, a ping, each block's
//     content_block_start, deltas and content_block_stop — a thinking
//     block with its signature_delta first when the turn has
//     [Turn.Thinking], text_delta pieces, input_json_delta pieces, one
//     empty partial_json for a call without arguments — then
//     message_delta with the stop_reason and output_tokens, and
//     message_stop; non-streaming, one message object), and
//     /v1beta/models/{model}:generateContent and :streamGenerateContent
//     (one response per part, the thought first,
//     calls whole and without ids unless [Quirks.CallIDs], the
//     thoughtSignature on the first call, the last response with the
//     finishReason and the whole usageMetadata). [Server.Dialect] limits
//     a server to one dialect. Errors come in each API's error body.
//   - Signatures are checked on the way back: a request whose history
//     calls a tool the stand-in sent with a thinking block, without that
//     block as it was (Anthropic), or without its thoughtSignature
//     (Gemini), is answered 400 with the API's message. The decoders
//     refuse what the APIs refuse: a tool_use not answered by a
//     tool_result in the next message, a Gemini call turn answered by
//     another number of functionResponse parts, a functionResponse that
//     is not an object.
//   - Every request is decoded (the fields a Chat
//     Completions server reads; malformed bodies get a 400) and kept
//     ([Server.Requests]), tool definitions as the raw bytes sent.
package agenttest
