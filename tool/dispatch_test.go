package tool_test

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

type dispatchOrderParams struct {
	OrderID string `json:"order_id"`
}

// dispatchSet is a small set: a menu, an order lookup that answers a
// domain failure, and an order placement with required arguments.
func dispatchSet(t *testing.T) *tool.Set {
	t.Helper()
	menu, err := tool.New("get_menu", "The menu.", func(context.Context, *state.Shared, struct{}) (any, error) {
		return map[string]any{"latte": 4.5}, nil
	}, nil)
	require.NoError(t, err)
	status, err := tool.New("order_status", "An order's status.", func(_ context.Context, _ *state.Shared, p dispatchOrderParams) (any, error) {
		return tool.Failure("not_found", "Order "+p.OrderID+" not found"), nil
	}, nil)
	require.NoError(t, err)
	place, err := tool.New("place_order", "Place an order.", func(_ context.Context, _ *state.Shared, p lookupParams) (any, error) {
		return "placed", nil
	}, nil)
	require.NoError(t, err)
	set, err := tool.NewSet(menu, status, place)
	require.NoError(t, err)
	return set
}

// callAll runs calls one by one with Set.CallJSON, as agent.Loop does,
// and returns what each delivered.
func callAll(t *testing.T, ctx context.Context, set *tool.Set, calls []tool.ModelCall, opts *tool.CallOptions) ([]any, error) {
	t.Helper()
	out := make([]any, len(calls))
	var errs []error
	for i, c := range calls {
		errs = append(errs, set.CallJSON(ctx, c.Name, []byte(c.Arguments), func(v any) error { out[i] = v; return nil }, opts))
	}
	return out, errors.Join(errs...)
}

// The calls of a model turn through Set.CallJSON: domain failures, unknown
// tools, malformed and empty arguments all give a result.
func TestSetCallJSONTurn(t *testing.T) {
	set := dispatchSet(t)
	calls := []tool.ModelCall{
		{ID: "c1", Name: "get_menu", Arguments: `{}`},
		{ID: "c2", Name: "order_status", Arguments: `{"order_id": "ORD-404"}`},
		{ID: "c3", Name: "refund_order", Arguments: `{}`},
		{ID: "c4", Name: "place_order", Arguments: `{"customer": "Ada",`},
		{ID: "c5", Name: "get_menu", Arguments: ``},
	}
	results, err := callAll(t, context.Background(), set, calls, &tool.CallOptions{Logger: quiet})
	require.NoError(t, err)
	require.Len(t, results, 5)
	for _, r := range results {
		assert.NotNil(t, r)
	}
	assert.Equal(t, tool.FailureResult{Status: "error", ErrorType: "not_found", Message: "Order ORD-404 not found"}, results[1])
	assert.JSONEq(t, `{"status":"error","error_type":"unknown_tool","message":"There is no tool named 'refund_order'. Use one of the available tools instead.","available_tools":["get_menu","order_status","place_order"]}`,
		jsonOf(t, results[2]))
	assert.True(t, tool.IsError(results[2]))
	assert.Equal(t, "json_invalid", results[3].(tool.ValidationResult).Details[0].Type)
	assert.JSONEq(t, `{"latte": 4.5}`, jsonOf(t, results[4]), "empty arguments are no arguments")
}

// A hook failure is reported, and the delivered result is kept.
func TestSetCallJSONHookFailureKeepsTheResult(t *testing.T) {
	tl := returning("ok", nil)
	tl.after = func(context.Context, map[string]any, any) error { return assert.AnError }
	set, err := tool.NewSet(tl)
	require.NoError(t, err)
	results, err := callAll(t, context.Background(), set, []tool.ModelCall{{ID: "1", Name: tl.Name(), Arguments: `{"value": "v"}`}}, &tool.CallOptions{Logger: quiet})
	assert.ErrorIs(t, err, assert.AnError)
	assert.Equal(t, "ok", results[0])
}
