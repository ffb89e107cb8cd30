package telecom

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/internal/replaytest"
)

// Status bars of the test phone.
const (
	barGood5G      = "📶³ Good | 5G | 📱 Data Enabled | 🔋 80%"
	barExcellent5G = "📶⁴ Excellent | 5G | 📱 Data Enabled | 🔋 80%"
	barAirplaneOn  = "✈️ Airplane Mode | 🔋 80%"
	barNoService   = "📵 No Signal | 📵 Data Disabled | 🔋 80%"
)

// phoneCase is one call of a user-side tool on a fresh test phone, after
// setup changed the phone's device (d) and surroundings (s).
type phoneCase struct {
	name   string
	tool   string
	args   map[string]any
	setup  func(d, s map[string]any)
	want   string // the raw result: a sentence, or JSON when it starts with '{'
	record string // the record appended, as JSON; none when empty
	check  func(t *testing.T, d, s map[string]any)
}

func runPhone(t *testing.T, cases []phoneCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			db := userDB(t)
			if tc.setup != nil {
				tc.setup(db["device"].(map[string]any), db["surroundings"].(map[string]any))
			}
			f := newFixture(t, agentDB(t), db)
			before := replaytest.Canon(t, f.user.Snapshot())
			got := f.Call(t, tc.tool, tc.args)
			if len(tc.want) > 0 && tc.want[0] == '{' {
				replaytest.RequireJSON(t, tc.want, got)
			} else {
				require.Equal(t, tc.want, got)
			}
			if tc.record == "" {
				assert.Empty(t, f.user.Actions())
				assert.Equal(t, before, replaytest.Canon(t, f.user.Snapshot()), "the call changed the phone")
			} else {
				require.Len(t, f.user.Actions(), 1)
				replaytest.RequireJSON(t, tc.record, lastRecord(t, f.user))
			}
			assert.Empty(t, f.agent.Actions())
			if tc.check != nil {
				snap := f.user.Snapshot()
				tc.check(t, snap["device"].(map[string]any), snap["surroundings"].(map[string]any))
			}
		})
	}
}

