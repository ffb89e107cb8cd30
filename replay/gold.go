package replay

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync/atomic"
	"time"

	"github.com/voiceeval/schematools/hooks"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

// FixedClock returns a clock that always says t.
func FixedClock(t time.Time) func() time.Time { return func() time.Time { return t } }

// CounterIDs returns an id source yielding prefix + "1", prefix + "2", …;
// it is safe for concurrent use.
func CounterIDs(prefix string) func() string {
	var n atomic.Int64
	return func() string { return fmt.Sprintf("%s%d", prefix, n.Add(1)) }
}

// Env is what a [ToolBuilder] gets for one replay: the states of the two
// sides (User is nil for one-sided domains; both states share nothing),
// and the clock and id source every tool must use.
type Env struct {
	Domain string
	Agent  *state.Shared
	User   *state.Shared
	Clock  func() time.Time
	IDs    func() string
}

// ToolBuilder builds the tools of one replay, bound to env's states. Tools
// that act on the user side are bound to env.User, the others to
// env.Agent.
type ToolBuilder func(env Env) (ToolMap, error)

// Scenario is everything a gold replay needs. The replay shares DB and
// UserDB copy-on-write ([state.Shared.Share]): a task that only reads
// costs no copy, a write copies what it changes (the tables its tool
// names, or the records it owns), and hashes reuse what the Source
// computed once. [GoldAll] checks the Sources after its replays and
// replays again, each on its own copy, the tasks of a Source a tool
// changed.
type Scenario struct {
	// Domain is the tool domain of the replay's states (both sides) and
	// the [Env.Domain] the tools are built for; initialisation errors name
	// it.
	Domain string
	// Task is the task replayed: its initialisation actions
	// (InitialState) and its gold actions (EvaluationCriteria.Actions);
	// Result.TaskID is its ID.
	Task   Task
	DB     *state.Source // the agent-side DB; nil is an empty DB
	UserDB *state.Source // the user-side DB; nil for one-sided domains
	// Tools builds the tools of each replay on its fresh states, keyed by
	// the names gold actions use. It is required: without it [Gold]
	// returns an error.
	Tools ToolBuilder
	// Hooks are the domain's initialisation functions, sync and sync
	// applier, with the tables each may write. Gold does not evaluate
	// assertions: pass the same Set to [Evaluate] for its predicates.
	Hooks hooks.Set
	Clock func() time.Time // nil means the tau2 reference date, 2025-02-25
	IDs   func() string    // nil means CounterIDs("id-") for each replay
	// TraceHashes hashes the DBs after every action (Step.DBHash), for
	// comparing a replay step by step with a reference. It costs one hash
	// per action.
	TraceHashes bool
	// HashesOnly leaves Result.DB and Result.UserDB nil, for callers that
	// only need the hashes: a replay that changed nothing then costs no
	// copy of the DB at all.
	HashesOnly bool
}

// referenceDate is the "today" of the tau2 reference hashes.
var referenceDate = time.Date(2025, time.February, 25, 0, 0, 0, 0, time.UTC)

// Kinds of [ReplayError].
const (
	kindMissingTool = "missing_tool"
	kindException   = "exception"
	kindErrorResult = "error_result"
	kindInit        = "init"
	kindSync        = "sync"
)

// ReplayError is a problem a replay tolerated: it was recorded and the
// replay went on. Kind is as the Python reference names it —
// "missing_tool", "exception" (the tool failed or panicked),
// "error_result" (it returned an error result) — or "init" or "sync" for
// failing initialisation actions and sync appliers, which Python only
// logs.
type ReplayError struct {
	Index int `json:"index"` // the gold action's index; -1 for init and post-init sync
	// Name is the gold action's tool name, or "initialization" or "sync".
	Name string `json:"name"`
	Kind string `json:"kind"`
	// Message is the tool's error, the error result's message, the failing
	// initialisation action's report or the sync's error.
	Message string `json:"message"`
}

