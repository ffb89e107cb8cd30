package telecom

import (
	"slices"
	"strings"
	"time"

	"github.com/voiceeval/schematools/hooks"
	"github.com/voiceeval/schematools/internal/pyvalue"
	"github.com/voiceeval/schematools/state"
)

// The initialisation functions set a task's starting state: sixteen on the
// user's phone, four on the agent DB. Each takes the DB and the task's
// keyword arguments, as the Python functions are called (fn(db,
// **arguments)); a wrong argument is Python's TypeError, a refused value
// its ValueError, and the error's text is "<Type>: <message>", as
// hooks.Set.ApplyInit reports it after "[action i] '<name>' raised: ". A
// failing function changes nothing.

// param is one keyword parameter of an initialisation function or a
// predicate.
type param struct {
	name     string
	optional bool // with a default of None (or False)
}

func req(name string) param { return param{name: name} }
func opt(name string) param { return param{name: name, optional: true} }

// bindArgs binds args to the parameters of the Python function fn(db,
// …params) as a call fn(db, **args) would: an unknown key, a second value
// for db, or a required parameter left out is a TypeError worded as
// Python's. Optional parameters left out are absent from the result.
func bindArgs(fn string, args map[string]any, params ...param) (map[string]any, error) {
	known := func(k string) bool {
		return slices.ContainsFunc(params, func(p param) bool { return p.name == k })
	}
	// The first wrong key in sorted order (Python's: the call's order, which
	// a Go map does not keep) is the one reported.
	bad, found := "", false
	for k := range args {
		if (k == "db" || !known(k)) && (!found || k < bad) {
			bad, found = k, true
		}
	}
	switch {
	case !found:
	case bad == "db":
		return nil, pyvalue.Raise("TypeError", "%s() got multiple values for argument 'db'", fn)
	default:
		return nil, pyvalue.Raise("TypeError", "%s() got an unexpected keyword argument '%s'", fn, bad)
	}
	var missing []string
	for _, p := range params {
		if _, ok := args[p.name]; !ok && !p.optional {
			missing = append(missing, "'"+p.name+"'")
		}
	}
	switch len(missing) {
	case 0:
		return args, nil
	case 1:
		return nil, pyvalue.Raise("TypeError", "%s() missing 1 required positional argument: %s", fn, missing[0])
	case 2:
		return nil, pyvalue.Raise("TypeError", "%s() missing 2 required positional arguments: %s and %s", fn, missing[0], missing[1])
	}
	return nil, pyvalue.Raise("TypeError", "%s() missing %d required positional arguments: %s, and %s", fn, len(missing),
		strings.Join(missing[:len(missing)-1], ", "), missing[len(missing)-1])
}

// initFunc is one initialisation function: its parameters, its work on
// the bound arguments, and the tables that work may change.
type initFunc struct {
	name   string
	params []param
	run    func(db map[string]any, args map[string]any, now func() time.Time) error
	tables []string
}

// The tables the initialisation functions change: the user side's
// surroundings or device; on the agent side none, for the functions copy
// the rows they change themselves (state.Order.Writer).
var (
	surroundingsOnly = []string{tableSurroundings}
	rowsOnly         = []string{}
)

// initHooks returns the 20 initialisation functions of the telecom tasks
// by their tau2 names, each with the tables it may change; the one that
// reads the date, suspend_line_for_overdue_bill, reads the scenario's
// clock.
//
// User side (the phone): set_user_info(name, phone_number),
// set_user_location(abroad), set_network_mode_preference(mode),
// simulate_network_search(), turn_airplane_mode_on(), unseat_sim_card(),
// lock_sim_card(mode: "pin" | "puk"), turn_data_off(), turn_roaming_on(),
// turn_roaming_off(), turn_data_saver_mode_on(), break_apn_settings(),
// break_apn_mms_setting(), set_wifi_calling(enabled, mms_over_wifi=None),
// break_vpn(), remove_app_permission(app_name, permission).
//
// Agent side: enable_roaming(customer_id, line_id),
// disable_roaming(customer_id, line_id), set_data_usage(customer_id,
// line_id, data_used_gb), suspend_line_for_overdue_bill(customer_id,
// line_id, new_bill_id, contract_ended=False).
func initHooks() map[string]hooks.Init {
	fs := initFuncs()
	m := make(map[string]hooks.Init, len(fs))
	for _, f := range fs {
		m[f.name] = hooks.Init{Tables: slices.Clone(f.tables), Func: func(db, args map[string]any, now func() time.Time) error {
			bound, err := bindArgs(f.name, args, f.params...)
			if err == nil {
				err = f.run(db, bound, now)
			}
			return err
		}}
	}
	return m
}