func TestPhoneChecks(t *testing.T) {
	vpnOn := func(d, _ map[string]any) { d["vpn_connected"], d["vpn_details"] = true, defaultVPNDetails() }
	runPhone(t, []phoneCase{
		{name: "status bar", tool: NameCheckStatusBar, want: "Status Bar: " + barGood5G},
		{name: "status bar: airplane mode, Wi-Fi and VPN", tool: NameCheckStatusBar,
			setup: func(d, _ map[string]any) {
				d["airplane_mode"], d["wifi_enabled"], d["wifi_connected"], d["wifi_ssid"], d["vpn_connected"] = true, true, true, "Home", true
			},
			want: "Status Bar: ✈️ Airplane Mode | 📡 Connected to Home | 🔒 VPN Connected | 🔋 80%"},
		{name: "status bar: no network", tool: NameCheckStatusBar,
			setup: func(d, _ map[string]any) {
				d["network_signal_strength"], d["network_technology_connected"] = "none", "none"
			},
			want: "Status Bar: " + barNoService},
		{name: "status bar: data off, data saver, Wi-Fi without a name", tool: NameCheckStatusBar,
			setup: func(d, _ map[string]any) {
				d["data_enabled"], d["data_saver_mode"], d["wifi_enabled"], d["wifi_connected"] = false, true, true, true
			},
			want: "Status Bar: 📶³ Good | 5G | 📵 Data Disabled | 📡 Enabled | 🔋 80%"},
		{name: "status bar: data saver, unknown signal", tool: NameCheckStatusBar,
			setup: func(d, _ map[string]any) { d["data_saver_mode"], d["network_signal_strength"] = true, "great" },
			want:  "Status Bar: 📵 No Signal | 5G | 📱 Data Enabled | 🔽 Data Saver | 🔋 80%"},
		{name: "network status", tool: NameCheckNetworkStatus,
			want: "Airplane Mode: OFF\nSIM Card Status: active\nCellular Connection: connected\nCellular Signal: good\nCellular Network Type: 5G\n" +
				"Mobile Data Enabled: Yes\nData Roaming Enabled: No\nWi-Fi Radio: OFF\nWi-Fi Connected: No"},
		{name: "network status: SIM out, on Wi-Fi", tool: NameCheckNetworkStatus,
			setup: func(d, _ map[string]any) {
				d["sim_card_missing"], d["wifi_enabled"], d["wifi_connected"], d["wifi_ssid"], d["roaming_enabled"] = true, true, true, "Home", true
			},
			want: "Airplane Mode: OFF\nSIM Card Status: missing\nCellular Connection: connected\nCellular Signal: good\nCellular Network Type: 5G\n" +
				"Mobile Data Enabled: Yes\nData Roaming Enabled: Yes\nWi-Fi Radio: ON\nWi-Fi Connected: Yes\nConnected Wi-Fi Network: Home"},
		{name: "network mode", tool: NameCheckNetworkModePreference, want: "Network Mode Preference: 4g_5g_preferred"},
		{name: "SIM active", tool: NameCheckSimStatus, want: "Your SIM card is active and working."},
		{name: "SIM missing", tool: NameCheckSimStatus, setup: func(d, _ map[string]any) { d["sim_card_missing"] = true },
			want: "No SIM card detected in the phone."},
		{name: "SIM PIN", tool: NameCheckSimStatus, setup: func(d, _ map[string]any) { d["sim_card_status"] = "locked_pin" },
			want: "The SIM card is locked with a PIN code."},
		{name: "SIM PUK", tool: NameCheckSimStatus, setup: func(d, _ map[string]any) { d["sim_card_status"] = "locked_puk" },
			want: "The SIM card is locked with a PUK code."},
		{name: "SIM other", tool: NameCheckSimStatus, setup: func(d, _ map[string]any) { d["sim_card_status"] = "Active" },
			want: "Unknown SIM status: Active"},
		{name: "data saver off", tool: NameCheckDataRestrictionStatus, want: "Data Saver mode is OFF."},
		{name: "data saver on", tool: NameCheckDataRestrictionStatus, setup: func(d, _ map[string]any) { d["data_saver_mode"] = true },
			want: "Data Saver mode is ON (limits data usage)."},
		{name: "APN", tool: NameCheckAPNSettings,
			want: "Current APN Name: internet\nMMSC URL (for picture messages): http://mms.carrier.com/mms/wapenc\n" +
				"(These are technical settings, usually best left unchanged.)"},
		{name: "APN without MMSC", tool: NameCheckAPNSettings,
			setup: func(d, _ map[string]any) { d["active_apn_settings"].(map[string]any)["mmsc_url"] = nil },
			want: "Current APN Name: internet\nMMSC URL (for picture messages): Not Set\n" +
				"(These are technical settings, usually best left unchanged.)"},
		{name: "Wi-Fi off", tool: NameCheckWifiStatus, want: "Wi-Fi is turned OFF."},
		{name: "Wi-Fi on", tool: NameCheckWifiStatus, setup: func(d, _ map[string]any) { d["wifi_enabled"] = true },
			want: "Wi-Fi is ON but not connected to any network."},
		{name: "Wi-Fi connected", tool: NameCheckWifiStatus,
			setup: func(d, _ map[string]any) {
				d["wifi_enabled"], d["wifi_connected"], d["wifi_ssid"], d["wifi_signal_strength"] = true, true, "Home", "good"
			},
			want: "Wi-Fi is ON and connected to 'Home'. Signal strength: good."},
		{name: "Wi-Fi calling", tool: NameCheckWifiCallingStatus, want: "Wi-Fi Calling is currently turned OFF."},
		{name: "VPN off", tool: NameCheckVPNStatus, want: "VPN is turned OFF."},
		{name: "VPN on in settings", tool: NameCheckVPNStatus, setup: func(d, _ map[string]any) { d["vpn_enabled_setting"] = true },
			want: "VPN is turned ON in settings, but currently not connected."},
		{name: "VPN connected, with details as Python prints a dict", tool: NameCheckVPNStatus, setup: vpnOn,
			want: "VPN is ON and connected. Details: {'server_address': '192.168.1.1', 'protocol': 'OpenVPN', 'server_performance': 'excellent'}"},
		{name: "VPN connected, no details", tool: NameCheckVPNStatus, setup: func(d, _ map[string]any) { d["vpn_connected"] = true },
			want: "VPN is ON and connected (no specific details available)."},
		{name: "installed apps", tool: NameCheckInstalledApps, want: "The following apps are installed on the phone: messaging, browser"},
		{name: "app status", tool: NameCheckAppStatus, args: map[string]any{"app_name": "messaging"},
			want: "Status for App: messaging\n - Permissions Granted:\n   - sms\n   - storage\n   - phone"},
		{name: "app status: nothing granted", tool: NameCheckAppStatus, args: map[string]any{"app_name": "browser"},
			setup: func(d, _ map[string]any) {
				d["app_statuses"].(map[string]any)["browser"].(map[string]any)["permissions"] = map[string]any{"storage": false, "network": false}
			},
			want: "Status for App: browser\n - Permissions: None granted."},
		{name: "app status: no such app", tool: NameCheckAppStatus, args: map[string]any{"app_name": "camera"},
			want: "App 'camera' not found on this phone."},
		{name: "app permissions", tool: NameCheckAppPermissions, args: map[string]any{"app_name": "browser"},
			want: "App 'browser' has permission for: storage, network."},
		{name: "app permissions: none", tool: NameCheckAppPermissions, args: map[string]any{"app_name": "browser"},
			setup: func(d, _ map[string]any) {
				d["app_statuses"].(map[string]any)["browser"].(map[string]any)["permissions"] = map[string]any{"storage": false}
			},
			want: "App 'browser' currently has no permissions granted."},
		{name: "app permissions: no such app", tool: NameCheckAppPermissions, args: map[string]any{"app_name": "Messaging"},
			want: "App 'Messaging' not found on this phone."},
		{name: "MMS", tool: NameCanSendMMS, want: "Your messaging app can send MMS messages."},
		{name: "MMS over Wi-Fi calling", tool: NameCanSendMMS,
			setup: func(d, _ map[string]any) { d["wifi_calling_enabled"], d["wifi_calling_mms_over_wifi"] = true, true },
			want:  "Your messaging app cannot send MMS messages."},
		{name: "MMS reads missing flags leniently", tool: NameCanSendMMS,
			setup: func(d, s map[string]any) {
				delete(d, "wifi_calling_enabled")
				delete(s, "mobile_data_usage_exceeded")
			},
			want: "Your messaging app can send MMS messages."},
		{name: "no payment request", tool: NameCheckPaymentRequest, want: "No payment request has been made."},
		{name: "payment request", tool: NameCheckPaymentRequest,
			setup: func(_, s map[string]any) {
				s["payment_request"] = replaytest.DecodeDB(t, `{"bill_id": "B1", "amount_due": 65.0, "paid": false}`)
			},
			want: "You have a payment request for bill B1 of 65.0 USD."},
		{name: "speed test", tool: NameRunSpeedTest, want: "Speed Test Result: 220.00 Mbps (Excellent). Connection is very fast."},
		{name: "speed test: data saver", tool: NameRunSpeedTest, setup: func(d, _ map[string]any) { d["data_saver_mode"] = true },
			want: "Speed Test Result: 44.00 Mbps (Good). Connection is good for most activities, including HD streaming."},
		{name: "speed test: poor VPN", tool: NameRunSpeedTest,
			setup: func(d, s map[string]any) {
				vpnOn(d, s)
				d["vpn_details"].(map[string]any)["server_performance"] = "poor"
			},
			want: "Speed Test Result: 22.00 Mbps (Fair). Connection is okay for web browsing and some standard definition streaming."},
		{name: "speed test: 3G fair", tool: NameRunSpeedTest,
			setup: func(d, _ map[string]any) {
				d["network_technology_connected"], d["network_signal_strength"] = "3G", "fair"
			},
			want: "Speed Test Result: 1.50 Mbps (Poor). Connection is slow. Web browsing may be sluggish, streaming difficult."},
		{name: "speed test: 2G", tool: NameRunSpeedTest,
			setup: func(d, _ map[string]any) { d["network_technology_connected"] = "2G" },
			want:  "Speed Test Result: 0.20 Mbps (Very Poor). Connection is very slow. Basic web browsing might be difficult."},
		{name: "speed test: no data", tool: NameRunSpeedTest, setup: func(d, _ map[string]any) { d["data_enabled"] = false },
			want: "Speed test failed: No Connection."},
		{name: "arguments are refused", tool: NameCheckStatusBar, args: map[string]any{"verbose": true},
			want: `{"status": "error", "error_type": "invalid_arguments", "message": "1 validation error for CheckStatusBarParams\nverbose\n  Extra inputs are not permitted [type=extra_forbidden, input_value=True, input_type=bool]\n    For further information visit https://errors.pydantic.dev/2.13/v/extra_forbidden"}`},
	})
}