// Step is the outcome of one gold action.
type Step struct {
	Index    int    `json:"index"`     // the action's index among the task's gold actions
	ActionID string `json:"action_id"` // the gold action's action_id
	Name     string `json:"name"`      // the tool name the gold action calls
	// Side is where the action ran, from its requestor ([Action.Side]):
	// "user" or "agent".
	Side      string         `json:"side"`
	Arguments map[string]any `json:"arguments"` // the gold arguments ({} for none)
	// ToolFound is false when the tool map has no tool of that name: the
	// step then ran nothing (Result nil, no records, no sync) and Result's
	// Errors hold a "missing_tool".
	ToolFound bool `json:"tool_found"`
	// Result is the tool's raw result (the replay path's, [Invoke]), a
	// copy; an error result (tool.IsError) is a Result, not an Err.
	Result any `json:"result"`
	// Err is the text of the Go error the tool returned or its panic, when
	// it failed ("exception"); Result is then whatever it returned with
	// the error, usually nil.
	Err string `json:"error,omitempty"`
	// RecordsAppended counts the action records the step appended to the
	// two sides' logs, each copied into Result.Actions with "side" set.
	RecordsAppended int    `json:"records_appended"`
	DBHash          string `json:"db_hash_after,omitempty"`      // with TraceHashes
	UserDBHash      string `json:"user_db_hash_after,omitempty"` // with TraceHashes
}

// Result is a finished gold replay.
type Result struct {
	TaskID string         `json:"task_id"`           // the replayed task's ID
	DB     map[string]any `json:"db"`                // the expected agent-side DB; nil with HashesOnly
	UserDB map[string]any `json:"user_db,omitempty"` // the expected user-side DB, for two-sided domains
	// DBHash and UserDBHash are the dbhash.Hash of the final DBs (the
	// Python reference's get_dict_hash); UserDBHash is empty for one-sided
	// domains.
	DBHash     string `json:"db_hash"`
	UserDBHash string `json:"user_db_hash,omitempty"`
	// PostInitDBHash and PostInitUserDBHash are taken after the
	// initialisation actions and the first sync, before any gold action.
	PostInitDBHash     string `json:"post_init_db_hash"`
	PostInitUserDBHash string `json:"post_init_user_db_hash,omitempty"`
	// Actions are the reference action records, each stamped with "side".
	Actions []state.Action `json:"reference_actions"`
	// Steps has one Step per gold action, in order (a replay cut short by
	// ctx has fewer).
	Steps []Step `json:"per_action"`
	// Errors lists what the replay tolerated, in the order it happened;
	// empty (not nil) when nothing went wrong.
	Errors []ReplayError      `json:"errors"`
	Init   []hooks.InitResult `json:"init,omitempty"` // agent side, then user side, when the task has init actions
	// Err is the error of a replay that [GoldAll] ran and that failed (the
	// error [Gold] returned); nil otherwise.
	Err error `json:"-"`
}

// errNoTools means a scenario has no tool builder.
var errNoTools = errors.New("replay: scenario has no tool builder")

// Gold replays a task's gold actions through the scenario's tools and
// returns the expected DB(s), step by step, in the reference order:
//
//  1. share the DB(s) copy-on-write and build the tool map on fresh
//     states;
//  2. run the initialisation actions — all agent-side ones, then all
//     user-side ones — and sync once;
//  3. for each gold action: pick the side from its requestor, invoke the
//     tool by name (raw path), stamp "side" on the records it appended,
//     and sync.
//
// A missing tool is recorded and skipped (no stamping, no sync); a tool
// that fails or returns an error result is recorded and the replay goes
// on. Gold returns an error only when the replay cannot start (no tool
// builder, the builder fails, a DB does not hash) or ctx is done.
func Gold(ctx context.Context, sc Scenario) (Result, error) { return gold(ctx, sc, false) }

