package replay

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync/atomic"
	"time"

	"github.com/voiceeval/schematools/dbhash"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

// Clock tells tools what time it is. Replays use a fixed clock so that a
// replay gives the same hash on every day.
type Clock func() time.Time

// IDSource mints the ids tools would otherwise draw at random.
type IDSource func() string

// ReferenceDate is the "today" the tau2 reference hashes were produced
// with: 2025-02-25.
var ReferenceDate = time.Date(2025, time.February, 25, 0, 0, 0, 0, time.UTC)

// FixedClock returns a clock that always says t.
func FixedClock(t time.Time) Clock { return func() time.Time { return t } }

// CounterIDs returns an id source yielding prefix + "1", prefix + "2", …;
// it is safe for concurrent use.
func CounterIDs(prefix string) IDSource {
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
	Clock  Clock
	IDs    IDSource
}

// ToolBuilder builds the tools of one replay, bound to env's states. Tools
// that act on the user side are bound to env.User, the others to
// env.Agent.
type ToolBuilder func(env Env) (ToolMap, error)

// Scenario is everything a gold replay needs. The replay works on deep
// copies of DB and UserDB and never modifies them — unless ShareDB asks it
// to share them copy-on-write, which is faster and relies on the tools.
type Scenario struct {
	Domain string
	Task   Task
	DB     map[string]any // the agent-side DB
	UserDB map[string]any // the user-side DB; nil for one-sided domains
	Tools  ToolBuilder
	Init   *InitFuncs // initialisation functions; nil when the domain has none
	Sync   SyncFunc   // cross-side sync; nil when the domain has none
	// Appliers apply sync deltas; nil uses ApplyDottedPaths.
	Appliers *Appliers
	Clock    Clock    // nil means FixedClock(ReferenceDate)
	IDs      IDSource // nil means CounterIDs("id-") for each replay
	// AgentSyncTables and UserSyncTables, when not nil, name the top-level
	// tables Sync and the appliers may change on each side. With ShareDB a
	// sync then copies only those (state.Shared.UpdateTables) instead of
	// the whole DBs; they must name every table a sync can write.
	AgentSyncTables, UserSyncTables []string
	// SyncChanges, when set, tells the replay, reading the DBs only,
	// which sides Sync and the appliers would change if they ran now. A
	// sync that would change neither side is skipped, and one that would
	// change only one side write-locks (and, with ShareDB, copies the
	// tables of) that side alone: a sync that finds the sides in line costs
	// no copy. It must report a side wherever Sync or the appliers would
	// write, and must not change anything; when unsure (say, Sync would
	// fail), report both.
	SyncChanges func(agentDB, userDB map[string]any) (agent, user bool)
	// InitTables, when not nil, names for each initialisation function
	// (by func_name) the top-level tables it may change. With ShareDB the
	// init actions of a side then copy only the tables their functions
	// name, instead of the whole DB; a side with an action whose function
	// is not in InitTables copies its whole DB. Each entry must name every
	// table its function can write.
	InitTables map[string][]string
	// TraceHashes hashes the DBs after every action (Step.DBHash), for
	// comparing a replay step by step with a reference. It costs one hash
	// per action.
	TraceHashes bool
	// HashOptions apply to every hash the replay takes (both sides, post
	// init, per step and final).
	HashOptions []dbhash.Option
	// ShareDB makes the replay share DB and UserDB copy-on-write
	// (state.Shared.ShareDB) instead of deep-copying them: a task that
	// only reads costs no copy, and a write copies only the tables it names
	// (state.Shared.UpdateTables). It is how many tasks replay fast on one
	// loaded DB, and it trusts the tools: one that writes under View, or
	// changes a table it did not name, modifies the source DB — check the
	// source's hash after the replays (the tau2 replay CLI does).
	ShareDB bool
	// SourceDBHash and SourceUserDBHash, when set, are the hashes of DB and
	// UserDB (with HashOptions). With ShareDB, a replay that never wrote a
	// DB reports them instead of hashing it again.
	SourceDBHash, SourceUserDBHash string
	// HashCache, when set, holds the canonical text of DB's tables
	// (dbhash.NewCache(DB, HashOptions...)): with ShareDB, hashing a DB whose
	// tools wrote only some tables reuses the text of the others.
	HashCache *dbhash.Cache
	// HashesOnly leaves Result.DB and Result.UserDB nil, for callers that
	// only need the hashes: with ShareDB, a replay that changed nothing then
	// costs no copy of the DB at all.
	HashesOnly bool
}

// Kinds of [ReplayError], as the Python reference names them (plus init
// and sync, for failing initialisation actions and sync appliers, which
// Python only logs).
const (
	KindMissingTool = "missing_tool"
	KindException   = "exception"
	KindErrorResult = "error_result"
	KindInit        = "init"
	KindSync        = "sync"
)

// ReplayError is a problem a replay tolerated: it was recorded and the
// replay went on.
type ReplayError struct {
	Index   int    `json:"index"` // the gold action's index; -1 for init and post-init sync
	Name    string `json:"name"`
	Kind    string `json:"kind"`
	Message string `json:"message"`
}

