// Package agent runs the LLM tool loop of a bot for one user turn, and
// keeps the chat context the way pipecat 1.6.0 keeps it.
//
// # The model
//
//   - [Model] is one stateless call: the history ([Message]) and the tool
//     set in, the assistant's text, its tool calls with their ids, the
//     token usage and the finish reason out ([Response]); text deltas go
//     to [Request.OnText] when the provider streams. Provider adapters
//     (provider/openai) implement it; [ModelFunc] makes a function one.
//   - [Response.Native] is provider-native data (thinking blocks with
//     their signatures, Gemini's thoughtSignature) the provider needs back
//     exactly as sent; the loop keeps it on the response's first assistant
//     message ([Message.Native]), which the context never renders.
//   - [Usage] has the fields of rtvi.Usage, so rtvi.Usage(u)
//     converts one for rtvi's Emitter.LLMResponse (a conversion the caller
//     writes: agent does not import rtvi).
//
// # The loop ([Loop.Turn], [Loop.Run])
//
//   - calls the model; writes the response into the [Context]; runs its
//     calls on the live path ([tool.Set.CallJSON]: unknown tools,
//     malformed arguments, errors and panics become structured results),
//     at most [Loop.Parallel] at once; answers every call exactly once;
//     calls the model again once the whole group is answered; stops on a
//     response without calls, after a group holding a successful end-tool
//     call ([Loop.EndTool], EndConversationTool by default), or at
//     [Loop.MaxSteps] model calls (25 by default; [ErrStepLimit]);
//   - with [Loop.ToolSteps] set, the model calls after the first
//     ToolSteps of a turn forbid tool calls ([Request.NoCalls], tool_choice
//     "none"), so a model that calls tool after tool ends the turn in
//     words; unset, as pipecat, it may call tools until MaxSteps;
//   - a call that does not answer within [Loop.CallTimeout] (10 s by
//     default, NeMo's function_call_timeout_secs) is answered with
//     {"status": "error", "error_type": "timeout", …}; a result that comes
//     later is refused, and its after-result hook does not run;
//   - a cancelled turn answers every unanswered call with "CANCELLED"
//     (pipecat's FunctionCallCancelFrame) before it returns, so every
//     tool_calls message is followed by its tool message;
//   - a call id the response already used, or an empty one, gets an id of
//     its own (id + "_dup2", …) and the result {"status": "error",
//     "error_type": "duplicate_call_id", …}; the call does not run;
//   - [Hooks] report each model call with its usage (one
//     Emitter.LLMResponse per call), each result once it is in the
//     context, and the end of the conversation once the end tool's result
//     is in the context — the moment a bot may send "<exit>". The
//     harness's own end tool sends "<exit>" from its after-result hook,
//     which runs after the result is written. "<exit>" never enters the
//     context.
//
// # The context ([Context])
//
//   - messages as pipecat's LLMContext holds them, each rendered by
//     [Message.MarshalJSON] as Python's json.dumps(message,
//     ensure_ascii=False) writes pipecat's dict: system and user
//     {"role", "content"}; the assistant's text of one response as its own
//     {"role": "assistant", "content"} message, before its calls; per call
//     {"role": "assistant", "tool_calls": [{"id", "function": {"name",
//     "arguments"}, "type": "function"}]} then {"role": "tool", "content",
//     "tool_call_id"}, the content "IN_PROGRESS" until the result replaces
//     it in place;
//   - arguments are re-serialised from an order-keeping decode of the
//     model's text, as json.dumps(json.loads(text), ensure_ascii=False):
//     the model's key order, Python's spacing, non-ASCII kept; "" is
//     "{}"; text that is not JSON is kept as it is;
//   - a result's content is json.dumps(result, ensure_ascii=False), or
//     "COMPLETED" for a falsy one (the live path wraps empty results, so
//     the loop writes none);
//   - [Context] is safe for concurrent use; [Context.CallsInProgress]
//     says when calls are written and not answered (rtviws.Conversation
//     serves a Context to rtvi: get_context_history waits while calls are
//     in progress and then renders the messages); agent does not import
//     rtvi.
package agent
