package telecom

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/voiceeval/schematools/domains/tau2/tau2tools"
	"github.com/voiceeval/schematools/hooks"
	"github.com/voiceeval/schematools/registry"
	"github.com/voiceeval/schematools/replay"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

// def is one of the 43 tools: its name, its side and its constructor.
type def struct {
	name  string
	user  bool
	build func(b binding) (tool.Tool, error)
}

// toolDefs lists the tools in the Python original's order: the agent's,
// then the user's.
var toolDefs = [...]def{
	{NameGetCustomerByPhone, false, newGetCustomerByPhone},
	{NameGetCustomerByID, false, newGetCustomerByID},
	{NameGetCustomerByName, false, newGetCustomerByName},
	{NameGetDetailsByID, false, newGetDetailsByID},
	{NameGetBillsForCustomer, false, newGetBillsForCustomer},
	{NameGetDataUsage, false, newGetDataUsage},
	{NameSuspendLine, false, newSuspendLine},
	{NameResumeLine, false, newResumeLine},
	{NameEnableRoaming, false, newEnableRoaming},
	{NameDisableRoaming, false, newDisableRoaming},
	{NameSendPaymentRequest, false, newSendPaymentRequest},
	{NameRefuelData, false, newRefuelData},
	{NameTransferToHumanAgents, false, newTransferToHumanAgents},

	{NameCheckStatusBar, true, newCheckStatusBar},
	{NameCheckNetworkStatus, true, newCheckNetworkStatus},
	{NameCheckNetworkModePreference, true, newCheckNetworkModePreference},
	{NameCheckSimStatus, true, newCheckSimStatus},
	{NameCheckDataRestrictionStatus, true, newCheckDataRestrictionStatus},
	{NameCheckAPNSettings, true, newCheckAPNSettings},
	{NameCheckWifiStatus, true, newCheckWifiStatus},
	{NameCheckWifiCallingStatus, true, newCheckWifiCallingStatus},
	{NameCheckVPNStatus, true, newCheckVPNStatus},
	{NameCheckInstalledApps, true, newCheckInstalledApps},
	{NameCheckAppStatus, true, newCheckAppStatus},
	{NameCheckAppPermissions, true, newCheckAppPermissions},
	{NameCanSendMMS, true, newCanSendMMS},
	{NameCheckPaymentRequest, true, newCheckPaymentRequest},
	{NameRunSpeedTest, true, newRunSpeedTest},
	{NameToggleAirplaneMode, true, newToggleAirplaneMode},
	{NameToggleData, true, newToggleData},
	{NameToggleRoaming, true, newToggleRoaming},
	{NameToggleDataSaverMode, true, newToggleDataSaverMode},
	{NameToggleWifi, true, newToggleWifi},
	{NameToggleWifiCalling, true, newToggleWifiCalling},
	{NameSetNetworkModePreference, true, newSetNetworkModePreference},
	{NameReseatSIMCard, true, newReseatSIMCard},
	{NameSetAPNSettings, true, newSetAPNSettings},
	{NameResetAPNSettings, true, newResetAPNSettings},
	{NameConnectVPN, true, newConnectVPN},
	{NameDisconnectVPN, true, newDisconnectVPN},
	{NameGrantAppPermission, true, newGrantAppPermission},
	{NameRebootDevice, true, newRebootDevice},
	{NameMakePayment, true, newMakePayment},
}

// ErrUnknownTool means NewTool was asked for a name the domain does not
// have.
var ErrUnknownTool = errors.New("telecom: no such tool")

// NewTool builds the tool called name (one of AgentToolNames and
// UserToolNames) on deps.State — a private state when nil — reading the
// date from deps.Clock and minting bill ids from deps.IDs (the real clock
// and random ids when nil). Agent-side tools expect the agent DB in the
// state, user-side tools the user's phone. deps.Args must be empty: the
// tools take no keyword arguments.
func NewTool(name string, deps registry.Deps) (tool.Tool, error) {
	for _, d := range toolDefs {
		if d.name == name {
			if len(deps.Args) > 0 {
				return nil, fmt.Errorf("%w: %s takes no keyword arguments", registry.ErrBadOptions, name)
			}
			return d.build(binding{st: deps.State, clock: deps.Clock, ids: deps.IDs})
		}
	}
	return nil, fmt.Errorf("%w: %q", ErrUnknownTool, name)
}

// Register adds the 43 tools to r under Domain, each built by its factory
// on the scenario's deps.State with deps.Clock and deps.IDs (see NewTool),
// and the domain's Hooks, which a bot's apply_initialization and
// apply_sync_delta run.
// A bot of either side registers them all; which ones a scenario uses is
// its tool spec's business. The tools take no keyword arguments.
// Registering twice in one registry is an error (registry.ErrDuplicate).
func Register(r *registry.Tools) error {
	errs := make([]error, 0, len(toolDefs)+1)
	for _, d := range toolDefs {
		errs = append(errs, r.Register(Domain, d.name, registry.Plain(func(deps registry.Deps) (tool.Tool, error) {
			return d.build(binding{st: deps.State, clock: deps.Clock, ids: deps.IDs})
		})))
	}
	errs = append(errs, r.SetHooks(Domain, Hooks()))
	return errors.Join(errs...)
}

