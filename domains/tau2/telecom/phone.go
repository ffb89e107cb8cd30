package telecom

import (
	"strings"

	"github.com/voiceeval/schematools/internal/pyvalue"
	"github.com/voiceeval/schematools/state"
)

// The user DB is the user's simulated phone: {"device": {...},
// "surroundings": {...}}. The device holds the settings the user controls
// and the connection state derived from them; the surroundings hold what
// the user cannot change (the signal where they are, whether they are
// abroad, whether their line is active, a payment request from the agent).
// The functions here derive and render that state as the Python original
// does; each reads everything it needs before it writes anything.

// Status bar indicators.
const (
	barAirplane     = "\u2708\ufe0f Airplane Mode"
	barNoSignal     = "\U0001f4f5 No Signal"
	barDataEnabled  = "\U0001f4f1 Data Enabled"
	barDataSaver    = "\U0001f53d Data Saver"
	barDataDisabled = "\U0001f4f5 Data Disabled"
	barWifiTo       = "\U0001f4e1 Connected to "
	barWifiEnabled  = "\U0001f4e1 Enabled"
	barVPN          = "\U0001f512 VPN Connected"
	barBattery      = "\U0001f50b "
)

// signalBars are the status bar's signal indicators.
var signalBars = map[string]string{
	"none":      barNoSignal,
	"poor":      "\U0001f4f6\u00b9 Poor",
	"fair":      "\U0001f4f6\u00b2 Fair",
	"good":      "\U0001f4f6\u00b3 Good",
	"excellent": "\U0001f4f6\u2074 Excellent",
}

// Key orders of the phone's dicts as the Python data model creates them,
// for texts that print a dict or its keys.
var (
	appOrder        = []string{"messaging", "browser"}
	permissionOrder = []string{"sms", "storage", "phone", "network"}
	vpnDetailsOrder = []string{"server_address", "protocol", "server_performance"}
)

// defaultVPNDetails are the details of a VPN connection made by
// connect_vpn or break_vpn.
func defaultVPNDetails() map[string]any {
	return map[string]any{"server_address": "192.168.1.1", "protocol": "OpenVPN", "server_performance": "excellent"}
}

// defaultAPNSettings are the APN settings a phone starts with, and the
// ones a reboot restores after reset_apn_settings.
func defaultAPNSettings() map[string]any {
	return map[string]any{
		"apn_name":        apnInternet,
		"reset_at_reboot": false,
		"mms_apn":         "mms",
		"mmsc_url":        "http://mms.carrier.com/mms/wapenc",
		"mms_proxy":       nil,
		"mms_port":        nil,
	}
}

// simStatus is the SIM's status as the phone reports it: "missing" when the
// card is out, its sim_card_status otherwise.
func simStatus(device map[string]any) (any, error) {
	missing, err := subscript(device, "sim_card_missing")
	if err != nil {
		return nil, err
	}
	if pyvalue.Truthy(missing) {
		return simMissing, nil
	}
	return subscript(device, "sim_card_status")
}

// networkSearch re-derives the device's connection status, network
// technology and signal strength from the SIM, the preferred network mode
// and the signal where the user is; airplane mode, a broken APN or an
// inactive line leave no service.
func networkSearch(db map[string]any) error {
	status, tech, signal, err := deriveNetwork(db)
	if err != nil {
		return err
	}
	device := db[tableDevice].(map[string]any) // deriveNetwork checked it
	device["network_connection_status"] = status
	device["network_technology_connected"] = tech
	device["network_signal_strength"] = signal
	return nil
}

// deriveNetwork returns what networkSearch sets, without setting it.
func deriveNetwork(db map[string]any) (status, tech, signal any, err error) {
	device, err := dictAt(db, tableDevice)
	if err != nil {
		return nil, nil, nil, err
	}
	surroundings, err := subscript(db, tableSurroundings)
	if err != nil {
		return nil, nil, nil, err
	}
	strengths, err := subscript(surroundings, "signal_strength")
	if err != nil {
		return nil, nil, nil, err
	}
	sim, err := simStatus(device)
	if err != nil {
		return nil, nil, nil, err
	}
	status, tech, signal = statusNoService, none, none
	if sim == simActive {
		pref, err := subscript(device, "network_mode_preference")
		if err != nil {
			return nil, nil, nil, err
		}
		tech = "4G"
		switch {
		case pref == "4g_5g_preferred":
			five, err := get(strengths, "5G", none)
			if err != nil {
				return nil, nil, nil, err
			}
			if five != none {
				tech = "5G"
			}
		case pref == "3g_only":
			tech = "3G"
		case pref == "2g_only":
			tech = "2G"
		}
		if signal, err = get(strengths, tech.(string), none); err != nil {
			return nil, nil, nil, err
		}
		status = statusConnected
	}
	airplane, err := subscript(device, "airplane_mode")
	if err != nil {
		return nil, nil, nil, err
	}
	apn, err := subscript(device, "active_apn_settings")
	if err != nil {
		return nil, nil, nil, err
	}
	apnName, err := subscript(apn, "apn_name")
	if err != nil {
		return nil, nil, nil, err
	}
	lineActive, err := subscript(surroundings, "line_active")
	if err != nil {
		return nil, nil, nil, err
	}
	if pyvalue.Truthy(airplane) || apnName == apnBroken || !pyvalue.Truthy(lineActive) {
		status, tech, signal = statusNoService, none, none
	}
	return status, tech, signal, nil
}

