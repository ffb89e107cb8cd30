// Package schema exports a tool set in the dialects of the big LLM APIs,
// in a form each provider's API and SDK accept. (A model's tool calls run
// back through the live path with [tool.Set.Dispatch].)
//
//   - [OpenAI] and [OpenAIResponses]: function tools for the Chat
//     Completions and Responses APIs; [Options].Strict rewrites, tool by tool, each
//     schema the way OpenAI's strict mode requires (every object closed,
//     every property required, optional ones nullable, unsupported keywords
//     such as minLength dropped); a tool that cannot be strict (an open
//     object, an untyped value, a list without an item schema) is exported
//     as the non-strict export writes it, with "strict": false. A strict model's calls go through
//     [tool.CallOptions].NullAsAbsent, which reads its nulls for optional arguments as
//     absent.
//   - [Anthropic]: Messages API tools ({name, description, input_schema}).
//   - The JSON Schema dialects (OpenAI's, Anthropic's) are valid draft
//     2020-12 for every tool: a Python type name some originals present
//     ("list", "float", "int", "str", "bool", "dict", "tuple", "NoneType")
//     is written as JSON Schema's ("array", "number", …), a type name that
//     is neither is removed (any value), and an array without an item
//     schema gets "items": {} (OpenAI refuses an array without items).
//     [Options].Report lists each change, with the keywords strict mode dropped.
//   - [Gemini]: functionDeclarations for @google/genai and the REST API,
//     with the JSON Schema keywords Gemini rejects removed, types named as
//     the SDK's Type enum, int64 keywords as JSON strings, and
//     propertyOrdering on every object (its properties in the order
//     written: the tool's parameter order at the top level). Gemini
//     refuses an OBJECT without properties and an ARRAY without items: a
//     tool without parameters has no "parameters", and a parameter that
//     is an open map or a list without an item schema is a STRING holding
//     JSON text, which [GeminiArguments] decodes in the model's call. The
//     second result lists every change (removed, renamed, written as
//     JSON text).
//   - [GeminiGo]: the same tool for Google's Go SDK, int64 keywords as JSON
//     numbers, so that it unmarshals into google.golang.org/genai's Tool
//     (tested in the nested module cmd/providers/genaicheck; this
//     module does not depend on the SDK).
//   - The tool's own schema ([tool.Schema], what a bot presents its LLM
//     after NeMo's update_system_prompt, the text vLLM receives) is never
//     changed: the originals' text, "list" and "float" included, stays
//     word for word there. Only these exports rewrite it.
//
// Output is JSON text, one object per tool (Gemini: one object for the
// set): each definition's keys in the API's order and each tool's
// parameters in the order [tool.Schema] keeps (its struct's field order),
// since models read the schema as text. No provider SDK is needed. Every
// dialect carries the same rules — the enums, bounds and lengths a tool
// checks (see package tool) — except what an export changes and reports.
package schema
