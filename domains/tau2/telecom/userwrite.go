package telecom

import (
	"context"
	"slices"
	"strings"

	"github.com/voiceeval/schematools/internal/pyvalue"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

// The user-side writes. Each changes the device (make_payment: the
// payment request in the surroundings), re-derives the network state where
// the Python tool does, records what it did and answers with a sentence,
// mostly followed by the status bar. A request the phone refuses changes
// nothing and records nothing.

// noArgs is the recorded arguments of a tool that takes none.
func noArgs() map[string]any { return map[string]any{} }

// newPhoneWrite builds a user-side write tool without arguments that
// changes the device.
func newPhoneWrite(b binding, name string, fn func(e *deviceEdit) (any, state.Action, error)) (tool.Tool, error) {
	return newTool(b, name, func(ctx context.Context, st *state.Shared, _ NoParams) (any, error) {
		return userSide.Write(ctx, st, deviceOnly, func(db map[string]any) (any, state.Action, error) {
			return changePhone(db, fn)
		})
	}, nil)
}

// newToggle builds a tool that flips one device setting, re-derives the
// network state when search is set, and answers "<label> is now ON." (or
// OFF) with the status bar.
func newToggle(b binding, name, key, label string, search bool) (tool.Tool, error) {
	return newPhoneWrite(b, name, func(e *deviceEdit) (any, state.Action, error) {
		cur, err := subscript(e.device, key)
		if err != nil {
			return nil, nil, err
		}
		next := !pyvalue.Truthy(cur)
		e.set(key, next)
		if search {
			if err := e.search(); err != nil {
				return nil, nil, err
			}
		}
		msg, err := e.reply(label + " is now " + onOff(next) + ".")
		if err != nil {
			return nil, nil, err
		}
		return msg, state.NewAction(name, noArgs(), map[string]any{key: next}), nil
	})
}

func newToggleData(b binding) (tool.Tool, error) {
	return newToggle(b, NameToggleData,
		"data_enabled", "Mobile Data", true)
}

func newToggleRoaming(b binding) (tool.Tool, error) {
	return newToggle(b, NameToggleRoaming,
		"roaming_enabled", "Data Roaming", true)
}

func newToggleDataSaverMode(b binding) (tool.Tool, error) {
	return newToggle(b, NameToggleDataSaverMode,
		"data_saver_mode", "Data Saver Mode", false)
}

func newToggleWifiCalling(b binding) (tool.Tool, error) {
	return newToggle(b, NameToggleWifiCalling,
		"wifi_calling_enabled", "Wi-Fi Calling", false)
}

func newToggleAirplaneMode(b binding) (tool.Tool, error) {
	return newPhoneWrite(b, NameToggleAirplaneMode,
		func(e *deviceEdit) (any, state.Action, error) {
			was, err := subscript(e.device, "airplane_mode")
			if err != nil {
				return nil, nil, err
			}
			on := !pyvalue.Truthy(was)
			e.set("airplane_mode", on)
			dropWifi := true
			if !on {
				e.set("network_connection_status", statusSearching)
				wifi, err := subscript(e.device, "wifi_enabled")
				if err != nil {
					return nil, nil, err
				}
				dropWifi = pyvalue.Truthy(wifi)
			}
			if dropWifi {
				e.set("wifi_connected", false)
				e.set("wifi_ssid", nil)
				e.set("wifi_signal_strength", none)
			}
			if on {
				if err := e.disconnectVPN(); err != nil {
					return nil, nil, err
				}
			}
			if err := e.search(); err != nil {
				return nil, nil, err
			}
			msg, err := e.reply("Airplane Mode is now " + onOff(on) + ".")
			if err != nil {
				return nil, nil, err
			}
			return msg, state.NewAction(NameToggleAirplaneMode, noArgs(), map[string]any{"airplane_mode": on}), nil
		})
}

func newToggleWifi(b binding) (tool.Tool, error) {
	return newPhoneWrite(b, NameToggleWifi,
		func(e *deviceEdit) (any, state.Action, error) {
			airplane, err := subscript(e.device, "airplane_mode")
			if err != nil {
				return nil, nil, err
			}
			if pyvalue.Truthy(airplane) {
				msg, err := e.reply("Cannot change Wi-Fi settings while Airplane Mode is ON.")
				return msg, nil, err
			}
			cur, err := subscript(e.device, "wifi_enabled")
			if err != nil {
				return nil, nil, err
			}
			on := !pyvalue.Truthy(cur)
			e.set("wifi_enabled", on)
			if !on {
				e.set("wifi_connected", false)
				e.set("wifi_ssid", nil)
				e.set("wifi_signal_strength", none)
			}
			msg, err := e.reply("Wi-Fi is now " + onOff(on) + ".")
			if err != nil {
				return nil, nil, err
			}
			return msg, state.NewAction(NameToggleWifi, noArgs(), map[string]any{"wifi_enabled": on}), nil
		})
}

func newSetNetworkModePreference(b binding) (tool.Tool, error) {
	return newTool(b, NameSetNetworkModePreference,
		func(ctx context.Context, st *state.Shared, p SetNetworkModePreferenceParams) (any, error) {
			return userSide.Write(ctx, st, deviceOnly, func(db map[string]any) (any, state.Action, error) {
				return changePhone(db, func(e *deviceEdit) (any, state.Action, error) {
					if !slices.Contains(networkModes[:], p.Mode) {
						msg, err := e.reply("Failed to set network mode: '" + p.Mode + "' is not a valid option. Please use one of: " +
							strings.Join(networkModes[:], ", "))
						return msg, nil, err
					}
					e.set("network_mode_preference", p.Mode)
					if err := e.search(); err != nil {
						return nil, nil, err
					}
					msg, err := e.reply("Preferred Network Mode set to: " + p.Mode)
					if err != nil {
						return nil, nil, err
					}
					return msg, state.NewAction(NameSetNetworkModePreference,
						map[string]any{"mode": p.Mode}, map[string]any{"network_mode_preference": p.Mode}), nil
				})
			})
		}, nil)
}

func newReseatSIMCard(b binding) (tool.Tool, error) {
	return newPhoneWrite(b, NameReseatSIMCard,
		func(e *deviceEdit) (any, state.Action, error) {
			e.set("sim_card_missing", false)
			if err := e.search(); err != nil {
				return nil, nil, err
			}
			msg, err := e.reply("SIM card re-seated successfully.")
			if err != nil {
				return nil, nil, err
			}
			return msg, state.NewAction(NameReseatSIMCard, noArgs(), map[string]any{"sim_card_missing": false}), nil
		})
}

func newSetAPNSettings(b binding) (tool.Tool, error) {
	return newTool(b, NameSetAPNSettings,
		func(ctx context.Context, st *state.Shared, p SetAPNSettingsParams) (any, error) {
			settings, refusal := apnSettings(p.APNSettings)
			if refusal != nil {
				return *refusal, nil
			}
			return userSide.Write(ctx, st, deviceOnly, func(db map[string]any) (any, state.Action, error) {
				return changePhone(db, func(e *deviceEdit) (any, state.Action, error) {
					e.set("active_apn_settings", settings)
					if err := e.search(); err != nil {
						return nil, nil, err
					}
					msg, err := e.reply("APN settings set to: " + pyvalue.Str(settings["apn_name"]))
					if err != nil {
						return nil, nil, err
					}
					return msg, state.NewAction(NameSetAPNSettings,
						map[string]any{"apn_settings": state.Clone(p.APNSettings)}, state.Clone(settings).(map[string]any)), nil
				})
			})
		}, nil)
}

func newResetAPNSettings(b binding) (tool.Tool, error) {
	return newPhoneWrite(b, NameResetAPNSettings,
		func(e *deviceEdit) (any, state.Action, error) {
			apn, err := e.child(e.device, "active_apn_settings")
			if err != nil {
				return nil, nil, err
			}
			e.setIn(apn, "reset_at_reboot", true)
			if err := e.search(); err != nil {
				return nil, nil, err
			}
			msg, err := e.reply("APN settings will reset at reboot.")
			if err != nil {
				return nil, nil, err
			}
			return msg, state.NewAction(NameResetAPNSettings, noArgs(), map[string]any{"reset_at_reboot": true}), nil
		})
}

func newConnectVPN(b binding) (tool.Tool, error) {
	return newPhoneWrite(b, NameConnectVPN,
		func(e *deviceEdit) (any, state.Action, error) {
			connected, err := subscript(e.device, "vpn_connected")
			if err != nil {
				return nil, nil, err
			}
			if pyvalue.Truthy(connected) {
				return "VPN already connected.", nil, nil
			}
			e.set("vpn_connected", true)
			e.set("vpn_details", defaultVPNDetails())
			msg, err := e.reply("VPN connected successfully.")
			if err != nil {
				return nil, nil, err
			}
			return msg, state.NewAction(NameConnectVPN, noArgs(), map[string]any{"vpn_connected": true}), nil
		})
}

func newDisconnectVPN(b binding) (tool.Tool, error) {
	return newPhoneWrite(b, NameDisconnectVPN,
		func(e *deviceEdit) (any, state.Action, error) {
			connected, err := subscript(e.device, "vpn_connected")
			if err != nil {
				return nil, nil, err
			}
			if !pyvalue.Truthy(connected) {
				msg, err := e.reply("No active VPN connection to disconnect.")
				return msg, nil, err
			}
			e.set("vpn_connected", false)
			e.set("vpn_details", nil)
			msg, err := e.reply("VPN disconnected successfully.")
			if err != nil {
				return nil, nil, err
			}
			return msg, state.NewAction(NameDisconnectVPN, noArgs(), map[string]any{"vpn_connected": false}), nil
		})
}

func newGrantAppPermission(b binding) (tool.Tool, error) {
	return newTool(b, NameGrantAppPermission,
		func(ctx context.Context, st *state.Shared, p GrantAppPermissionParams) (any, error) {
			return userSide.Write(ctx, st, deviceOnly, func(db map[string]any) (any, state.Action, error) {
				return changePhone(db, func(e *deviceEdit) (any, state.Action, error) {
					apps, err := subscript(e.device, "app_statuses")
					if err != nil {
						return nil, nil, err
					}
					app, err := get(apps, p.AppName, nil)
					if err != nil {
						return nil, nil, err
					}
					if app == nil {
						msg, err := e.reply("Error. App '" + p.AppName + "' not found. Cannot grant permission.")
						return msg, nil, err
					}
					perm := pyvalue.Lower(p.Permission)
					perms, err := subscript(app, "permissions")
					if err != nil {
						return nil, nil, err
					}
					ok, err := pyvalue.Contains(perm, perms)
					if err != nil {
						return nil, nil, err
					}
					if !ok {
						m, isDict := perms.(map[string]any)
						if !isDict {
							return nil, nil, noAttribute(perms, "keys")
						}
						keys := orderedKeys(m, permissionOrder)
						list := make([]any, len(keys))
						for i, k := range keys {
							list[i] = k
						}
						msg, err := e.reply("Error. Permission '" + perm + "' not tracked for app '" + p.AppName +
							"', available permissions: " + pyvalue.Repr(list))
						return msg, nil, err
					}
					ownApps, err := e.child(e.device, "app_statuses")
					if err != nil {
						return nil, nil, err
					}
					ownApp, err := e.child(ownApps, p.AppName)
					if err != nil {
						return nil, nil, err
					}
					ownPerms, err := e.child(ownApp, "permissions")
					if err != nil {
						return nil, nil, err
					}
					e.setIn(ownPerms, perm, true)
					msg, err := e.reply("Success. Permission '" + perm + "' granted to app '" + p.AppName + "'.")
					if err != nil {
						return nil, nil, err
					}
					return msg, state.NewAction(NameGrantAppPermission,
						map[string]any{"app_name": p.AppName, "permission": p.Permission}, map[string]any{"granted": true}), nil
				})
			})
		}, nil)
}

func newRebootDevice(b binding) (tool.Tool, error) {
	return newPhoneWrite(b, NameRebootDevice,
		func(e *deviceEdit) (any, state.Action, error) {
			apn, err := subscript(e.device, "active_apn_settings")
			if err != nil {
				return nil, nil, err
			}
			reset, err := get(apn, "reset_at_reboot", nil)
			if err != nil {
				return nil, nil, err
			}
			var lines []string
			if pyvalue.Truthy(reset) {
				lines = append(lines, "Resetting APN settings...")
				e.set("active_apn_settings", defaultAPNSettings())
			}
			lines = append(lines, "Restarting network services...")
			e.set("network_connection_status", statusSearching)
			if err := e.search(); err != nil {
				return nil, nil, err
			}
			msg, err := e.reply(strings.Join(lines, "\n"))
			if err != nil {
				return nil, nil, err
			}
			return msg, state.NewAction(NameRebootDevice, noArgs(), map[string]any{"rebooted": true}), nil
		})
}

func newMakePayment(b binding) (tool.Tool, error) {
	return newTool(b, NameMakePayment,
		func(ctx context.Context, st *state.Shared, _ NoParams) (any, error) {
			return userSide.Write(ctx, st, []string{tableSurroundings}, func(db map[string]any) (any, state.Action, error) {
				surroundings, err := subscript(db, tableSurroundings)
				if err != nil {
					return nil, nil, err
				}
				pr, err := get(surroundings, "payment_request", nil)
				if err != nil {
					return nil, nil, err
				}
				if pr == nil {
					return "You do not have a payment request.", nil, nil
				}
				request, err := assignable(pr)
				if err != nil {
					return nil, nil, err
				}
				bill, err := subscript(request, "bill_id")
				if err != nil {
					return nil, nil, err
				}
				amount, err := subscript(request, "amount_due")
				if err != nil {
					return nil, nil, err
				}
				request["paid"] = true
				return "Payment of " + pyvalue.Str(amount) + " USD has been made for bill " + pyvalue.Str(bill) + ".",
					state.NewAction(NameMakePayment, noArgs(), map[string]any{"bill_id": state.Clone(bill), "amount": state.Clone(amount)}), nil
			})
		}, nil)
}
