package telecom

import (
	"context"
	"strings"

	"github.com/voiceeval/schematools/internal/pyvalue"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

// The user-side tools: what the simulated user can see and do on their
// phone. They answer in plain sentences, as the Python tools do — a failed
// request too ("Cannot change Wi-Fi settings while Airplane Mode is ON.");
// most writes end their answer with the status bar. Only bad arguments
// and a missing DB give error dicts.

// tableDevice and tableSurroundings are the user DB's two tables.
const (
	tableDevice       = "device"
	tableSurroundings = "surroundings"
)

// deviceOnly lists the only table most user-side writes change.
var deviceOnly = []string{tableDevice}

// newCheck builds a user-side read tool without arguments that answers
// with text.
func newCheck(b binding, name string, text func(db map[string]any) (string, error)) (tool.Tool, error) {
	return newTool(b, name, func(_ context.Context, st *state.Shared, _ NoParams) (any, error) {
		return userSide.Read(st, func(db map[string]any) (any, error) { return text(db) })
	}, nil)
}

// deviceField reads one field of the device.
func deviceField(db map[string]any, key string) (any, error) {
	device, err := subscript(db, tableDevice)
	if err != nil {
		return nil, err
	}
	return subscript(device, key)
}

// onOff is "ON" or "OFF" after Python's truthiness of v.
func onOff(v any) string {
	if pyvalue.Truthy(v) {
		return "ON"
	}
	return "OFF"
}

// yesNo is "Yes" or "No" after Python's truthiness of v.
func yesNo(v any) string {
	if pyvalue.Truthy(v) {
		return "Yes"
	}
	return "No"
}

func newCheckStatusBar(b binding) (tool.Tool, error) {
	return newCheck(b, NameCheckStatusBar,
		func(db map[string]any) (string, error) {
			bar, err := statusBar(db)
			return "Status Bar: " + bar, err
		})
}

func newCheckNetworkStatus(b binding) (tool.Tool, error) {
	return newCheck(b, NameCheckNetworkStatus,
		func(db map[string]any) (string, error) {
			device, err := subscript(db, tableDevice)
			if err != nil {
				return "", err
			}
			fields := []string{"airplane_mode", "sim_card_missing"}
			values := map[string]any{}
			read := func(keys ...string) error {
				for _, k := range keys {
					v, err := subscript(device, k)
					if err != nil {
						return err
					}
					values[k] = v
				}
				return nil
			}
			if err := read(fields...); err != nil {
				return "", err
			}
			sim := any(simMissing)
			if !pyvalue.Truthy(values["sim_card_missing"]) {
				if err := read("sim_card_status"); err != nil {
					return "", err
				}
				sim = values["sim_card_status"]
			}
			if err := read("network_connection_status", "network_signal_strength", "network_technology_connected",
				"data_enabled", "roaming_enabled", "wifi_enabled", "wifi_connected"); err != nil {
				return "", err
			}
			lines := []string{
				"Airplane Mode: " + onOff(values["airplane_mode"]),
				"SIM Card Status: " + pyvalue.Str(sim),
				"Cellular Connection: " + pyvalue.Str(values["network_connection_status"]),
				"Cellular Signal: " + pyvalue.Str(values["network_signal_strength"]),
				"Cellular Network Type: " + pyvalue.Str(values["network_technology_connected"]),
				"Mobile Data Enabled: " + yesNo(values["data_enabled"]),
				"Data Roaming Enabled: " + yesNo(values["roaming_enabled"]),
				"Wi-Fi Radio: " + onOff(values["wifi_enabled"]),
				"Wi-Fi Connected: " + yesNo(values["wifi_connected"]),
			}
			if pyvalue.Truthy(values["wifi_connected"]) {
				ssid, _ := get(device, "wifi_ssid", nil)
				lines = append(lines, "Connected Wi-Fi Network: "+pyvalue.Str(ssid))
			}
			return strings.Join(lines, "\n"), nil
		})
}

func newCheckNetworkModePreference(b binding) (tool.Tool, error) {
	return newCheck(b, NameCheckNetworkModePreference,
		func(db map[string]any) (string, error) {
			v, err := deviceField(db, "network_mode_preference")
			return "Network Mode Preference: " + pyvalue.Str(v), err
		})
}

func newCheckSimStatus(b binding) (tool.Tool, error) {
	return newCheck(b, NameCheckSimStatus,
		func(db map[string]any) (string, error) {
			device, err := dictAt(db, tableDevice)
			if err != nil {
				return "", err
			}
			sim, err := simStatus(device)
			if err != nil {
				return "", err
			}
			if err := hashable(sim); err != nil {
				return "", err
			}
			switch {
			case sim == simActive:
				return "Your SIM card is active and working.", nil
			case sim == simMissing:
				return "No SIM card detected in the phone.", nil
			case sim == simLockedPIN:
				return "The SIM card is locked with a PIN code.", nil
			case sim == simLockedPUK:
				return "The SIM card is locked with a PUK code.", nil
			}
			return "Unknown SIM status: " + pyvalue.Str(sim), nil
		})
}

func newCheckDataRestrictionStatus(b binding) (tool.Tool, error) {
	return newCheck(b, NameCheckDataRestrictionStatus,
		func(db map[string]any) (string, error) {
			v, err := deviceField(db, "data_saver_mode")
			if err != nil {
				return "", err
			}
			if pyvalue.Truthy(v) {
				return "Data Saver mode is ON (limits data usage).", nil
			}
			return "Data Saver mode is OFF.", nil
		})
}

func newCheckAPNSettings(b binding) (tool.Tool, error) {
	return newCheck(b, NameCheckAPNSettings,
		func(db map[string]any) (string, error) {
			apn, err := deviceField(db, "active_apn_settings")
			if err != nil {
				return "", err
			}
			setting := func(key string) (string, error) {
				v, err := get(apn, key, nil)
				if err != nil || !pyvalue.Truthy(v) {
					return "Not Set", err
				}
				return pyvalue.Str(v), nil
			}
			name, err := setting("apn_name")
			if err != nil {
				return "", err
			}
			mmsc, err := setting("mmsc_url")
			if err != nil {
				return "", err
			}
			return "Current APN Name: " + name + "\nMMSC URL (for picture messages): " + mmsc +
				"\n(These are technical settings, usually best left unchanged.)", nil
		})
}

func newCheckWifiStatus(b binding) (tool.Tool, error) {
	return newCheck(b, NameCheckWifiStatus,
		func(db map[string]any) (string, error) {
			device, err := subscript(db, tableDevice)
			if err != nil {
				return "", err
			}
			on, err := subscript(device, "wifi_enabled")
			if err != nil {
				return "", err
			}
			if !pyvalue.Truthy(on) {
				return "Wi-Fi is turned OFF.", nil
			}
			connected, err := subscript(device, "wifi_connected")
			if err != nil {
				return "", err
			}
			if !pyvalue.Truthy(connected) {
				return "Wi-Fi is ON but not connected to any network.", nil
			}
			ssid, _ := get(device, "wifi_ssid", nil)
			signal, err := subscript(device, "wifi_signal_strength")
			if err != nil {
				return "", err
			}
			return "Wi-Fi is ON and connected to '" + pyvalue.Str(ssid) + "'. Signal strength: " + pyvalue.Str(signal) + ".", nil
		})
}

func newCheckWifiCallingStatus(b binding) (tool.Tool, error) {
	return newCheck(b, NameCheckWifiCallingStatus,
		func(db map[string]any) (string, error) {
			v, err := deviceField(db, "wifi_calling_enabled")
			return "Wi-Fi Calling is currently turned " + onOff(v) + ".", err
		})
}

func newCheckVPNStatus(b binding) (tool.Tool, error) {
	return newCheck(b, NameCheckVPNStatus,
		func(db map[string]any) (string, error) {
			device, err := subscript(db, tableDevice)
			if err != nil {
				return "", err
			}
			connected, err := subscript(device, "vpn_connected")
			if err != nil {
				return "", err
			}
			if pyvalue.Truthy(connected) {
				details, _ := get(device, "vpn_details", nil)
				if !pyvalue.Truthy(details) {
					return "VPN is ON and connected (no specific details available).", nil
				}
				text := pyvalue.Str(details)
				if m, ok := details.(map[string]any); ok {
					text = pyvalue.Repr(orderedDict(m, vpnDetailsOrder))
				}
				return "VPN is ON and connected. Details: " + text, nil
			}
			setting, _ := get(device, "vpn_enabled_setting", nil)
			if pyvalue.Truthy(setting) {
				return "VPN is turned ON in settings, but currently not connected.", nil
			}
			return "VPN is turned OFF.", nil
		})
}

// appNames returns the names of the installed apps: the Python data
// model's order (messaging, browser), then any others sorted.
func appNames(apps map[string]any) []string { return orderedKeys(apps, appOrder) }

func newCheckInstalledApps(b binding) (tool.Tool, error) {
	return newCheck(b, NameCheckInstalledApps,
		func(db map[string]any) (string, error) {
			apps, err := deviceField(db, "app_statuses")
			if err != nil {
				return "", err
			}
			m, ok := apps.(map[string]any)
			if !ok {
				return "", noAttribute(apps, "keys")
			}
			return "The following apps are installed on the phone: " + strings.Join(appNames(m), ", "), nil
		})
}

// grantedPermissions returns the permissions an app holds, in the data
// model's order, worded for a person ("_" read as " ", lower case).
func grantedPermissions(app any) ([]string, error) {
	perms, err := subscript(app, "permissions")
	if err != nil {
		return nil, err
	}
	m, ok := perms.(map[string]any)
	if !ok {
		return nil, noAttribute(perms, "items")
	}
	var out []string
	for _, k := range orderedKeys(m, permissionOrder) {
		if pyvalue.Truthy(m[k]) {
			out = append(out, pyvalue.Lower(strings.ReplaceAll(k, "_", " ")))
		}
	}
	return out, nil
}

// installedApp returns the app called name, or nil when the phone has none.
func installedApp(db map[string]any, name string) (any, error) {
	apps, err := deviceField(db, "app_statuses")
	if err != nil {
		return nil, err
	}
	return get(apps, name, nil)
}

// readApp answers about the permissions the installed app called name
// has been granted, with the sentence say makes of them, or says the phone
// has no such app.
func readApp(st *state.Shared, name string, say func(granted []string) string) (any, error) {
	return userSide.Read(st, func(db map[string]any) (any, error) {
		app, err := installedApp(db, name)
		if err != nil {
			return nil, err
		}
		if app == nil {
			return "App '" + name + "' not found on this phone.", nil
		}
		granted, err := grantedPermissions(app)
		if err != nil {
			return nil, err
		}
		return say(granted), nil
	})
}

func newCheckAppStatus(b binding) (tool.Tool, error) {
	return newTool(b, NameCheckAppStatus,
		func(_ context.Context, st *state.Shared, p AppParams) (any, error) {
			return readApp(st, p.AppName, func(granted []string) string {
				lines := []string{"Status for App: " + p.AppName}
				if len(granted) == 0 {
					lines = append(lines, " - Permissions: None granted.")
				} else {
					lines = append(lines, " - Permissions Granted:")
					for _, g := range granted {
						lines = append(lines, "   - "+g)
					}
				}
				return strings.Join(lines, "\n")
			})
		}, nil)
}

func newCheckAppPermissions(b binding) (tool.Tool, error) {
	return newTool(b, NameCheckAppPermissions,
		func(_ context.Context, st *state.Shared, p AppParams) (any, error) {
			return readApp(st, p.AppName, func(granted []string) string {
				if len(granted) == 0 {
					return "App '" + p.AppName + "' currently has no permissions granted."
				}
				return "App '" + p.AppName + "' has permission for: " + strings.Join(granted, ", ") + "."
			})
		}, nil)
}

func newCanSendMMS(b binding) (tool.Tool, error) {
	return newCheck(b, NameCanSendMMS,
		func(db map[string]any) (string, error) {
			ok, err := canSendMMS(db, true)
			if err != nil {
				return "", err
			}
			if pyvalue.Truthy(ok) {
				return "Your messaging app can send MMS messages.", nil
			}
			return "Your messaging app cannot send MMS messages.", nil
		})
}

func newCheckPaymentRequest(b binding) (tool.Tool, error) {
	return newCheck(b, NameCheckPaymentRequest,
		func(db map[string]any) (string, error) {
			surroundings, err := subscript(db, tableSurroundings)
			if err != nil {
				return "", err
			}
			pr, err := get(surroundings, "payment_request", nil)
			if err != nil || pr == nil {
				return "No payment request has been made.", err
			}
			bill, err := subscript(pr, "bill_id")
			if err != nil {
				return "", err
			}
			amount, err := subscript(pr, "amount_due")
			if err != nil {
				return "", err
			}
			return "You have a payment request for bill " + pyvalue.Str(bill) + " of " + pyvalue.Str(amount) + " USD.", nil
		})
}

// speedAdvice says what a speed test's verdict means for the user.
var speedAdvice = map[string]string{
	"Very Poor": "Connection is very slow. Basic web browsing might be difficult.",
	"Poor":      "Connection is slow. Web browsing may be sluggish, streaming difficult.",
	"Fair":      "Connection is okay for web browsing and some standard definition streaming.",
	"Good":      "Connection is good for most activities, including HD streaming.",
	"Excellent": "Connection is very fast.",
}

func newRunSpeedTest(b binding) (tool.Tool, error) {
	return newCheck(b, NameRunSpeedTest,
		func(db map[string]any) (string, error) {
			speed, verdict, ok, err := speedTest(db)
			if err != nil {
				return "", err
			}
			if !ok {
				return "Speed test failed: " + verdict + ".", nil
			}
			return "Speed Test Result: " + format2(speed) + " Mbps (" + verdict + "). " + speedAdvice[verdict], nil
		})
}