// InitFuncNames returns the names of the 20 initialisation functions:
// the sixteen of the user side, then the four of the agent side.
func InitFuncNames() []string {
	fs := initFuncs()
	names := make([]string, len(fs))
	for i, f := range fs {
		names[i] = f.name
	}
	return names
}

func initFuncs() []initFunc {
	return []initFunc{
		{"set_user_info", []param{req("name"), req("phone_number")}, func(db, a map[string]any, _ func() time.Time) error {
			return setSurroundings(db, map[string]any{"name": a["name"], "phone_number": a["phone_number"]})
		}, surroundingsOnly},
		{"set_user_location", []param{req("abroad")}, func(db, a map[string]any, _ func() time.Time) error {
			return setSurroundings(db, map[string]any{"is_abroad": a["abroad"]})
		}, surroundingsOnly},
		{"set_network_mode_preference", []param{req("mode")}, func(db, a map[string]any, _ func() time.Time) error {
			mode := a["mode"]
			if !slices.ContainsFunc(networkModes[:], func(m string) bool { return mode == m }) {
				return pyvalue.Raise("ValueError", "%s is not a valid NetworkModePreference", pyvalue.Repr(mode))
			}
			return setDevice(db, true, map[string]any{"network_mode_preference": mode})
		}, deviceOnly},
		{"simulate_network_search", nil, func(db, _ map[string]any, _ func() time.Time) error { return networkSearch(db) }, deviceOnly},
		{"turn_airplane_mode_on", nil, func(db, _ map[string]any, _ func() time.Time) error {
			return changeDevice(db, true, func(e *deviceEdit) error {
				e.set("airplane_mode", true)
				e.set("wifi_connected", false)
				e.set("wifi_ssid", nil)
				e.set("wifi_signal_strength", none)
				return e.disconnectVPN()
			})
		}, deviceOnly},
		{"unseat_sim_card", nil, func(db, _ map[string]any, _ func() time.Time) error {
			return setDevice(db, true, map[string]any{"sim_card_missing": true})
		}, deviceOnly},
		{"lock_sim_card", []param{req("mode")}, func(db, a map[string]any, _ func() time.Time) error {
			var status string
			switch mode := a["mode"]; {
			case mode == "pin":
				status = simLockedPIN
			case mode == "puk":
				status = simLockedPUK
			default:
				return pyvalue.Raise("ValueError", "lock_sim_card: mode must be 'pin' or 'puk', got %s", pyvalue.Repr(mode))
			}
			return setDevice(db, true, map[string]any{"sim_card_status": status})
		}, deviceOnly},
		{"turn_data_off", nil, func(db, _ map[string]any, _ func() time.Time) error {
			return setDevice(db, true, map[string]any{"data_enabled": false})
		}, deviceOnly},
		{"turn_roaming_on", nil, func(db, _ map[string]any, _ func() time.Time) error {
			return setDevice(db, true, map[string]any{"roaming_enabled": true})
		}, deviceOnly},
		{"turn_roaming_off", nil, func(db, _ map[string]any, _ func() time.Time) error {
			return setDevice(db, true, map[string]any{"roaming_enabled": false})
		}, deviceOnly},
		{"turn_data_saver_mode_on", nil, func(db, _ map[string]any, _ func() time.Time) error {
			return setDevice(db, false, map[string]any{"data_saver_mode": true})
		}, deviceOnly},
		{"break_apn_settings", nil, func(db, _ map[string]any, _ func() time.Time) error {
			return changeDevice(db, true, func(e *deviceEdit) error {
				apn, err := e.child(e.device, "active_apn_settings")
				if err == nil {
					e.setIn(apn, "apn_name", apnBroken)
				}
				return err
			})
		}, deviceOnly},
		{"break_apn_mms_setting", nil, func(db, _ map[string]any, _ func() time.Time) error {
			return changeDevice(db, false, func(e *deviceEdit) error {
				apn, err := e.child(e.device, "active_apn_settings")
				if err == nil {
					e.setIn(apn, "mmsc_url", nil)
				}
				return err
			})
		}, deviceOnly},
		{"set_wifi_calling", []param{req("enabled"), opt("mms_over_wifi")}, func(db, a map[string]any, _ func() time.Time) error {
			set := map[string]any{"wifi_calling_enabled": a["enabled"]}
			if v := a["mms_over_wifi"]; v != nil {
				set["wifi_calling_mms_over_wifi"] = v
			}
			return setDevice(db, false, set)
		}, deviceOnly},
		{"break_vpn", nil, func(db, _ map[string]any, _ func() time.Time) error {
			return changeDevice(db, false, func(e *deviceEdit) error {
				connected, err := subscript(e.device, "vpn_connected")
				if err != nil {
					return err
				}
				if !pyvalue.Truthy(connected) {
					e.set("vpn_connected", true)
					e.set("vpn_details", defaultVPNDetails())
				}
				details, err := e.child(e.device, "vpn_details")
				if err == nil {
					e.setIn(details, "server_performance", performancePoor)
				}
				return err
			})
		}, deviceOnly},
		{"remove_app_permission", []param{req("app_name"), req("permission")}, func(db, a map[string]any, _ func() time.Time) error {
			return removeAppPermission(db, a)
		}, deviceOnly},
		{"enable_roaming", []param{req("customer_id"), req("line_id")}, func(db, a map[string]any, _ func() time.Time) error {
			return setLine(db, "enable_roaming", a, map[string]any{"roaming_enabled": true})
		}, rowsOnly},
		{"disable_roaming", []param{req("customer_id"), req("line_id")}, func(db, a map[string]any, _ func() time.Time) error {
			return setLine(db, "disable_roaming", a, map[string]any{"roaming_enabled": false})
		}, rowsOnly},
		{"set_data_usage", []param{req("customer_id"), req("line_id"), req("data_used_gb")}, func(db, a map[string]any, _ func() time.Time) error {
			line, err := initLine(db, "set_data_usage", a)
			if err != nil {
				return err
			}
			used, err := pyvalue.Float(a["data_used_gb"])
			if err != nil {
				return err
			}
			if line, err = state.OrderOf(db).Writer(db, linesOnly...).OwnRow(tableLines, line); err != nil {
				return err
			}
			line["data_used_gb"] = floatValue(used)
			return nil
		}, rowsOnly},
		{"suspend_line_for_overdue_bill", []param{req("customer_id"), req("line_id"), req("new_bill_id"), opt("contract_ended")},
			func(db, a map[string]any, now func() time.Time) error {
				return suspendForOverdueBill(db, a, binding{clock: now}.today())
			}, rowsOnly},
	}
}

