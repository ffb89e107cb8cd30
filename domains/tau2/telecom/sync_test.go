package telecom

import (
	"github.com/voiceeval/schematools/hooks"
	"github.com/voiceeval/schematools/registry"
	"github.com/voiceeval/schematools/state"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/internal/replaytest"
	"github.com/voiceeval/schematools/replay"
)

// The sync fixtures: an agent DB with one customer, line and bill, and a
// phone whose SIM status reads "Active" (capital A: the network search
// finds no service on it), already in line with the agent DB.
const (
	syncAgentDB = `{
 "plans": [{"plan_id": "P1", "name": "Basic", "data_limit_gb": 10, "price_per_month": 50, "data_refueling_price_per_gb": 2}],
 "customers": [{"customer_id": "C1", "full_name": "Ada", "phone_number": "555-0001", "line_ids": ["L1"], "bill_ids": ["B1"]}],
 "lines": [{"line_id": "L1", "phone_number": "555-0001", "status": "Active", "plan_id": "P1", "roaming_enabled": false,
  "data_used_gb": 3.0, "data_refueling_gb": 0.0}],
 "bills": [{"bill_id": "B1", "customer_id": "C1", "status": "Issued", "total_due": 50.0}]
}`
	syncUserDB = `{
 "device": {"sim_card_status": "Active", "sim_card_missing": false, "airplane_mode": false, "network_mode_preference": "4g_5g_preferred",
  "network_connection_status": "connected", "network_technology_connected": "4G", "network_signal_strength": "excellent",
  "active_apn_settings": {"apn_name": "default"}},
 "surroundings": {"phone_number": "555-0001", "is_abroad": false, "roaming_allowed": false,
  "signal_strength": {"5G": "none", "4G": "excellent", "3G": "good", "2G": "fair"},
  "mobile_data_usage_exceeded": false, "line_active": true, "payment_request": null}
}`
)

func syncDBs(t *testing.T) (agent, user map[string]any) {
	return replaytest.DecodeDB(t, syncAgentDB), replaytest.DecodeDB(t, syncUserDB)
}

func syncLine(db map[string]any) map[string]any { return db["lines"].([]any)[0].(map[string]any) }
func syncBill(db map[string]any) map[string]any { return db["bills"].([]any)[0].(map[string]any) }

// runSync runs SyncState, checking first that SyncChanges, which must
// change nothing, names exactly the sides of its non-empty deltas.
func runSync(t *testing.T, agent, user map[string]any) (agentDelta, userDelta map[string]any) {
	t.Helper()
	before := replaytest.Canon(t, []any{agent, user})
	changesAgent, changesUser := SyncChanges(agent, user)
	require.Equal(t, before, replaytest.Canon(t, []any{agent, user}), "SyncChanges changes nothing")
	a, u, err := SyncState(agent, user)
	require.NoError(t, err)
	assert.Equal(t, [2]bool{len(a) > 0, len(u) > 0}, [2]bool{changesAgent, changesUser}, "SyncChanges")
	return a, u
}

