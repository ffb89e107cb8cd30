package calltest_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/calltest"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

var history = []calltest.Turn{{Role: "user", Message: "A table for six at eight, please."}}

func call(name, args string) calltest.Call {
	a, err := tool.DecodeArgs([]byte(args))
	if err != nil {
		panic(err)
	}
	return calltest.Call{Name: name, Arguments: a}
}

func one(tool string, params ...calltest.ParamCheck) calltest.Test {
	return calltest.Test{Name: "t", History: history, Expect: []calltest.Expectation{{Tool: tool, Params: params}}}
}

func check(t *testing.T, test calltest.Test, step calltest.Step, opts ...*calltest.Options) calltest.Result {
	t.Helper()
	var o *calltest.Options
	if len(opts) > 0 {
		o = opts[0]
	}
	res, err := calltest.Check(context.Background(), test, step, o)
	require.NoError(t, err)
	return res
}

func TestEvals(t *testing.T) {
	two := 2.0
	ten := 10.0
	book := call("book_table", `{"party_size": 6, "time": "20:00", "name": "Ada Lovelace", "vip": true, "price": 10.5, "items": [{"sku": "A1"}], "tags": {"b": 1, "a": [1.0]}, "note": null}`)
	tests := []struct {
		name   string
		check  calltest.ParamCheck
		status calltest.Status
		msg    string
	}{
		{"anything present", calltest.Present("time"), calltest.Pass, ""},
		{"anything null is present", calltest.Present("note"), calltest.Pass, ""},
		{"anything missing", calltest.Present("phone"), calltest.Fail, "phone is missing"},
		{"compat exact stringifies numbers", calltest.ExactText("party_size", "6"), calltest.Pass, ""},
		{"compat exact booleans are lowercase", calltest.ExactText("vip", "true"), calltest.Pass, ""},
		{"compat exact objects are canonical JSON", calltest.ExactText("tags", `{"a":[1],"b":1}`), calltest.Pass, ""},
		{"compat exact mismatch", calltest.ExactText("party_size", "7"), calltest.Fail, `expected exact "7", got 6 (number) (text "6")`},
		{"native exact number", calltest.Equals("party_size", 6.0), calltest.Pass, ""},
		{"native exact refuses the string", calltest.Equals("party_size", "6"), calltest.Fail, `expected exact "6" (string), got 6 (number)`},
		{"native exact nested path", calltest.Equals("items.0.sku", "A1"), calltest.Pass, ""},
		{"index out of range", calltest.Equals("items.3.sku", "A1"), calltest.Fail, "items.3.sku is missing"},
		{"regex searches", calltest.Matches("name", "Love"), calltest.Pass, ""},
		{"regex on numbers uses the text", calltest.Matches("party_size", `^\d$`), calltest.Pass, ""},
		{"regex full match", calltest.ParamCheck{Path: "name", Type: "regex", Pattern: "Love", FullMatch: true}, calltest.Fail, "does not match"},
		{"one_of", calltest.AnyOf("time", "19:00", "20:00"), calltest.Pass, ""},
		{"one_of miss", calltest.AnyOf("time", "19:00"), calltest.Fail, `expected one of ["19:00" (string)], got "20:00" (string)`},
		{"number near", calltest.Near("price", 10.4, 0.2), calltest.Pass, ""},
		{"number far", calltest.Near("price", 9, 0.2), calltest.Fail, "expected 9 ± 0.2, got 10.5"},
		{"number relative", calltest.ParamCheck{Path: "price", Type: "number", Target: &ten, Rel: 0.1}, calltest.Pass, ""},
		{"number bounds", calltest.ParamCheck{Path: "party_size", Type: "number", Min: &two, Max: &ten}, calltest.Pass, ""},
		{"number not a number", calltest.Near("time", 1, 1), calltest.Fail, `expected a number, got "20:00" (string)`},
		{"custom", calltest.Satisfies("name", func(v any) (bool, string) { return strings.HasPrefix(v.(string), "Ada"), "no Ada" }), calltest.Pass, ""},
		{"custom fails", calltest.Satisfies("name", func(v any) (bool, string) { return false, "never" }), calltest.Fail, "never"},
		{"llm without judge", calltest.Judged("name", "a full name"), calltest.Unknown, "no judge"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := check(t, one("book_table", tt.check), calltest.Step{Calls: []calltest.Call{book}})
			assert.Equal(t, tt.status, res.Status)
			var msgs []string
			for _, p := range res.Expectations[0].Params {
				msgs = append(msgs, p.Message)
			}
			msgs = append(msgs, res.Expectations[0].Reason)
			if tt.msg != "" {
				assert.Contains(t, strings.Join(msgs, "|"), tt.msg)
			}
		})
	}
}

