package harness

import (
	"fmt"
	"slices"

	"github.com/voiceeval/schematools/hooks"
	"github.com/voiceeval/schematools/internal/pyjson"
	"github.com/voiceeval/schematools/internal/pyvalue"
)

// evaluateAssertion is db_state_predicates.evaluate_db_state_assertion:
// the verdict {func_name, side, passed, expected, actual, message, error}.
func evaluateAssertion(preds map[string]hooks.Predicate, domain string, a Assertion, db, userDB map[string]any) pyvalue.Dict {
	var message any
	if a.Message != nil {
		message = *a.Message
	}
	v := pyvalue.Dict{
		{Key: "func_name", Value: a.FuncName}, {Key: "side", Value: a.Side}, {Key: "passed", Value: false},
		{Key: "expected", Value: a.AssertValue}, {Key: "actual", Value: nil}, {Key: "message", Value: message},
		{Key: "error", Value: nil},
	}
	fail := func(msg string) pyvalue.Dict { return set(v, "error", msg) }
	var target map[string]any
	switch a.Side {
	case "user":
		target = userDB
	case "agent":
		target = db
	default:
		return fail(fmt.Sprintf("Unknown side %s; expected 'user' or 'agent'.", pyvalue.Repr(a.Side)))
	}
	if target == nil {
		which := "db"
		if a.Side == "user" {
			which = "user_db"
		}
		return fail(fmt.Sprintf("No %s DB available — scenario declared side=%s but the bridge didn't pull a %s dict back. "+
			"Check that the bot returned include_db=True payload.", a.Side, pyvalue.Repr(a.Side), which))
	}
	p := preds[a.FuncName]
	if p == nil {
		names := make([]string, 0, len(preds))
		for n := range preds {
			names = append(names, n)
		}
		slices.Sort(names)
		return fail(fmt.Sprintf("No predicate %s registered under domain=%s. Available: %s.",
			pyvalue.Repr(a.FuncName), pyvalue.Repr(domain), pyjson.ListRepr(names)))
	}
	args := a.Arguments
	if args == nil {
		args = map[string]any{}
	}
	got, err := callPredicate(p, target, args)
	if err != nil {
		return fail("Predicate raised: " + err.Error())
	}
	v = set(v, "actual", got)
	// actual == expected: a missing assert_value is None, which no bool
	// equals.
	return set(v, "passed", a.AssertValue != nil && pyvalue.EqualLoaded(got, a.AssertValue))
}

func callPredicate(p hooks.Predicate, db, args map[string]any) (ok bool, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return p(db, args)
}
