package telecom

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/internal/pyvalue"
	"github.com/voiceeval/schematools/internal/replaytest"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

// readCase is one call of a read tool on a fresh copy of the test DBs and
// its raw result, as JSON.
type readCase struct {
	name string
	tool string
	args map[string]any
	want string
}

func runReads(t *testing.T, cases []readCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, agentDB(t), userDB(t))
			before := replaytest.Canon(t, f.agent.Snapshot())
			replaytest.RequireJSON(t, tc.want, f.Call(t, tc.tool, tc.args))
			assert.Equal(t, before, replaytest.Canon(t, f.agent.Snapshot()), "a read changed the DB")
			assert.Empty(t, f.agent.Actions(), "a read recorded an action")
		})
	}
}

const (
	customerC1 = `{"customer_id": "C1", "full_name": "Ada Lovelace", "date_of_birth": "1990-01-02", "phone_number": "555-0001",
		"line_ids": ["L1", "L2"], "bill_ids": ["B1", "B2", "B3"]}`
	customerC2 = `{"customer_id": "C2", "full_name": "ada lovelace", "date_of_birth": "1991-03-04", "phone_number": "555-0100",
		"line_ids": ["L3", "L9"], "bill_ids": ["B4", "B404"]}`
	billB1 = `{"bill_id": "B1", "customer_id": "C1", "period_start": "2025-01-01", "period_end": "2025-01-31", "issue_date": "2025-02-01",
		"total_due": 50.0, "due_date": "2025-02-15", "line_items": [], "status": "Paid"}`
	billB2 = `{"bill_id": "B2", "customer_id": "C1", "period_start": "2025-02-01", "period_end": "2025-02-28", "issue_date": "2025-03-01",
		"total_due": 65.5, "due_date": "2025-03-15", "line_items": [], "status": "Issued"}`
	billB3 = `{"bill_id": "B3", "customer_id": "C1", "period_start": "2025-03-01", "period_end": "2025-03-31", "issue_date": "2025-04-01",
		"total_due": 0, "due_date": "2025-04-15", "line_items": [], "status": "Draft"}`
	billB4 = `{"bill_id": "B4", "customer_id": "C2", "period_start": "2025-01-01", "period_end": "2025-01-31", "issue_date": "2025-02-01",
		"total_due": 30.0, "due_date": "2025-02-15", "line_items": [], "status": "Awaiting Payment"}`
)

