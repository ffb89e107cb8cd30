package telecom

import (
	"context"
	"encoding/json"
	"github.com/voiceeval/schematools/domains/tau2/internal/tau2test"
	"github.com/voiceeval/schematools/domains/tau2/tau2tools"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/internal/conformance"
	"github.com/voiceeval/schematools/internal/replaytest"
	"github.com/voiceeval/schematools/registry"
	"github.com/voiceeval/schematools/replay"
	"github.com/voiceeval/schematools/state"
)

// testAgentDB is a small agent DB in the tau2 layout, written for these
// tests: two plans, three customers, four lines, four bills, one device.
// C1 owns L1 (Active, 555-0001) and L2 (Suspended); C2 owns L3 (no plan in
// the DB) and a bill awaiting payment; C3 has no Draft bill.
const testAgentDB = `{
 "plans": [
  {"plan_id": "P1", "name": "Basic", "data_limit_gb": 10.0, "price_per_month": 50.0, "data_refueling_price_per_gb": 2.0},
  {"plan_id": "P2", "name": "Whole", "data_limit_gb": 5, "price_per_month": 30, "data_refueling_price_per_gb": 3}
 ],
 "customers": [
  {"customer_id": "C1", "full_name": "Ada Lovelace", "date_of_birth": "1990-01-02", "phone_number": "555-0001",
   "line_ids": ["L1", "L2"], "bill_ids": ["B1", "B2", "B3"]},
  {"customer_id": "C2", "full_name": "ada lovelace", "date_of_birth": "1991-03-04", "phone_number": "555-0100",
   "line_ids": ["L3", "L9"], "bill_ids": ["B4", "B404"]},
  {"customer_id": "C3", "full_name": "Grace Hopper", "date_of_birth": "1906-12-09", "phone_number": "555-0300",
   "line_ids": ["L4"], "bill_ids": []}
 ],
 "lines": [
  {"line_id": "L1", "phone_number": "555-0001", "status": "Active", "plan_id": "P1", "device_id": "D1",
   "data_used_gb": 3.0, "data_refueling_gb": 0.0, "roaming_enabled": false, "suspension_start_date": null},
  {"line_id": "L2", "phone_number": "555-0002", "status": "Suspended", "plan_id": "P1",
   "data_used_gb": 1.5, "data_refueling_gb": 0.0, "roaming_enabled": true, "suspension_start_date": "2025-01-10"},
  {"line_id": "L3", "phone_number": "555-0003", "status": "Active", "plan_id": "P404",
   "data_used_gb": 0.0, "data_refueling_gb": 0.0, "roaming_enabled": false},
  {"line_id": "L4", "phone_number": "555-0004", "status": "Pending Activation", "plan_id": "P2",
   "data_used_gb": 0, "data_refueling_gb": 0, "roaming_enabled": false}
 ],
 "bills": [
  {"bill_id": "B1", "customer_id": "C1", "period_start": "2025-01-01", "period_end": "2025-01-31", "issue_date": "2025-02-01",
   "total_due": 50.0, "due_date": "2025-02-15", "line_items": [], "status": "Paid"},
  {"bill_id": "B2", "customer_id": "C1", "period_start": "2025-02-01", "period_end": "2025-02-28", "issue_date": "2025-03-01",
   "total_due": 65.5, "due_date": "2025-03-15", "line_items": [], "status": "Issued"},
  {"bill_id": "B3", "customer_id": "C1", "period_start": "2025-03-01", "period_end": "2025-03-31", "issue_date": "2025-04-01",
   "total_due": 0, "due_date": "2025-04-15", "line_items": [], "status": "Draft"},
  {"bill_id": "B4", "customer_id": "C2", "period_start": "2025-01-01", "period_end": "2025-01-31", "issue_date": "2025-02-01",
   "total_due": 30.0, "due_date": "2025-02-15", "line_items": [], "status": "Awaiting Payment"}
 ],
 "devices": [
  {"device_id": "D1", "device_type": "phone", "model": "Phone X", "imei": "123", "is_esim_capable": true, "activated": true}
 ]
}`

// testUserDB is the user's phone as a task starts: connected on 5G with a
// good signal; John Smith's phone number is not set yet.
const testUserDB = `{
 "device": {
  "sim_card_status": "active", "sim_card_missing": false, "airplane_mode": false,
  "network_signal_strength": "good", "network_technology_connected": "5G", "network_connection_status": "connected",
  "battery_level": 80, "data_enabled": true, "roaming_enabled": false, "network_mode_preference": "4g_5g_preferred",
  "active_apn_settings": {"apn_name": "internet", "reset_at_reboot": false, "mms_apn": "mms",
   "mmsc_url": "http://mms.carrier.com/mms/wapenc", "mms_proxy": null, "mms_port": null},
  "wifi_enabled": false, "wifi_connected": false, "wifi_ssid": null, "wifi_signal_strength": "none",
  "wifi_calling_enabled": false, "wifi_calling_mms_over_wifi": false, "data_saver_mode": false,
  "vpn_enabled_setting": false, "vpn_connected": false, "vpn_details": null,
  "app_statuses": {
   "messaging": {"app_name": "messaging", "permissions": {"sms": true, "storage": true, "phone": true, "network": false}},
   "browser": {"app_name": "browser", "permissions": {"sms": false, "storage": true, "phone": false, "network": true}}
  }
 },
 "surroundings": {
  "name": null, "phone_number": null, "is_abroad": false, "roaming_allowed": false,
  "signal_strength": {"2G": "poor", "3G": "fair", "4G": "good", "5G": "excellent"},
  "mobile_data_usage_exceeded": false, "line_active": true, "payment_request": null
 }
}`