// A call's arguments come from tool.DecodeArgs, the one decoder: numbers
// stay exact for the checks, and trailing data is refused (the removed
// calltest.ParseArguments accepted it).
func TestArgumentsDecoder(t *testing.T) {
	args, err := tool.DecodeArgs([]byte(`{"id": 12345678901234567890}`))
	require.NoError(t, err)
	res := check(t, one("x", calltest.ExactText("id", "12345678901234567890")), calltest.Step{Calls: []calltest.Call{{Name: "x", Arguments: args}}})
	assert.Equal(t, calltest.Pass, res.Status)
	_, err = tool.DecodeArgs([]byte(`{"id": 1} {"id": 2}`))
	assert.Error(t, err)
}

// "6" against 6 under both modes, with and without the tool's schema.
func TestSixVersusStringSix(t *testing.T) {
	type params struct {
		PartySize int    `json:"party_size"`
		Name      string `json:"name"`
	}
	book, err := tool.New("book_table", "Book.", func(context.Context, *state.Shared, params) (any, error) { return "ok", nil }, nil)
	require.NoError(t, err)
	asNumber := calltest.Step{Calls: []calltest.Call{call("book_table", `{"party_size": 6, "name": "Ada"}`)}}
	asString := calltest.Step{Calls: []calltest.Call{call("book_table", `{"party_size": "6", "name": "Ada"}`)}}

	compat := one("book_table", calltest.ExactText("party_size", "6"))
	assert.Equal(t, calltest.Pass, check(t, compat, asNumber).Status)
	assert.Equal(t, calltest.Pass, check(t, compat, asString).Status, "compat mode compares text")

	native := one("book_table", calltest.Equals("party_size", "6"))
	assert.Equal(t, calltest.Fail, check(t, native, asNumber).Status, "without a schema \"6\" is a string")
	assert.Equal(t, calltest.Pass, check(t, native, asNumber, &calltest.Options{Tools: []tool.Tool{book}}).Status, "the schema says integer")
	assert.Equal(t, calltest.Fail, check(t, native, asString, &calltest.Options{Tools: []tool.Tool{book}}).Status, "a string is not an integer")
}

// Greedy first-fit would give the first call to the loose expectation and
// leave the strict one unmet; the optimal assignment meets both.
func TestOptimalNotGreedy(t *testing.T) {
	test := calltest.Test{Name: "t", History: history, Expect: []calltest.Expectation{
		{Tool: "add_item"},
		{Tool: "add_item", Params: []calltest.ParamCheck{calltest.Equals("sku", "A1")}},
	}}
	step := calltest.Step{Calls: []calltest.Call{call("add_item", `{"sku": "A1"}`), call("add_item", `{"sku": "B2"}`)}}
	res := check(t, test, step)
	assert.Equal(t, calltest.Pass, res.Status)
	assert.Equal(t, 1, res.Expectations[0].Call)
	assert.Equal(t, 0, res.Expectations[1].Call)
}

// Two identical expected calls need two identical actual calls (DeepEval's
// duplicate bug scores this 0.5).
func TestDuplicateIdenticalCalls(t *testing.T) {
	e := calltest.Expectation{Tool: "refund", Params: []calltest.ParamCheck{calltest.Equals("amount", 5)}}
	test := calltest.Test{Name: "t", History: history, Expect: []calltest.Expectation{e, e}}
	twice := calltest.Step{Calls: []calltest.Call{call("refund", `{"amount": 5}`), call("refund", `{"amount": 5}`)}}
	once := calltest.Step{Calls: []calltest.Call{call("refund", `{"amount": 5}`)}}
	assert.Equal(t, calltest.Pass, check(t, test, twice).Status)
	res := check(t, test, once)
	assert.Equal(t, calltest.Fail, res.Status)
	assert.Contains(t, res.Expectations[1].Reason, "needed for another expectation")
}