func TestPhoneWrites(t *testing.T) {
	noRecord := ""
	runPhone(t, []phoneCase{
		{name: "airplane mode on", tool: NameToggleAirplaneMode,
			setup: func(d, _ map[string]any) {
				d["wifi_enabled"], d["wifi_connected"], d["wifi_ssid"], d["wifi_signal_strength"] = true, true, "Home", "good"
				d["vpn_connected"], d["vpn_details"] = true, defaultVPNDetails()
			},
			want:   "Airplane Mode is now ON.\nStatus Bar: " + barAirplaneOn,
			record: `{"action_type": "toggle_airplane_mode", "name": "toggle_airplane_mode", "arguments": {}, "result": {"airplane_mode": true}}`,
			check: func(t *testing.T, d, _ map[string]any) {
				assert.Equal(t, []any{true, false, nil, "none", false, nil, true, "no_service", "none", "none"},
					[]any{d["airplane_mode"], d["wifi_connected"], d["wifi_ssid"], d["wifi_signal_strength"], d["vpn_connected"], d["vpn_details"],
						d["wifi_enabled"], d["network_connection_status"], d["network_technology_connected"], d["network_signal_strength"]})
			}},
		{name: "airplane mode off: searching, then the network search", tool: NameToggleAirplaneMode,
			setup: func(d, _ map[string]any) {
				d["airplane_mode"], d["network_connection_status"], d["network_technology_connected"], d["network_signal_strength"] = true, "no_service", "none", "none"
				d["wifi_enabled"], d["wifi_connected"], d["wifi_ssid"] = true, true, "Home"
			},
			want:   "Airplane Mode is now OFF.\nStatus Bar: " + barExcellent5G,
			record: `{"action_type": "toggle_airplane_mode", "name": "toggle_airplane_mode", "arguments": {}, "result": {"airplane_mode": false}}`,
			check: func(t *testing.T, d, _ map[string]any) {
				assert.Equal(t, []any{false, nil, "connected", "5G", "excellent"},
					[]any{d["wifi_connected"], d["wifi_ssid"], d["network_connection_status"], d["network_technology_connected"], d["network_signal_strength"]})
			}},
		{name: "data off", tool: NameToggleData, want: "Mobile Data is now OFF.\nStatus Bar: 📶⁴ Excellent | 5G | 📵 Data Disabled | 🔋 80%",
			record: `{"action_type": "toggle_data", "name": "toggle_data", "arguments": {}, "result": {"data_enabled": false}}`},
		{name: "roaming on", tool: NameToggleRoaming, want: "Data Roaming is now ON.\nStatus Bar: " + barExcellent5G,
			record: `{"action_type": "toggle_roaming", "name": "toggle_roaming", "arguments": {}, "result": {"roaming_enabled": true}}`},
		{name: "data saver on, no network search", tool: NameToggleDataSaverMode,
			want:   "Data Saver Mode is now ON.\nStatus Bar: 📶³ Good | 5G | 📱 Data Enabled | 🔽 Data Saver | 🔋 80%",
			record: `{"action_type": "toggle_data_saver_mode", "name": "toggle_data_saver_mode", "arguments": {}, "result": {"data_saver_mode": true}}`},
		{name: "Wi-Fi on", tool: NameToggleWifi, want: "Wi-Fi is now ON.\nStatus Bar: " + barGood5G,
			record: `{"action_type": "toggle_wifi", "name": "toggle_wifi", "arguments": {}, "result": {"wifi_enabled": true}}`},
		{name: "Wi-Fi off drops the connection", tool: NameToggleWifi,
			setup: func(d, _ map[string]any) {
				d["wifi_enabled"], d["wifi_connected"], d["wifi_ssid"], d["wifi_signal_strength"] = true, true, "Home", "good"
			},
			want:   "Wi-Fi is now OFF.\nStatus Bar: " + barGood5G,
			record: `{"action_type": "toggle_wifi", "name": "toggle_wifi", "arguments": {}, "result": {"wifi_enabled": false}}`,
			check: func(t *testing.T, d, _ map[string]any) {
				assert.Equal(t, []any{false, nil, "none"}, []any{d["wifi_connected"], d["wifi_ssid"], d["wifi_signal_strength"]})
			}},
		{name: "Wi-Fi in airplane mode", tool: NameToggleWifi,
			setup:  func(d, _ map[string]any) { d["airplane_mode"] = true },
			want:   "Cannot change Wi-Fi settings while Airplane Mode is ON.\nStatus Bar: " + barAirplaneOn,
			record: noRecord},
		{name: "Wi-Fi calling on", tool: NameToggleWifiCalling, want: "Wi-Fi Calling is now ON.\nStatus Bar: " + barGood5G,
			record: `{"action_type": "toggle_wifi_calling", "name": "toggle_wifi_calling", "arguments": {}, "result": {"wifi_calling_enabled": true}}`},
		{name: "network mode", tool: NameSetNetworkModePreference, args: map[string]any{"mode": "3g_only"},
			want:   "Preferred Network Mode set to: 3g_only\nStatus Bar: 📶² Fair | 3G | 📱 Data Enabled | 🔋 80%",
			record: `{"action_type": "set_network_mode_preference", "name": "set_network_mode_preference", "arguments": {"mode": "3g_only"}, "result": {"network_mode_preference": "3g_only"}}`},
		{name: "network mode: 4G/5G without 5G signal is 4G", tool: NameSetNetworkModePreference, args: map[string]any{"mode": "4g_5g_preferred"},
			setup:  func(_, s map[string]any) { s["signal_strength"].(map[string]any)["5G"] = "none" },
			want:   "Preferred Network Mode set to: 4g_5g_preferred\nStatus Bar: 📶³ Good | 4G | 📱 Data Enabled | 🔋 80%",
			record: `{"action_type": "set_network_mode_preference", "name": "set_network_mode_preference", "arguments": {"mode": "4g_5g_preferred"}, "result": {"network_mode_preference": "4g_5g_preferred"}}`},
		{name: "network mode: unknown", tool: NameSetNetworkModePreference, args: map[string]any{"mode": "5G"},
			want: "Failed to set network mode: '5G' is not a valid option. Please use one of: 4g_5g_preferred, 4g_only, 3g_only, 2g_only\nStatus Bar: " + barGood5G},
		{name: "reseat the SIM", tool: NameReseatSIMCard,
			setup:  func(d, _ map[string]any) { d["sim_card_missing"], d["network_connection_status"] = true, "no_service" },
			want:   "SIM card re-seated successfully.\nStatus Bar: " + barExcellent5G,
			record: `{"action_type": "reseat_sim_card", "name": "reseat_sim_card", "arguments": {}, "result": {"sim_card_missing": false}}`},
		{name: "reset APN at reboot", tool: NameResetAPNSettings, want: "APN settings will reset at reboot.\nStatus Bar: " + barExcellent5G,
			record: `{"action_type": "reset_apn_settings", "name": "reset_apn_settings", "arguments": {}, "result": {"reset_at_reboot": true}}`,
			check: func(t *testing.T, d, _ map[string]any) {
				assert.Equal(t, true, d["active_apn_settings"].(map[string]any)["reset_at_reboot"])
			}},
		{name: "reboot", tool: NameRebootDevice, want: "Restarting network services...\nStatus Bar: " + barExcellent5G,
			record: `{"action_type": "reboot_device", "name": "reboot_device", "arguments": {}, "result": {"rebooted": true}}`},
		{name: "reboot resets a broken APN marked for reset", tool: NameRebootDevice,
			setup: func(d, _ map[string]any) {
				apn := d["active_apn_settings"].(map[string]any)
				apn["apn_name"], apn["reset_at_reboot"], apn["mmsc_url"] = "broken", true, nil
			},
			want:   "Resetting APN settings...\nRestarting network services...\nStatus Bar: " + barExcellent5G,
			record: `{"action_type": "reboot_device", "name": "reboot_device", "arguments": {}, "result": {"rebooted": true}}`,
			check: func(t *testing.T, d, _ map[string]any) {
				replaytest.RequireJSON(t, `{"apn_name": "internet", "reset_at_reboot": false, "mms_apn": "mms", "mmsc_url": "http://mms.carrier.com/mms/wapenc", "mms_proxy": null, "mms_port": null}`,
					d["active_apn_settings"])
			}},
		{name: "connect VPN", tool: NameConnectVPN, want: "VPN connected successfully.\nStatus Bar: 📶³ Good | 5G | 📱 Data Enabled | 🔒 VPN Connected | 🔋 80%",
			record: `{"action_type": "connect_vpn", "name": "connect_vpn", "arguments": {}, "result": {"vpn_connected": true}}`,
			check:  func(t *testing.T, d, _ map[string]any) { assert.Equal(t, defaultVPNDetails(), d["vpn_details"]) }},
		{name: "connect VPN again", tool: NameConnectVPN, setup: func(d, _ map[string]any) { d["vpn_connected"] = true },
			want: "VPN already connected."},
		{name: "disconnect VPN", tool: NameDisconnectVPN,
			setup:  func(d, _ map[string]any) { d["vpn_connected"], d["vpn_details"] = true, defaultVPNDetails() },
			want:   "VPN disconnected successfully.\nStatus Bar: " + barGood5G,
			record: `{"action_type": "disconnect_vpn", "name": "disconnect_vpn", "arguments": {}, "result": {"vpn_connected": false}}`,
			check: func(t *testing.T, d, _ map[string]any) {
				assert.Equal(t, []any{false, nil}, []any{d["vpn_connected"], d["vpn_details"]})
			}},
		{name: "disconnect no VPN", tool: NameDisconnectVPN, want: "No active VPN connection to disconnect.\nStatus Bar: " + barGood5G},
		{name: "grant a permission: the name is lower-cased, recorded as given", tool: NameGrantAppPermission,
			args:   map[string]any{"app_name": "messaging", "permission": "NETWORK"},
			want:   "Success. Permission 'network' granted to app 'messaging'.\nStatus Bar: " + barGood5G,
			record: `{"action_type": "grant_app_permission", "name": "grant_app_permission", "arguments": {"app_name": "messaging", "permission": "NETWORK"}, "result": {"granted": true}}`,
			check: func(t *testing.T, d, _ map[string]any) {
				assert.Equal(t, true, d["app_statuses"].(map[string]any)["messaging"].(map[string]any)["permissions"].(map[string]any)["network"])
			}},
		{name: "grant to an unknown app", tool: NameGrantAppPermission, args: map[string]any{"app_name": "camera", "permission": "sms"},
			want: "Error. App 'camera' not found. Cannot grant permission.\nStatus Bar: " + barGood5G},
		{name: "grant an unknown permission", tool: NameGrantAppPermission, args: map[string]any{"app_name": "messaging", "permission": "Camera"},
			want: "Error. Permission 'camera' not tracked for app 'messaging', available permissions: ['sms', 'storage', 'phone', 'network']\nStatus Bar: " + barGood5G},
		{name: "pay", tool: NameMakePayment,
			setup: func(_, s map[string]any) {
				s["payment_request"] = replaytest.DecodeDB(t, `{"bill_id": "B1", "amount_due": 65.0, "paid": false}`)
			},
			want:   "Payment of 65.0 USD has been made for bill B1.",
			record: `{"action_type": "make_payment", "name": "make_payment", "arguments": {}, "result": {"bill_id": "B1", "amount": 65.0}}`,
			check: func(t *testing.T, _, s map[string]any) {
				assert.Equal(t, true, s["payment_request"].(map[string]any)["paid"])
			}},
		{name: "pay without a request", tool: NameMakePayment, want: "You do not have a payment request."},
	})
}

