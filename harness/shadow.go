package harness

import (
	"context"
	"fmt"
	"time"

	"github.com/voiceeval/schematools/hooks"
	"github.com/voiceeval/schematools/replay"
	"github.com/voiceeval/schematools/state"
)

// Reference is the harness's own copy of a tool domain: the domain's
// reference tools and hooks, the DBs its scenarios start from and the
// clock. One Reference serves two features of SessionOptions:
//
//   - Shadow, the cross-side sync of a two-sided domain (tau2 telecom):
//     the bridge keeps its own copies of both DBs, replays on them every
//     action a bot reports applied, runs the domain's sync and pushes the
//     resulting deltas to the bots (bridge.py _setup_cross_side_sync,
//     _propagate_cross_side_sync). A Reference whose Hooks have no Sync
//     turns the sync off, as NeMo's default no-op sync_state does.
//   - Verify, the check that the summaries the bots report are
//     reproducible from the actions they report (VerifySummaries, our
//     addition).
type Reference struct {
	// Hooks are the domain's hooks: its initialisation functions (replayed
	// on the starting DBs), its Sync and the sync's applier.
	Hooks hooks.Set
	// Tools builds the reference tool map on the replay's states (the
	// domain's replay tools, e.g. telecom.Tools).
	Tools replay.ToolBuilder
	// AgentDB and UserDB are the DBs the domain's scenarios start from
	// (a scenario's shared_state_init that carries its own inline db
	// overrides them); each run works on its own copy. UserDB is set only
	// for a two-sided domain; nil AgentDB is an empty DB.
	AgentDB, UserDB *state.Source
	// Clock is the clock of the initialisation functions and tools; nil
	// means time.Now.
	Clock func() time.Time
	// Decode turns one action record of a summary into the reference tool
	// calls that may have made it; nil decodes tau2's records
	// ({"name", "arguments", ...}). Verification only.
	Decode func(record any) ([]Call, error)
	// Unverifiable, when not empty, says why the domain's summaries
	// cannot be verified (its tools are not deterministic, or keep their
	// state outside the DB): VerifySummaries skips every scenario with
	// this reason. Verification only.
	Unverifiable string
}

// shadow is one scenario's shadow state.
type shadow struct {
	cfg         *Reference
	domain      string
	agent, user *state.Shared
	tools       replay.ToolMap
	byName      replay.ToolMap
}

// newShadow copies the DBs, replays the scenario's initialisation actions on
// them and builds the tool map; it returns nil (sync off) when the config
// has no Sync. An error means the sync cannot run; NeMo then logs and runs
// the scenario without it, and so does the caller.
func newShadow(cfg *Reference, sc *Scenario) (*shadow, error) {
	if cfg == nil || cfg.Hooks.Sync == nil {
		return nil, nil
	}
	clock := cfg.Clock
	if clock == nil {
		clock = time.Now
	}
	s := &shadow{cfg: cfg, domain: sc.Domain, agent: state.New(), user: state.New()}
	for _, side := range []struct {
		name string
		st   *state.Shared
		src  *state.Source
	}{{"agent", s.agent, cfg.AgentDB}, {"user", s.user, cfg.UserDB}} {
		db := copyOf(side.src)
		var acts []hooks.InitAction
		for _, a := range sc.InitializationActions {
			if a.Side == side.name {
				acts = append(acts, hooks.InitAction{EnvType: a.Side, FuncName: a.FuncName, Arguments: a.Arguments})
			}
		}
		if len(acts) > 0 {
			if r := cfg.Hooks.ApplyInit(sc.Domain, acts, db, clock); !r.Success {
				return nil, fmt.Errorf("shadow init replay failed on the %s side: %v", side.name, r.Errors)
			}
		}
		side.st.SetDB(db)
	}
	if cfg.Tools == nil {
		return nil, fmt.Errorf("shadow sync has no tool builder")
	}
	tools, err := cfg.Tools(replay.Env{Domain: sc.Domain, Agent: s.agent, User: s.user, Clock: clock, IDs: replay.CounterIDs("shadow_")})
	if err != nil {
		return nil, fmt.Errorf("shadow tool map: %w", err)
	}
	s.tools = tools
	s.byName = replay.ToolMap{}
	for _, t := range tools {
		s.byName[t.Name()] = t
	}
	return s, nil
}

// copyOf returns a private deep copy of src's DB ({} for nil).
func copyOf(src *state.Source) map[string]any {
	if src == nil {
		return map[string]any{}
	}
	st := state.New()
	st.Share(src)
	db := st.Snapshot()
	if db == nil {
		db = map[string]any{}
	}
	return db
}

// sync runs the domain's sync on the shadow DBs and returns its deltas.
func (s *shadow) sync() (agentDelta, userDelta map[string]any, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("sync panicked: %v", p)
		}
	}()
	err = s.agent.UpdateTables(nil, func(a map[string]any) error {
		return s.user.UpdateTables(nil, func(u map[string]any) error {
			var e error
			agentDelta, userDelta, e = s.cfg.Hooks.Sync(a, u)
			return e
		})
	})
	return agentDelta, userDelta, err
}

// replay replays one action-applied record on the shadow DBs and syncs. A
// record it cannot replay leaves the shadow as it was and returns the
// reason (NeMo logs it and skips the sync this turn).
func (s *shadow) replay(ctx context.Context, name any, args any) (agentDelta, userDelta map[string]any, err error) {
	n, _ := name.(string)
	t, ok := s.tools[n]
	if !ok {
		t, ok = s.byName[n]
	}
	if !ok {
		return nil, nil, fmt.Errorf("no shadow tool for action %q", n)
	}
	a, _ := state.Clone(args).(map[string]any)
	if a == nil {
		a = map[string]any{}
	}
	if _, err := replay.Invoke(ctx, t, a); err != nil {
		return nil, nil, fmt.Errorf("shadow replay of %q: %w", n, err)
	}
	return s.sync()
}