func TestModes(t *testing.T) {
	a, b := calltest.Expectation{Tool: "a"}, calltest.Expectation{Tool: "b"}
	steps := map[string]calltest.Step{
		"ab":  {Calls: []calltest.Call{call("a", `{}`), call("b", `{}`)}},
		"ba":  {Calls: []calltest.Call{call("b", `{}`), call("a", `{}`)}},
		"acb": {Calls: []calltest.Call{call("a", `{}`), call("c", `{}`), call("b", `{}`)}},
		"a":   {Calls: []calltest.Call{call("a", `{}`)}},
	}
	want := map[string]map[string]calltest.Status{
		"superset":    {"ab": calltest.Pass, "ba": calltest.Pass, "acb": calltest.Pass, "a": calltest.Fail},
		"unordered":   {"ab": calltest.Pass, "ba": calltest.Pass, "acb": calltest.Fail, "a": calltest.Fail},
		"subset":      {"ab": calltest.Pass, "ba": calltest.Pass, "acb": calltest.Fail, "a": calltest.Pass},
		"in-order":    {"ab": calltest.Pass, "ba": calltest.Fail, "acb": calltest.Pass, "a": calltest.Fail},
		"exact-order": {"ab": calltest.Pass, "ba": calltest.Fail, "acb": calltest.Fail, "a": calltest.Fail},
	}
	for mode, byStep := range want {
		for name, status := range byStep {
			test := calltest.Test{Name: "t", History: history, Expect: []calltest.Expectation{a, b}, Mode: mode}
			assert.Equal(t, status, check(t, test, steps[name]).Status, "%s on %s", mode, name)
		}
	}
}

func TestSingleExpectationRules(t *testing.T) {
	test := one("lookup", calltest.Equals("id", "x"))
	two := calltest.Step{Calls: []calltest.Call{call("lookup", `{"id": "x"}`), call("other", `{}`)}}
	res := check(t, test, two)
	assert.Equal(t, calltest.Fail, res.Status, "more than one call, as ElevenLabs")
	assert.Contains(t, res.Problems[0], "2 tool calls where one was expected")
	test.AnyCallMatches = true
	assert.Equal(t, calltest.Pass, check(t, test, two).Status)

	none := check(t, test, calltest.Step{})
	assert.Equal(t, "expected a call to lookup; the agent made no tool call", none.Expectations[0].Reason)
	wrong := check(t, test, calltest.Step{Calls: []calltest.Call{call("other", `{}`)}})
	assert.Equal(t, "expected a call to lookup; the agent called other", wrong.Expectations[0].Reason)

	anyTool := calltest.Test{Name: "t", History: history, AnyCallMatches: true, Expect: []calltest.Expectation{{}}}
	assert.Equal(t, calltest.Pass, check(t, anyTool, two).Status)
}

func TestAbsenceAndCounts(t *testing.T) {
	test := calltest.Test{Name: "t", History: history, Expect: []calltest.Expectation{{Tool: "transfer_to_human_agents", Absent: true}}}
	assert.Equal(t, calltest.Pass, check(t, test, calltest.Step{Calls: []calltest.Call{call("lookup", `{}`)}}).Status)
	res := check(t, test, calltest.Step{Calls: []calltest.Call{call("lookup", `{}`), call("transfer_to_human_agents", `{"summary": "x"}`)}})
	assert.Equal(t, calltest.Fail, res.Status)
	assert.Equal(t, "transfer_to_human_agents must not be called, but call 1 is to it", res.Expectations[0].Reason)

	counted := calltest.Test{Name: "t", History: history, Expect: []calltest.Expectation{{Tool: "lookup"}}, AnyCallMatches: true,
		Counts: map[string]calltest.Bounds{"lookup": {Min: 1, Max: 1}}}
	res = check(t, counted, calltest.Step{Calls: []calltest.Call{call("lookup", `{}`), call("lookup", `{}`)}})
	assert.Equal(t, []string{"lookup was called 2 times; want exactly 1"}, res.Problems)
}