const performancePoor = "poor"

// setSurroundings sets fields of the phone's surroundings.
func setSurroundings(db map[string]any, fields map[string]any) error {
	s, err := subscript(db, tableSurroundings)
	if err != nil {
		return err
	}
	m, err := assignable(s)
	if err != nil {
		return err
	}
	for k, v := range fields {
		m[k] = v
	}
	return nil
}

// changeDevice changes the device with fn and, when search is set,
// re-derives the network state; nothing changes unless both succeed.
func changeDevice(db map[string]any, search bool, fn func(e *deviceEdit) error) error {
	_, _, err := changePhone(db, func(e *deviceEdit) (any, state.Action, error) {
		if err := fn(e); err != nil {
			return nil, nil, err
		}
		if search {
			if err := e.search(); err != nil {
				return nil, nil, err
			}
		}
		return nil, state.Action{}, nil // keep the changes
	})
	return err
}

// setDevice sets fields of the device, as changeDevice.
func setDevice(db map[string]any, search bool, fields map[string]any) error {
	return changeDevice(db, search, func(e *deviceEdit) error {
		for k, v := range fields {
			e.set(k, v)
		}
		return nil
	})
}

// removeAppPermission takes a permission from an app; an app or a
// permission the phone does not track is silently ignored.
func removeAppPermission(db, a map[string]any) error {
	return changeDevice(db, false, func(e *deviceEdit) error {
		apps, err := subscript(e.device, "app_statuses")
		if err != nil {
			return err
		}
		appsDict, ok := apps.(map[string]any)
		if !ok {
			return noAttribute(apps, "get")
		}
		app, err := lookup(appsDict, a["app_name"], nil)
		if err != nil || app == nil {
			return err
		}
		perm, ok := a["permission"].(string)
		if !ok {
			return noAttribute(a["permission"], "lower")
		}
		perm = pyvalue.Lower(perm)
		perms, err := subscript(app, "permissions")
		if err != nil {
			return err
		}
		if in, err := pyvalue.Contains(perm, perms); err != nil || !in {
			return err
		}
		name := a["app_name"].(string) // only a string finds an app
		ownApps, err := e.child(e.device, "app_statuses")
		if err != nil {
			return err
		}
		ownApp, err := e.child(ownApps, name)
		if err != nil {
			return err
		}
		ownPerms, err := e.child(ownApp, "permissions")
		if err != nil {
			return err
		}
		e.setIn(ownPerms, perm, false)
		return nil
	})
}

// initLine resolves the line of an agent-side initialisation function's
// customer_id and line_id, or raises the ValueError naming fn.
func initLine(db map[string]any, fn string, a map[string]any) (map[string]any, error) {
	line, err := customerLine(db, a["customer_id"], a["line_id"])
	if err != nil {
		return nil, err
	}
	if line == nil {
		return nil, pyvalue.Raise("ValueError", "%s: line %s not found for customer %s", fn, pyvalue.Repr(a["line_id"]), pyvalue.Repr(a["customer_id"]))
	}
	return line, nil
}

