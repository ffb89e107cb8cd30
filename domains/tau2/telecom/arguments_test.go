package telecom

import (
	"context"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/internal/replaytest"
	"github.com/voiceeval/schematools/tool"
)

// Bad arguments give the invalid_arguments result with pydantic's text,
// as the Python tools' str(ValidationError).
func TestInvalidArguments(t *testing.T) {
	url := "\n    For further information visit https://errors.pydantic.dev/2.13/v/"
	for _, tc := range []struct {
		name string
		tool string
		args map[string]any
		want string
	}{
		{"missing", NameGetCustomerByID, map[string]any{},
			"1 validation error for GetCustomerByIdParams\ncustomer_id\n  Field required [type=missing, input_value={}, input_type=dict]" + url + "missing"},
		{"missing and unknown keys: fields first, then unknown keys", NameGetCustomerByName, map[string]any{"name": "Ada", "dob": 19900102},
			"3 validation errors for GetCustomerByNameParams\n" +
				"full_name\n  Field required [type=missing, input_value={'dob': 19900102, 'name': 'Ada'}, input_type=dict]" + url + "missing\n" +
				"dob\n  Input should be a valid string [type=string_type, input_value=19900102, input_type=int]" + url + "string_type\n" +
				"name\n  Extra inputs are not permitted [type=extra_forbidden, input_value='Ada', input_type=str]" + url + "extra_forbidden"},
		{"a number for a string, null for a string", NameSuspendLine, map[string]any{"customer_id": 1001, "line_id": nil, "reason": "x"},
			"2 validation errors for SuspendLineParams\n" +
				"customer_id\n  Input should be a valid string [type=string_type, input_value=1001, input_type=int]" + url + "string_type\n" +
				"line_id\n  Input should be a valid string [type=string_type, input_value=None, input_type=NoneType]" + url + "string_type"},
		{"a float amount that is not a number", NameRefuelData, map[string]any{"customer_id": "C1", "line_id": "L1", "gb_amount": "two"},
			"1 validation error for RefuelDataParams\ngb_amount\n  Input should be a valid number, unable to parse string as a number [type=float_parsing, input_value='two', input_type=str]" + url + "float_parsing"},
		{"a fractional limit", NameGetBillsForCustomer, map[string]any{"customer_id": "C1", "limit": 1.5},
			"1 validation error for GetBillsForCustomerParams\nlimit\n  Input should be a valid integer, got a number with a fractional part [type=int_from_float, input_value=1.5, input_type=float]" + url + "int_from_float"},
		{"an unknown key with a dot is quoted", NameToggleData, map[string]any{"a.b": []any{1, "x", nil, true, 2.5}},
			"1 validation error for ToggleDataParams\n`a.b`\n  Extra inputs are not permitted [type=extra_forbidden, input_value=[1, 'x', None, True, 2.5], input_type=list]" + url + "extra_forbidden"},
		{"a long input is cut as pydantic cuts it", NameCheckAppStatus, map[string]any{"app_name": map[string]any{"k": strings.Repeat("é", 40)}},
			"1 validation error for CheckAppStatusParams\napp_name\n  Input should be a valid string [type=string_type, input_value={'k': 'ééééééééé...ééééééééééé'}, input_type=dict]" + url + "string_type"},
		{"the cut falls on character boundaries", NameCheckAppStatus, map[string]any{"app_name": map[string]any{"k": "a" + strings.Repeat("é", 40)}},
			"1 validation error for CheckAppStatusParams\napp_name\n  Input should be a valid string [type=string_type, input_value={'k': 'aéééééééé...ééééééééééé'}, input_type=dict]" + url + "string_type"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, agentDB(t), userDB(t))
			got := f.Call(t, tc.tool, tc.args)
			assert.Equal(t, tool.Failure(ErrorTypeInvalidArguments, tc.want), got)
			assert.Empty(t, f.agent.Actions())
			assert.Empty(t, f.user.Actions())
		})
	}
}

