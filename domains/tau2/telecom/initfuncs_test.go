package telecom

import (
	"github.com/voiceeval/schematools/hooks"
	"github.com/voiceeval/schematools/registry"
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/internal/replaytest"
	"github.com/voiceeval/schematools/replay"
	"github.com/voiceeval/schematools/state"
)

// initFn returns the initialisation function name of Hooks on clock.
func initFn(clock func() time.Time, name string) (func(db, args map[string]any) error, bool) {
	f, ok := Hooks().Init[name]
	return func(db, args map[string]any) error { return f.Func(db, args, clock) }, ok
}

// runInit runs one initialisation function on db, as ApplyInit calls it.
func runInit(t *testing.T, db map[string]any, name string, args map[string]any) error {
	t.Helper()
	fn, ok := initFn(replay.FixedClock(testDate), name)
	require.True(t, ok, "no init function %s", name)
	if args == nil {
		args = map[string]any{}
	}
	return fn(db, args)
}

func device(db map[string]any) map[string]any       { return db["device"].(map[string]any) }
func surroundings(db map[string]any) map[string]any { return db["surroundings"].(map[string]any) }

// network is the device's derived connection state.
func network(db map[string]any) [3]any {
	d := device(db)
	return [3]any{d["network_connection_status"], d["network_technology_connected"], d["network_signal_strength"]}
}

var noServiceState = [3]any{"no_service", "none", "none"}

func mobileData(t *testing.T, db map[string]any) bool {
	t.Helper()
	ok, err := mobileDataWorking(db, false)
	require.NoError(t, err)
	return ok
}

func mms(t *testing.T, db map[string]any) any {
	t.Helper()
	ok, err := canSendMMS(db, false)
	require.NoError(t, err)
	return ok
}

