// Package schema exports a tool set in the dialects of the big LLM APIs.
// (A model's tool calls run back through the live path with
// [tool.Set.Dispatch].)
//
//   - [OpenAI] and [OpenAIResponses]: function tools for the Chat
//     Completions and Responses APIs; [Strict] rewrites, tool by tool, each
//     schema the way OpenAI's strict mode requires (every object closed,
//     every property required, optional ones nullable, unsupported keywords
//     such as minLength dropped); a tool that cannot be strict (an open
//     object, an untyped value, a type JSON Schema lacks) is exported as it
//     is with "strict": false. A strict model's calls go through
//     [tool.NullAsAbsent], which reads its nulls for optional arguments as
//     absent.
//   - [Anthropic]: Messages API tools ({name, description, input_schema}).
//   - [Gemini]: functionDeclarations, with the JSON Schema keywords Gemini
//     rejects removed and reported, types named as the SDK's Type enum, and
//     no OBJECT with empty properties (Gemini refuses one).
//
// Output is JSON text, one object per tool (Gemini: one object for the
// set): each definition's keys in the API's order and each tool's
// parameters in the order [tool.Schema] keeps (its struct's field order),
// since models read the schema as text. No provider SDK is needed. Every
// dialect carries the same rules — the enums, bounds and lengths a tool
// checks (see package tool) — except what Gemini removes and reports.
package schema
