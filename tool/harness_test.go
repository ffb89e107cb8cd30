package tool_test

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/internal/toolname"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

// Checklist 100: EndConversationTool acknowledges before it sends the exit.
func TestEndConversationAcknowledgesBeforeExit(t *testing.T) {
	st, rec := newNotifiedState()
	tl := harness(st, "EndConversationTool")
	var atDelivery []int
	var got []any
	require.NoError(t, tool.Call(context.Background(), tl, map[string]any{"ignored": 1}, func(v any) error {
		atDelivery = append(atDelivery, len(rec.messages()))
		got = append(got, v)
		return nil
	}, nil))
	assert.Equal(t, []int{0}, atDelivery)
	assert.Equal(t, `[{"success":true,"message":"Exit message sent."}]`, jsonOf(t, got))
	assert.Equal(t, []any{tool.TextMessage{Text: "<exit>The task is finished.</exit>"}}, rec.messages())
}

// Checklist 103: without a notifier (or a state) signals are no-ops.
func TestHarnessToolsWorkWithoutState(t *testing.T) {
	tools := tool.Harness(nil, nil)
	names := []string{"EndConversationTool", "TransferToHumanAgentsTool", "SendScenarioSummaryTool"}
	args := []map[string]any{nil, {"summary": "s"}, {"message": "m"}}
	require.Len(t, tools, len(names))
	for i, tl := range tools {
		assert.Equal(t, names[i], tl.Name())
		t.Run(tl.Name(), func(t *testing.T) {
			require.NoError(t, toolname.Validate(tl.Name()))
			assert.NotEmpty(t, tl.Description())
			var d delivery
			require.NoError(t, tool.Call(context.Background(), tl, args[i], d.deliver, &tool.CallOptions{Logger: quiet}))
			assert.Len(t, d.got, 1)
		})
	}
	tool.SendExit(context.Background(), nil, "x", nil)
	tool.SendExit(context.Background(), state.New(), "x", nil)
}

func TestTransferToHumanAgents(t *testing.T) {
	st, rec := newNotifiedState()
	st.StartScenario("tau2_airline", st.Notifier())
	tl := harness(st, "TransferToHumanAgentsTool")
	assert.Equal(t, "TransferToHumanAgentsTool", tl.Name())
	assert.Equal(t, []string{"summary"}, tl.Required())
	assert.Equal(t, "string", tl.Properties()["summary"].(map[string]any)["type"])

	var d delivery
	require.NoError(t, tool.Call(context.Background(), tl, map[string]any{"summary": "needs a refund"}, d.deliver, nil))
	assert.Equal(t, `[{"status":"success","message":"Transfer successful"}]`, jsonOf(t, d.got))
	want := state.Action{
		"action_type": "transfer_to_human_agents", "name": "transfer_to_human_agents",
		"arguments": map[string]any{"summary": "needs a refund"},
		"result":    map[string]any{"message": "Transfer successful"},
	}
	assert.Equal(t, []state.Action{want}, st.Actions())
	assert.Equal(t, []any{
		tool.ActionApplied{Type: "action-applied", Action: want, ToolDomain: "tau2_airline"},
		tool.TextMessage{Text: "<exit>Transfer complete.</exit>"},
	}, rec.messages(), "action-applied, then (after delivery) the exit")
	assert.Equal(t,
		`{"type":"action-applied","action":{"action_type":"transfer_to_human_agents","arguments":{"summary":"needs a refund"},"name":"transfer_to_human_agents","result":{"message":"Transfer successful"}},"tool_domain":"tau2_airline"}`,
		jsonOf(t, rec.messages()[0]))
}