// gold is Gold; private replays on deep copies of the Sources' DBs
// instead of sharing them.
func gold(ctx context.Context, sc Scenario, private bool) (Result, error) {
	res := Result{TaskID: sc.Task.ID, Actions: []state.Action{}, Steps: []Step{}, Errors: []ReplayError{}}
	if sc.Tools == nil {
		return res, errNoTools
	}
	env := Env{Domain: sc.Domain, Agent: state.New(), Clock: sc.Clock, IDs: sc.IDs}
	if env.Clock == nil {
		env.Clock = FixedClock(referenceDate)
	}
	if env.IDs == nil {
		env.IDs = CounterIDs("id-")
	}
	install := func(st *state.Shared, src *state.Source) {
		_ = st.Seed(state.Seed{Domain: sc.Domain}, nil)
		switch {
		case src == nil:
			st.SetDB(map[string]any{})
		case private:
			st.Share(src)
			_ = st.UpdateTables(nil, func(map[string]any) error { return nil }) // copies every table
		default:
			st.Share(src)
		}
	}
	install(env.Agent, sc.DB)
	if sc.UserDB != nil {
		env.User = state.New()
		install(env.User, sc.UserDB)
	}
	tools, err := buildTools(sc.Tools, env)
	if err != nil {
		return res, fmt.Errorf("replay: building the tools of task %s: %w", sc.Task.ID, err)
	}

	if inits := initActions(sc.Task); len(inits) > 0 {
		var agentInits, userInits []hooks.InitAction
		for _, a := range inits {
			if sideOf(a.EnvType) == sideUser {
				userInits = append(userInits, a)
			} else {
				agentInits = append(agentInits, a)
			}
		}
		for _, group := range []struct {
			actions []hooks.InitAction
			st      *state.Shared
		}{{agentInits, env.Agent}, {userInits, env.User}} {
			if len(group.actions) == 0 {
				continue
			}
			var r hooks.InitResult
			if group.st == nil {
				r = sc.Hooks.ApplyInit(sc.Domain, group.actions, nil, env.Clock)
			} else {
				_ = group.st.UpdateTables(initTables(sc.Hooks.Init, group.actions), func(db map[string]any) error {
					r = sc.Hooks.ApplyInit(sc.Domain, group.actions, db, env.Clock)
					return nil
				})
			}
			res.Init = append(res.Init, r)
			for _, msg := range r.Errors {
				res.Errors = append(res.Errors, ReplayError{Index: -1, Name: "initialization", Kind: kindInit, Message: msg})
			}
		}
	}
	runSync(sc, env, &res, -1)
	if res.PostInitDBHash, res.PostInitUserDBHash, err = hashes(env); err != nil {
		return res, err
	}

	for i, a := range goldActions(sc.Task) {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		args := a.Arguments
		if args == nil {
			args = map[string]any{}
		}
		step := Step{Index: i, ActionID: a.ActionID, Name: a.Name, Side: a.side(), Arguments: args}
		t, ok := tools[a.Name]
		if !ok {
			res.Errors = append(res.Errors, ReplayError{Index: i, Name: a.Name, Kind: kindMissingTool,
				Message: fmt.Sprintf("no tool named %q", a.Name)})
			res.Steps = append(res.Steps, step)
			continue
		}
		step.ToolFound = true
		before := [2]int{logLen(env.Agent), logLen(env.User)}
		out, err := Invoke(ctx, t, state.Clone(args).(map[string]any))
		step.Result = state.Clone(out) // never a reference into a DB, shared or not
		switch msg, isErr := errorResult(out); {
		case err != nil:
			step.Err = err.Error()
			res.Errors = append(res.Errors, ReplayError{Index: i, Name: a.Name, Kind: kindException, Message: err.Error()})
		case isErr:
			res.Errors = append(res.Errors, ReplayError{Index: i, Name: a.Name, Kind: kindErrorResult, Message: msg})
		}
		for j, st := range []*state.Shared{env.Agent, env.User} {
			if st == nil {
				continue
			}
			// A tool that cleared or replaced the log appended nothing we can
			// tell apart: take what is there past the old length, if anything.
			for _, rec := range actionsSince(st, before[j]) {
				rec["side"] = step.Side
				res.Actions = append(res.Actions, rec)
				step.RecordsAppended++
			}
		}
		runSync(sc, env, &res, i)
		if sc.TraceHashes {
			if step.DBHash, step.UserDBHash, err = hashes(env); err != nil {
				return res, err
			}
		}
		res.Steps = append(res.Steps, step)
	}

	if res.DBHash, res.UserDBHash, err = hashes(env); err != nil {
		return res, err
	}
	if !sc.HashesOnly {
		res.DB = env.Agent.Snapshot()
		if env.User != nil {
			res.UserDB = env.User.Snapshot()
		}
	}
	return res, nil
}

// initTables returns the tables the init actions may change, from the
// tables of their functions: nil (the whole DB) when one has no entry.
func initTables(byFunc map[string]hooks.Init, actions []hooks.InitAction) []string {
	tables := []string{}
	for _, a := range actions {
		f, ok := byFunc[a.FuncName]
		if !ok || f.Tables == nil {
			return nil
		}
		for _, t := range f.Tables {
			if !slices.Contains(tables, t) {
				tables = append(tables, t)
			}
		}
	}
	return tables
}

