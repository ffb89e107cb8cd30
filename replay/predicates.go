package replay

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/voiceeval/schematools/hooks"
	"github.com/voiceeval/schematools/internal/pyjson"
	"github.com/voiceeval/schematools/internal/pyvalue"
)

// Assertion is one DB-state assertion of a task (tau2's env_assertions).
type Assertion struct {
	// EnvType is the side whose DB is checked: "assistant" or "agent"
	// (the agent DB), "user" (the user DB); any other value is reported
	// as an error.
	EnvType string `json:"env_type"`
	// FuncName names the predicate in the domain's hooks.Set.Predicates.
	FuncName string `json:"func_name"`
	// Arguments are the predicate's keyword arguments (nil: none).
	Arguments map[string]any `json:"arguments"`
	// AssertValue is the value the predicate must return; absent or null
	// means true, tau2's default.
	AssertValue any `json:"assert_value"`
	// Message is the task's description of the assertion, carried to the
	// Verdict as is.
	Message *string `json:"message"`
}

// Verdict reports one evaluated assertion, with the seven keys of the
// Python reference's verdict plus the assertion's arguments. Passed is
// false whenever Error is set.
type Verdict struct {
	FuncName string `json:"func_name"` // the assertion's predicate name
	// Side is the side checked: "agent" for env_type "assistant", else
	// env_type as given.
	Side      string         `json:"side"`
	Arguments map[string]any `json:"arguments"` // the assertion's arguments ({} for none)
	// Passed is true when the predicate ran and its result equals
	// Expected (true when Expected is nil) with Python's ==.
	Passed bool `json:"passed"`
	// Expected is the assertion's assert_value as written (nil when
	// absent).
	Expected any `json:"expected"`
	// Actual is what the predicate returned; nil when it did not run or
	// failed.
	Actual  *bool   `json:"actual"`
	Message *string `json:"message"` // the assertion's message
	// Error says why the assertion could not be evaluated: an unknown
	// side, no DB for the side, no predicate of that name (the available
	// ones listed), or the predicate's error or panic ("Predicate raised:
	// …"). nil when the predicate ran, whatever its result.
	Error *string `json:"error"`
}

// Evaluate checks assertions, in order, against the DBs of their sides
// with the predicates of h; domain names the domain in error texts. It
// never fails, it reports. A predicate's result passes when it equals the
// assertion's assert_value with Python's == (so true equals 1).
func Evaluate(h hooks.Set, domain string, as []Assertion, agentDB, userDB map[string]any) []Verdict {
	out := make([]Verdict, len(as))
	for i, a := range as {
		out[i] = evaluate(h, domain, a, agentDB, userDB)
	}
	return out
}

func evaluate(h hooks.Set, domain string, a Assertion, agentDB, userDB map[string]any) Verdict {
	side := sideOf(a.EnvType)
	args := a.Arguments
	if args == nil {
		args = map[string]any{}
	}
	v := Verdict{FuncName: a.FuncName, Side: side, Arguments: args, Expected: a.AssertValue, Message: a.Message}
	fail := func(msg string) Verdict { v.Error = &msg; return v }
	var db map[string]any
	switch side {
	case sideUser:
		db = userDB
	case sideAgent:
		db = agentDB
	default:
		return fail(fmt.Sprintf("Unknown side '%s'; expected 'user' or 'agent'.", side))
	}
	if db == nil {
		which := "db"
		if side == sideUser {
			which = "user_db"
		}
		return fail(fmt.Sprintf("No %s DB available — scenario declared side='%s' but no %s was given.", side, side, which))
	}
	p := h.Predicates[a.FuncName]
	if p == nil {
		names := make([]string, 0, len(h.Predicates))
		for n := range h.Predicates {
			names = append(names, n)
		}
		slices.Sort(names)
		return fail(fmt.Sprintf("No predicate '%s' registered under domain='%s'. Available: %s.", a.FuncName, domain, pyjson.ListRepr(names)))
	}
	got, err := callPredicate(p, db, args)
	if err != nil {
		return fail("Predicate raised: " + err.Error())
	}
	v.Actual = &got
	v.Passed = pyvalue.EqualLoaded(got, expectedValue(a.AssertValue))
	return v
}

// expectedValue treats a missing assert_value as true, tau2's default.
func expectedValue(v any) any {
	if v == nil {
		return true
	}
	if n, ok := v.(json.Number); ok {
		return n
	}
	return v
}

func callPredicate(p hooks.Predicate, db, args map[string]any) (ok bool, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return p(db, args)
}
