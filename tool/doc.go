// Package tool defines the contract of the tools that voice and LLM agents
// call, the live call path that delivers their results, typed tools built
// from a Go struct, and the harness tools every scenario shares.
// Python-parity notes and the full rule list: docs/parity/tool.md.
//
// The contract:
//
//   - A [Tool] has a name, a description, JSON Schema properties, a
//     required list, and Execute, which returns the RAW result; replay
//     paths call Execute directly.
//   - The live path, [Call], [CallJSON] (or [Set.Call], [Set.CallJSON];
//     agent.Loop runs a model turn's calls through them), delivers the
//     result exactly once: a Go error or panic becomes {"error": message},
//     an empty result is wrapped in a success envelope, and an
//     [AfterResulter] hook runs only after a successful delivery.
//   - A cancelled context does not stop a call: only a tool that returns
//     the done context's error delivers nothing.
//   - [CallOptions] (nil: defaults) set the logger and NullAsAbsent.
//
// Arguments and results:
//
//   - [DecodeArgs] is the one decoder of a model's raw arguments (Python's
//     json.loads; an object is required); [ArgumentKeys] gives their
//     order to a tool.
//   - [IsError] is the one definition of an error result: "status":
//     "error" ([FailureResult], [ValidationResult], …) or {"error": …}.
//   - Results keep the Python original's key order; results read from
//     the DB keep the DB's ([DB.ReadOrdered]; [state.OrderOf] in [DB.Write]).
//
// Typed tools:
//
//   - [New] builds a tool from a parameters struct and a function: the
//     struct yields the JSON Schema (flat, properties in field order) and
//     the checks (unknown keys, missing keys, JSON types, then rules).
//   - A failed check is a [ValidationResult] for the model, never a Go
//     error or a panic.
//   - Each rule is written once (a validate or a jsonschema tag) and
//     reaches both the schema and the checks; a keyword that would not be
//     checked, or a rule stated twice differently, makes [New] fail with
//     [ErrInvalidParams].
//   - [Options] (nil: defaults) set the state, the error type, lax mode,
//     extra arguments, an after-result hook, and presented Properties (the
//     one explicit exception to "one struct, one schema").
//
// Write tools and signals:
//
//   - A [Recorder] appends a write's action to the state's log and
//     announces it ([ActionApplied]) through the notifier.
//   - A [DB] gives a port of a Python tool its pattern: work under the
//     state's lock, a missing or empty DB answered with the not-loaded
//     result, writes that name what they change, the action recorded
//     after the lock is released.
//   - [ModelDump] is pydantic's model_dump(); [SendExit] sends the
//     "<exit>…</exit>" [TextMessage] that ends a scenario.
//   - [Harness] returns EndConversationTool, TransferToHumanAgentsTool and
//     SendScenarioSummaryTool bound to a scenario's state.
package tool