// SyncState (items 68-77 of ref-rtvi-state.md section 7).
func TestSyncState(t *testing.T) {
	t.Run("68 no phone number", func(t *testing.T) {
		agent, user := syncDBs(t)
		surroundings(user)["phone_number"] = nil
		syncLine(agent)["status"] = "Suspended"
		a, u := runSync(t, agent, user)
		assert.Empty(t, a)
		assert.Empty(t, u)
	})
	t.Run("69 no line with the number", func(t *testing.T) {
		agent, user := syncDBs(t)
		surroundings(user)["phone_number"] = "555-9999"
		syncLine(agent)["status"] = "Suspended"
		a, u := runSync(t, agent, user)
		assert.Empty(t, a)
		assert.Empty(t, u)
	})
	t.Run("70 in line already", func(t *testing.T) {
		agent, user := syncDBs(t)
		a, u := runSync(t, agent, user)
		assert.Empty(t, a)
		assert.Empty(t, u)
	})
	t.Run("71 a suspended line", func(t *testing.T) {
		agent, user := syncDBs(t)
		syncLine(agent)["status"] = "Suspended"
		a, u := runSync(t, agent, user)
		assert.Empty(t, a)
		assert.Equal(t, map[string]any{"surroundings.line_active": false}, u)
		assert.Equal(t, false, surroundings(user)["line_active"])
	})
	t.Run("72 roaming enabled on the line", func(t *testing.T) {
		agent, user := syncDBs(t)
		syncLine(agent)["roaming_enabled"] = true
		_, u := runSync(t, agent, user)
		assert.Equal(t, map[string]any{"surroundings.roaming_allowed": true}, u)
		assert.Equal(t, true, surroundings(user)["roaming_allowed"])
	})
	t.Run("73 the allowance used up (>=)", func(t *testing.T) {
		agent, user := syncDBs(t)
		syncLine(agent)["data_used_gb"] = 10
		_, u := runSync(t, agent, user)
		assert.Equal(t, map[string]any{"surroundings.mobile_data_usage_exceeded": true}, u)
	})
	t.Run("74 refuelled after exceeding", func(t *testing.T) {
		agent, user := syncDBs(t)
		syncLine(agent)["data_used_gb"] = 11.0
		runSync(t, agent, user)
		syncLine(agent)["data_refueling_gb"] = 5.0
		_, u := runSync(t, agent, user)
		assert.Equal(t, map[string]any{"surroundings.mobile_data_usage_exceeded": false}, u)
		assert.Equal(t, false, surroundings(user)["mobile_data_usage_exceeded"])
	})
	t.Run("75 a bill awaiting payment becomes a payment request", func(t *testing.T) {
		agent, user := syncDBs(t)
		syncBill(agent)["status"] = "Awaiting Payment"
		a, u := runSync(t, agent, user)
		assert.Empty(t, a)
		replaytest.RequireJSON(t, `{"surroundings.payment_request": {"bill_id": "B1", "amount_due": 50.0, "paid": false}}`, u)
		replaytest.RequireJSON(t, `{"bill_id": "B1", "amount_due": 50.0, "paid": false}`, surroundings(user)["payment_request"])
	})
	t.Run("76-77 a paid request marks the bill Paid and is cleared, for good", func(t *testing.T) {
		agent, user := syncDBs(t)
		syncBill(agent)["status"] = "Awaiting Payment"
		runSync(t, agent, user)
		surroundings(user)["payment_request"].(map[string]any)["paid"] = true
		a, u := runSync(t, agent, user)
		assert.Equal(t, map[string]any{"bills[B1].status": "Paid"}, a)
		assert.Equal(t, map[string]any{"surroundings.payment_request": nil}, u)
		assert.Equal(t, "Paid", syncBill(agent)["status"])
		assert.Nil(t, surroundings(user)["payment_request"])
		a, u = runSync(t, agent, user)
		assert.Empty(t, a)
		assert.Empty(t, u, "77: no new payment_request delta")
		assert.Nil(t, surroundings(user)["payment_request"])
	})
	t.Run("a second sync finds nothing to do", func(t *testing.T) {
		agent, user := syncDBs(t)
		l := syncLine(agent)
		l["status"], l["roaming_enabled"], l["data_used_gb"] = "Suspended", true, 20
		syncBill(agent)["status"] = "Awaiting Payment"
		_, u := runSync(t, agent, user)
		assert.Len(t, u, 4)
		a, u := runSync(t, agent, user)
		assert.Empty(t, a)
		assert.Empty(t, u)
	})
	t.Run("a DB it cannot read changes nothing", func(t *testing.T) {
		agent, user := syncDBs(t)
		syncLine(agent)["roaming_enabled"] = true
		syncLine(agent)["data_used_gb"] = "lots"
		before := replaytest.Canon(t, user)
		changesAgent, changesUser := SyncChanges(agent, user)
		assert.True(t, changesAgent && changesUser, "a failing sync is reported on both sides, so that it runs")
		a, u, err := SyncState(agent, user)
		require.EqualError(t, err, "ValueError: could not convert string to float: 'lots'")
		assert.Empty(t, a)
		assert.Empty(t, u)
		assert.Equal(t, before, replaytest.Canon(t, user))
	})
}