func TestInvalidTests(t *testing.T) {
	bad := []calltest.Test{
		one("x", calltest.Present("items[0].sku")),
		one("x", calltest.Matches("a", "(")),
		one("x", calltest.ParamCheck{Path: "a", Type: "contains"}),
		one("x", calltest.Judged("a", " ")),
		{Name: "t", Expect: []calltest.Expectation{{Tool: "x", Absent: true, Params: []calltest.ParamCheck{calltest.Present("a")}}}},
		{Name: "t", Mode: "sideways", Expect: []calltest.Expectation{{Tool: "x"}}},
	}
	for i, test := range bad {
		_, err := calltest.Check(context.Background(), test, calltest.Step{}, nil)
		assert.ErrorIs(t, err, calltest.ErrInvalidTest, "test %d", i)
	}
	_, err := calltest.Check(context.Background(), one("x", calltest.Present("items[0].sku")), calltest.Step{}, nil)
	assert.ErrorContains(t, err, `write "items.0.sku"`)

	type params struct {
		Items []struct {
			SKU string `json:"sku"`
		} `json:"items"`
	}
	order, err := tool.New("order", "Order.", func(context.Context, *state.Shared, params) (any, error) { return "", nil }, nil)
	require.NoError(t, err)
	_, err = calltest.Check(context.Background(), one("order", calltest.Present("items.0.sku")), calltest.Step{}, &calltest.Options{Tools: []tool.Tool{order}})
	assert.NoError(t, err)
	_, err = calltest.Check(context.Background(), one("order", calltest.Present("items.0.price")), calltest.Step{}, &calltest.Options{Tools: []tool.Tool{order}})
	assert.ErrorContains(t, err, `path "items.0.price" is not in the schema of order`)
	_, err = calltest.Check(context.Background(), one("ordr"), calltest.Step{}, &calltest.Options{Tools: []tool.Tool{order}})
	assert.ErrorContains(t, err, `unknown tool "ordr"`)
}

func TestJudge(t *testing.T) {
	judge := calltest.JudgeFunc(func(_ context.Context, q calltest.Question) (bool, string, error) {
		switch q.Value {
		case "error":
			return false, "", errors.New("model down")
		case "Ada Lovelace":
			return true, "a full name", nil
		}
		return false, "only a first name", nil
	})
	test := one("book", calltest.Judged("name", "the guest's full name"))
	for value, want := range map[string]calltest.Status{"Ada Lovelace": calltest.Pass, "Ada": calltest.Fail, "error": calltest.Unknown} {
		res := check(t, test, calltest.Step{Calls: []calltest.Call{{Name: "book", Arguments: map[string]any{"name": value}}}}, &calltest.Options{Judge: judge})
		assert.Equal(t, want, res.Status, value)
	}
}

func TestConditionResult(t *testing.T) {
	res := check(t, one("book", calltest.ExactText("party_size", "6")), calltest.Step{Calls: []calltest.Call{call("book", `{"party_size": 5}`)}})
	cr := res.ConditionResult()
	assert.Equal(t, "failure", cr.Result)
	assert.Equal(t, []string{`call 0 to book: expected exact "6", got 5 (number) (text "5")`}, cr.Rationale.Messages)
	out, err := json.Marshal(cr)
	require.NoError(t, err)
	assert.Contains(t, string(out), `"result":"failure","rationale":{"messages":[`)

	unknown := check(t, one("book", calltest.Judged("name", "x")), calltest.Step{Calls: []calltest.Call{call("book", `{"name": "a"}`)}})
	assert.Equal(t, "unknown", unknown.ConditionResult().Result)
	assert.Equal(t, "success", check(t, one("book"), calltest.Step{Calls: []calltest.Call{call("book", `{}`)}}).ConditionResult().Result)
}

