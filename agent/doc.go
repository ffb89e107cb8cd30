// Package agent runs a bot's LLM tool loop for one user turn over any
// [Model], and keeps the chat context as pipecat 1.6.0 keeps it.
//
// # Model
//
//   - [Model] is one stateless call: a [Request] (the context's messages,
//     the tool set, NoCalls) in, a [Response] (text, calls as
//     tool.ModelCall, [Usage], finish reason) out; text deltas go to
//     Request.OnText. provider/openai, provider/anthropic and
//     provider/gemini implement it; [ModelFunc] makes a function one.
//   - [Response.Native] is provider data to send back exactly as
//     received (thinking blocks, thought signatures); the loop keeps it on
//     the response's first assistant message ([Message.Native]), which is
//     never rendered.
//   - [Usage] has the fields of rtvi.Usage, so rtvi.Usage(u) converts it
//     (agent does not import rtvi); Usage.Missing marks a response that
//     carried none.
//   - [RepairTextCalls] turns calls a small model writes as JSON text into
//     calls; it is off unless a caller wraps its model.
//
// # Loop ([Loop.Turn], [Loop.Run])
//
//   - Calls the model, writes its text and calls into the [Context], runs
//     the calls through tool.Set.CallJSON (at most Loop.Parallel at once),
//     answers every call exactly once, then calls the model again.
//   - Stops on a response without calls, after a group holding a
//     successful call of Loop.EndTool (TurnResult.Ended), or after
//     Loop.MaxSteps model calls ([ErrStepLimit]); the context is complete
//     in every case, a model error or a cancelled turn included.
//   - With Loop.ToolSteps > 0, the model calls after the first ToolSteps
//     of a turn forbid calls (Request.NoCalls).
//   - A call not answered within Loop.CallTimeout is answered with a
//     timeout error result and a later result is refused; a cancelled turn
//     answers its open calls with "CANCELLED"; a repeated or empty call id
//     is renamed and answered with a duplicate_call_id error, unrun.
//   - [Hooks]: OnText per delta, OnResponse per model call (with its
//     usage), OnResult once a result is in the context, OnEnd once the end
//     tool's result is in (when a bot may send "<exit>", which never
//     enters the context).
//   - A Loop's fields are set before its first turn; one Loop runs one
//     turn at a time.
//
// # Context ([Context], [Message])
//
//   - Holds the messages in pipecat's shape: a response's text as its own
//     assistant message, then per call an assistant message with its
//     tool_calls and a tool message, "IN_PROGRESS" until the result
//     replaces it in place.
//   - [Message.MarshalJSON] writes a message byte for byte as pipecat's
//     Python does (json.dumps, ensure_ascii=False); call arguments are
//     written as [ContextArguments] returns them, results as
//     [ResultContent] does ("COMPLETED" for a falsy one).
//   - Safe for concurrent use; [Context.CallsInProgress] says whether a
//     written call is not answered yet.
//
// The details of each point against pipecat and NeMo are in
// docs/parity/agent.md.
package agent
