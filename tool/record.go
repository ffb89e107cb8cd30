package tool

import (
	"context"
	"log/slog"
	"slices"

	"github.com/voiceeval/schematools/state"
)

// messageTypeActionApplied is the "type" of an [ActionApplied] message.
const messageTypeActionApplied = "action-applied"

// ActionApplied is the server message announcing a recorded action:
// {"type": "action-applied", "action": {...}, "tool_domain": "..."}. The
// harness replays the action on its shadow DBs.
type ActionApplied struct {
	Type       string       `json:"type"`
	Action     state.Action `json:"action"`
	ToolDomain string       `json:"tool_domain"`
}

// TextMessage is a text server message: {"text": "..."}. Exit and final
// response signals travel as text messages.
type TextMessage struct {
	Text string `json:"text"`
}

// Recorder records the actions of write tools. ActionTypes is the domain's
// vocabulary; a record whose action_type is not in it is logged as a
// warning and still recorded, so a new action type never breaks a tool.
// The zero value records anything (warning on every record) and logs to
// [slog.Default].
type Recorder struct {
	ActionTypes []string
	Logger      *slog.Logger
}

// Record appends a deep copy of a to st's action log, then, when st has a
// notifier, announces it as an [ActionApplied] message carrying st's
// domain. The message is sent synchronously, before Record returns, so the
// order is always action-applied, then the tool's result, then any exit
// signal. A notifier error is logged and swallowed: recording never fails.
// A nil st records nothing.
func (r Recorder) Record(ctx context.Context, st *state.Shared, a state.Action) {
	logger := r.logger()
	if actionType, _ := a["action_type"].(string); !slices.Contains(r.ActionTypes, actionType) {
		logger.WarnContext(ctx, "recording an action_type outside the domain's action types",
			"action_type", a["action_type"], "action_types", r.ActionTypes)
	}
	if st == nil {
		logger.WarnContext(ctx, "no shared state to record the action in", "action_type", a["action_type"])
		return
	}
	st.AppendAction(a)
	n := st.Notifier()
	if n == nil {
		return
	}
	msg := ActionApplied{Type: messageTypeActionApplied, Action: state.Clone(a).(state.Action), ToolDomain: st.Domain()}
	if msg.Action == nil {
		msg.Action = state.Action{}
	}
	if err := n.Notify(ctx, msg); err != nil {
		logger.WarnContext(ctx, "action-applied push failed", "action", a["name"], "err", err)
	}
}

func (r Recorder) logger() *slog.Logger {
	if r.Logger != nil {
		return r.Logger
	}
	return slog.Default()
}

// sendText sends text as a [TextMessage] through st's notifier. Without a
// state or a notifier it does nothing; a notifier error is logged and
// swallowed, as signals are best effort.
func sendText(ctx context.Context, st *state.Shared, text string, logger *slog.Logger) {
	if st == nil {
		return
	}
	n := st.Notifier()
	if n == nil {
		return
	}
	if err := n.Notify(ctx, TextMessage{Text: text}); err != nil {
		if logger == nil {
			logger = slog.Default()
		}
		logger.WarnContext(ctx, "text message push failed", "text", text, "err", err)
	}
}

// SendExit sends the exit signal "<exit>"+text+"</exit>" as a
// [TextMessage] through st's notifier; it tells the harness the scenario
// is over. Send it from an after-result hook, never from Execute, so the
// tool call is committed before the harness tears the session down.
// Without a state or a notifier it does nothing; a notifier error is
// logged (to logger, or [slog.Default] when nil) and swallowed, as signals
// are best effort.
func SendExit(ctx context.Context, st *state.Shared, text string, logger *slog.Logger) {
	sendText(ctx, st, "<exit>"+text+"</exit>", logger)
}

// sendFinalResponse sends "<final_response>"+text+"</final_response>",
// which the harness appends to the agent's final response.
func sendFinalResponse(ctx context.Context, st *state.Shared, text string, logger *slog.Logger) {
	sendText(ctx, st, "<final_response>"+text+"</final_response>", logger)
}