// The telecom applier (items 78-82).
func TestApplySyncDelta(t *testing.T) {
	apply := func(t *testing.T, db map[string]any, delta map[string]any) {
		t.Helper()
		require.NoError(t, Hooks().ApplyDelta(db, delta))
	}
	t.Run("78 and 81 a surroundings key, then the network search", func(t *testing.T) {
		_, user := syncDBs(t)
		apply(t, user, map[string]any{"surroundings.line_active": false})
		assert.Equal(t, false, surroundings(user)["line_active"])
		assert.Equal(t, noServiceState, network(user))
	})
	t.Run("the network search re-derives from the surroundings", func(t *testing.T) {
		user := userDB(t)
		apply(t, user, map[string]any{"surroundings.signal_strength": map[string]any{"4G": "fair", "5G": "none"}})
		assert.Equal(t, [3]any{"connected", "4G", "fair"}, network(user))
	})
	t.Run("79 a bill's field", func(t *testing.T) {
		agent, _ := syncDBs(t)
		apply(t, agent, map[string]any{"bills[B1].status": "Paid"})
		assert.Equal(t, "Paid", syncBill(agent)["status"])
	})
	t.Run("80 an unknown bill is ignored", func(t *testing.T) {
		agent, _ := syncDBs(t)
		apply(t, agent, map[string]any{"bills[NOT_EXIST].status": "Paid"})
		assert.Equal(t, "Issued", syncBill(agent)["status"])
	})
	t.Run("82 a surroundings key on the agent DB: no phone to search", func(t *testing.T) {
		agent, _ := syncDBs(t)
		apply(t, agent, map[string]any{"bills[B1].status": "Paid", "surroundings.line_active": true})
		assert.Equal(t, "Paid", syncBill(agent)["status"])
		assert.Equal(t, map[string]any{"line_active": true}, agent["surroundings"])
	})
	t.Run("the rest of a surroundings path is one key", func(t *testing.T) {
		_, user := syncDBs(t)
		apply(t, user, map[string]any{"surroundings.a.b": 1})
		assert.Equal(t, 1, surroundings(user)["a.b"])
	})
	t.Run("other paths are dotted paths", func(t *testing.T) {
		_, user := syncDBs(t)
		apply(t, user, map[string]any{"device.airplane_mode": true})
		assert.Equal(t, true, device(user)["airplane_mode"])
		assert.Error(t, ApplySyncDelta(user, map[string]any{"device.nothing.here": 1}))
		assert.Error(t, ApplySyncDelta(map[string]any{"surroundings": nil}, map[string]any{"surroundings.x": 1}))
	})
	t.Run("registered under the domain", func(t *testing.T) {
		reg := new(registry.Tools)
		require.NoError(t, Register(reg))
		assert.NotNil(t, reg.Hooks(Domain).Apply)
	})
}

// The sync in a replay: a task whose initialisation enables roaming on the
// user's line gives the phone roaming_allowed (item 92), and the replay
// syncs after every action (item 90 is the replay's business: a scenario
// without Sync does not sync).
func TestSyncInReplay(t *testing.T) {
	task := replay.Task{ID: "roaming", InitialState: &replay.InitialState{InitializationActions: []hooks.InitAction{
		{EnvType: "user", FuncName: "set_user_info", Arguments: map[string]any{"name": "Ada", "phone_number": "555-0001"}},
		{EnvType: "assistant", FuncName: "enable_roaming", Arguments: map[string]any{"customer_id": "C1", "line_id": "L1"}},
	}}, EvaluationCriteria: &replay.EvaluationCriteria{Actions: []replay.Action{
		{ActionID: "0", Name: NameSuspendLine, Arguments: map[string]any{"customer_id": "C1", "line_id": "L1", "reason": "x"}},
	}}}
	res, err := replay.Gold(t.Context(), Scenario(task, state.NewSource(agentDB(t)), state.NewSource(userDB(t))))
	require.NoError(t, err)
	require.Empty(t, res.Errors)
	assert.Equal(t, true, surroundings(res.UserDB)["roaming_allowed"], "92")
	assert.Equal(t, false, surroundings(res.UserDB)["line_active"], "synced after the suspension")
	assert.Equal(t, noServiceState, network(res.UserDB), "and the applier's network search ran")

	sc := Scenario(task, state.NewSource(agentDB(t)), state.NewSource(userDB(t)))
	sc.Hooks.Sync = nil
	res, err = replay.Gold(t.Context(), sc)
	require.NoError(t, err)
	assert.Equal(t, false, surroundings(res.UserDB)["roaming_allowed"], "90: no sync")
}