// Step is the outcome of one gold action.
type Step struct {
	Index           int            `json:"index"`
	ActionID        string         `json:"action_id"`
	Name            string         `json:"name"`
	Side            string         `json:"side"`
	Arguments       map[string]any `json:"arguments"`
	ToolFound       bool           `json:"tool_found"`
	Result          any            `json:"result"` // the raw result
	Err             string         `json:"error,omitempty"`
	RecordsAppended int            `json:"records_appended"`
	DBHash          string         `json:"db_hash_after,omitempty"`      // with TraceHashes
	UserDBHash      string         `json:"user_db_hash_after,omitempty"` // with TraceHashes
}

// Result is a finished gold replay.
type Result struct {
	TaskID     string         `json:"task_id"`
	DB         map[string]any `json:"db"`                // the expected agent-side DB
	UserDB     map[string]any `json:"user_db,omitempty"` // the expected user-side DB, for two-sided domains
	DBHash     string         `json:"db_hash"`
	UserDBHash string         `json:"user_db_hash,omitempty"`
	// PostInitDBHash and PostInitUserDBHash are taken after the
	// initialisation actions and the first sync, before any gold action.
	PostInitDBHash     string `json:"post_init_db_hash"`
	PostInitUserDBHash string `json:"post_init_user_db_hash,omitempty"`
	// Actions are the reference action records, each stamped with "side".
	Actions []state.Action `json:"reference_actions"`
	Steps   []Step         `json:"per_action"`
	Errors  []ReplayError  `json:"errors"`
	Init    []InitResult   `json:"init,omitempty"` // agent side, then user side, when the task has init actions
	// Err is the error of a replay that [GoldAll] ran and that failed (the
	// error [Gold] returned); nil otherwise.
	Err error `json:"-"`
}

// ErrNoTools means a scenario has no tool builder.
var ErrNoTools = errors.New("replay: scenario has no tool builder")

// Gold replays a task's gold actions through the scenario's tools and
// returns the expected DB(s), step by step, in the reference order:
//
//  1. deep-copy the DB(s) (or share them copy-on-write, with ShareDB) and
//     build the tool map on fresh states;
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
func Gold(ctx context.Context, sc Scenario) (Result, error) {
	res := Result{TaskID: sc.Task.ID, Actions: []state.Action{}, Steps: []Step{}, Errors: []ReplayError{}}
	if sc.Tools == nil {
		return res, ErrNoTools
	}
	env := Env{Domain: sc.Domain, Agent: state.New(), Clock: sc.Clock, IDs: sc.IDs}
	if env.Clock == nil {
		env.Clock = FixedClock(ReferenceDate)
	}
	if env.IDs == nil {
		env.IDs = CounterIDs("id-")
	}
	install := func(st *state.Shared, db map[string]any) {
		if sc.ShareDB {
			st.ShareDB(db)
		} else {
			st.SetDB(state.Clone(db).(map[string]any))
		}
	}
	env.Agent.SetDomain(sc.Domain)
	install(env.Agent, orEmpty(sc.DB))
	if sc.UserDB != nil {
		env.User = state.New()
		env.User.SetDomain(sc.Domain)
		install(env.User, sc.UserDB)
	}
	tools, err := buildTools(sc.Tools, env)
	if err != nil {
		return res, fmt.Errorf("replay: building the tools of task %s: %w", sc.Task.ID, err)
	}

	if inits := sc.Task.InitActions(); len(inits) > 0 {
		var agentInits, userInits []InitAction
		for _, a := range inits {
			if sideOf(a.EnvType) == SideUser {
				userInits = append(userInits, a)
			} else {
				agentInits = append(agentInits, a)
			}
		}
		for _, group := range []struct {
			actions []InitAction
			st      *state.Shared
		}{{agentInits, env.Agent}, {userInits, env.User}} {
			if len(group.actions) == 0 {
				continue
			}
			var r InitResult
			if group.st == nil {
				r = ApplyInit(sc.Init, sc.Domain, group.actions, nil)
			} else {
				_ = group.st.UpdateTables(initTables(sc.InitTables, group.actions), func(db map[string]any) error {
					r = ApplyInit(sc.Init, sc.Domain, group.actions, db)
					return nil
				})
			}
			res.Init = append(res.Init, r)
			for _, msg := range r.Errors {
				res.Errors = append(res.Errors, ReplayError{Index: -1, Name: "initialization", Kind: KindInit, Message: msg})
			}
		}
	}
	if err := runSync(sc, env, &res, -1); err != nil {
		return res, err
	}
	if res.PostInitDBHash, res.PostInitUserDBHash, err = hashes(sc, env); err != nil {
		return res, err
	}

	for i, a := range sc.Task.Actions() {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		args := a.Arguments
		if args == nil {
			args = map[string]any{}
		}
		step := Step{Index: i, ActionID: a.ActionID, Name: a.Name, Side: a.Side(), Arguments: args}
		t, ok := tools[a.Name]
		if !ok {
			res.Errors = append(res.Errors, ReplayError{Index: i, Name: a.Name, Kind: KindMissingTool,
				Message: fmt.Sprintf("no tool named %q", a.Name)})
			res.Steps = append(res.Steps, step)
			continue
		}
		step.ToolFound = true
		before := [2]int{env.Agent.ActionCount(), count(env.User)}
		out, err := Invoke(ctx, t, state.Clone(args).(map[string]any))
		step.Result = state.Clone(out) // never a reference into a DB, shared or not
		switch msg, isErr := errorResult(out); {
		case err != nil:
			step.Err = err.Error()
			res.Errors = append(res.Errors, ReplayError{Index: i, Name: a.Name, Kind: KindException, Message: err.Error()})
		case isErr:
			res.Errors = append(res.Errors, ReplayError{Index: i, Name: a.Name, Kind: KindErrorResult, Message: msg})
		}
		for j, st := range []*state.Shared{env.Agent, env.User} {
			if st == nil {
				continue
			}
			// A tool that cleared or replaced the log appended nothing we can
			// tell apart: take what is there past the old length, if anything.
			for _, rec := range st.ActionsSince(before[j]) {
				rec["side"] = step.Side
				res.Actions = append(res.Actions, rec)
				step.RecordsAppended++
			}
		}
		if err := runSync(sc, env, &res, i); err != nil {
			return res, err
		}
		if sc.TraceHashes {
			if step.DBHash, step.UserDBHash, err = hashes(sc, env); err != nil {
				return res, err
			}
		}
		res.Steps = append(res.Steps, step)
	}

	if res.DBHash, res.UserDBHash, err = hashes(sc, env); err != nil {
		return res, err
	}
	if !sc.HashesOnly {
		res.DB = env.Agent.TakeDB()
		if env.User != nil {
			res.UserDB = env.User.TakeDB()
		}
	}
	return res, nil
}

