package tool_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

// The parameters struct yields both the JSON Schema the model sees and the
// checks its arguments go through: each rule is written once, in either tag
// language, and reaches both.
func ExampleNew() {
	type params struct {
		City  string `json:"city" jsonschema_description:"City name, e.g. Paris."`
		Days  int    `json:"days,omitempty" validate:"omitempty,min=1,max=7"`
		Units string `json:"units,omitempty" jsonschema:"enum=metric,enum=imperial"`
	}
	forecast, err := tool.New("get_forecast", "Get the weather forecast for a city.",
		func(_ context.Context, _ *state.Shared, p params) (any, error) {
			return map[string]any{"city": p.City, "weather": "sunny"}, nil
		}, nil)
	if err != nil {
		panic(err)
	}
	schema, _ := json.Marshal(tool.Schema(forecast))
	fmt.Println(string(schema))

	res, _ := forecast.Execute(context.Background(), map[string]any{"city": "Paris", "days": 30, "units": "kelvin"})
	out, _ := json.Marshal(res)
	fmt.Println(string(out))
	// Output:
	// {"name":"get_forecast","description":"Get the weather forecast for a city.","parameters":{"type":"object","properties":{"city":{"description":"City name, e.g. Paris.","type":"string"},"days":{"maximum":7,"minimum":1,"type":"integer"},"units":{"enum":["metric","imperial"],"type":"string"}},"required":["city"]}}
	// {"status":"error","error_type":"validation_error","message":"Tool arguments failed validation.","details":[{"field":"days","error":"Input should be less than or equal to 7","type":"max"},{"field":"units","error":"Input should be 'metric' or 'imperial'","type":"enum"}]}
}

// Call is the live path: one delivery per call, empty results wrapped so
// they never read as success, errors turned into {"error": ...}.
func ExampleCall() {
	type params struct {
		Name string `json:"name"`
	}
	find, _ := tool.New("find_customer", "Find customers by name.",
		func(_ context.Context, _ *state.Shared, p params) (any, error) {
			return []any{}, nil // no match
		}, nil)
	deliver := func(v any) error {
		b, _ := json.Marshal(v)
		fmt.Println(string(b))
		return nil
	}
	_ = tool.Call(context.Background(), find, map[string]any{"name": "Ada"}, deliver, nil)
	_ = tool.CallJSON(context.Background(), find, []byte(`{"nme": "Ada"}`), deliver, nil)
	// Output:
	// {"status":"success","results":[],"count":0,"message":"No matching records found."}
	// {"status":"error","error_type":"validation_error","message":"Tool arguments failed validation.","details":[{"field":"nme","error":"Extra inputs are not permitted","type":"extra_forbidden"},{"field":"name","error":"Field required","type":"missing"}]}
}

// A Set answers calls to tools it does not hold with a structured error
// that lists the real ones.
func ExampleSet_Call() {
	set, _ := tool.NewSet(tool.Harness(state.New(), nil)...)
	_ = set.Call(context.Background(), "GetUserOrders", nil, func(v any) error {
		b, _ := json.Marshal(v)
		fmt.Println(string(b))
		return nil
	}, nil)
	// Output:
	// {"status":"error","error_type":"unknown_tool","message":"There is no tool named 'GetUserOrders'. Use one of the available tools instead.","available_tools":["EndConversationTool","SendScenarioSummaryTool","TransferToHumanAgentsTool"]}
}

// A DB runs a tool's work under the state's lock, answers the domain's
// not-loaded result for a missing or empty DB, and records a write's
// action once the lock is released.
func ExampleDB() {
	orders := tool.DB{
		NotLoaded: tool.Failure("db_not_initialized", "Scenario database not loaded."),
		Recorder:  tool.Recorder{ActionTypes: []string{"cancel_order"}},
	}
	cancel := func(ctx context.Context, st *state.Shared, id string) (any, error) {
		return orders.Write(ctx, st, []string{"orders"}, func(db map[string]any) (any, state.Action, error) {
			table, _ := db["orders"].(map[string]any)
			o, ok := table[id].(map[string]any)
			if !ok {
				return tool.Failure("not_found", "Order "+id+" not found"), nil, nil // refused: nothing changed, nothing recorded
			}
			o["status"] = "cancelled"
			return state.Clone(o), state.NewAction("cancel_order", tool.ModelDump(struct {
				OrderID string `json:"order_id"`
			}{id}), map[string]any{"status": "cancelled"}), nil
		})
	}

	ctx := context.Background()
	st := state.New()
	res, _ := cancel(ctx, st, "ORD-1")
	fmt.Println(res)

	st.SetDB(map[string]any{"orders": map[string]any{"ORD-1": map[string]any{"status": "placed"}}})
	res, _ = cancel(ctx, st, "ORD-2")
	fmt.Println(res)
	res, _ = cancel(ctx, st, "ORD-1")
	fmt.Println(res)
	out, _ := json.Marshal(st.Actions())
	fmt.Println(string(out))
	// Output:
	// {error db_not_initialized Scenario database not loaded.}
	// {error not_found Order ORD-2 not found}
	// map[status:cancelled]
	// [{"action_type":"cancel_order","arguments":{"order_id":"ORD-1"},"name":"cancel_order","result":{"status":"cancelled"}}]
}

// CallJSON runs a model's tool call, its arguments as JSON text, and
// delivers one result for it, an error result for arguments it cannot use.
func ExampleSet_CallJSON() {
	set, _ := tool.NewSet(tool.Harness(state.New(), nil)...)
	for _, c := range []tool.ModelCall{
		{ID: "call_1", Name: "SendScenarioSummaryTool", Arguments: `{"message": "done"}`},
		{ID: "call_2", Name: "EndConversationTool", Arguments: `{}`},
		{ID: "call_3", Name: "TransferToHumanAgentsTool", Arguments: `{"summary":`},
	} {
		err := set.CallJSON(context.Background(), c.Name, []byte(c.Arguments), func(result any) error {
			b, _ := json.Marshal(result)
			fmt.Println(c.ID, tool.IsError(result), string(b))
			return nil
		}, nil)
		if err != nil {
			fmt.Println(err)
		}
	}
	// Output:
	// call_1 false {"success":true,"message":"Scenario summary message sent."}
	// call_2 false {"success":true,"message":"Exit message sent."}
	// call_3 true {"status":"error","error_type":"validation_error","message":"Tool arguments failed validation.","details":[{"field":"","error":"Invalid JSON: pyjson: invalid JSON at offset 11: expecting value","type":"json_invalid"}]}
}