// The user-side initialisation functions, on the default phone (items
// 94-115 of ref-rtvi-state.md section 7).
func TestInitFuncsUser(t *testing.T) {
	t.Run("94 set_user_info", func(t *testing.T) {
		db := userDB(t)
		require.NoError(t, runInit(t, db, "set_user_info", map[string]any{"name": "John Smith", "phone_number": "555-123-2002"}))
		assert.Equal(t, "John Smith", surroundings(db)["name"])
		assert.Equal(t, "555-123-2002", surroundings(db)["phone_number"])
	})
	t.Run("95 set_user_location", func(t *testing.T) {
		db := userDB(t)
		require.NoError(t, runInit(t, db, "set_user_location", map[string]any{"abroad": true}))
		assert.Equal(t, true, surroundings(db)["is_abroad"])
		require.NoError(t, runInit(t, db, "set_user_location", map[string]any{"abroad": false}))
		assert.Equal(t, false, surroundings(db)["is_abroad"])
	})
	t.Run("96 set_network_mode_preference", func(t *testing.T) {
		db := userDB(t)
		require.NoError(t, runInit(t, db, "set_network_mode_preference", map[string]any{"mode": "2g_only"}))
		assert.Equal(t, "2g_only", device(db)["network_mode_preference"])
		assert.Equal(t, [3]any{"connected", "2G", "poor"}, network(db))
	})
	t.Run("97 set_network_mode_preference refuses a bogus mode", func(t *testing.T) {
		db := userDB(t)
		err := runInit(t, db, "set_network_mode_preference", map[string]any{"mode": "bogus_mode_string"})
		require.EqualError(t, err, "ValueError: 'bogus_mode_string' is not a valid NetworkModePreference")
		assert.Equal(t, userDB(t), db, "nothing changed")
	})
	t.Run("98 turn_airplane_mode_on with a VPN", func(t *testing.T) {
		db := userDB(t)
		d := device(db)
		d["wifi_enabled"], d["wifi_connected"], d["wifi_ssid"], d["wifi_signal_strength"] = true, true, "Home", "good"
		d["vpn_connected"], d["vpn_details"] = true, defaultVPNDetails()
		require.NoError(t, runInit(t, db, "turn_airplane_mode_on", nil))
		d = device(db)
		assert.Equal(t, []any{true, false, nil, "none", false, nil}, []any{d["airplane_mode"], d["wifi_connected"], d["wifi_ssid"],
			d["wifi_signal_strength"], d["vpn_connected"], d["vpn_details"]})
		assert.Equal(t, noServiceState, network(db))
	})
	t.Run("99 turn_data_off", func(t *testing.T) {
		db := userDB(t)
		require.NoError(t, runInit(t, db, "turn_data_off", nil))
		assert.Equal(t, false, device(db)["data_enabled"])
		assert.False(t, mobileData(t, db))
	})
	t.Run("100 turn_roaming_on, turn_roaming_off", func(t *testing.T) {
		db := userDB(t)
		require.NoError(t, runInit(t, db, "turn_roaming_on", nil))
		assert.Equal(t, true, device(db)["roaming_enabled"])
		require.NoError(t, runInit(t, db, "turn_roaming_off", nil))
		assert.Equal(t, false, device(db)["roaming_enabled"])
	})
	t.Run("101 turn_data_saver_mode_on", func(t *testing.T) {
		db := userDB(t)
		require.NoError(t, runInit(t, db, "turn_data_saver_mode_on", nil))
		assert.Equal(t, true, device(db)["data_saver_mode"])
	})
	t.Run("102 simulate_network_search", func(t *testing.T) {
		db := userDB(t)
		require.NoError(t, runInit(t, db, "simulate_network_search", nil))
		assert.Equal(t, [3]any{"connected", "5G", "excellent"}, network(db))
	})
	t.Run("103 unseat_sim_card", func(t *testing.T) {
		db := userDB(t)
		require.NoError(t, runInit(t, db, "unseat_sim_card", nil))
		assert.Equal(t, true, device(db)["sim_card_missing"])
		assert.Equal(t, noServiceState, network(db))
	})
	t.Run("104-105 lock_sim_card", func(t *testing.T) {
		for mode, status := range map[string]string{"pin": "locked_pin", "puk": "locked_puk"} {
			db := userDB(t)
			require.NoError(t, runInit(t, db, "lock_sim_card", map[string]any{"mode": mode}))
			assert.Equal(t, status, device(db)["sim_card_status"])
			assert.Equal(t, noServiceState, network(db))
		}
	})
	t.Run("106 lock_sim_card refuses another mode", func(t *testing.T) {
		err := runInit(t, userDB(t), "lock_sim_card", map[string]any{"mode": "other"})
		require.EqualError(t, err, "ValueError: lock_sim_card: mode must be 'pin' or 'puk', got 'other'")
	})
	t.Run("107 break_apn_settings", func(t *testing.T) {
		db := userDB(t)
		require.NoError(t, runInit(t, db, "break_apn_settings", nil))
		assert.Equal(t, "broken", device(db)["active_apn_settings"].(map[string]any)["apn_name"])
		assert.Equal(t, noServiceState, network(db))
	})
	t.Run("108 break_apn_mms_setting", func(t *testing.T) {
		db := userDB(t)
		require.NoError(t, runInit(t, db, "break_apn_mms_setting", nil))
		assert.Nil(t, device(db)["active_apn_settings"].(map[string]any)["mmsc_url"])
		assert.Equal(t, false, mms(t, db))
		assert.True(t, mobileData(t, db))
	})
	t.Run("109 break_vpn", func(t *testing.T) {
		db := userDB(t)
		require.NoError(t, runInit(t, db, "break_vpn", nil))
		assert.Equal(t, true, device(db)["vpn_connected"])
		assert.Equal(t, map[string]any{"server_address": "192.168.1.1", "protocol": "OpenVPN", "server_performance": "poor"}, device(db)["vpn_details"])
	})
	t.Run("110 set_wifi_calling", func(t *testing.T) {
		db := userDB(t)
		require.NoError(t, runInit(t, db, "set_wifi_calling", map[string]any{"enabled": true}))
		assert.Equal(t, true, device(db)["wifi_calling_enabled"])
		assert.Equal(t, false, device(db)["wifi_calling_mms_over_wifi"])
	})
	t.Run("111 set_wifi_calling with MMS over Wi-Fi", func(t *testing.T) {
		db := userDB(t)
		require.NoError(t, runInit(t, db, "set_wifi_calling", map[string]any{"enabled": true, "mms_over_wifi": true}))
		assert.Equal(t, true, device(db)["wifi_calling_mms_over_wifi"])
		assert.Equal(t, false, mms(t, db))
	})
	perms := func(db map[string]any, app string) map[string]any {
		return device(db)["app_statuses"].(map[string]any)[app].(map[string]any)["permissions"].(map[string]any)
	}
	t.Run("112-113 remove_app_permission, case-insensitively", func(t *testing.T) {
		for _, p := range []string{"sms", "SMS"} {
			db := userDB(t)
			require.NoError(t, runInit(t, db, "remove_app_permission", map[string]any{"app_name": "messaging", "permission": p}))
			assert.Equal(t, false, perms(db, "messaging")["sms"])
			assert.Equal(t, false, mms(t, db))
		}
	})
	t.Run("114-115 remove_app_permission ignores what the phone does not track", func(t *testing.T) {
		for _, args := range []map[string]any{{"app_name": "DOES_NOT_EXIST", "permission": "sms"}, {"app_name": "messaging", "permission": "bogus"}} {
			db := userDB(t)
			require.NoError(t, runInit(t, db, "remove_app_permission", args))
			assert.Equal(t, userDB(t), db)
		}
	})
}