func TestAgentLookups(t *testing.T) {
	runReads(t, []readCase{
		{"by phone: contact number", NameGetCustomerByPhone, map[string]any{"phone_number": "555-0001"}, customerC1},
		{"by phone: a line's number", NameGetCustomerByPhone, map[string]any{"phone_number": "555-0002"}, customerC1},
		{"by phone: another customer's line", NameGetCustomerByPhone, map[string]any{"phone_number": "555-0003"}, customerC2},
		{"by phone: unknown", NameGetCustomerByPhone, map[string]any{"phone_number": "555-9999"},
			`{"status": "error", "error_type": "tool_error", "message": "Customer with phone number 555-9999 not found"}`},
		{"by id", NameGetCustomerByID, map[string]any{"customer_id": "C2"}, customerC2},
		{"by id: unknown", NameGetCustomerByID, map[string]any{"customer_id": "C9"},
			`{"status": "error", "error_type": "tool_error", "message": "Customer with ID C9 not found"}`},
		{"by name: case does not matter", NameGetCustomerByName, map[string]any{"full_name": "ADA LOVELACE", "dob": "1990-01-02"}, "[" + customerC1 + "]"},
		{"by name: the date of birth tells apart", NameGetCustomerByName, map[string]any{"full_name": "Ada Lovelace", "dob": "1991-03-04"}, "[" + customerC2 + "]"},
		{"by name: none is an empty list", NameGetCustomerByName, map[string]any{"full_name": "Ada Lovelace", "dob": "2000-01-01"}, "[]"},
		{"details: line", NameGetDetailsByID, map[string]any{"id": "L4"},
			`{"line_id": "L4", "phone_number": "555-0004", "status": "Pending Activation", "plan_id": "P2", "data_used_gb": 0, "data_refueling_gb": 0, "roaming_enabled": false}`},
		{"details: device", NameGetDetailsByID, map[string]any{"id": "D1"},
			`{"device_id": "D1", "device_type": "phone", "model": "Phone X", "imei": "123", "is_esim_capable": true, "activated": true}`},
		{"details: bill", NameGetDetailsByID, map[string]any{"id": "B4"}, billB4},
		{"details: customer", NameGetDetailsByID, map[string]any{"id": "C2"}, customerC2},
		{"details: plan", NameGetDetailsByID, map[string]any{"id": "P2"},
			`{"plan_id": "P2", "name": "Whole", "data_limit_gb": 5, "price_per_month": 30, "data_refueling_price_per_gb": 3}`},
		{"details: unknown prefix", NameGetDetailsByID, map[string]any{"id": "X1"},
			`{"status": "error", "error_type": "tool_error", "message": "Unknown ID format or type: X1"}`},
		{"details: empty id", NameGetDetailsByID, map[string]any{"id": ""},
			`{"status": "error", "error_type": "tool_error", "message": "Unknown ID format or type: "}`},
		{"details: lower-case prefix", NameGetDetailsByID, map[string]any{"id": "l1"},
			`{"status": "error", "error_type": "tool_error", "message": "Unknown ID format or type: l1"}`},
		{"details: not found", NameGetDetailsByID, map[string]any{"id": "L404"},
			`{"status": "error", "error_type": "tool_error", "message": "Object with ID L404 not found"}`},
	})
}

func TestGetBillsForCustomer(t *testing.T) {
	all := "[" + billB3 + "," + billB2 + "," + billB1 + "]"
	runReads(t, []readCase{
		{"newest first", NameGetBillsForCustomer, map[string]any{"customer_id": "C1"}, all},
		{"limit", NameGetBillsForCustomer, map[string]any{"customer_id": "C1", "limit": 2}, "[" + billB3 + "," + billB2 + "]"},
		{"limit as pydantic reads a string", NameGetBillsForCustomer, map[string]any{"customer_id": "C1", "limit": "1"}, "[" + billB3 + "]"},
		{"negative limit: Python's slice", NameGetBillsForCustomer, map[string]any{"customer_id": "C1", "limit": -1}, "[" + billB3 + "," + billB2 + "]"},
		{"large negative limit", NameGetBillsForCustomer, map[string]any{"customer_id": "C1", "limit": -7}, "[]"},
		{"zero limit", NameGetBillsForCustomer, map[string]any{"customer_id": "C1", "limit": 0}, "[]"},
		{"missing bills are skipped", NameGetBillsForCustomer, map[string]any{"customer_id": "C2"}, "[" + billB4 + "]"},
		{"no bills", NameGetBillsForCustomer, map[string]any{"customer_id": "C3"}, "[]"},
		{"unknown customer", NameGetBillsForCustomer, map[string]any{"customer_id": "C9"},
			`{"status": "error", "error_type": "tool_error", "message": "Customer with ID C9 not found"}`},
		{"null limit is refused, as pydantic refuses None", NameGetBillsForCustomer, map[string]any{"customer_id": "C1", "limit": nil},
			`{"status": "error", "error_type": "invalid_arguments", "message": "1 validation error for GetBillsForCustomerParams\nlimit\n  Input should be a valid integer [type=int_type, input_value=None, input_type=NoneType]\n    For further information visit https://errors.pydantic.dev/2.13/v/int_type"}`},
		{"null limit and a missing id, in field order", NameGetBillsForCustomer, map[string]any{"limit": nil},
			`{"status": "error", "error_type": "invalid_arguments", "message": "2 validation errors for GetBillsForCustomerParams\ncustomer_id\n  Field required [type=missing, input_value={'limit': None}, input_type=dict]\n    For further information visit https://errors.pydantic.dev/2.13/v/missing\nlimit\n  Input should be a valid integer [type=int_type, input_value=None, input_type=NoneType]\n    For further information visit https://errors.pydantic.dev/2.13/v/int_type"}`},
	})
}