// initTables returns the tables the init actions may change, from the
// tables of their functions: nil (the whole DB) when one has no entry.
func initTables(byFunc map[string][]string, actions []InitAction) []string {
	if byFunc == nil {
		return nil
	}
	tables := []string{}
	for _, a := range actions {
		ts, ok := byFunc[a.FuncName]
		if !ok {
			return nil
		}
		for _, t := range ts {
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

func count(st *state.Shared) int {
	if st == nil {
		return 0
	}
	return st.ActionCount()
}

// orEmpty returns db, or an empty DB for nil.
func orEmpty(db map[string]any) map[string]any {
	if db == nil {
		return map[string]any{}
	}
	return db
}

// runSync runs the scenario's sync, when it has one and both sides exist,
// and applies the deltas to the DBs. Failures are recorded, not fatal.
func runSync(sc Scenario, env Env, res *Result, index int) error {
	if sc.Sync == nil || env.User == nil {
		return nil
	}
	agent, user := true, true
	if sc.SyncChanges != nil {
		if agent, user = syncChanges(sc.SyncChanges, env); !agent && !user {
			return nil
		}
	}
	var agentDelta, userDelta map[string]any
	var syncErr error
	_ = access(env.Agent, agent, sc.AgentSyncTables, func(agentDB map[string]any) error {
		return access(env.User, user, sc.UserSyncTables, func(userDB map[string]any) error {
			agentDelta, userDelta, syncErr = callSync(sc.Sync, agentDB, userDB)
			if syncErr != nil {
				return nil
			}
			if err := ApplyDelta(sc.Appliers, sc.Domain, agentDB, agentDelta); err != nil {
				syncErr = err
			}
			if err := ApplyDelta(sc.Appliers, sc.Domain, userDB, userDelta); err != nil && syncErr == nil {
				syncErr = err
			}
			return nil
		})
	})
	if syncErr != nil {
		res.Errors = append(res.Errors, ReplayError{Index: index, Name: "sync", Kind: KindSync, Message: syncErr.Error()})
	}
	return nil
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

func callSync(f SyncFunc, agentDB, userDB map[string]any) (a, u map[string]any, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("sync panicked: %v", r)
		}
	}()
	return f(agentDB, userDB)
}

// hashes returns the current hashes of both sides. A side still reading
// its source DB unchanged reports the scenario's precomputed hash, if any.
func hashes(sc Scenario, env Env) (agent, user string, err error) {
	agentOpts := sc.HashOptions
	if sc.HashCache != nil {
		agentOpts = append(slices.Clip(agentOpts), dbhash.WithCache(sc.HashCache))
	}
	if agent, err = hashState(env.Agent, sc.SourceDBHash, agentOpts); err != nil {
		return "", "", fmt.Errorf("replay: hashing the agent DB: %w", err)
	}
	if env.User != nil {
		if user, err = hashState(env.User, sc.SourceUserDBHash, sc.HashOptions); err != nil {
			return "", "", fmt.Errorf("replay: hashing the user DB: %w", err)
		}
	}
	return agent, user, nil
}

func hashState(st *state.Shared, known string, opts []dbhash.Option) (h string, err error) {
	if known != "" && st.SharesDB() {
		return known, nil
	}
	_ = st.View(func(db map[string]any) error {
		h, err = dbhash.Hash(db, opts...)
		return nil
	})
	return h, err
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
