package hooks

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/voiceeval/schematools/internal/pyjson"
)

// Init is one initialisation function and the top-level tables it may
// change; nil Tables means any table.
type Init struct {
	// Func changes db according to args and returns an error when it
	// cannot. now is the scenario's clock (nil means the real one).
	Func   func(db, args map[string]any, now func() time.Time) error
	Tables []string
}

// Predicate checks a property of a DB (telecom: "mobile data is on").
type Predicate func(db, args map[string]any) (bool, error)

// Set is everything a domain plugs in besides its tools. Every field is
// optional.
type Set struct {
	// Init are the initialisation functions, by tau2 func_name.
	Init map[string]Init
	// Predicates are the DB-state predicates, by tau2 func_name.
	Predicates map[string]Predicate
	// Sync computes the deltas that bring the two sides of a scenario in
	// line (telecom: line status and payments flow between the agent DB
	// and the user's phone). It may change both DBs to their synced values
	// and returns the deltas for the other copies of each side (the bots'
	// DBs).
	Sync func(agentDB, userDB map[string]any) (agentDelta, userDelta map[string]any, err error)
	// Apply applies a sync delta — dotted path -> new value — to db in
	// place (nil: ApplyDottedPaths).
	Apply func(db, delta map[string]any) error
	// SyncChanges, when set, tells, reading the DBs only, which sides Sync
	// and Apply would change if they ran now; a sync that would change
	// neither is skipped. It must report a side wherever they would write;
	// when unsure, both.
	SyncChanges func(agentDB, userDB map[string]any) (agent, user bool)
	// AgentSyncTables and UserSyncTables, when not nil, name the top-level
	// tables Sync and Apply may change on each side.
	AgentSyncTables, UserSyncTables []string
}

// InitAction is one initialisation function call. EnvType names the side
// ("assistant" or "agent" for the agent DB, "user" for the user DB).
type InitAction struct {
	EnvType   string         `json:"env_type"`
	FuncName  string         `json:"func_name"`
	Arguments map[string]any `json:"arguments"`
	// Invalid, when set, says why the action could not be read (say, its
	// arguments are not an object): ApplyInit reports it as the action's
	// error instead of calling anything, and goes on with the next one.
	Invalid string `json:"-"`
}

// InitResult reports an [Set.ApplyInit]: Success is false when any action
// failed; Errors say which and why, in action order.
type InitResult struct {
	Success bool     `json:"success"`
	Errors  []string `json:"errors"`
}

// noDBMessage is the error text ApplyInit reports when it is given no DB.
const noDBMessage = "No db provided to apply_initialization_actions; the bot handler is responsible for " +
	"selecting shared_state['db'] (agent side) or shared_state['user_db'] (user side) and passing it here."

// ApplyInit runs actions on db in order with the set's functions; domain
// names the domain in error texts, now is the clock the functions read.
// The actions' sides are not consulted: the caller picks the DB.
func (s Set) ApplyInit(domain string, actions []InitAction, db map[string]any, now func() time.Time) InitResult {
	res := InitResult{Success: true, Errors: []string{}}
	if db == nil {
		return InitResult{Errors: []string{noDBMessage}}
	}
	for i, a := range actions {
		if a.Invalid != "" {
			res.Errors = append(res.Errors, fmt.Sprintf("[action %d] %s", i, a.Invalid))
			continue
		}
		fn := s.Init[a.FuncName].Func
		if fn == nil {
			res.Errors = append(res.Errors, fmt.Sprintf("[action %d] No initialization function '%s' registered under domain='%s'. Available: %s.",
				i, a.FuncName, domain, pyjson.ListRepr(sortedKeys(s.Init))))
			continue
		}
		args := a.Arguments
		if args == nil {
			args = map[string]any{}
		}
		if err := callInit(fn, db, args, now); err != nil {
			res.Errors = append(res.Errors, fmt.Sprintf("[action %d] '%s' raised: %v", i, a.FuncName, err))
		}
	}
	res.Success = len(res.Errors) == 0
	return res
}

func callInit(fn func(db, args map[string]any, now func() time.Time) error, db, args map[string]any, now func() time.Time) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return fn(db, args, now)
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// ErrPath is wrapped by [ApplyDottedPaths] when a path cannot be walked.
var ErrPath = errors.New("sync path cannot be applied")

// ApplyDottedPaths is the default applier. For each path, in sorted order
// (a JSON object carries no order in Go), it splits the path on "." and
// walks every component but the last from db, then sets the last. It never
// creates intermediate objects: a missing intermediate key, or one that is
// not an object (lists are not indexed), is an error wrapping [ErrPath],
// and the remaining paths are not applied (earlier ones stay). Empty
// segments are literal empty keys; a path with no dot sets a top-level key.
func ApplyDottedPaths(db, delta map[string]any) error {
	for _, p := range sortedKeys(delta) {
		parts := strings.Split(p, ".")
		cur := db
		for _, k := range parts[:len(parts)-1] {
			next, ok := cur[k]
			if !ok {
				return fmt.Errorf("%w: %q: key %q is missing", ErrPath, p, k)
			}
			m, ok := next.(map[string]any)
			if !ok {
				return fmt.Errorf("%w: %q: %q is not an object", ErrPath, p, k)
			}
			cur = m
		}
		cur[parts[len(parts)-1]] = delta[p]
	}
	return nil
}

// ApplyDelta applies delta to db with the set's applier, or
// [ApplyDottedPaths] when it has none. An empty delta does nothing. Errors
// (and panics) are returned; the Python original logs and swallows them,
// which callers may do too.
func (s Set) ApplyDelta(db, delta map[string]any) (err error) {
	if len(delta) == 0 {
		return nil
	}
	apply := s.Apply
	if apply == nil {
		apply = ApplyDottedPaths
	}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("sync applier panicked: %v", r)
		}
	}()
	return apply(db, delta)
}