func TestGetDataUsage(t *testing.T) {
	runReads(t, []readCase{
		{"the cycle ends on the last day of the clock's month", NameGetDataUsage, map[string]any{"customer_id": "C1", "line_id": "L1"},
			`{"line_id": "L1", "data_used_gb": 3.0, "data_limit_gb": 10.0, "data_refueling_gb": 0.0, "cycle_end_date": "2025-02-28"}`},
		{"plan missing", NameGetDataUsage, map[string]any{"customer_id": "C2", "line_id": "L3"},
			`{"status": "error", "error_type": "tool_error", "message": "Plan P404 not found for line L3"}`},
		{"line of another customer", NameGetDataUsage, map[string]any{"customer_id": "C1", "line_id": "L3"},
			`{"status": "error", "error_type": "tool_error", "message": "Line L3 not found for customer C1"}`},
		{"line missing", NameGetDataUsage, map[string]any{"customer_id": "C2", "line_id": "L9"},
			`{"status": "error", "error_type": "tool_error", "message": "Line with ID L9 not found"}`},
		{"customer missing", NameGetDataUsage, map[string]any{"customer_id": "C9", "line_id": "L1"},
			`{"status": "error", "error_type": "tool_error", "message": "Customer with ID C9 not found"}`},
	})

	f := newFixture(t, agentDB(t), nil)
	f.Tools, _ = Tools(replayEnv(f, fixedAt(2024, 12, 3)))
	replaytest.RequireJSON(t, `{"line_id": "L1", "data_used_gb": 3.0, "data_limit_gb": 10.0, "data_refueling_gb": 0.0, "cycle_end_date": "2024-12-31"}`,
		f.Call(t, NameGetDataUsage, map[string]any{"customer_id": "C1", "line_id": "L1"}))
}

// writeCase is one call of a write tool on a fresh copy of the test DBs:
// its raw result, the record it appends (none when empty), and a check of
// the DB afterwards.
type writeCase struct {
	name   string
	tool   string
	args   map[string]any
	want   string
	record string
	check  func(t *testing.T, f *fixture)
}

func runWrites(t *testing.T, side func(f *fixture) *state.Shared, cases []writeCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, agentDB(t), userDB(t))
			st := side(f)
			before := replaytest.Canon(t, st.Snapshot())
			replaytest.RequireJSON(t, tc.want, f.Call(t, tc.tool, tc.args))
			if tc.record == "" {
				assert.Empty(t, st.Actions(), "a refused call recorded an action")
				assert.Equal(t, before, replaytest.Canon(t, st.Snapshot()), "a refused call changed the DB")
			} else {
				require.Len(t, st.Actions(), 1)
				replaytest.RequireJSON(t, tc.record, lastRecord(t, st))
			}
			if tc.check != nil {
				tc.check(t, f)
			}
		})
	}
}

func agentState(f *fixture) *state.Shared { return f.agent }

