package telecom

import (
	"maps"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/replay"
)

// check runs one predicate on db.
func check(t *testing.T, db map[string]any, name string, args map[string]any) bool {
	t.Helper()
	p, ok := Hooks().Predicates[name]
	require.True(t, ok, "no predicate %s", name)
	got, err := p(db, args)
	require.NoError(t, err)
	return got
}

// phone returns the test phone after change.
func phone(t *testing.T, change func(d, s map[string]any)) map[string]any {
	db := userDB(t)
	if change != nil {
		change(device(db), surroundings(db))
	}
	return db
}

// The helpers behind the predicates (items 127-144).
func TestPhoneState(t *testing.T) {
	t.Run("127-133 mobile data", func(t *testing.T) {
		for _, tc := range []struct {
			name   string
			change func(d, s map[string]any)
			want   bool
		}{
			{"127 default", nil, true},
			{"128 airplane mode", func(d, _ map[string]any) { d["airplane_mode"] = true }, false},
			{"129 no signal", func(d, _ map[string]any) { d["network_signal_strength"] = "none" }, false},
			{"130 no service", func(d, _ map[string]any) { d["network_connection_status"] = "no_service" }, false},
			{"131 abroad, roaming off", func(_, s map[string]any) { s["is_abroad"] = true }, false},
			{"131 abroad, roaming on, not allowed", func(d, s map[string]any) { s["is_abroad"], d["roaming_enabled"] = true, true }, false},
			{"131 abroad, roaming on and allowed", func(d, s map[string]any) {
				s["is_abroad"], s["roaming_allowed"], d["roaming_enabled"] = true, true, true
			}, true},
			{"132 data off", func(d, _ map[string]any) { d["data_enabled"] = false }, false},
			{"133 allowance exceeded", func(_, s map[string]any) { s["mobile_data_usage_exceeded"] = true }, false},
		} {
			t.Run(tc.name, func(t *testing.T) { assert.Equal(t, tc.want, mobileData(t, phone(t, tc.change))) })
		}
	})
	t.Run("134-138 speed test", func(t *testing.T) {
		for _, tc := range []struct {
			name    string
			change  func(d, s map[string]any)
			speed   float64
			verdict string
			ok      bool
		}{
			{"134 default: 5G, good", nil, 220.0, "Excellent", true},
			{"135 data off", func(d, _ map[string]any) { d["data_enabled"] = false }, 0, "No Connection", false},
			{"136 data saver", func(d, _ map[string]any) { d["data_saver_mode"] = true }, 44.0, "Good", true},
			{"137 2G, good", func(d, _ map[string]any) { d["network_technology_connected"] = "2G" }, 0.2, "Very Poor", true},
			{"138 5G, poor", func(d, _ map[string]any) { d["network_signal_strength"] = "poor" }, 55.0, "Good", true},
			{"unknown technology", func(d, _ map[string]any) { d["network_technology_connected"] = "6G" }, 0, "Very Poor", true},
		} {
			t.Run(tc.name, func(t *testing.T) {
				speed, verdict, ok, err := speedTest(phone(t, tc.change))
				require.NoError(t, err)
				assert.Equal(t, []any{tc.speed, tc.verdict, tc.ok}, []any{speed, verdict, ok})
			})
		}
	})
	t.Run("139-144 MMS", func(t *testing.T) {
		for _, tc := range []struct {
			name   string
			change func(d, s map[string]any)
			want   bool
		}{
			{"139 default", nil, true},
			{"140 data off", func(d, _ map[string]any) { d["data_enabled"] = false }, false},
			{"141 2G", func(d, _ map[string]any) { d["network_technology_connected"] = "2G" }, false},
			{"142 MMS over Wi-Fi calling", func(d, _ map[string]any) { d["wifi_calling_enabled"], d["wifi_calling_mms_over_wifi"] = true, true }, false},
			{"143 no MMSC", func(d, _ map[string]any) { d["active_apn_settings"].(map[string]any)["mmsc_url"] = nil }, false},
			{"144 no SMS permission", func(d, _ map[string]any) {
				d["app_statuses"].(map[string]any)["messaging"].(map[string]any)["permissions"].(map[string]any)["sms"] = false
			}, false},
		} {
			t.Run(tc.name, func(t *testing.T) { assert.Equal(t, tc.want, mms(t, phone(t, tc.change))) })
		}
	})
}

