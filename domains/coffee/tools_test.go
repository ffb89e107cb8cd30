package coffee_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/domains/coffee"
	"github.com/voiceeval/schematools/registry"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

func newSet(t *testing.T) (*tool.Set, *state.Shared) {
	t.Helper()
	st := state.New()
	st.StartScenario(coffee.Domain, nil)
	st.SetDB(coffee.DB())
	reg := new(registry.Tools)
	require.NoError(t, coffee.Register(reg))
	set, err := reg.NewSet(coffee.Domain, []registry.ToolSpec{
		{Name: coffee.NameGetMenu}, {Name: coffee.NamePlaceOrder}, {Name: coffee.NameOrderStatus}, {Name: coffee.NameCancelOrder},
	}, registry.Deps{State: st})
	require.NoError(t, err)
	return set, st
}

// call runs one tool on the live path and returns its result as JSON.
func call(t *testing.T, set *tool.Set, name, args string) string {
	t.Helper()
	var got []any
	require.NoError(t, set.CallJSON(context.Background(), name, []byte(args), func(v any) error {
		got = append(got, v)
		return nil
	}, nil))
	require.Len(t, got, 1)
	b, err := json.Marshal(got[0])
	require.NoError(t, err)
	return string(b)
}

func TestEmbeddedDB(t *testing.T) {
	db := coffee.DB()
	assert.Len(t, db["menu"], 3)
	assert.Empty(t, db["orders"])
	db["orders"].(map[string]any)["x"] = 1
	assert.Empty(t, coffee.DB()["orders"], "each call returns a fresh copy")
}

func TestSession(t *testing.T) {
	set, st := newSet(t)
	assert.Contains(t, call(t, set, coffee.NameGetMenu, `{}`), `"item_id":"croissant"`)

	assert.Equal(t,
		`{"order_id":"ORD-001","customer":"Ada","items":[{"item_id":"latte","size":"large","quantity":2},{"item_id":"croissant","size":"medium","quantity":1}],"total":11.7,"status":"placed"}`,
		call(t, set, coffee.NamePlaceOrder, `{"customer":"Ada","items":[{"item_id":"latte","size":"large","quantity":2},{"item_id":"croissant","size":"medium","quantity":1}]}`))
	assert.Contains(t, call(t, set, coffee.NameOrderStatus, `{"order_id":"ORD-001"}`), `"status":"placed"`)
	assert.Contains(t, call(t, set, coffee.NameCancelOrder, `{"order_id":"ORD-001","reason":"took too long"}`), `"status":"cancelled"`)

	actions := st.Actions()
	require.Len(t, actions, 2)
	assert.Equal(t, []any{"place_order", "cancel_order"}, []any{actions[0]["action_type"], actions[1]["action_type"]})
	assert.Equal(t, map[string]any{"order_id": "ORD-001", "reason": "took too long"}, actions[1]["arguments"])
}

func TestRefusalsChangeNothing(t *testing.T) {
	set, st := newSet(t)
	before := st.Snapshot()
	tests := []struct{ name, args, want string }{
		{coffee.NamePlaceOrder, `{"customer":"Bo","items":[{"item_id":"tea","size":"small","quantity":1}]}`,
			`{"status":"error","error_type":"not_found","message":"Item tea is not on the menu"}`},
		{coffee.NamePlaceOrder, `{"customer":"Bo","items":[{"item_id":"latte","size":"small","quantity":1},{"item_id":"croissant","size":"large","quantity":1}]}`,
			`{"status":"error","error_type":"not_found","message":"Item croissant does not come in size large"}`},
		{coffee.NamePlaceOrder, `{"customer":"","items":[]}`, `"field":"customer","error":"String should have at least 1 character","type":"min"`},
		{coffee.NameOrderStatus, `{"order_id":"ORD-404"}`, `{"status":"error","error_type":"not_found","message":"Order ORD-404 not found"}`},
		{coffee.NameCancelOrder, `{"order_id":"ORD-404","reason":"changed my mind"}`, `"error_type":"not_found"`},
		{coffee.NameCancelOrder, `{"order_id":"ORD-001","reason":"because"}`, `"error":"Input should be 'changed my mind', 'ordered by mistake' or 'took too long'","type":"oneof"`},
	}
	for _, tt := range tests {
		assert.Contains(t, call(t, set, tt.name, tt.args), tt.want, tt.args)
	}
	assert.Equal(t, before, st.Snapshot())
	assert.Empty(t, st.Actions())
}

func TestCancelTwice(t *testing.T) {
	set, st := newSet(t)
	call(t, set, coffee.NamePlaceOrder, `{"customer":"Ada","items":[{"item_id":"espresso","size":"small","quantity":1}]}`)
	call(t, set, coffee.NameCancelOrder, `{"order_id":"ORD-001","reason":"changed my mind"}`)
	assert.Equal(t,
		`{"status":"error","error_type":"value_error","message":"Order ORD-001 is cancelled and cannot be cancelled"}`,
		call(t, set, coffee.NameCancelOrder, `{"order_id":"ORD-001","reason":"changed my mind"}`))
	assert.Len(t, st.Actions(), 2)
}

// Every tool is constructible with no arguments; without a DB it answers
// with a structured error instead of failing.
func TestZeroArgumentConstructors(t *testing.T) {
	menu, err := coffee.NewGetMenu(nil)
	require.NoError(t, err)
	place, err := coffee.NewPlaceOrder(nil)
	require.NoError(t, err)
	status, err := coffee.NewOrderStatus(nil)
	require.NoError(t, err)
	cancel, err := coffee.NewCancelOrder(nil)
	require.NoError(t, err)
	args := []map[string]any{
		{},
		{"customer": "Ada", "items": []any{map[string]any{"item_id": "latte", "size": "small", "quantity": 1}}},
		{"order_id": "ORD-001"},
		{"order_id": "ORD-001", "reason": "changed my mind"},
	}
	for i, tl := range []tool.Tool{menu, place, status, cancel} {
		res, err := tl.Execute(context.Background(), args[i])
		require.NoError(t, err, tl.Name())
		assert.Equal(t, "db_not_initialized", res.(tool.FailureResult).ErrorType, tl.Name())
	}
}

// get_menu takes the scenario's menu subset; unknown or ill-typed keyword
// arguments are refused when the tool set is built.
func TestMenuOptions(t *testing.T) {
	st := state.New()
	st.SetDB(coffee.DB())
	reg := new(registry.Tools)
	require.NoError(t, coffee.Register(reg))
	set, err := reg.NewSet(coffee.Domain, []registry.ToolSpec{{Name: coffee.NameGetMenu, Args: map[string]any{"items": []any{"espresso"}}}}, registry.Deps{State: st})
	require.NoError(t, err)
	assert.Equal(t, `[{"item_id":"espresso","name":"Espresso","prices":{"large":3.5,"medium":3.0,"small":2.5}}]`, call(t, set, coffee.NameGetMenu, `{}`))

	_, err = reg.NewSet(coffee.Domain, []registry.ToolSpec{
		{Name: coffee.NameGetMenu, Args: map[string]any{"items": "espresso"}},
		{Name: coffee.NamePlaceOrder, Args: map[string]any{"max": 3}},
	}, registry.Deps{State: st})
	assert.ErrorIs(t, err, registry.ErrBadOptions)
	assert.ErrorContains(t, err, `tool 'get_menu': bad keyword arguments: argument "items"`)
	assert.ErrorContains(t, err, `tool 'place_order': bad keyword arguments: got an unexpected keyword argument 'max'`)
}