// testDate is the clock of the unit tests: 2025-02-25, the reference date.
var testDate = tau2tools.ReferenceDate()

func agentDB(t testing.TB) map[string]any { return replaytest.DecodeDB(t, testAgentDB) }
func userDB(t testing.TB) map[string]any  { return replaytest.DecodeDB(t, testUserDB) }

// fixture is one scenario: the two sides' states with the 43 tools bound
// to them, on the fixed test date and a counter for ids.
type fixture struct {
	*tau2test.Fixture // its State is the agent side
	agent, user       *state.Shared
}

// newFixture builds the tools on fresh states holding the given DBs (no DB
// when nil).
func newFixture(t testing.TB, agent, user map[string]any) *fixture {
	t.Helper()
	f := &fixture{agent: state.New(), user: state.New()}
	if agent != nil {
		f.agent.SetDB(agent)
	}
	if user != nil {
		f.user.SetDB(user)
	}
	m, err := Tools(replay.Env{Domain: Domain, Agent: f.agent, User: f.user, Clock: replay.FixedClock(testDate), IDs: replay.CounterIDs("X")})
	require.NoError(t, err)
	f.Fixture = &tau2test.Fixture{Fixture: &replaytest.Fixture{State: f.agent, Tools: m}}
	return f
}

// at reads a value of a DB by path.
func at(t testing.TB, st *state.Shared, path ...any) any {
	t.Helper()
	var v any = st.Snapshot()
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, ok := v.(map[string]any)
			require.True(t, ok, "%v: not an object at %v", path, p)
			v = m[k]
		case int:
			l, ok := v.([]any)
			require.True(t, ok, "%v: not a list at %v", path, p)
			v = l[k]
		}
	}
	return v
}

// record returns the last action a state recorded.
func lastRecord(t testing.TB, st *state.Shared) state.Action {
	t.Helper()
	acts := st.Actions()
	require.NotEmpty(t, acts)
	return acts[len(acts)-1]
}

// The tau2 data and the Python reference's replay, read once per test
// binary.

type sharedData struct {
	agentDB, userDB   map[string]any
	agentSrc, userSrc *state.Source // Sources of agentDB and userDB
	// agentFiles and userFiles are Sources of the same DBs decoded from
	// their files (state.LoadSource), which keep the files' key order.
	agentFiles, userFiles *state.Source
	tasks                 []replay.Task
	splits                replay.Splits
	gold                  []replaytest.GoldTask
}

var (
	inputsOnce sync.Once
	inputs     *sharedData
	inputsErr  error
	sharedOnce sync.Once
	shared     *sharedData
	sharedErr  error
)

// loadInputs reads what a replay of the telecom tasks needs from the
// tau2 data — the two DBs, the tasks and the splits — and nothing more, so
// a benchmark's heap holds what a harness's would (failing the test, with
// the path, when a file is missing).
func loadInputs(t testing.TB) *sharedData {
	t.Helper()
	root := conformance.Tau2Dir(t)
	inputsOnce.Do(func() { inputs, inputsErr = readInputs(root) })
	require.NoError(t, inputsErr)
	return inputs
}

// loadShared is loadInputs with the reference replay
// (gold_replay_telecom.train.jsonl).
func loadShared(t testing.TB) *sharedData {
	t.Helper()
	in := loadInputs(t)
	goldPath := conformance.Path(t, "gold_replay_telecom.train.jsonl")
	sharedOnce.Do(func() {
		d := *in
		shared, sharedErr = &d, readGold(&d, goldPath)
	})
	require.NoError(t, sharedErr)
	return shared
}

func readInputs(root string) (*sharedData, error) {
	d := &sharedData{}
	var err error
	if d.agentDB, err = state.LoadDB(root, "telecom/db.json"); err != nil {
		return nil, err
	}
	if d.userDB, err = state.LoadDB(root, "telecom/user_db.json"); err != nil {
		return nil, err
	}
	d.agentSrc, d.userSrc = state.NewSource(d.agentDB), state.NewSource(d.userDB)
	if d.agentFiles, err = state.LoadSource(root, "telecom/db.json"); err != nil {
		return nil, err
	}
	if d.userFiles, err = state.LoadSource(root, "telecom/user_db.json"); err != nil {
		return nil, err
	}
	data, err := os.ReadFile(root + "/telecom/tasks.json")
	if err != nil {
		return nil, err
	}
	if d.tasks, err = replay.DecodeTasks(data); err != nil {
		return nil, err
	}
	if data, err = os.ReadFile(root + "/telecom/split_tasks.json"); err != nil {
		return nil, err
	}
	return d, json.Unmarshal(data, &d.splits)
}

// readGold reads the reference replay into d.gold.
func readGold(d *sharedData, goldPath string) error {
	data, err := os.ReadFile(goldPath)
	if err != nil {
		return err
	}
	d.gold, err = replaytest.ParseGold(data)
	return err
}

// fixedAt returns a clock that always says the given day.
func fixedAt(y int, m time.Month, d int) func() time.Time {
	return replay.FixedClock(time.Date(y, m, d, 13, 0, 0, 0, time.UTC))
}

// replayEnv is the replay environment of a fixture's states on clock.
func replayEnv(f *fixture, clock func() time.Time) replay.Env {
	return replay.Env{Domain: Domain, Agent: f.agent, User: f.user, Clock: clock, IDs: replay.CounterIDs("X")}
}

// registryDeps are the dependencies of a live tool on st: no clock, no id
// source.
func registryDeps(st *state.Shared) registry.Deps { return registry.Deps{State: st} }

// notifyFunc adapts a function to state.Notifier.
type notifyFunc func(ctx context.Context, msg any) error

func (f notifyFunc) Notify(ctx context.Context, msg any) error { return f(ctx, msg) }
