package telecom_test

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/voiceeval/schematools/domains/tau2/tau2tools"

	"github.com/voiceeval/schematools/dbhash"
	"github.com/voiceeval/schematools/domains/tau2/telecom"
	"github.com/voiceeval/schematools/registry"
	"github.com/voiceeval/schematools/replay"
	"github.com/voiceeval/schematools/state"
)

// An agent-side bot: the telecom tools registered, one scenario's state
// and clock, three live calls. A refusal and bad arguments are results for
// the model, worded as the Python tools word them.
func Example() {
	db, _ := dbhash.Decode([]byte(`{"customers": [{"customer_id": "C1", "line_ids": ["L1"], "bill_ids": []}],
		"lines": [{"line_id": "L1", "status": "Active", "suspension_start_date": null}]}`))
	st := state.New()
	st.SetDB(db.(map[string]any))
	reg := new(registry.Tools)
	if err := telecom.Register(reg); err != nil {
		panic(err)
	}
	set, err := reg.NewSet(telecom.Domain, []registry.ToolSpec{{Name: telecom.NameSuspendLine}},
		registry.Deps{State: st, Clock: replay.FixedClock(tau2tools.ReferenceDate())})
	if err != nil {
		panic(err)
	}
	deliver := func(result any) error {
		b, _ := json.Marshal(result)
		fmt.Println(string(b))
		return nil
	}
	ctx := context.Background()
	args := []byte(`{"customer_id": "C1", "line_id": "L1", "reason": "travelling"}`)
	_ = set.CallJSON(ctx, telecom.NameSuspendLine, args, deliver, nil)
	_ = set.CallJSON(ctx, telecom.NameSuspendLine, args, deliver, nil)
	_ = set.CallJSON(ctx, telecom.NameSuspendLine, []byte(`{"customer_id": "C1"}`), deliver, nil)
	// Output:
	// {"message":"Line suspended successfully. $5/month holding fee will apply.","line":{"line_id":"L1","status":"Suspended","suspension_start_date":"2025-02-25"}}
	// {"status":"error","error_type":"tool_error","message":"Line must be active to suspend"}
	// {"status":"error","error_type":"invalid_arguments","message":"2 validation errors for SuspendLineParams\nline_id\n  Field required [type=missing, input_value={'customer_id': 'C1'}, input_type=dict]\n    For further information visit https://errors.pydantic.dev/2.13/v/missing\nreason\n  Field required [type=missing, input_value={'customer_id': 'C1'}, input_type=dict]\n    For further information visit https://errors.pydantic.dev/2.13/v/missing"}
}

// The gold replay of a telecom task: the user's phone starts in airplane
// mode; the gold action turns it off. The sync brings the agent's line
// state to the phone after every action.
func ExampleScenario() {
	agentDB, _ := dbhash.Decode([]byte(`{"plans": [{"plan_id": "P1", "data_limit_gb": 5.0}],
		"customers": [{"customer_id": "C1", "phone_number": "555-0001", "line_ids": ["L1"], "bill_ids": []}],
		"lines": [{"line_id": "L1", "phone_number": "555-0001", "status": "Active", "plan_id": "P1",
			"roaming_enabled": false, "data_used_gb": 1.0, "data_refueling_gb": 0.0}], "bills": []}`))
	userDB, _ := dbhash.Decode([]byte(`{"device": {"sim_card_status": "active", "sim_card_missing": false, "airplane_mode": false,
		"network_signal_strength": "good", "network_technology_connected": "4G", "network_connection_status": "connected",
		"battery_level": 60, "data_enabled": true, "data_saver_mode": false, "roaming_enabled": false, "network_mode_preference": "4g_only",
		"active_apn_settings": {"apn_name": "internet"}, "wifi_enabled": false, "wifi_connected": false, "wifi_ssid": null,
		"wifi_signal_strength": "none", "vpn_connected": false, "vpn_details": null},
		"surroundings": {"phone_number": null, "is_abroad": false, "signal_strength": {"4G": "fair"}, "line_active": true,
		"roaming_allowed": false, "mobile_data_usage_exceeded": false, "payment_request": null}}`))
	var task replay.Task
	_ = json.Unmarshal([]byte(`{"id": "airplane", "initial_state": {"initialization_actions": [
		{"env_type": "user", "func_name": "set_user_info", "arguments": {"name": "Ada", "phone_number": "555-0001"}},
		{"env_type": "user", "func_name": "turn_airplane_mode_on", "arguments": {}}]},
		"evaluation_criteria": {"actions": [{"action_id": "0", "requestor": "user", "name": "toggle_airplane_mode", "arguments": {}}]}}`), &task)

	res, err := replay.Gold(context.Background(), telecom.Scenario(task, state.NewSource(agentDB.(map[string]any)), state.NewSource(userDB.(map[string]any))))
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Steps[0].Result)
	b, _ := json.Marshal(res.Actions)
	fmt.Println(string(b))
	fmt.Println(res.UserDB["surroundings"].(map[string]any)["mobile_data_usage_exceeded"], len(res.Errors))
	// Output:
	// Airplane Mode is now OFF.
	// Status Bar: 📶² Fair | 4G | 📱 Data Enabled | 🔋 60%
	// [{"action_type":"toggle_airplane_mode","arguments":{},"name":"toggle_airplane_mode","result":{"airplane_mode":false},"side":"user"}]
	// false 0
}