func TestAgentLineWrites(t *testing.T) {
	runWrites(t, agentState, []writeCase{
		{"suspend an active line", NameSuspendLine, map[string]any{"customer_id": "C1", "line_id": "L1", "reason": "travel"},
			`{"message": "Line suspended successfully. $5/month holding fee will apply.", "line": {"line_id": "L1", "phone_number": "555-0001",
			"status": "Suspended", "plan_id": "P1", "device_id": "D1", "data_used_gb": 3.0, "data_refueling_gb": 0.0, "roaming_enabled": false,
			"suspension_start_date": "2025-02-25"}}`,
			`{"action_type": "suspend_line", "name": "suspend_line", "arguments": {"customer_id": "C1", "line_id": "L1", "reason": "travel"},
			"result": {"line_id": "L1", "status": "Suspended"}}`, nil},
		{"suspend a suspended line", NameSuspendLine, map[string]any{"customer_id": "C1", "line_id": "L2", "reason": "x"},
			`{"status": "error", "error_type": "tool_error", "message": "Line must be active to suspend"}`, "", nil},
		{"suspend another customer's line", NameSuspendLine, map[string]any{"customer_id": "C3", "line_id": "L1", "reason": "x"},
			`{"status": "error", "error_type": "tool_error", "message": "Line L1 not found for customer C3"}`, "", nil},
		{"resume a suspended line", NameResumeLine, map[string]any{"customer_id": "C1", "line_id": "L2"},
			`{"message": "Line resumed successfully", "line": {"line_id": "L2", "phone_number": "555-0002", "status": "Active", "plan_id": "P1",
			"data_used_gb": 1.5, "data_refueling_gb": 0.0, "roaming_enabled": true, "suspension_start_date": null}}`,
			`{"action_type": "resume_line", "name": "resume_line", "arguments": {"customer_id": "C1", "line_id": "L2"},
			"result": {"line_id": "L2", "status": "Active"}}`, nil},
		{"resume a line pending activation", NameResumeLine, map[string]any{"customer_id": "C3", "line_id": "L4"},
			`{"message": "Line resumed successfully", "line": {"line_id": "L4", "phone_number": "555-0004", "status": "Active", "plan_id": "P2",
			"data_used_gb": 0, "data_refueling_gb": 0, "roaming_enabled": false, "suspension_start_date": null}}`,
			`{"action_type": "resume_line", "name": "resume_line", "arguments": {"customer_id": "C3", "line_id": "L4"},
			"result": {"line_id": "L4", "status": "Active"}}`, nil},
		{"resume an active line", NameResumeLine, map[string]any{"customer_id": "C1", "line_id": "L1"},
			`{"status": "error", "error_type": "tool_error", "message": "Line must be suspended to resume"}`, "", nil},
		{"enable roaming", NameEnableRoaming, map[string]any{"customer_id": "C1", "line_id": "L1"}, `"Roaming enabled successfully"`,
			`{"action_type": "enable_roaming", "name": "enable_roaming", "arguments": {"customer_id": "C1", "line_id": "L1"}, "result": {"roaming_enabled": true}}`,
			func(t *testing.T, f *fixture) { assert.Equal(t, true, at(t, f.agent, "lines", 0, "roaming_enabled")) }},
		{"enable roaming twice", NameEnableRoaming, map[string]any{"customer_id": "C1", "line_id": "L2"}, `"Roaming was already enabled"`, "", nil},
		{"disable roaming", NameDisableRoaming, map[string]any{"customer_id": "C1", "line_id": "L2"}, `"Roaming disabled successfully"`,
			`{"action_type": "disable_roaming", "name": "disable_roaming", "arguments": {"customer_id": "C1", "line_id": "L2"}, "result": {"roaming_enabled": false}}`,
			func(t *testing.T, f *fixture) { assert.Equal(t, false, at(t, f.agent, "lines", 1, "roaming_enabled")) }},
		{"disable roaming twice", NameDisableRoaming, map[string]any{"customer_id": "C1", "line_id": "L1"}, `"Roaming was already disabled"`, "", nil},
		{"roaming on a missing line", NameEnableRoaming, map[string]any{"customer_id": "C2", "line_id": "L9"},
			`{"status": "error", "error_type": "tool_error", "message": "Line with ID L9 not found"}`, "", nil},
	})
}