// pass^k and pass@k against hand-computed values.
func TestPassAtK(t *testing.T) {
	assert.InDelta(t, 1.0/6, calltest.Repeated{Runs: 4, Passed: 2}.PassHatK(2), 1e-12) // C(2,2)/C(4,2)
	assert.InDelta(t, 0.5, calltest.Repeated{Runs: 4, Passed: 2}.PassHatK(1), 1e-12)
	assert.InDelta(t, 0.0, calltest.Repeated{Runs: 4, Passed: 1}.PassHatK(2), 1e-12)
	assert.InDelta(t, 1.0, calltest.Repeated{Runs: 5, Passed: 5}.PassHatK(5), 1e-12)
	assert.InDelta(t, 5.0/6, calltest.Repeated{Runs: 4, Passed: 2}.PassAtK(2), 1e-12) // 1 - C(2,2)/C(4,2)
	assert.InDelta(t, 1.0, calltest.Repeated{Runs: 4, Passed: 3}.PassAtK(2), 1e-12)
	assert.Equal(t, 0.0, calltest.Repeated{Runs: 3, Passed: 3}.PassHatK(4))
	lo, hi := calltest.Repeated{Runs: 10, Passed: 8}.Wilson(1.96)
	assert.InDelta(t, 0.4902, lo, 1e-4)
	assert.InDelta(t, 0.9433, hi, 1e-4)
}

func TestRepeat(t *testing.T) {
	n := 0
	agent := calltest.Agent(func(_ context.Context, h []calltest.Turn) (calltest.Step, error) {
		n++
		switch n % 4 {
		case 0:
			return calltest.Step{}, errors.New("timeout")
		case 1:
			return calltest.Step{Calls: []calltest.Call{call("book", `{"party_size": 5}`)}}, nil
		}
		return calltest.Step{Calls: []calltest.Call{call("book", `{"party_size": 6}`)}}, nil
	})
	rep, err := calltest.Repeat(context.Background(), agent, one("book", calltest.Equals("party_size", 6)), 8, 1, nil)
	require.NoError(t, err)
	assert.Equal(t, 8, rep.Runs)
	assert.Equal(t, 4, rep.Passed)
	assert.Equal(t, 4, rep.Failed)
	assert.Equal(t, 2, rep.Errors)
	assert.InDelta(t, 0.5, rep.PassHatK(1), 1e-12)
	assert.InDelta(t, calltest.Repeated{Runs: 8, Passed: 4}.PassHatK(2), rep.PassHatK(2), 1e-12)
	require.Len(t, rep.Failures, 2)
	assert.Len(t, rep.Failures[0], 2)

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = calltest.Repeat(ctx, agent, one("book"), 5, 2, nil)
	assert.ErrorIs(t, err, context.Canceled)
}

// fakeT records what Require reports (the methods Require uses; any
// other would panic on the nil TB).
type fakeT struct {
	testing.TB
	msgs   []string
	failed bool
}

func (f *fakeT) Helper()                        {}
func (f *fakeT) Errorf(format string, a ...any) { f.msgs = append(f.msgs, fmt.Sprintf(format, a...)) }
func (f *fakeT) FailNow()                       { f.failed = true }

func TestRequire(t *testing.T) {
	ft := &fakeT{}
	calltest.Require(ft, one("book", calltest.Equals("party_size", 6)), calltest.Step{Calls: []calltest.Call{call("book", `{"party_size": 6}`)}}, nil)
	assert.False(t, ft.failed)

	ft = &fakeT{}
	test := one("book", calltest.Equals("party_size", 6))
	test.Name = "books for six"
	calltest.Require(ft, test, calltest.Step{Calls: []calltest.Call{call("book", `{"party_size": "6"}`)}}, nil)
	assert.True(t, ft.failed)
	assert.Equal(t, `books for six: fail
  expected call to book: fail — call 0 to book: expected exact 6 (number), got "6" (string)
  call 0: book {"party_size":"6"}`, ft.msgs[0])
}

// The canonical text that ElevenLabs-compatible exact checks compare.
func TestCanonicalText(t *testing.T) {
	for v, want := range map[any]string{6.0: "6", 6.5: "6.5", true: "true", "x": "x", json.Number("12345678901234567890"): "12345678901234567890", json.Number("1e2"): "100"} {
		assertText(t, v, want)
	}
	assertText(t, nil, "null")
	assertText(t, 1e30, "1e+30")
	assertText(t, map[string]any{"a": "<é>"}, `{"a":"<é>"}`)
	assert.False(t, math.IsNaN(0))
}