func TestSetAPNSettings(t *testing.T) {
	runPhone(t, []phoneCase{
		{name: "break the APN", tool: NameSetAPNSettings, args: map[string]any{"apn_settings": map[string]any{"apn_name": "broken"}},
			want: "APN settings set to: broken\nStatus Bar: " + barNoService,
			record: `{"action_type": "set_apn_settings", "name": "set_apn_settings", "arguments": {"apn_settings": {"apn_name": "broken"}},
				"result": {"apn_name": "broken", "reset_at_reboot": false, "mms_apn": "mms", "mmsc_url": "http://mms.carrier.com/mms/wapenc", "mms_proxy": null, "mms_port": null}}`},
		{name: "lax values, null for optional fields, defaults for the others", tool: NameSetAPNSettings,
			args: map[string]any{"apn_settings": map[string]any{"mmsc_url": nil, "mms_port": "8080", "reset_at_reboot": "yes"}},
			want: "APN settings set to: internet\nStatus Bar: " + barExcellent5G,
			record: `{"action_type": "set_apn_settings", "name": "set_apn_settings", "arguments": {"apn_settings": {"mmsc_url": null, "mms_port": "8080", "reset_at_reboot": "yes"}},
				"result": {"apn_name": "internet", "reset_at_reboot": true, "mms_apn": "mms", "mmsc_url": null, "mms_proxy": null, "mms_port": 8080}}`},
		{name: "refused settings: every issue, in the model's order", tool: NameSetAPNSettings,
			args: map[string]any{"apn_settings": map[string]any{"apn_name": "bogus", "mms_port": "x", "extra": 1, "reset_at_reboot": nil}},
			want: `{"status": "error", "error_type": "invalid_arguments", "message": "4 validation errors for APNSettings\n` +
				`apn_name\n  Input should be 'internet' or 'broken' [type=enum, input_value='bogus', input_type=str]\n    For further information visit https://errors.pydantic.dev/2.13/v/enum\n` +
				`reset_at_reboot\n  Input should be a valid boolean [type=bool_type, input_value=None, input_type=NoneType]\n    For further information visit https://errors.pydantic.dev/2.13/v/bool_type\n` +
				`mms_port\n  Input should be a valid integer, unable to parse string as an integer [type=int_parsing, input_value='x', input_type=str]\n    For further information visit https://errors.pydantic.dev/2.13/v/int_parsing\n` +
				`extra\n  Extra inputs are not permitted [type=extra_forbidden, input_value=1, input_type=int]\n    For further information visit https://errors.pydantic.dev/2.13/v/extra_forbidden"}`},
		{name: "an APN name is an enum value, case and all", tool: NameSetAPNSettings, args: map[string]any{"apn_settings": map[string]any{"apn_name": "Internet"}},
			want: `{"status": "error", "error_type": "invalid_arguments", "message": "1 validation error for APNSettings\napn_name\n  Input should be 'internet' or 'broken' [type=enum, input_value='Internet', input_type=str]\n    For further information visit https://errors.pydantic.dev/2.13/v/enum"}`},
		{name: "not a dict", tool: NameSetAPNSettings, args: map[string]any{"apn_settings": "internet"},
			want: `{"status": "error", "error_type": "invalid_arguments", "message": "1 validation error for SetApnSettingsParams\napn_settings\n  Input should be a valid dictionary [type=dict_type, input_value='internet', input_type=str]\n    For further information visit https://errors.pydantic.dev/2.13/v/dict_type"}`},
	})
}

