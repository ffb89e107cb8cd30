package tau2tools_test

import (
	"context"
	"encoding/json"
	"github.com/voiceeval/schematools/domains/internal/tau2orig"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/domains/tau2/tau2tools"
	"github.com/voiceeval/schematools/replay"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

// events records, in order, what the harness would see of a live call:
// server messages through the notifier and the delivered result.
type events struct {
	mu  sync.Mutex
	got []string
}

func (e *events) add(s string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.got = append(e.got, s)
}

func (e *events) Notify(_ context.Context, m any) error {
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	e.add("notify " + string(b))
	return nil
}

func (e *events) deliver(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	e.add("deliver " + string(b))
	return nil
}

func TestTransferRecordsAndExitsAfterDelivery(t *testing.T) {
	st := state.New()
	ev := &events{}
	st.StartScenario("tau2_airline", ev)
	tr, err := tau2tools.NewTransferToHumanAgents("tau2_airline", []string{"transfer_to_human_agents"}, &tool.Options{State: st})
	require.NoError(t, err)
	orig, err := tau2orig.Original("tau2_airline", tau2tools.NameTransferToHumanAgents)
	require.NoError(t, err)
	assert.Equal(t, orig.Description, tr.Description(), "the original's description")
	assert.Equal(t, []string{"summary"}, tr.Required())

	require.NoError(t, tool.Call(context.Background(), tr, map[string]any{"summary": "wants a refund"}, ev.deliver, nil))
	assert.Equal(t, []string{
		`notify {"type":"action-applied","action":{"action_type":"transfer_to_human_agents","arguments":{"summary":"wants a refund"},"name":"transfer_to_human_agents","result":{"message":"Transfer successful"}},"tool_domain":"tau2_airline"}`,
		`deliver {"status":"success","message":"Transfer successful"}`,
		`notify {"text":"\u003cexit\u003eTransfer complete.\u003c/exit\u003e"}`,
	}, ev.got)
	assert.Equal(t, []state.Action{{
		"action_type": "transfer_to_human_agents", "name": "transfer_to_human_agents",
		"arguments": map[string]any{"summary": "wants a refund"}, "result": map[string]any{"message": "Transfer successful"},
	}}, st.Actions())

	// Bad arguments: nothing recorded, the validation result is delivered,
	// and the exit still follows, as in the Python original.
	ev.got = nil
	require.NoError(t, tool.Call(context.Background(), tr, map[string]any{"summary": 5}, ev.deliver, nil))
	require.Len(t, ev.got, 2)
	assert.Contains(t, ev.got[0], `"error_type":"validation_error"`)
	assert.Contains(t, ev.got[1], "Transfer complete.")
	assert.Len(t, st.Actions(), 1)

	// The replay path: the raw result, no exit.
	ev.got = nil
	out, err := replay.Invoke(context.Background(), tr, map[string]any{"summary": "again"})
	require.NoError(t, err)
	assert.Equal(t, tau2tools.StatusResult{Status: "success", Message: "Transfer successful"}, out)
	require.Len(t, ev.got, 1)
	assert.Contains(t, ev.got[0], "action-applied")
}

func TestCalculateTool(t *testing.T) {
	c, err := tau2tools.NewCalculate("tau2_retail", nil)
	require.NoError(t, err)
	ctx := context.Background()
	out, err := replay.Invoke(ctx, c, map[string]any{"expression": "10/3"})
	require.NoError(t, err)
	assert.Equal(t, tau2tools.CalculateResult{Status: "success", Result: "3.33"}, out)
	assert.JSONEq(t, `{"status":"success","result":"3.33"}`, string(mustJSON(t, out)))

	out, err = replay.Invoke(ctx, c, map[string]any{"expression": "1/0"})
	require.NoError(t, err)
	assert.Equal(t, tool.Failure("value_error", "Invalid expression: division by zero"), out)
	out, err = replay.Invoke(ctx, c, map[string]any{"expression": "abc"})
	require.NoError(t, err)
	assert.Equal(t, tool.Failure("value_error", "Invalid characters in expression"), out)

	// pydantic's lax mode: a string stays strict, an unknown key is refused.
	out, err = replay.Invoke(ctx, c, map[string]any{"expression": 12, "x": 1})
	require.NoError(t, err)
	v, ok := out.(tool.ValidationResult)
	require.True(t, ok)
	assert.Equal(t, []tool.Issue{
		{Field: "expression", Error: "Input should be a valid string", Type: "string_type"},
		{Field: "x", Error: "Extra inputs are not permitted", Type: "extra_forbidden"},
	}, v.Details)
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return b
}

// A tau2 tool answers a missing or empty DB with db_not_initialized, and
// its work does not run.
func TestDBNotInitialized(t *testing.T) {
	ctx := context.Background()
	rec := tool.Recorder{ActionTypes: []string{"touch"}}
	for _, db := range []map[string]any{nil, {}} {
		st := state.New()
		if db != nil {
			st.SetDB(db)
		}
		called := false
		out, err := tau2tools.DB(rec).Read(st, func(map[string]any) (any, error) { called = true; return nil, nil })
		require.NoError(t, err)
		assert.Equal(t, tau2tools.DBNotInitialized(), out)
		out, err = tau2tools.DB(rec).Write(ctx, st, nil, func(map[string]any) (any, state.Action, error) {
			called = true
			return nil, nil, nil
		})
		require.NoError(t, err)
		assert.Equal(t, tool.Failure("db_not_initialized", "Scenario database not loaded. This indicates a fixture-loading bug."), out)
		out, err = tau2tools.DB(rec).WriteRecords(ctx, st, nil, func(*state.Writer) (any, state.Action, error) {
			called = true
			return nil, nil, nil
		})
		require.NoError(t, err)
		assert.Equal(t, tau2tools.DBNotInitialized(), out)
		assert.False(t, called)
	}
}

func TestResultShapes(t *testing.T) {
	assert.JSONEq(t, `{"status":"error","error_type":"not_found","message":"User x not found"}`, string(mustJSON(t, tau2tools.NotFound("User x not found"))))
	assert.JSONEq(t, `{"status":"error","error_type":"value_error","message":"m"}`, string(mustJSON(t, tau2tools.ValueError("m"))))
	assert.False(t, tau2tools.Loaded(map[string]any{}))
	assert.True(t, tau2tools.Loaded(map[string]any{"users": map[string]any{}}))
}

// get_user_details is one tool for both domains: the user id matched
// lower-cased, a copy of the record, or not_found naming the id as given.
func TestNewGetUserDetails(t *testing.T) {
	st := state.New()
	tl, err := tau2tools.NewGetUserDetails("tau2_retail", &tool.Options{State: st})
	require.NoError(t, err)
	out, err := replay.Invoke(context.Background(), tl, map[string]any{"user_id": "a"})
	require.NoError(t, err)
	assert.Equal(t, tau2tools.DBNotInitialized(), out)

	st.SetDB(map[string]any{"users": map[string]any{"mia_li_1": map[string]any{"user_id": "mia_li_1"}}})
	out, err = replay.Invoke(context.Background(), tl, map[string]any{"user_id": "MIA_LI_1"})
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"user_id": "mia_li_1"}, out)
	out.(map[string]any)["user_id"] = "changed"
	out, err = replay.Invoke(context.Background(), tl, map[string]any{"user_id": "Nobody"})
	require.NoError(t, err)
	assert.Equal(t, tau2tools.NotFound("User Nobody not found"), out)
	assert.Equal(t, "mia_li_1", st.Snapshot()["users"].(map[string]any)["mia_li_1"].(map[string]any)["user_id"])
}
