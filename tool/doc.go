// Package tool defines the contract of the tools that voice and LLM agents
// call, the live call path that delivers their results, typed tools built
// from a Go struct, and the harness tools every scenario shares.
//
// # The contract
//
// A [Tool] has a name, a description, JSON Schema properties, a required
// list, and Execute, which returns the RAW result. Two paths share Execute:
//
//   - the live path, [Call] (or [Set.Call], [CallJSON], [Set.CallJSON],
//     agent.Loop runs the calls of a model turn through them): a Go error or a
//     panic becomes {"error": message}; an empty result (nil, "", 0, false,
//     an empty list or object) is wrapped in a success envelope so that a
//     model does not read it as nothing; the result is delivered exactly
//     once — a cancelled context does not prevent it, only a tool that
//     returns the done context's error delivers nothing; an
//     [AfterResulter] hook runs only after a successful delivery and never
//     after an error;
//   - replay paths call Execute directly and see the raw shape (a bare empty
//     list stays a bare empty list).
//
// Interfaces the package checks for are declared: [AfterResulter],
// [ErrorTyper], [PropertyOrderer].
//
// # Arguments and results
//
//   - [DecodeArgs] is the one decoder of a model's raw arguments: Python's
//     json.loads (NaN and Infinity accepted, trailing data refused,
//     duplicate keys keep the last), and the value must be an object.
//   - [IsError] is the one definition of an error result: "status":
//     "error" ([FailureResult], [ValidationResult], the unknown-tool
//     result, a domain's own), or exactly {"error": …}.
//   - Results this package produces are structs whose JSON keys come out in
//     the same order as the Python original's dicts; a port's results read
//     from the DB keep the DB's key order when the tool copies them with
//     the state's [state.Order] ([DB.ReadOrdered], [DB.WriteOrdered], the
//     Writer of [DB.WriteRecords]): objects become ordered dicts, which
//     [IsError] and the empty-result envelope treat as maps.
//   - [CallJSON] keeps the key order the model wrote its arguments in, for
//     the call: [ArgumentKeys] gives it to a tool that writes an argument
//     back as text, as Python's json.loads keeps it.
//
// # Typed tools
//
// [New] builds a tool from a parameters struct and a function. The struct
// yields the JSON Schema the model sees (invopop/jsonschema, flat, no $ref,
// properties in field order) and the checks its arguments go through
// before the function runs: unknown keys, missing required keys, JSON type
// mismatches, then the rules. Any failure is a [ValidationResult] value
// for the model, listing every problem with its JSON path — never a Go
// error and never a panic.
//
// Each rule is written once and reaches both the schema and the checks:
//
//   - a `validate` rule (validator/v10) that JSON Schema can express is
//     written into the schema: oneof as enum; min, max, gte, lte, gt, lt
//     and len as minimum/maximum/exclusiveMinimum/exclusiveMaximum for
//     numbers, minLength/maxLength for strings, minItems/maxItems for
//     lists; required as a required key; list items' rules after a dive;
//   - a `jsonschema` rule (enum, minimum, maximum, exclusiveMinimum,
//     exclusiveMaximum, multipleOf, minLength, maxLength, pattern,
//     minItems, maxItems, uniqueItems) is checked, with pydantic's issue
//     types ("enum", "greater_than_equal", "multiple_of",
//     "string_too_short", "string_pattern_mismatch", "too_short", …) —
//     multipleOf as pydantic checks multiple_of (an integer exactly, a
//     float within 1e-9), uniqueItems (which pydantic lacks) by JSON value
//     as "unique_items";
//   - any other `jsonschema` or `jsonschema_extras` keyword, bar the
//     annotations title, description and example and the bare word
//     required, is refused by [New] with [ErrInvalidParams], as is a
//     checked keyword that does not reach the schema (minLength on an
//     integer, minimum=abc): the schema never promises a check that is
//     not made;
//   - a rule written both ways must agree, or [New] fails with
//     [ErrInvalidParams]; rules the schema cannot state (email, or-rules,
//     a rule under omitempty that a zero value skips) are checked only.
//
// [Options].Properties is the one explicit exception: a port that must show
// the original's schema text presents it, and the checks stay the
// struct's.
//
// # Write tools and signals
//
// Tools that change the DB record what they did with a [Recorder]: the
// record is appended to the shared state's action log and announced as an
// [ActionApplied] message through the state's notifier. A [DB] gives a
// port of a Python tool the pattern every such tool follows:
//
//   - its work runs under the state's lock ([DB.Read], [DB.Write]);
//   - a missing or EMPTY DB (Python's "if not db") is answered with the
//     domain's not-loaded result and the work does not run;
//   - a write names what it changes — top-level tables, or the tables
//     whose records it changes through a [state.Writer]
//     ([DB.WriteRecords]) — so a DB shared copy-on-write is never changed;
//   - a write checks everything before it changes anything, and its
//     action is recorded once the lock is released, before the result is
//     delivered; a refused write records nothing.
//
// [ModelDump] is pydantic's model_dump() of a parameters struct, what a
// port of a Python write tool records as the action's arguments.
// [SendExit] sends the "<exit>…</exit>" [TextMessage] the harness ends a
// scenario on.
//
// # Harness tools
//
// [Harness] returns the cross-domain tools of every scenario —
// EndConversationTool, TransferToHumanAgentsTool, SendScenarioSummaryTool —
// bound to a scenario's state.
package tool