func TestSendPaymentRequest(t *testing.T) {
	runWrites(t, agentState, []writeCase{
		{"request", NameSendPaymentRequest, map[string]any{"customer_id": "C1", "bill_id": "B2"},
			`"Payment request sent to the customer for bill B2"`,
			`{"action_type": "send_payment_request", "name": "send_payment_request", "arguments": {"customer_id": "C1", "bill_id": "B2"},
			"result": {"bill_id": "B2", "status": "Awaiting Payment"}}`,
			func(t *testing.T, f *fixture) {
				assert.Equal(t, "Awaiting Payment", at(t, f.agent, "bills", 1, "status"))
			}},
		{"one request at a time, checked first", NameSendPaymentRequest, map[string]any{"customer_id": "C2", "bill_id": "B999"},
			`{"status": "error", "error_type": "tool_error", "message": "A bill is already awaiting payment for this customer"}`, "", nil},
		{"another customer's bill", NameSendPaymentRequest, map[string]any{"customer_id": "C1", "bill_id": "B4"},
			`{"status": "error", "error_type": "tool_error", "message": "Bill B4 not found for customer C1"}`, "", nil},
		{"unknown customer", NameSendPaymentRequest, map[string]any{"customer_id": "C9", "bill_id": "B1"},
			`{"status": "error", "error_type": "tool_error", "message": "Customer C9 not found"}`, "", nil},
	})

	f := newFixture(t, agentDB(t), nil)
	f.Call(t, NameSendPaymentRequest, map[string]any{"customer_id": "C1", "bill_id": "B2"})
	replaytest.RequireJSON(t, `{"status": "error", "error_type": "tool_error", "message": "A bill is already awaiting payment for this customer"}`,
		f.Call(t, NameSendPaymentRequest, map[string]any{"customer_id": "C1", "bill_id": "B1"}))
}

func TestRefuelData(t *testing.T) {
	runWrites(t, agentState, []writeCase{
		{"onto the draft bill", NameRefuelData, map[string]any{"customer_id": "C1", "line_id": "L1", "gb_amount": 2.0},
			`{"message": "Successfully added 2.0 GB of data for line L1 for $4.00", "new_data_refueling_gb": 2.0, "charge": 4.0}`,
			`{"action_type": "refuel_data", "name": "refuel_data", "arguments": {"customer_id": "C1", "line_id": "L1", "gb_amount": 2.0},
			"result": {"new_data_refueling_gb": 2.0, "charge": 4.0}}`,
			func(t *testing.T, f *fixture) {
				assert.Equal(t, "2.0", replaytest.Canon(t, at(t, f.agent, "lines", 0, "data_refueling_gb")))
				replaytest.RequireJSON(t, `{"bill_id": "B3", "customer_id": "C1", "period_start": "2025-03-01", "period_end": "2025-03-31", "issue_date": "2025-04-01",
					"total_due": 4.0, "due_date": "2025-04-15", "status": "Draft",
					"line_items": [{"description": "Data refueling: 2.0 GB at $2.0/GB", "amount": 4.0, "date": "2025-02-25", "item_type": "Charge"}]}`,
					at(t, f.agent, "bills", 2))
				assert.Len(t, at(t, f.agent, "bills").([]any), 4, "no new bill")
			}},
		{"an integer and a string amount are floats", NameRefuelData, map[string]any{"customer_id": "C1", "line_id": "L1", "gb_amount": "0.1"},
			`{"message": "Successfully added 0.1 GB of data for line L1 for $0.20", "new_data_refueling_gb": 0.1, "charge": 0.2}`,
			`{"action_type": "refuel_data", "name": "refuel_data", "arguments": {"customer_id": "C1", "line_id": "L1", "gb_amount": 0.1},
			"result": {"new_data_refueling_gb": 0.1, "charge": 0.2}}`, nil},
		{"a new draft bill for next month, with an injected id", NameRefuelData, map[string]any{"customer_id": "C3", "line_id": "L4", "gb_amount": 2},
			`{"message": "Successfully added 2.0 GB of data for line L4 for $6.00", "new_data_refueling_gb": 2.0, "charge": 6.0}`,
			`{"action_type": "refuel_data", "name": "refuel_data", "arguments": {"customer_id": "C3", "line_id": "L4", "gb_amount": 2.0},
			"result": {"new_data_refueling_gb": 2.0, "charge": 6.0}}`,
			func(t *testing.T, f *fixture) {
				replaytest.RequireJSON(t, `{"bill_id": "BX1", "customer_id": "C3", "period_start": "2025-03-01", "period_end": "2025-03-31", "issue_date": "2025-03-01",
					"total_due": 6.0, "due_date": "2025-03-15", "status": "Draft",
					"line_items": [{"description": "Data refueling: 2.0 GB at $3/GB", "amount": 6.0, "date": "2025-02-25", "item_type": "Charge"}]}`,
					at(t, f.agent, "bills", 4))
				replaytest.RequireJSON(t, `["BX1"]`, at(t, f.agent, "customers", 2, "bill_ids"))
			}},
		{"zero", NameRefuelData, map[string]any{"customer_id": "C1", "line_id": "L1", "gb_amount": 0},
			`{"status": "error", "error_type": "tool_error", "message": "Refuel amount must be positive"}`, "", nil},
		{"positive is checked before the line", NameRefuelData, map[string]any{"customer_id": "C9", "line_id": "L9", "gb_amount": -1},
			`{"status": "error", "error_type": "tool_error", "message": "Refuel amount must be positive"}`, "", nil},
		{"plan missing", NameRefuelData, map[string]any{"customer_id": "C2", "line_id": "L3", "gb_amount": 1},
			`{"status": "error", "error_type": "tool_error", "message": "Plan not found for this line"}`, "", nil},
		{"line missing", NameRefuelData, map[string]any{"customer_id": "C1", "line_id": "L3", "gb_amount": 1},
			`{"status": "error", "error_type": "tool_error", "message": "Line L3 not found for customer C1"}`, "", nil},
	})
}

