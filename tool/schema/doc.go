// Package schema exports a tool set in the dialects of the big LLM APIs,
// and runs a model's tool calls back through the live call path.
//
//   - [OpenAI] and [OpenAIResponses]: function tools for the Chat
//     Completions and Responses APIs; [Strict] rewrites each schema the way
//     OpenAI's strict mode requires (every object closed, every property
//     required, optional ones nullable) and refuses, naming the property,
//     what cannot be made strict (open objects, untyped values).
//   - [Anthropic]: Messages API tools ({name, description, input_schema}).
//   - [Gemini]: functionDeclarations, with the JSON Schema keywords Gemini
//     rejects removed and reported.
//   - [Dispatch]: the model's tool calls of one turn, run concurrently with
//     a bound through [tool.Set.CallJSON], each result delivered exactly
//     once and returned in the model's order, keyed by call id.
//
// Output is plain JSON trees (maps and slices): no provider SDK is needed.
package schema