// The agent-side initialisation functions (items 116-123).
func TestInitFuncsAgent(t *testing.T) {
	line := func(db map[string]any, i int) map[string]any { return db["lines"].([]any)[i].(map[string]any) }
	t.Run("116-117 enable_roaming, disable_roaming", func(t *testing.T) {
		db := agentDB(t)
		require.NoError(t, runInit(t, db, "enable_roaming", map[string]any{"customer_id": "C1", "line_id": "L1"}))
		assert.Equal(t, true, line(db, 0)["roaming_enabled"])
		require.NoError(t, runInit(t, db, "disable_roaming", map[string]any{"customer_id": "C1", "line_id": "L1"}))
		assert.Equal(t, false, line(db, 0)["roaming_enabled"])
	})
	t.Run("118 enable_roaming on a missing line", func(t *testing.T) {
		err := runInit(t, agentDB(t), "enable_roaming", map[string]any{"customer_id": "C1", "line_id": "L_FAKE"})
		require.EqualError(t, err, "ValueError: enable_roaming: line 'L_FAKE' not found for customer 'C1'")
	})
	t.Run("119 set_data_usage is a float", func(t *testing.T) {
		db := agentDB(t)
		require.NoError(t, runInit(t, db, "set_data_usage", map[string]any{"customer_id": "C1", "line_id": "L1", "data_used_gb": 7.5}))
		assert.Equal(t, "7.5", replaytest.Canon(t, line(db, 0)["data_used_gb"]))
		require.NoError(t, runInit(t, db, "set_data_usage", map[string]any{"customer_id": "C1", "line_id": "L1", "data_used_gb": 15}))
		assert.Equal(t, "15.0", replaytest.Canon(t, line(db, 0)["data_used_gb"]))
		require.NoError(t, runInit(t, db, "set_data_usage", map[string]any{"customer_id": "C1", "line_id": "L1", "data_used_gb": " 1_5.5 "}))
		assert.Equal(t, "15.5", replaytest.Canon(t, line(db, 0)["data_used_gb"]), "float() of a string")
	})
	t.Run("120 set_data_usage on a missing line", func(t *testing.T) {
		err := runInit(t, agentDB(t), "set_data_usage", map[string]any{"customer_id": "C1", "line_id": "L_FAKE", "data_used_gb": 1.0})
		require.EqualError(t, err, "ValueError: set_data_usage: line 'L_FAKE' not found for customer 'C1'")
	})
	t.Run("121 suspend_line_for_overdue_bill", func(t *testing.T) {
		db := agentDB(t)
		require.NoError(t, runInit(t, db, "suspend_line_for_overdue_bill", map[string]any{"customer_id": "C1", "line_id": "L1", "new_bill_id": "B_NEW_OVERDUE"}))
		assert.Equal(t, "Suspended", line(db, 0)["status"])
		assert.Equal(t, "2025-02-25", line(db, 0)["suspension_start_date"])
		assert.Nil(t, line(db, 0)["contract_end_date"])
		replaytest.RequireJSON(t, `{"bill_id": "B_NEW_OVERDUE", "customer_id": "C1", "period_start": "2025-01-01", "period_end": "2025-01-31",
			"issue_date": "2025-01-01", "total_due": 50.0, "due_date": "2025-01-15", "status": "Overdue",
			"line_items": [{"description": "Charge for line L1", "amount": 50.0, "date": "2025-02-25", "item_type": "Charge"}]}`, db["bills"].([]any)[4])
		replaytest.RequireJSON(t, `["B1", "B2", "B3", "B_NEW_OVERDUE"]`, db["customers"].([]any)[0].(map[string]any)["bill_ids"])
	})
	t.Run("122 suspend_line_for_overdue_bill when the contract ended", func(t *testing.T) {
		db := agentDB(t)
		require.NoError(t, runInit(t, db, "suspend_line_for_overdue_bill",
			map[string]any{"customer_id": "C1", "line_id": "L1", "new_bill_id": "B_ENDED", "contract_ended": true}))
		assert.Equal(t, "Suspended", line(db, 0)["status"])
		assert.Equal(t, "2025-01-31", line(db, 0)["contract_end_date"])
	})
	t.Run("123 suspend_line_for_overdue_bill needs an active line", func(t *testing.T) {
		db := agentDB(t)
		err := runInit(t, db, "suspend_line_for_overdue_bill", map[string]any{"customer_id": "C1", "line_id": "L2", "new_bill_id": "B9"})
		require.EqualError(t, err, "ValueError: suspend_line_for_overdue_bill: line 'L2' must be active to suspend for unpaid bill (got status='Suspended')")
		assert.Equal(t, agentDB(t), db)
	})
	t.Run("suspend_line_for_overdue_bill refuses a second overdue bill", func(t *testing.T) {
		db := agentDB(t)
		require.NoError(t, runInit(t, db, "suspend_line_for_overdue_bill", map[string]any{"customer_id": "C1", "line_id": "L1", "new_bill_id": "B8"}))
		line(db, 0)["status"] = "Active"
		err := runInit(t, db, "suspend_line_for_overdue_bill", map[string]any{"customer_id": "C1", "line_id": "L1", "new_bill_id": "B9"})
		require.EqualError(t, err, "ValueError: suspend_line_for_overdue_bill: customer 'C1' already has an overdue bill (B8)")
	})
	t.Run("suspend_line_for_overdue_bill dates by the injected clock, across a year", func(t *testing.T) {
		db := agentDB(t)
		fn, _ := initFn(fixedAt(2026, time.January, 9), "suspend_line_for_overdue_bill")
		require.NoError(t, fn(db, map[string]any{"customer_id": "C1", "line_id": "L1", "new_bill_id": "B9", "contract_ended": 1}))
		bill := db["bills"].([]any)[4].(map[string]any)
		assert.Equal(t, []any{"2025-12-01", "2025-12-31", "2025-12-01", "2025-12-15"},
			[]any{bill["period_start"], bill["period_end"], bill["issue_date"], bill["due_date"]})
		assert.Equal(t, "2026-01-09", line(db, 0)["suspension_start_date"])
		assert.Equal(t, "2025-12-31", line(db, 0)["contract_end_date"])
	})
}