// buildTools runs a tool builder, turning a panic into an error.
func buildTools(b ToolBuilder, env Env) (m ToolMap, err error) {
	defer func() {
		if r := recover(); r != nil {
			m, err = nil, fmt.Errorf("tool builder panicked: %v", r)
		}
	}()
	return b(env)
}

// logLen is the length of st's action log; 0 for no state.
func logLen(st *state.Shared) (n int) {
	if st != nil {
		_ = st.ViewHashed(func(_ map[string]any, log []state.Action, _ func() (string, error)) error { n = len(log); return nil })
	}
	return n
}

// actionsSince returns copies of the records of st's log past the first n.
func actionsSince(st *state.Shared, n int) (out []state.Action) {
	_ = st.ViewHashed(func(_ map[string]any, log []state.Action, _ func() (string, error)) error {
		for _, a := range log[min(n, len(log)):] {
			out = append(out, state.Clone(a).(state.Action))
		}
		return nil
	})
	return out
}

// runSync runs the domain's sync, when it has one and both sides exist,
// and applies the deltas to the DBs. Failures are recorded, not fatal.
func runSync(sc Scenario, env Env, res *Result, index int) {
	h := sc.Hooks
	if h.Sync == nil || env.User == nil {
		return
	}
	agent, user := true, true
	if h.SyncChanges != nil {
		if agent, user = syncChanges(h.SyncChanges, env); !agent && !user {
			return
		}
	}
	var syncErr error
	_ = access(env.Agent, agent, h.AgentSyncTables, func(agentDB map[string]any) error {
		return access(env.User, user, h.UserSyncTables, func(userDB map[string]any) error {
			agentDelta, userDelta, err := callSync(h.Sync, agentDB, userDB)
			if err != nil {
				syncErr = err
				return nil
			}
			syncErr = h.ApplyDelta(agentDB, agentDelta)
			if err := h.ApplyDelta(userDB, userDelta); err != nil && syncErr == nil {
				syncErr = err
			}
			return nil
		})
	})
	if syncErr != nil {
		res.Errors = append(res.Errors, ReplayError{Index: index, Name: "sync", Kind: kindSync, Message: syncErr.Error()})
	}
}

// access runs fn on st's DB: under st.UpdateTables(tables) to write, under
// st.View (which leaves a shared DB shared) to read.
func access(st *state.Shared, write bool, tables []string, fn func(db map[string]any) error) error {
	if write {
		return st.UpdateTables(tables, fn)
	}
	return st.View(fn)
}

// syncChanges asks f which sides a sync would change, reading both DBs; a
// panic counts as both.
func syncChanges(f func(agentDB, userDB map[string]any) (bool, bool), env Env) (agent, user bool) {
	defer func() {
		if r := recover(); r != nil {
			agent, user = true, true
		}
	}()
	_ = env.Agent.View(func(agentDB map[string]any) error {
		return env.User.View(func(userDB map[string]any) error {
			agent, user = f(agentDB, userDB)
			return nil
		})
	})
	return agent, user
}

func callSync(f func(agentDB, userDB map[string]any) (map[string]any, map[string]any, error), agentDB, userDB map[string]any) (a, u map[string]any, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("sync panicked: %v", r)
		}
	}()
	return f(agentDB, userDB)
}

// hashes returns the current hashes of both sides.
func hashes(env Env) (agent, user string, err error) {
	if agent, err = env.Agent.Hash(); err != nil {
		return "", "", fmt.Errorf("replay: hashing the agent DB: %w", err)
	}
	if env.User != nil {
		if user, err = env.User.Hash(); err != nil {
			return "", "", fmt.Errorf("replay: hashing the user DB: %w", err)
		}
	}
	return agent, user, nil
}

// errorResult recognises the error results tools return as values
// ([tool.IsError]), and returns their message.
func errorResult(v any) (string, bool) {
	if !tool.IsError(v) {
		return "", false
	}
	switch r := v.(type) {
	case tool.FailureResult:
		return r.Message, true
	case tool.ValidationResult:
		return r.Message, true
	case map[string]any:
		if r["status"] == "error" {
			msg, _ := r["message"].(string)
			return msg, true
		}
		return fmt.Sprint(r["error"]), true
	}
	var m map[string]any // another error struct: read it as its JSON object
	if b, err := json.Marshal(v); err == nil && json.Unmarshal(b, &m) == nil {
		return errorResult(m)
	}
	return fmt.Sprint(v), true
}