// Like the Python tau2 tools, the exit is sent even after a validation
// failure.
func TestTransferExitAfterValidationFailure(t *testing.T) {
	st, rec := newNotifiedState()
	tl := harness(st, "TransferToHumanAgentsTool")
	var d delivery
	require.NoError(t, tool.Call(context.Background(), tl, map[string]any{"summary": 3}, d.deliver, nil))
	require.Len(t, d.got, 1)
	assert.Equal(t, "validation_error", d.got[0].(tool.ValidationResult).ErrorType)
	assert.True(t, tool.IsError(d.got[0]))
	assert.Empty(t, st.Actions(), "a failed call records nothing")
	assert.Equal(t, []any{tool.TextMessage{Text: "<exit>Transfer complete.</exit>"}}, rec.messages())
}

// Checklist 99: the summary is framed by final_response tags and sent
// before the result.
func TestSendScenarioSummary(t *testing.T) {
	st, rec := newNotifiedState()
	tl := harness(st, "SendScenarioSummaryTool")
	var atDelivery int
	var got any
	require.NoError(t, tool.Call(context.Background(), tl, map[string]any{"message": `{"ok": true}`, "extra": 1}, func(v any) error {
		atDelivery, got = len(rec.messages()), v
		return nil
	}, nil))
	assert.Equal(t, 1, atDelivery)
	assert.Equal(t, `{"success":true,"message":"Scenario summary message sent."}`, jsonOf(t, got))
	assert.Equal(t, []any{tool.TextMessage{Text: `<final_response>{"ok": true}</final_response>`}}, rec.messages())
	assert.Equal(t, []string{"message"}, tl.Required())
}

// Checklist 101, 102: unknown action types warn and are still recorded; a
// failing notifier never fails the record.
func TestRecorder(t *testing.T) {
	logger, logs := captureLogs()
	st := state.New()
	st.StartScenario("", notifyFunc(func(context.Context, any) error { return errors.New("socket closed") }))
	r := tool.Recorder{ActionTypes: []string{"known_action"}, Logger: logger}
	r.Record(context.Background(), st, state.Action{"action_type": "known_action", "name": "first"})
	assert.NotContains(t, logs.String(), "outside the domain's action types")
	r.Record(context.Background(), st, state.Action{"action_type": "surprise", "name": "second"})
	assert.Contains(t, logs.String(), "outside the domain's action types")
	assert.Contains(t, logs.String(), "action-applied push failed")
	assert.Equal(t, []state.Action{{"action_type": "known_action", "name": "first"}, {"action_type": "surprise", "name": "second"}}, st.Actions())

	r.Record(context.Background(), nil, state.Action{"action_type": "known_action"})
	assert.Contains(t, logs.String(), "no shared state")
}

// The announced action is a snapshot: later changes to the caller's map do
// not leak into the message or the log.
func TestRecorderSnapshotsTheAction(t *testing.T) {
	st, rec := newNotifiedState()
	a := state.Action{"action_type": "x", "arguments": map[string]any{"k": "v"}}
	tool.Recorder{ActionTypes: []string{"x"}}.Record(context.Background(), st, a)
	a["arguments"].(map[string]any)["k"] = "changed"
	assert.Equal(t, "v", rec.messages()[0].(tool.ActionApplied).Action["arguments"].(map[string]any)["k"])
	assert.Equal(t, "v", st.Actions()[0]["arguments"].(map[string]any)["k"])
}

func TestTextSignals(t *testing.T) {
	st, rec := newNotifiedState()
	tool.SendExit(context.Background(), st, "bye", nil)
	assert.Equal(t, []any{tool.TextMessage{Text: "<exit>bye</exit>"}}, rec.messages())

	logger, logs := captureLogs()
	st.StartScenario("", notifyFunc(func(context.Context, any) error { return errors.New("gone") }))
	tool.SendExit(context.Background(), st, "x", logger)
	assert.Contains(t, logs.String(), "text message push failed")
}

// harness returns the harness tool called name, bound to st.
func harness(st *state.Shared, name string) tool.Tool {
	for _, t := range tool.Harness(st, nil) {
		if t.Name() == name {
			return t
		}
	}
	panic("no harness tool " + name)
}