// setLine sets fields of an agent-side initialisation function's line.
func setLine(db map[string]any, fn string, a map[string]any, fields map[string]any) error {
	line, err := initLine(db, fn, a)
	if err != nil {
		return err
	}
	if line, err = state.OrderOf(db).Writer(db, linesOnly...).OwnRow(tableLines, line); err != nil {
		return err
	}
	for k, v := range fields {
		line[k] = v
	}
	return nil
}

// suspendForOverdueBill suspends an active line for an unpaid bill: it
// adds an Overdue bill of one month's plan price for last month, dated by
// today, suspends the line from today and, when the contract has ended,
// ends the contract on the last day of last month.
func suspendForOverdueBill(db, a map[string]any, today time.Time) error {
	const fn = "suspend_line_for_overdue_bill"
	customerID, lineID, billID := a["customer_id"], a["line_id"], a["new_bill_id"]
	line, err := initLine(db, fn, a)
	if err != nil {
		return err
	}
	status, err := subscript(line, "status")
	if err != nil {
		return err
	}
	if status != lineStatusActive {
		return pyvalue.Raise("ValueError", "%s: line %s must be active to suspend for unpaid bill (got status=%s)", fn, pyvalue.Repr(lineID), pyvalue.Repr(status))
	}
	customer, err := findOr(db, tableCustomers, "customer_id", customerID)
	if err != nil {
		return err
	}
	if customer == nil { // initLine found it
		return pyvalue.Raise("ValueError", "%s: customer %s not found", fn, pyvalue.Repr(customerID))
	}
	if ids := customer["bill_ids"]; pyvalue.Truthy(ids) {
		billIDs, err := pyvalue.Iter(ids)
		if err != nil {
			return err
		}
		for _, id := range billIDs {
			bill, err := findOr(db, tableBills, "bill_id", id)
			if err != nil {
				return err
			}
			if bill == nil {
				continue
			}
			s, err := subscript(bill, "status")
			if err != nil {
				return err
			}
			if s == billStatusOverdue {
				return pyvalue.Raise("ValueError", "%s: customer %s already has an overdue bill (%s)", fn, pyvalue.Repr(customerID), pyvalue.Str(id))
			}
		}
	}
	planID := line["plan_id"]
	plan, err := findOr(db, tablePlans, "plan_id", planID)
	if err != nil {
		return err
	}
	if plan == nil {
		return pyvalue.Raise("ValueError", "%s: plan %s not found", fn, pyvalue.Repr(planID))
	}
	price, err := subscript(plan, "price_per_month")
	if err != nil {
		return err
	}
	amount, err := pyvalue.Float(price)
	if err != nil {
		return err
	}
	if _, err := setDefaultList(db, tableBills); err != nil {
		return err
	}
	if _, err := setDefaultList(customer, "bill_ids"); err != nil {
		return err
	}
	// Every check made: change copies of the rows, not the DB's own.
	o := state.OrderOf(db) // the records built below keep the Python literals' order
	w := o.Writer(db, chargeTables...)
	if line, err = w.OwnRow(tableLines, line); err != nil {
		return err
	}
	if customer, err = w.OwnRow(tableCustomers, customer); err != nil {
		return err
	}
	customerBills, _ := setDefaultList(customer, "bill_ids") // a copy of what was checked
	firstOfLast, lastOfLast := firstOfMonth(today, -1), lastOfMonth(today, -1)
	if err := w.Append(tableBills, o.Keep(map[string]any{
		"bill_id":      billID,
		"customer_id":  customerID,
		"period_start": isoDate(firstOfLast),
		"period_end":   isoDate(lastOfLast),
		"issue_date":   isoDate(firstOfLast),
		"total_due":    floatValue(amount),
		"due_date":     isoDate(firstOfLast.AddDate(0, 0, 14)),
		"status":       billStatusOverdue,
		"line_items": []any{o.Keep(map[string]any{
			"description": "Charge for line " + pyvalue.Str(lineID),
			"amount":      floatValue(amount),
			"date":        isoDate(today),
			"item_type":   "Charge",
		}, "description", "amount", "date", "item_type")},
	}, "bill_id", "customer_id", "period_start", "period_end", "issue_date", "total_due", "due_date", "status", "line_items")); err != nil {
		return err
	}
	customer["bill_ids"] = append(customerBills, billID)
	line["status"] = lineStatusSuspended
	line["suspension_start_date"] = isoDate(today)
	if pyvalue.Truthy(a["contract_ended"]) {
		line["contract_end_date"] = isoDate(lastOfLast)
	}
	return nil
}

// setDefaultList checks Python's m.setdefault(key, []).append(…) before
// the write: the list m holds (nil when the key is missing).
func setDefaultList(m map[string]any, key string) ([]any, error) {
	v, ok := m[key]
	if !ok {
		return []any{}, nil
	}
	return appendable(v)
}