// The registry, and ApplyInit with the telecom functions (items 124-126).
func TestInitFuncsRegistry(t *testing.T) {
	t.Run("124 the 20 names", func(t *testing.T) {
		reg := new(registry.Tools)
		require.NoError(t, Register(reg))
		names := slices.Collect(maps.Keys(reg.Hooks(Domain).Init))
		assert.ElementsMatch(t, []string{
			"set_user_info", "set_user_location", "set_network_mode_preference", "simulate_network_search", "turn_airplane_mode_on",
			"unseat_sim_card", "lock_sim_card", "turn_data_off", "turn_roaming_on", "turn_roaming_off", "turn_data_saver_mode_on",
			"break_apn_settings", "break_apn_mms_setting", "set_wifi_calling", "break_vpn", "remove_app_permission",
			"enable_roaming", "disable_roaming", "set_data_usage", "suspend_line_for_overdue_bill",
		}, names)
		assert.ElementsMatch(t, names, InitFuncNames())
	})
	t.Run("125 user-side actions", func(t *testing.T) {
		db := userDB(t)
		res := Hooks().ApplyInit(Domain, []hooks.InitAction{
			{EnvType: "user", FuncName: "set_user_info", Arguments: map[string]any{"name": "John Smith", "phone_number": "555-123-2002"}},
			{EnvType: "user", FuncName: "turn_airplane_mode_on", Arguments: map[string]any{}},
			{EnvType: "user", FuncName: "turn_data_off", Arguments: map[string]any{}},
		}, db, nil)
		assert.Equal(t, hooks.InitResult{Success: true, Errors: []string{}}, res)
		assert.Equal(t, "John Smith", surroundings(db)["name"])
		assert.Equal(t, true, device(db)["airplane_mode"])
		assert.Equal(t, false, device(db)["data_enabled"])
		assert.False(t, mobileData(t, db))
	})
	t.Run("126 a failing agent-side action", func(t *testing.T) {
		res := Hooks().ApplyInit(Domain, []hooks.InitAction{
			{EnvType: "assistant", FuncName: "enable_roaming", Arguments: map[string]any{"customer_id": "C1", "line_id": "L_FAKE"}},
		}, agentDB(t), nil)
		assert.False(t, res.Success)
		require.Len(t, res.Errors, 1)
		assert.Equal(t, "[action 0] 'enable_roaming' raised: ValueError: enable_roaming: line 'L_FAKE' not found for customer 'C1'", res.Errors[0])
	})
	t.Run("arguments are bound as Python binds keyword arguments", func(t *testing.T) {
		for _, tc := range []struct {
			name string
			args map[string]any
			want string
		}{
			{"set_user_info", map[string]any{"name": "x"}, "TypeError: set_user_info() missing 1 required positional argument: 'phone_number'"},
			{"set_user_info", map[string]any{}, "TypeError: set_user_info() missing 2 required positional arguments: 'name' and 'phone_number'"},
			{"set_data_usage", map[string]any{}, "TypeError: set_data_usage() missing 3 required positional arguments: 'customer_id', 'line_id', and 'data_used_gb'"},
			{"turn_data_off", map[string]any{"now": true}, "TypeError: turn_data_off() got an unexpected keyword argument 'now'"},
			{"set_user_location", map[string]any{"abroad": true, "db": nil}, "TypeError: set_user_location() got multiple values for argument 'db'"},
			{"set_user_location", map[string]any{"zone": 1, "db": nil, "abroad": true, "area": 2}, "TypeError: set_user_location() got an unexpected keyword argument 'area'"},
			{"set_user_location", map[string]any{"zone": 1, "db": nil, "abroad": true}, "TypeError: set_user_location() got multiple values for argument 'db'"},
			{"set_data_usage", map[string]any{"customer_id": "C1", "line_id": "L1", "data_used_gb": "lots"},
				"ValueError: could not convert string to float: 'lots'"},
			{"set_data_usage", map[string]any{"customer_id": "C1", "line_id": "L1", "data_used_gb": nil},
				"TypeError: float() argument must be a string or a real number, not 'NoneType'"},
			{"set_user_info", map[string]any{"name": "x", "phone_number": "y"}, ""},
		} {
			db := userDB(t)
			if tc.name == "set_data_usage" {
				db = agentDB(t)
			}
			err := runInit(t, db, tc.name, tc.args)
			if tc.want == "" {
				assert.NoError(t, err)
			} else {
				assert.EqualError(t, err, tc.want)
			}
		}
	})
	t.Run("a DB of the wrong shape is an error, never a panic", func(t *testing.T) {
		for _, name := range InitFuncNames() {
			for _, db := range []map[string]any{{}, {"device": []any{}, "surroundings": nil, "lines": "x", "customers": 1}} {
				args := map[string]any{}
				fn, _ := initFn(nil, name)
				assert.NotPanics(t, func() { _ = fn(db, args) }, name)
			}
		}
		err := runInit(t, map[string]any{}, "turn_data_off", nil)
		assert.EqualError(t, err, "KeyError: 'device'")
		err = runInit(t, map[string]any{"device": map[string]any{"data_enabled": true}}, "turn_data_off", nil)
		assert.EqualError(t, err, "KeyError: 'surroundings'")
	})
}