func TestModelName(t *testing.T) {
	for name, want := range map[string]string{
		NameGetCustomerByID:       "GetCustomerByIdParams",
		NameGetDetailsByID:        "GetDetailsByIdParams",
		NameCanSendMMS:            "CanSendMmsParams",
		NameSetAPNSettings:        "SetApnSettingsParams",
		NameTransferToHumanAgents: "TransferToHumanAgentsParams",
	} {
		assert.Equal(t, want, modelName(name))
	}
}

func TestTruncateRepr(t *testing.T) {
	short := strings.Repeat("a", 50)
	assert.Equal(t, short, truncateRepr(short))
	long := strings.Repeat("a", 30) + strings.Repeat("b", 30)
	assert.Equal(t, strings.Repeat("a", 25)+"..."+strings.Repeat("b", 24), truncateRepr(long))
}

// Nothing the model sends makes a tool panic or fail with a Go error, on
// any DB the tool expects — a good one, an empty one, none.
func TestBadArgumentsNeverPanic(t *testing.T) {
	weird := []map[string]any{
		nil, {}, {"x": 1}, {"customer_id": nil}, {"customer_id": []any{}, "line_id": map[string]any{}},
		{"gb_amount": math.Inf(1)}, {"gb_amount": json.Number("1e400")}, {"gb_amount": "nan"}, {"limit": json.Number("99999999999999999999")},
		{"apn_settings": map[string]any{"mms_port": json.Number("1e3")}}, {"apn_settings": nil}, {"mode": "\x00"},
		{"app_name": "messaging", "permission": "İ"}, {"summary": strings.Repeat("x", 1000)},
	}
	for _, name := range append(AgentToolNames(), UserToolNames()...) {
		for _, args := range append(weird, validArgs[name]) {
			for _, dbs := range [][2]map[string]any{{agentDB(t), userDB(t)}, {{}, {}}, {nil, nil}} {
				f := newFixture(t, dbs[0], dbs[1])
				require.NotPanics(t, func() {
					_, err := f.Tools[name].Execute(context.Background(), args)
					assert.NoError(t, err, "%s(%v)", name, args)
				}, "%s(%v)", name, args)
			}
		}
	}
}

// A DB of the wrong shape is the Go error the Python tool would raise,
// never a panic; a refused write changes nothing.
func TestBadDBsNeverPanic(t *testing.T) {
	shapes := []func(a, u map[string]any){
		func(a, u map[string]any) { a["customers"], u["device"] = nil, nil },
		func(a, u map[string]any) { a["lines"], u["surroundings"] = "lines", "x" },
		func(a, u map[string]any) { a["bills"], a["plans"] = map[string]any{"B1": 1}, []any{1, nil} },
		func(a, u map[string]any) {
			a["customers"].([]any)[0].(map[string]any)["line_ids"] = nil
			delete(u["device"].(map[string]any), "airplane_mode")
		},
		func(a, u map[string]any) {
			delete(a["lines"].([]any)[0].(map[string]any), "status")
			u["device"].(map[string]any)["app_statuses"] = []any{}
			u["device"].(map[string]any)["active_apn_settings"] = nil
		},
		func(a, u map[string]any) {
			a["bills"].([]any)[2].(map[string]any)["line_items"] = "none"
			u["surroundings"].(map[string]any)["signal_strength"] = []any{}
			u["surroundings"].(map[string]any)["payment_request"] = "B1"
		},
	}
	for i, shape := range shapes {
		for _, name := range append(AgentToolNames(), UserToolNames()...) {
			a, u := agentDB(t), userDB(t)
			shape(a, u)
			f := newFixture(t, a, u)
			beforeA, beforeU := replaytest.Canon(t, f.agent.Snapshot()), replaytest.Canon(t, f.user.Snapshot())
			var out any
			var err error
			require.NotPanics(t, func() { out, err = f.Tools[name].Execute(context.Background(), validArgs[name]) }, "shape %d, %s", i, name)
			if err != nil || len(f.agent.Actions())+len(f.user.Actions()) == 0 {
				assert.Equal(t, beforeA, replaytest.Canon(t, f.agent.Snapshot()), "shape %d, %s: %v %v", i, name, out, err)
				assert.Equal(t, beforeU, replaytest.Canon(t, f.user.Snapshot()), "shape %d, %s: %v %v", i, name, out, err)
			}
		}
	}
}