// The six predicates (items 145-156).
func TestPredicates(t *testing.T) {
	dataOff := phone(t, func(d, _ map[string]any) { d["data_enabled"] = false })
	for _, tc := range []struct {
		name string
		db   map[string]any
		pred string
		args map[string]any
		want bool
	}{
		{"145 data working, expected", userDB(t), "assert_mobile_data_status", map[string]any{"expected_status": true}, true},
		{"145 data working, not expected", userDB(t), "assert_mobile_data_status", map[string]any{"expected_status": false}, false},
		{"145 data off, expected working", dataOff, "assert_mobile_data_status", map[string]any{"expected_status": true}, false},
		{"145 data off, expected off", dataOff, "assert_mobile_data_status", map[string]any{"expected_status": false}, true},
		{"Python's ==: 1 is true", userDB(t), "assert_mobile_data_status", map[string]any{"expected_status": 1}, true},
		{"146 at least 200", userDB(t), "assert_internet_speed", map[string]any{"expected_speed": 200}, true},
		{"146 at least 300", userDB(t), "assert_internet_speed", map[string]any{"expected_speed": 300.0}, false},
		{"147 excellent", userDB(t), "assert_internet_speed", map[string]any{"expected_speed": 200, "expected_desc": "excellent"}, true},
		{"147 good", userDB(t), "assert_internet_speed", map[string]any{"expected_speed": 200, "expected_desc": "good"}, false},
		{"148 no connection is 0", dataOff, "assert_internet_speed", map[string]any{"expected_speed": 0.0}, true},
		{"148 no connection is not 1", dataOff, "assert_internet_speed", map[string]any{"expected_speed": 1.0}, false},
		{"149 connected", userDB(t), "assert_service_status", map[string]any{"expected_status": "connected"}, true},
		{"149 not no_service", userDB(t), "assert_service_status", map[string]any{"expected_status": "no_service"}, false},
		{"149 no_service", phone(t, func(d, _ map[string]any) { d["network_connection_status"] = "no_service" }),
			"assert_service_status", map[string]any{"expected_status": "no_service"}, true},
		{"150 MMS expected", userDB(t), "assert_can_send_mms", map[string]any{"expected_status": true}, true},
		{"150 MMS not expected", userDB(t), "assert_can_send_mms", map[string]any{"expected_status": false}, false},
		{"151 refuelled amount", agentDB(t), "assert_data_refueling_amount", map[string]any{"customer_id": "C1", "line_id": "L1", "expected_amount": 0.0}, true},
		{"151 refuelled amount + 5", agentDB(t), "assert_data_refueling_amount", map[string]any{"customer_id": "C1", "line_id": "L1", "expected_amount": 5.0}, false},
		{"151 within 1e-6", agentDB(t), "assert_data_refueling_amount", map[string]any{"customer_id": "C1", "line_id": "L1", "expected_amount": 0.0000005}, true},
		{"152 no such line", agentDB(t), "assert_data_refueling_amount", map[string]any{"customer_id": "DOES_NOT_EXIST", "line_id": "L_FAKE", "expected_amount": 2.0}, false},
		{"152 another customer's line", agentDB(t), "assert_data_refueling_amount", map[string]any{"customer_id": "C2", "line_id": "L1", "expected_amount": 0}, false},
		{"153 no such bill", agentDB(t), "assert_no_overdue_bill", map[string]any{"overdue_bill_id": "B_DOES_NOT_EXIST"}, true},
		{"154 paid", agentDB(t), "assert_no_overdue_bill", map[string]any{"overdue_bill_id": "B1"}, true},
		{"155 not paid", agentDB(t), "assert_no_overdue_bill", map[string]any{"overdue_bill_id": "B4"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) { assert.Equal(t, tc.want, check(t, tc.db, tc.pred, tc.args)) })
	}

	t.Run("156 the six names", func(t *testing.T) {
		assert.ElementsMatch(t, []string{"assert_mobile_data_status", "assert_internet_speed", "assert_service_status",
			"assert_can_send_mms", "assert_data_refueling_amount", "assert_no_overdue_bill"}, slices.Collect(maps.Keys(Hooks().Predicates)))
		assert.ElementsMatch(t, slices.Collect(maps.Keys(Hooks().Predicates)), PredicateNames())
	})
	t.Run("a refused value or argument raises", func(t *testing.T) {
		p := Hooks().Predicates["assert_service_status"]
		_, err := p(userDB(t), map[string]any{"expected_status": "online"})
		assert.EqualError(t, err, "ValueError: 'online' is not a valid NetworkStatus")
		_, err = p(userDB(t), map[string]any{})
		assert.EqualError(t, err, "TypeError: assert_service_status() missing 1 required positional argument: 'expected_status'")
		p = Hooks().Predicates["assert_internet_speed"]
		_, err = p(userDB(t), map[string]any{"expected_speed": "fast"})
		assert.EqualError(t, err, "TypeError: '>=' not supported between instances of 'float' and 'str'")
		_, err = p(userDB(t), map[string]any{"expected_speed": 1, "expected_desc": 5})
		assert.EqualError(t, err, "AttributeError: 'int' object has no attribute 'lower'")
		p = Hooks().Predicates["assert_mobile_data_status"]
		_, err = p(map[string]any{"device": map[string]any{}}, map[string]any{"expected_status": true})
		assert.EqualError(t, err, "KeyError: 'surroundings'")
	})
}