// statusBar renders the phone's status bar: airplane mode, or the signal,
// the network technology and whether mobile data is on; then Wi-Fi, VPN
// and the battery, joined by " | ".
func statusBar(db map[string]any) (string, error) {
	device, err := subscript(db, "device")
	if err != nil {
		return "", err
	}
	at := func(key string) (any, error) { return subscript(device, key) }
	var bar []string
	airplane, err := at("airplane_mode")
	if err != nil {
		return "", err
	}
	if pyvalue.Truthy(airplane) {
		bar = append(bar, barAirplane)
	} else {
		signal, err := at("network_signal_strength")
		if err != nil {
			return "", err
		}
		if err := hashable(signal); err != nil {
			return "", err
		}
		label := barNoSignal
		if s, ok := signal.(string); ok && signalBars[s] != "" {
			label = signalBars[s]
		}
		bar = append(bar, label)
		tech, err := at("network_technology_connected")
		if err != nil {
			return "", err
		}
		hasTech := tech != none
		if hasTech {
			s, ok := tech.(string)
			if !ok {
				return "", pyvalue.Raise("TypeError", "sequence item %d: expected str instance, %s found", len(bar), pyvalue.TypeName(tech))
			}
			bar = append(bar, s)
		}
		data, err := at("data_enabled")
		if err != nil {
			return "", err
		}
		if pyvalue.Truthy(data) && hasTech {
			bar = append(bar, barDataEnabled)
			saver, err := at("data_saver_mode")
			if err != nil {
				return "", err
			}
			if pyvalue.Truthy(saver) {
				bar = append(bar, barDataSaver)
			}
		} else {
			bar = append(bar, barDataDisabled)
		}
	}
	wifi, err := at("wifi_enabled")
	if err != nil {
		return "", err
	}
	if pyvalue.Truthy(wifi) {
		connected, err := at("wifi_connected")
		if err != nil {
			return "", err
		}
		if pyvalue.Truthy(connected) {
			ssid, err := get(device, "wifi_ssid", nil)
			if err != nil {
				return "", err
			}
			if pyvalue.Truthy(ssid) {
				bar = append(bar, barWifiTo+pyvalue.Str(ssid))
			} else {
				bar = append(bar, barWifiEnabled)
			}
		}
	}
	vpn, err := at("vpn_connected")
	if err != nil {
		return "", err
	}
	if pyvalue.Truthy(vpn) {
		bar = append(bar, barVPN)
	}
	battery, err := at("battery_level")
	if err != nil {
		return "", err
	}
	bar = append(bar, barBattery+pyvalue.Str(battery)+"%")
	return strings.Join(bar, " | "), nil
}

// withBar appends the status bar to a tool's message, as most user-side
// writes answer.
func withBar(db map[string]any, msg string) (string, error) {
	bar, err := statusBar(db)
	if err != nil {
		return "", err
	}
	return msg + "\nStatus Bar: " + bar, nil
}