// A new draft bill crossing the year: refuelled in December, it is January's.
func TestRefuelDataInDecember(t *testing.T) {
	f := newFixture(t, agentDB(t), nil)
	f.Tools, _ = Tools(replayEnv(f, fixedAt(2025, 12, 31)))
	f.Call(t, NameRefuelData, map[string]any{"customer_id": "C3", "line_id": "L4", "gb_amount": 1})
	bill := at(t, f.agent, "bills", 4).(map[string]any)
	assert.Equal(t, []any{"2026-01-01", "2026-01-31", "2026-01-01", "2026-01-15"},
		[]any{bill["period_start"], bill["period_end"], bill["issue_date"], bill["due_date"]})
	assert.Equal(t, "2025-12-31", at(t, f.agent, "bills", 4, "line_items", 0, "date"))
}

// Without an injected id source, a new bill's id is "B" and eight random
// hex digits, as the Python original's uuid4().hex[:8].
func TestRefuelDataRandomBillID(t *testing.T) {
	st := state.New()
	st.SetDB(agentDB(t))
	refuel, err := NewTool(NameRefuelData, registryDeps(st))
	require.NoError(t, err)
	_, err = refuel.Execute(context.Background(), map[string]any{"customer_id": "C3", "line_id": "L4", "gb_amount": 1})
	require.NoError(t, err)
	var snap = st.Snapshot()
	id := snap["bills"].([]any)[4].(map[string]any)["bill_id"].(string)
	assert.Regexp(t, `^B[0-9a-f]{8}$`, id)
}

func TestTransferToHumanAgents(t *testing.T) {
	var sent []any
	st := state.New()
	st.StartScenario("", notifyFunc(func(_ context.Context, m any) error { sent = append(sent, m); return nil }))
	transfer, err := NewTool(NameTransferToHumanAgents, registryDeps(st))
	require.NoError(t, err)
	var delivered []any
	require.NoError(t, tool.Call(context.Background(), transfer, map[string]any{"summary": "cannot fix"},
		func(r any) error { delivered = append(delivered, r); return nil }, nil))
	assert.Equal(t, []any{"Transfer successful"}, delivered, "no DB needed")
	replaytest.RequireJSON(t, `{"action_type": "transfer_to_human_agents", "name": "transfer_to_human_agents",
		"arguments": {"summary": "cannot fix"}, "result": {"transferred": true}}`, lastRecord(t, st))
	require.Len(t, sent, 2, "action-applied, then the exit signal")
	assert.Equal(t, tool.TextMessage{Text: "<exit>Transfer complete.</exit>"}, sent[1])
}