// A write that fails half-way — here on a phone whose surroundings lack a
// field the network search reads, or whose device lacks the battery the
// status bar shows — is Python's exception, and leaves the phone as it was.
func TestPhoneWriteRollsBack(t *testing.T) {
	for _, tc := range []struct {
		tool    string
		args    map[string]any
		breakIt func(d, s map[string]any)
		want    string
	}{
		{NameToggleData, nil, func(_, s map[string]any) { delete(s, "line_active") }, "'line_active'"},
		{NameToggleAirplaneMode, nil, func(d, _ map[string]any) {
			d["vpn_connected"], d["vpn_details"] = true, defaultVPNDetails()
			delete(d, "battery_level")
		}, "'battery_level'"},
		{NameGrantAppPermission, map[string]any{"app_name": "browser", "permission": "sms"}, func(d, _ map[string]any) { delete(d, "battery_level") }, "'battery_level'"},
		{NameResetAPNSettings, nil, func(d, _ map[string]any) { delete(d, "network_mode_preference") }, "'network_mode_preference'"},
	} {
		t.Run(tc.tool, func(t *testing.T) {
			db := userDB(t)
			tc.breakIt(device(db), surroundings(db))
			f := newFixture(t, nil, db)
			before := replaytest.Canon(t, f.user.Snapshot())
			assert.EqualError(t, f.CallErr(t, tc.tool, tc.args), tc.want)
			assert.Equal(t, before, replaytest.Canon(t, f.user.Snapshot()))
			assert.Empty(t, f.user.Actions())
		})
	}
	db := userDB(t)
	delete(surroundings(db), "signal_strength")
	assert.EqualError(t, runInit(t, db, "turn_airplane_mode_on", nil), "KeyError: 'signal_strength'")
	assert.Equal(t, false, device(db)["airplane_mode"], "an initialisation function that fails changes nothing either")
}