// mobileDataWorking reports whether mobile data works: no airplane mode, a
// signal, service, roaming allowed on both sides when abroad, data on and
// the data allowance not exceeded. The user tools read the two
// surroundings flags leniently (roaming allowed and not exceeded when
// missing), the predicates strictly (a missing flag is a KeyError): the
// Python original has both.
func mobileDataWorking(db map[string]any, lenient bool) (bool, error) {
	device, err := subscript(db, "device")
	if err != nil {
		return false, err
	}
	surroundings, err := subscript(db, "surroundings")
	if err != nil {
		return false, err
	}
	flag := func(key string, def any) (any, error) {
		if lenient {
			return get(surroundings, key, def)
		}
		return subscript(surroundings, key)
	}
	airplane, err := subscript(device, "airplane_mode")
	if err != nil {
		return false, err
	}
	if pyvalue.Truthy(airplane) {
		return false, nil
	}
	signal, err := subscript(device, "network_signal_strength")
	if err != nil || signal == none {
		return false, err
	}
	status, err := subscript(device, "network_connection_status")
	if err != nil || status == statusNoService {
		return false, err
	}
	abroad, err := subscript(surroundings, "is_abroad")
	if err != nil {
		return false, err
	}
	if pyvalue.Truthy(abroad) {
		roaming, err := subscript(device, "roaming_enabled")
		if err != nil || !pyvalue.Truthy(roaming) {
			return false, err
		}
		allowed, err := flag("roaming_allowed", true)
		if err != nil || !pyvalue.Truthy(allowed) {
			return false, err
		}
	}
	data, err := subscript(device, "data_enabled")
	if err != nil || !pyvalue.Truthy(data) {
		return false, err
	}
	exceeded, err := flag("mobile_data_usage_exceeded", false)
	if err != nil || pyvalue.Truthy(exceeded) {
		return false, err
	}
	return true, nil
}

// Speed test ranges (min and max Mbps) per network technology, and the
// factor each signal strength applies.
var (
	speedRanges = map[string][2]float64{"2G": {0.1, 0.4}, "3G": {1.0, 5.0}, "4G": {10.0, 100.0}, "5G": {50.0, 500.0}}
	signalSpeed = map[string]float64{"poor": 0.2, "fair": 0.5, "good": 0.8, "excellent": 1.0}
)

// speedTest simulates a download speed test: the middle of the
// technology's range times the signal's factor, a tenth of that through a
// poorly performing VPN, a fifth of that in Data Saver mode, rounded to
// cents of a Mbps; and its verdict, "Very Poor" to "Excellent". Without
// working mobile data (read strictly, as the predicates do) there is no
// speed and the verdict is "No Connection".
func speedTest(db map[string]any) (speed float64, verdict string, ok bool, err error) {
	working, err := mobileDataWorking(db, false)
	if err != nil || !working {
		return 0, "No Connection", false, err
	}
	device, _ := subscript(db, "device") // mobileDataWorking read it
	at := func(key string) (any, error) { return subscript(device, key) }
	factor := 1.0
	vpn, err := at("vpn_connected")
	if err != nil {
		return 0, "", false, err
	}
	if pyvalue.Truthy(vpn) {
		details, err := get(device, "vpn_details", nil)
		if err != nil {
			return 0, "", false, err
		}
		if details != nil {
			perf, err := subscript(details, "server_performance")
			if err != nil {
				return 0, "", false, err
			}
			if perf == "poor" {
				factor = 0.1
			}
		}
	}
	saver, err := at("data_saver_mode")
	if err != nil {
		return 0, "", false, err
	}
	if pyvalue.Truthy(saver) {
		factor *= 0.2
	}
	tech, err := at("network_technology_connected")
	if err != nil {
		return 0, "", false, err
	}
	if err := hashable(tech); err != nil {
		return 0, "", false, err
	}
	signal, err := at("network_signal_strength")
	if err != nil {
		return 0, "", false, err
	}
	if err := hashable(signal); err != nil {
		return 0, "", false, err
	}
	var r [2]float64
	var s float64
	if t, ok := tech.(string); ok {
		r = speedRanges[t]
	}
	if t, ok := signal.(string); ok {
		s = signalSpeed[t]
	}
	speed = round2((r[0] + r[1]) / 2.0 * s * factor)
	switch {
	case speed < 1:
		verdict = "Very Poor"
	case speed < 5:
		verdict = "Poor"
	case speed < 25:
		verdict = "Fair"
	case speed < 100:
		verdict = "Good"
	default:
		verdict = "Excellent"
	}
	return speed, verdict, true, nil
}

