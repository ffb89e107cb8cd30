package schematools_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
	"github.com/voiceeval/schematools/tool/schema"
)

// TestReadmeTour is the README's "A tour of the API", as written there:
// the example tool writes each rule once (an enum and a length bound), its
// exported OpenAI schema shows the enum and the bounds, and the tool
// refuses what that schema refuses.
func TestReadmeTour(t *testing.T) {
	ctx := context.Background()
	var delivered []any
	sendToModel := func(result any) error { delivered = append(delivered, result); return nil }

	// --- the tour ---
	st := state.New() // one shared state per scenario: DB, action log, notifier
	st.SetDB(map[string]any{"orders": map[string]any{}})

	type params struct { // one struct = JSON Schema + checks; each rule written once
		OrderID string `json:"order_id" jsonschema_description:"The order id, e.g. ORD-001." validate:"min=7,max=12"`
		Reason  string `json:"reason" jsonschema:"enum=changed my mind,enum=took too long"`
	}
	cancel, err := tool.New("cancel_order", "Cancel a placed order.",
		func(ctx context.Context, st *state.Shared, p params) (any, error) {
			// read and write the DB under st.View / st.UpdateTables, or a tool.DB's Read / Write,
			// which also answer a missing DB and record the action once the lock is released
			return map[string]any{"order_id": p.OrderID, "status": "cancelled"}, nil
		}, &tool.Options{State: st})
	require.NoError(t, err)

	set, err := tool.NewSet(append(tool.Harness(st, nil), cancel)...) // + EndConversationTool & co.
	require.NoError(t, err)
	defs, err := schema.OpenAI([]tool.Tool{cancel}, nil) // what the model sees: the enum, minLength 7, maxLength 12
	require.NoError(t, err)

	// The live path: one delivery per call (none if the tool returns ctx's error). Bad arguments,
	// unknown tools, Go errors and panics all become structured results for the model.
	err = set.CallJSON(ctx, "cancel_order", []byte(`{"order_id": "ORD-001", "reason": "took too long"}`), func(result any) error {
		return sendToModel(result)
	}, nil)
	require.NoError(t, err)
	// --- end of the tour ---

	assert.JSONEq(t, `{"type": "function", "function": {"name": "cancel_order", "description": "Cancel a placed order.",
		"parameters": {"type": "object", "properties": {
			"order_id": {"type": "string", "description": "The order id, e.g. ORD-001.", "minLength": 7, "maxLength": 12},
			"reason": {"type": "string", "enum": ["changed my mind", "took too long"]}},
		"required": ["order_id", "reason"]}}}`, string(defs[0]))
	assert.Equal(t, []any{map[string]any{"order_id": "ORD-001", "status": "cancelled"}}, delivered)

	// The checks refuse what the schema refuses.
	require.NoError(t, set.CallJSON(ctx, "cancel_order", []byte(`{"order_id": "ORD-1", "reason": "bored"}`), sendToModel, nil))
	assert.Equal(t, []tool.Issue{
		{Field: "order_id", Error: "String should have at least 7 characters", Type: "min"},
		{Field: "reason", Error: "Input should be 'changed my mind' or 'took too long'", Type: "enum"},
	}, delivered[1].(tool.ValidationResult).Details)
}