// Each function's Tables name every table it changes: run on a DB shared
// copy-on-write, copying only those, every function leaves the source DB
// as it was, and the result is what it makes of a private copy.
func TestInitTables(t *testing.T) {
	inits := Hooks().Init
	assert.ElementsMatch(t, InitFuncNames(), slices.Collect(maps.Keys(inits)))
	userArgs := map[string]map[string]any{
		"set_user_info":               {"name": "John Smith", "phone_number": "555-123-2002"},
		"set_user_location":           {"abroad": true},
		"set_network_mode_preference": {"mode": "2g_only"},
		"lock_sim_card":               {"mode": "puk"},
		"set_wifi_calling":            {"enabled": true, "mms_over_wifi": true},
		"remove_app_permission":       {"app_name": "messaging", "permission": "sms"},
	}
	agentArgs := map[string]any{"customer_id": "C1", "line_id": "L1", "data_used_gb": 3.5, "new_bill_id": "B9", "contract_ended": true}
	for _, name := range InitFuncNames() {
		t.Run(name, func(t *testing.T) {
			source, args := userDB(t), userArgs[name]
			if slices.Contains([]string{"enable_roaming", "disable_roaming", "set_data_usage", "suspend_line_for_overdue_bill"}, name) {
				source, args = agentDB(t), map[string]any{}
				for _, p := range []string{"customer_id", "line_id"} {
					args[p] = agentArgs[p]
				}
				switch name {
				case "disable_roaming":
					args["line_id"] = "L2" // L1 does not roam
				case "set_data_usage":
					args["data_used_gb"] = agentArgs["data_used_gb"]
				case "suspend_line_for_overdue_bill":
					args["new_bill_id"], args["contract_ended"] = agentArgs["new_bill_id"], agentArgs["contract_ended"]
				}
			}
			want := state.Clone(source).(map[string]any)
			require.NoError(t, runInit(t, want, name, args))
			require.NotEqual(t, source, want, "the function changes something")

			src := state.NewSource(source)
			st := state.New()
			st.Share(src)
			require.NoError(t, st.UpdateTables(inits[name].Tables, func(db map[string]any) error { return runInit(t, db, name, args) }))
			assert.NoError(t, src.Verify(), "the shared DB is untouched")
			assert.Equal(t, want, st.Snapshot())
		})
	}
}