// Tools builds the 43 tools of one gold replay: the replay.ToolBuilder of
// the telecom domain. Agent-side tools are bound to env.Agent, user-side
// tools to env.User (to env.Agent when there is no user side), all reading
// the date from env.Clock and minting ids from env.IDs (the real clock and
// random ids when nil). The names of the two sides are disjoint, so one
// map holds both.
//
// A replay calls a handful of the 43 tools, so each is built on its first
// call; until then its name, description and schema come from a prototype
// built once per process.
func Tools(env replay.Env) (replay.ToolMap, error) {
	protos, err := prototypes()
	if err != nil {
		return nil, err
	}
	sides := &[2]binding{{st: env.Agent, clock: env.Clock, ids: env.IDs}, {st: env.User, clock: env.Clock, ids: env.IDs}}
	if env.User == nil {
		sides[1].st = env.Agent
	}
	m := make(replay.ToolMap, len(toolDefs))
	lazy := make([]lazyTool, len(toolDefs))
	for i, d := range toolDefs {
		l := &lazy[i]
		l.proto, l.build, l.b = protos[i], d.build, &sides[0]
		if d.user {
			l.b = &sides[1]
		}
		m[d.name] = l
	}
	return m, nil
}

// prototypes are the 43 tools built once, on private states, for what does
// not depend on a scenario: names, descriptions and schemas.
var prototypes = sync.OnceValues(func() ([]tool.Tool, error) {
	out := make([]tool.Tool, len(toolDefs))
	for i, d := range toolDefs {
		t, err := d.build(binding{})
		if err != nil {
			return nil, fmt.Errorf("telecom: building %s: %w", d.name, err)
		}
		out[i] = t
	}
	return out, nil
})

// lazyTool is a tool of a replay, built on its binding at its first call.
type lazyTool struct {
	proto tool.Tool // names, description and schema
	build func(binding) (tool.Tool, error)
	b     *binding
	once  sync.Once
	t     tool.Tool
	err   error
}

func (l *lazyTool) bound() (tool.Tool, error) {
	l.once.Do(func() { l.t, l.err = l.build(*l.b) })
	return l.t, l.err
}

// Name returns the tool's name.
func (l *lazyTool) Name() string { return l.proto.Name() }

// Description returns the tool's description.
func (l *lazyTool) Description() string { return l.proto.Description() }

// Properties returns the tool's JSON Schema properties.
func (l *lazyTool) Properties() map[string]any { return l.proto.Properties() }

// Required returns the tool's required arguments.
func (l *lazyTool) Required() []string { return l.proto.Required() }

// Execute builds the tool, the first time, and runs it.
func (l *lazyTool) Execute(ctx context.Context, args map[string]any) (any, error) {
	t, err := l.bound()
	if err != nil {
		return nil, err
	}
	return t.Execute(ctx, args)
}

// AfterResult runs the tool's after-result hook, if it has one.
func (l *lazyTool) AfterResult(ctx context.Context, args map[string]any, result any) error {
	t, err := l.bound()
	if err != nil {
		return err
	}
	if h, ok := t.(tool.AfterResulter); ok {
		return h.AfterResult(ctx, args, result)
	}
	return nil
}

// ErrorType returns the error_type of the tool's validation results, so
// that CallJSON answers malformed arguments with it.
func (l *lazyTool) ErrorType() string {
	if e, ok := l.proto.(tool.ErrorTyper); ok {
		return e.ErrorType()
	}
	return ""
}

// PropertyOrder returns the order of the tool's properties.
func (l *lazyTool) PropertyOrder() []string {
	if o, ok := l.proto.(tool.PropertyOrderer); ok {
		return o.PropertyOrder()
	}
	return nil
}

// Hooks returns what the telecom domain plugs in besides its tools: the
// 20 initialisation functions (with the tables each may change), the
// six DB-state predicates, SyncState with ApplySyncDelta, and what a sync
// can write — SyncChanges, which lets a replay skip the syncs that find
// the sides in line, the agent's bills and the user's surroundings and
// device. Register registers them for the bots; Scenario puts them in a
// gold replay.
func Hooks() hooks.Set {
	return hooks.Set{
		Init:        initHooks(),
		Predicates:  predicateHooks(),
		Sync:        SyncState,
		Apply:       ApplySyncDelta,
		SyncChanges: SyncChanges,
		// SyncState marks agent bills paid and updates the user's
		// surroundings; the applier's network search re-derives the device's
		// network fields.
		AgentSyncTables: []string{tableBills},
		UserSyncTables:  []string{tableSurroundings, tableDevice},
	}
}

// Scenario returns the gold replay of a telecom task on the given agent DB
// (db.json) and user DB (user_db.json), with everything the domain plugs
// in — its tools and Hooks — and the clock pinned to tau2tools.ReferenceDate
// (2025-02-25), the "today" of the Python reference's hashes.
func Scenario(task replay.Task, agentDB, userDB *state.Source) replay.Scenario {
	return ScenarioAt(task, agentDB, userDB, nil)
}

// Scenarios returns the gold replays of many tasks on the same DBs and
// clock — ScenarioAt of each — sharing between them one set of hooks,
// which a replay only reads: building 114 scenarios costs one of them.
func Scenarios(tasks []replay.Task, agentDB, userDB *state.Source, clock func() time.Time) []replay.Scenario {
	base := ScenarioAt(replay.Task{}, agentDB, userDB, clock)
	out := make([]replay.Scenario, len(tasks))
	for i, t := range tasks {
		out[i] = base
		out[i].Task = t
	}
	return out
}

// ScenarioAt is Scenario with another clock for the tools and the
// initialisation functions alike; nil means the reference date.
func ScenarioAt(task replay.Task, agentDB, userDB *state.Source, clock func() time.Time) replay.Scenario {
	if clock == nil {
		clock = replay.FixedClock(tau2tools.ReferenceDate())
	}
	return replay.Scenario{
		Domain: Domain,
		Task:   task,
		DB:     agentDB,
		UserDB: userDB,
		Tools:  Tools,
		Hooks:  Hooks(),
		Clock:  clock,
	}
}