func TestDBNotInitialized(t *testing.T) {
	agentMsg := `{"status": "error", "error_type": "db_not_initialized", "message": "Scenario agent-side database not loaded. This indicates a fixture-loading bug."}`
	userMsg := `{"status": "error", "error_type": "db_not_initialized", "message": "Scenario user-side database not loaded. This indicates a fixture-loading bug."}`
	for _, db := range []map[string]any{nil, {}} {
		f := newFixture(t, db, db)
		for _, name := range AgentToolNames() {
			if name == NameTransferToHumanAgents {
				continue // never reads the DB
			}
			replaytest.RequireJSON(t, agentMsg, f.Call(t, name, validArgs[name]))
		}
		for _, name := range UserToolNames() {
			replaytest.RequireJSON(t, userMsg, f.Call(t, name, validArgs[name]))
		}
		assert.Empty(t, f.agent.Actions())
		assert.Empty(t, f.user.Actions())
	}
}

// validArgs are well-formed arguments of every tool that takes some.
var validArgs = map[string]map[string]any{
	NameGetCustomerByPhone:       {"phone_number": "555-0001"},
	NameGetCustomerByID:          {"customer_id": "C1"},
	NameGetCustomerByName:        {"full_name": "Ada Lovelace", "dob": "1990-01-02"},
	NameGetDetailsByID:           {"id": "L1"},
	NameGetBillsForCustomer:      {"customer_id": "C1"},
	NameGetDataUsage:             {"customer_id": "C1", "line_id": "L1"},
	NameSuspendLine:              {"customer_id": "C1", "line_id": "L1", "reason": "travel"},
	NameResumeLine:               {"customer_id": "C1", "line_id": "L2"},
	NameEnableRoaming:            {"customer_id": "C1", "line_id": "L1"},
	NameDisableRoaming:           {"customer_id": "C1", "line_id": "L2"},
	NameSendPaymentRequest:       {"customer_id": "C1", "bill_id": "B2"},
	NameRefuelData:               {"customer_id": "C1", "line_id": "L1", "gb_amount": 1.0},
	NameTransferToHumanAgents:    {"summary": "help"},
	NameCheckAppStatus:           {"app_name": "messaging"},
	NameCheckAppPermissions:      {"app_name": "messaging"},
	NameSetNetworkModePreference: {"mode": "4g_only"},
	NameSetAPNSettings:           {"apn_settings": map[string]any{"apn_name": "internet"}},
	NameGrantAppPermission:       {"app_name": "messaging", "permission": "network"},
}

// Results taken from the DB are copies: changing one changes nothing.
func TestResultsAreCopies(t *testing.T) {
	f := newFixture(t, agentDB(t), nil)
	before := replaytest.Canon(t, f.agent.Snapshot())
	c := f.Call(t, NameGetCustomerByID, map[string]any{"customer_id": "C1"}).(map[string]any)
	c["line_ids"].([]any)[0] = "changed"
	r := f.Call(t, NameSuspendLine, map[string]any{"customer_id": "C1", "line_id": "L1", "reason": "x"}).(LineResult)
	switch line := r.Line.(type) { // a map, or an ordered dict for a DB with a key order
	case map[string]any:
		line["status"] = "changed"
	case pyvalue.Dict:
		for i := range line {
			line[i].Value = "changed"
		}
	default:
		t.Fatalf("line is %T", r.Line)
	}
	after := f.agent.Snapshot()
	assert.Equal(t, "Suspended", at(t, f.agent, "lines", 0, "status"))
	after["lines"].([]any)[0].(map[string]any)["status"] = "Active"
	after["lines"].([]any)[0].(map[string]any)["suspension_start_date"] = nil
	assert.Equal(t, before, replaytest.Canon(t, after))
}
