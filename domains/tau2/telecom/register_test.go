package telecom

import (
	"context"
	"errors"
	"github.com/voiceeval/schematools/domains/tau2/tau2tools"
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/registry"
	"github.com/voiceeval/schematools/replay"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

// The schemas the model sees: the Python tools' property names, JSON
// types, order and required lists.
var wantSchemas = map[string]struct {
	props    [][2]string // name, JSON type
	required []string
}{
	NameGetCustomerByPhone:       {[][2]string{{"phone_number", "string"}}, []string{"phone_number"}},
	NameGetCustomerByID:          {[][2]string{{"customer_id", "string"}}, []string{"customer_id"}},
	NameGetCustomerByName:        {[][2]string{{"full_name", "string"}, {"dob", "string"}}, []string{"full_name", "dob"}},
	NameGetDetailsByID:           {[][2]string{{"id", "string"}}, []string{"id"}},
	NameGetBillsForCustomer:      {[][2]string{{"customer_id", "string"}, {"limit", "integer"}}, []string{"customer_id"}},
	NameGetDataUsage:             {[][2]string{{"customer_id", "string"}, {"line_id", "string"}}, []string{"customer_id", "line_id"}},
	NameSuspendLine:              {[][2]string{{"customer_id", "string"}, {"line_id", "string"}, {"reason", "string"}}, []string{"customer_id", "line_id", "reason"}},
	NameResumeLine:               {[][2]string{{"customer_id", "string"}, {"line_id", "string"}}, []string{"customer_id", "line_id"}},
	NameEnableRoaming:            {[][2]string{{"customer_id", "string"}, {"line_id", "string"}}, []string{"customer_id", "line_id"}},
	NameDisableRoaming:           {[][2]string{{"customer_id", "string"}, {"line_id", "string"}}, []string{"customer_id", "line_id"}},
	NameSendPaymentRequest:       {[][2]string{{"customer_id", "string"}, {"bill_id", "string"}}, []string{"customer_id", "bill_id"}},
	NameRefuelData:               {[][2]string{{"customer_id", "string"}, {"line_id", "string"}, {"gb_amount", "number"}}, []string{"customer_id", "line_id", "gb_amount"}},
	NameTransferToHumanAgents:    {[][2]string{{"summary", "string"}}, []string{"summary"}},
	NameCheckAppStatus:           {[][2]string{{"app_name", "string"}}, []string{"app_name"}},
	NameCheckAppPermissions:      {[][2]string{{"app_name", "string"}}, []string{"app_name"}},
	NameSetNetworkModePreference: {[][2]string{{"mode", "string"}}, []string{"mode"}},
	NameSetAPNSettings:           {[][2]string{{"apn_settings", "object"}}, []string{"apn_settings"}},
	NameGrantAppPermission:       {[][2]string{{"app_name", "string"}, {"permission", "string"}}, []string{"app_name", "permission"}},
}

func TestNames(t *testing.T) {
	assert.Len(t, AgentToolNames(), 13)
	assert.Len(t, UserToolNames(), 30)
	assert.Equal(t, []string{"suspend_line", "resume_line", "enable_roaming", "disable_roaming", "send_payment_request", "refuel_data",
		"transfer_to_human_agents"}, AgentActionTypes())
	assert.Equal(t, []string{"toggle_airplane_mode", "toggle_data", "toggle_roaming", "toggle_data_saver_mode", "toggle_wifi",
		"toggle_wifi_calling", "set_network_mode_preference", "reseat_sim_card", "set_apn_settings", "reset_apn_settings", "connect_vpn",
		"disconnect_vpn", "grant_app_permission", "reboot_device", "make_payment"}, UserActionTypes())
	var names []string
	for _, d := range toolDefs {
		names = append(names, d.name)
	}
	assert.Equal(t, append(AgentToolNames(), UserToolNames()...), names)
}

func TestSchemas(t *testing.T) {
	for _, name := range append(AgentToolNames(), UserToolNames()...) {
		tl, err := NewTool(name, registry.Deps{})
		require.NoError(t, err)
		s := tool.Schema(tl)
		assert.Equal(t, name, s.Name)
		assert.NotEmpty(t, s.Description, name)
		want := wantSchemas[name]
		var props [][2]string
		for _, p := range s.Parameters.Order {
			props = append(props, [2]string{p, s.Parameters.Properties[p].(map[string]any)["type"].(string)})
			assert.NotEmpty(t, s.Parameters.Properties[p].(map[string]any)["description"], "%s.%s", name, p)
		}
		assert.Equal(t, want.props, props, name)
		assert.Len(t, s.Parameters.Properties, len(want.props), name)
		if want.required == nil {
			want.required = []string{}
		}
		assert.Equal(t, want.required, s.Parameters.Required, name)
		assert.Equal(t, ErrorTypeInvalidArguments, tl.(tool.ErrorTyper).ErrorType())
	}
}

func TestRegister(t *testing.T) {
	reg := new(registry.Tools)
	require.NoError(t, Register(reg))
	assert.Equal(t, append(AgentToolNames(), UserToolNames()...), reg.Names(Domain))
	assert.ErrorIs(t, Register(reg), registry.ErrDuplicate)

	// A user-side bot: its state holds the phone; the clock and the ids
	// come from the scenario.
	st := state.New()
	st.SetDB(userDB(t))
	spec := []registry.ToolSpec{{Name: NameToggleData}, {Name: NameCheckStatusBar}, {Name: NameRunSpeedTest}}
	set, err := reg.NewSet(Domain, spec, registry.Deps{State: st, Clock: replay.FixedClock(testDate), IDs: replay.CounterIDs("Z")})
	require.NoError(t, err)
	var got []any
	require.NoError(t, set.Call(context.Background(), NameToggleData, nil, func(r any) error { got = append(got, r); return nil }, nil))
	assert.Equal(t, []any{"Mobile Data is now OFF.\nStatus Bar: 📶⁴ Excellent | 5G | 📵 Data Disabled | 🔋 80%"}, got)
	assert.Equal(t, false, at(t, st, "device", "data_enabled"))

	_, err = reg.NewSet(Domain, []registry.ToolSpec{{Name: NameToggleData, Args: map[string]any{"x": 1}}}, registry.Deps{State: st})
	assert.ErrorIs(t, err, registry.ErrBadOptions)

	// An agent-side bot dates with the scenario's clock and mints ids with
	// its id source.
	agent := state.New()
	agent.SetDB(agentDB(t))
	refuel, err := reg.New(Domain, NameRefuelData, registry.Deps{State: agent, Clock: replay.FixedClock(time.Date(2030, 6, 1, 0, 0, 0, 0, time.UTC)), IDs: replay.CounterIDs("Z")})
	require.NoError(t, err)
	_, err = refuel.Execute(context.Background(), map[string]any{"customer_id": "C3", "line_id": "L4", "gb_amount": 1})
	require.NoError(t, err)
	assert.Equal(t, "BZ1", at(t, agent, "bills", 4, "bill_id"))
	assert.Equal(t, "2030-07-01", at(t, agent, "bills", 4, "period_start"))
}

func TestNewTool(t *testing.T) {
	_, err := NewTool("toggle_everything", registry.Deps{})
	assert.ErrorIs(t, err, ErrUnknownTool)
	_, err = NewTool(NameToggleData, registry.Deps{Args: map[string]any{"x": 1}})
	assert.ErrorIs(t, err, registry.ErrBadOptions)

	// Without a state a tool has its own, empty one.
	tl, err := NewTool(NameToggleData, registry.Deps{})
	require.NoError(t, err)
	out, err := tl.Execute(context.Background(), nil)
	require.NoError(t, err)
	assert.Equal(t, tool.Failure(ErrorTypeDBNotInitialized, messageUserDBNotLoaded), out)
}

func TestTools(t *testing.T) {
	f := newFixture(t, agentDB(t), userDB(t))
	require.Len(t, f.Tools, 43)
	for _, name := range append(AgentToolNames(), UserToolNames()...) {
		tl := f.Tools[name]
		require.NotNil(t, tl, name)
		assert.Equal(t, name, tl.Name())
		proto, err := NewTool(name, registry.Deps{})
		require.NoError(t, err)
		assert.Equal(t, tool.Schema(proto), tool.Schema(tl), name)
	}
	// Agent tools work on the agent state, user tools on the user's.
	f.Call(t, NameEnableRoaming, map[string]any{"customer_id": "C1", "line_id": "L1"})
	f.Call(t, NameToggleRoaming, nil)
	assert.Len(t, f.agent.Actions(), 1)
	assert.Len(t, f.user.Actions(), 1)

	// Without a user side, the user tools work on the agent state.
	var sent []any
	st := state.New()
	st.StartScenario("", notifyFunc(func(_ context.Context, msg any) error { sent = append(sent, msg); return nil }))
	st.SetDB(userDB(t))
	m, err := Tools(replay.Env{Domain: Domain, Agent: st})
	require.NoError(t, err)
	out, err := replay.Invoke(context.Background(), m[NameCheckSimStatus], nil)
	require.NoError(t, err)
	assert.Equal(t, "Your SIM card is active and working.", out)

	// The transfer's exit signal survives the lazy build.
	require.NoError(t, tool.Call(context.Background(), m[NameTransferToHumanAgents], map[string]any{"summary": "x"}, func(any) error { return nil }, nil))
	assert.Contains(t, sent, tool.TextMessage{Text: "<exit>Transfer complete.</exit>"})
	assert.NoError(t, m[NameToggleData].(tool.AfterResulter).AfterResult(context.Background(), nil, nil), "no hook")
}

func TestScenario(t *testing.T) {
	task := replay.Task{ID: "t"}
	sc := Scenario(task, state.NewSource(agentDB(t)), state.NewSource(userDB(t)))
	assert.Equal(t, Domain, sc.Domain)
	assert.Equal(t, tau2tools.ReferenceDate(), sc.Clock())
	assert.NotNil(t, sc.Tools)
	assert.NotNil(t, sc.Hooks.Sync)
	assert.NotNil(t, sc.Hooks.Apply)
	assert.ElementsMatch(t, InitFuncNames(), slices.Collect(maps.Keys(sc.Hooks.Init)))
	assert.ElementsMatch(t, PredicateNames(), slices.Collect(maps.Keys(sc.Hooks.Predicates)))

	reg := new(registry.Tools)
	require.NoError(t, Register(reg))
	assert.ElementsMatch(t, InitFuncNames(), slices.Collect(maps.Keys(reg.Hooks(Domain).Init)), "Register registers the hooks")

	day := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
	sc = ScenarioAt(task, nil, nil, replay.FixedClock(day))
	assert.Equal(t, day, sc.Clock())
}

// The prototypes are built once; a builder failure would be reported, not
// hidden.
func TestPrototypes(t *testing.T) {
	protos, err := prototypes()
	require.NoError(t, err)
	require.Len(t, protos, 43)
	l := &lazyTool{proto: protos[0], build: func(binding) (tool.Tool, error) { return nil, errors.New("boom") }, b: &binding{}}
	_, err = l.Execute(context.Background(), nil)
	assert.EqualError(t, err, "boom")
	assert.EqualError(t, l.AfterResult(context.Background(), nil, nil), "boom")
	assert.Equal(t, []string{"phone_number"}, l.PropertyOrder())

	// Malformed raw arguments get the domain's error type through a lazy
	// tool too, as through the tool it stands for.
	var got any
	require.NoError(t, tool.CallJSON(context.Background(), l, []byte(`{"phone_number":`), func(v any) error { got = v; return nil }, nil))
	assert.Equal(t, ErrorTypeInvalidArguments, got.(tool.ValidationResult).ErrorType)
}