// assertText checks that v's canonical text is want: an exact text check
// of want passes, and one of want+"!" fails, quoting the text.
func assertText(t *testing.T, v any, want string) {
	t.Helper()
	step := calltest.Step{Calls: []calltest.Call{{Name: "x", Arguments: map[string]any{"v": v}}}}
	assert.Equal(t, calltest.Pass, check(t, one("x", calltest.ExactText("v", want)), step).Status, "%v", v)
	res := check(t, one("x", calltest.ExactText("v", want+"!")), step)
	assert.Contains(t, res.Expectations[0].Reason, strconv.Quote(want), "%v", v)
}

func TestJSONSchemaEval(t *testing.T) {
	schema := map[string]any{
		"type":     "object",
		"required": []any{"sku", "qty"},
		"properties": map[string]any{
			"sku":  map[string]any{"type": "string", "pattern": "^[A-Z][0-9]+$"},
			"qty":  map[string]any{"type": "integer", "minimum": json.Number("1"), "maximum": json.Number("10")},
			"size": map[string]any{"enum": []any{"S", "M", "L"}},
			"tags": map[string]any{"type": "array", "items": map[string]any{"type": "string"}, "maxItems": json.Number("2")},
		},
		"additionalProperties": false,
	}
	tests := []struct {
		args string
		want calltest.Status
		msg  string
	}{
		{`{"item": {"sku": "A1", "qty": 2, "size": "M", "tags": ["x"]}}`, calltest.Pass, ""},
		{`{"item": {"sku": "A1"}}`, calltest.Fail, "item: qty is required"},
		{`{"item": {"sku": "a1", "qty": 2}}`, calltest.Fail, `item.sku: "a1" does not match`},
		{`{"item": {"sku": "A1", "qty": 2.5}}`, calltest.Fail, "item.qty: expected type integer, got 2.5 (number)"},
		{`{"item": {"sku": "A1", "qty": 11}}`, calltest.Fail, "item.qty: 11 is not <= 10"},
		{`{"item": {"sku": "A1", "qty": 1, "size": "XL"}}`, calltest.Fail, "is not one of"},
		{`{"item": {"sku": "A1", "qty": 1, "tags": ["a", "b", "c"]}}`, calltest.Fail, "3 items, more than 2"},
		{`{"item": {"sku": "A1", "qty": 1, "colour": "red"}}`, calltest.Fail, "item.colour: no value is allowed here"},
		{`{"item": "A1"}`, calltest.Fail, `item: expected type object, got "A1" (string)`},
	}
	for _, tt := range tests {
		res := check(t, one("add", calltest.Validates("item", schema)), calltest.Step{Calls: []calltest.Call{call("add", tt.args)}})
		assert.Equal(t, tt.want, res.Status, tt.args)
		if tt.msg != "" {
			assert.Contains(t, res.Expectations[0].Reason, tt.msg, tt.args)
		}
	}
	_, err := calltest.Check(context.Background(), one("add", calltest.Validates("item", map[string]any{"format": "email"})), calltest.Step{}, nil)
	assert.ErrorContains(t, err, `keyword "format" is not supported`)
	anyOrNot := map[string]any{"anyOf": []any{map[string]any{"type": "string"}, map[string]any{"type": "integer"}}, "not": map[string]any{"const": "x"}}
	assert.Equal(t, calltest.Pass, check(t, one("a", calltest.Validates("v", anyOrNot)), calltest.Step{Calls: []calltest.Call{call("a", `{"v": 3}`)}}).Status)
	assert.Equal(t, calltest.Fail, check(t, one("a", calltest.Validates("v", anyOrNot)), calltest.Step{Calls: []calltest.Call{call("a", `{"v": "x"}`)}}).Status)
	assert.Equal(t, calltest.Fail, check(t, one("a", calltest.Validates("v", anyOrNot)), calltest.Step{Calls: []calltest.Call{call("a", `{"v": true}`)}}).Status)
}

func TestHistoryIsValidated(t *testing.T) {
	for _, h := range [][]calltest.Turn{nil, {{Role: "user", Message: "a"}, {Role: "agent", Message: "b"}}, {{Role: "system", Message: "a"}}} {
		test := one("x")
		test.History = h
		_, err := calltest.Check(context.Background(), test, calltest.Step{}, nil)
		assert.ErrorIs(t, err, calltest.ErrInvalidTest)
	}
}