// canSendMMS reports whether the messaging app can send MMS: mobile data
// works, the network is better than 2G, MMS does not go over Wi-Fi
// calling, an MMSC URL is set, and the messaging app may use storage and
// SMS. lenient is the user tool's reading (missing flags have defaults),
// strict the predicate's; the strict result is the value of Python's
// `storage and sms`, which need not be a bool.
func canSendMMS(db map[string]any, lenient bool) (any, error) {
	working, err := mobileDataWorking(db, lenient)
	if err != nil || !working {
		return false, err
	}
	device, _ := subscript(db, "device")
	at := func(key string) (any, error) {
		if lenient {
			return get(device, key, nil)
		}
		return subscript(device, key)
	}
	tech, err := subscript(device, "network_technology_connected")
	if err != nil || tech == "2G" {
		return false, err
	}
	calling, err := at("wifi_calling_enabled")
	if err != nil {
		return false, err
	}
	if pyvalue.Truthy(calling) {
		overWifi, err := at("wifi_calling_mms_over_wifi")
		if err != nil || pyvalue.Truthy(overWifi) {
			return false, err
		}
	}
	apn, err := subscript(device, "active_apn_settings")
	if err != nil {
		return false, err
	}
	var mmsc any
	if lenient {
		mmsc, err = get(apn, "mmsc_url", nil)
	} else {
		mmsc, err = subscript(apn, "mmsc_url")
	}
	if err != nil || mmsc == nil {
		return false, err
	}
	apps, err := subscript(device, "app_statuses")
	if err != nil {
		return false, err
	}
	app, err := get(apps, "messaging", nil)
	if err != nil || app == nil {
		return false, err
	}
	perms, err := subscript(app, "permissions")
	if err != nil {
		return false, err
	}
	if lenient {
		storage, err := get(perms, "storage", nil)
		if err != nil {
			return false, err
		}
		sms, _ := get(perms, "sms", nil)
		return pyvalue.Truthy(storage) && pyvalue.Truthy(sms), nil
	}
	storage, err := subscript(perms, "storage")
	if err != nil || !pyvalue.Truthy(storage) {
		return storage, err
	}
	return subscript(perms, "sms")
}

// deviceEdit is a change of the phone's device that can be undone: every
// write goes through set or setIn, which remember what was there, and
// rollback restores it — so a change that fails half-way, or that the
// phone refuses, leaves the DB as it was.
type deviceEdit struct {
	db     map[string]any
	device map[string]any
	undo   []undoEntry
}

// undoEntry is what m held under key before a write.
type undoEntry struct {
	m   map[string]any
	key string
	old any
	had bool
}

// editDevice starts a change of db's device.
func editDevice(db map[string]any) (*deviceEdit, error) {
	device, err := dictAt(db, tableDevice)
	if err != nil {
		return nil, err
	}
	return &deviceEdit{db: db, device: device, undo: make([]undoEntry, 0, 8)}, nil
}

// set sets a field of the device.
func (e *deviceEdit) set(key string, v any) { e.setIn(e.device, key, v) }

func (e *deviceEdit) setIn(m map[string]any, key string, v any) {
	old, had := m[key]
	e.undo = append(e.undo, undoEntry{m, key, old, had})
	m[key] = v
}

// child returns parent[key], a dict about to change through setIn; parent
// is the device or a dict child returned. The DB the edit works on is the
// state's own (the tables a write names are copied before it runs), so
// nested dicts change in place and rollback restores their fields.
func (e *deviceEdit) child(parent map[string]any, key string) (map[string]any, error) {
	v, err := subscript(parent, key)
	if err != nil {
		return nil, err
	}
	return assignable(v)
}

// search re-derives the network state of the edited device.
func (e *deviceEdit) search() error {
	status, tech, signal, err := deriveNetwork(e.db)
	if err != nil {
		return err
	}
	e.set("network_connection_status", status)
	e.set("network_technology_connected", tech)
	e.set("network_signal_strength", signal)
	return nil
}

// reply appends the phone's status bar to msg.
func (e *deviceEdit) reply(msg string) (string, error) { return withBar(e.db, msg) }

// rollback undoes every write of the edit, last first.
func (e *deviceEdit) rollback() {
	for i := len(e.undo) - 1; i >= 0; i-- {
		u := e.undo[i]
		if u.had {
			u.m[u.key] = u.old
		} else {
			delete(u.m, u.key)
		}
	}
	e.undo = nil
}

// disconnectVPN drops a VPN connection, if there is one.
func (e *deviceEdit) disconnectVPN() error {
	connected, err := subscript(e.device, "vpn_connected")
	if err != nil || !pyvalue.Truthy(connected) {
		return err
	}
	e.set("vpn_connected", false)
	e.set("vpn_details", nil)
	return nil
}

// changePhone runs fn on an edit of db's device and undoes the edit when fn
// fails or records no action.
func changePhone(db map[string]any, fn func(e *deviceEdit) (any, state.Action, error)) (any, state.Action, error) {
	e, err := editDevice(db)
	if err != nil {
		return nil, nil, err
	}
	res, action, err := fn(e)
	if err != nil || action == nil {
		e.rollback()
	}
	if err != nil {
		return nil, nil, err
	}
	return res, action, nil
}