// replay.Evaluate with the telecom predicates (items 157-159).
func TestEvaluate(t *testing.T) {
	preds := Hooks()
	v := replay.Evaluate(preds, Domain, []replay.Assertion{{EnvType: "user", FuncName: "assert_mobile_data_status",
		Arguments: map[string]any{"expected_status": true}, AssertValue: true}}, nil, userDB(t))[0]
	assert.True(t, v.Passed, "157")
	assert.Nil(t, v.Error)
	require.NotNil(t, v.Actual)
	assert.True(t, *v.Actual)

	v = replay.Evaluate(preds, Domain, []replay.Assertion{{EnvType: "assistant", FuncName: "assert_no_overdue_bill",
		Arguments: map[string]any{"overdue_bill_id": "B_DOES_NOT_EXIST"}, AssertValue: true}}, agentDB(t), nil)[0]
	assert.True(t, v.Passed, "158")
	require.NotNil(t, v.Actual)
	assert.True(t, *v.Actual)

	v = replay.Evaluate(preds, Domain, []replay.Assertion{{EnvType: "user", FuncName: "assert_internet_speed",
		Arguments: map[string]any{"expected_speed": 200, "expected_desc": "excellent"}, AssertValue: true}}, nil, userDB(t))[0]
	assert.True(t, v.Passed, "159")

	v = replay.Evaluate(preds, Domain, []replay.Assertion{{EnvType: "user", FuncName: "assert_service_status",
		Arguments: map[string]any{"expected_status": "online"}, AssertValue: true}}, nil, userDB(t))[0]
	assert.False(t, v.Passed)
	require.NotNil(t, v.Error)
	assert.Equal(t, "Predicate raised: ValueError: 'online' is not a valid NetworkStatus", *v.Error)
}

// Every train task's DB-state assertions hold on its gold replay, as they
// do on the Python reference's.
func TestGoldSatisfiesAssertions(t *testing.T) {
	t.Parallel()
	d := loadShared(t)
	preds := Hooks()
	train, err := d.splits.Select("train", d.tasks)
	require.NoError(t, err)
	n := 0
	for _, task := range train {
		res, err := replay.Gold(t.Context(), Scenario(task, d.agentSrc, d.userSrc))
		require.NoError(t, err)
		for _, v := range replay.Evaluate(preds, Domain, task.EvaluationCriteria.EnvAssertions, res.DB, res.UserDB) {
			n++
			assert.True(t, v.Passed, "task %s: %s(%v) gave %v, error %v", task.ID, v.FuncName, v.Arguments, v.Actual, v.Error)
		}
	}
	assert.Positive(t, n)
}
