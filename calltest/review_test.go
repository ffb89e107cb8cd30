package calltest_test

import (
	"context"
	"errors"
	"math"
	"reflect"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/calltest"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

// Repeat with several workers shares one test (and its compiled patterns)
// between goroutines: run with -race.
func TestRepeatConcurrent(t *testing.T) {
	var n atomic.Int64
	agent := calltest.Agent(func(context.Context, []calltest.Turn) (calltest.Step, error) {
		if n.Add(1)%2 == 0 {
			return calltest.Step{Calls: []calltest.Call{call("a", `{"v": "xyz"}`)}}, nil
		}
		return calltest.Step{Calls: []calltest.Call{call("a", `{"v": "abc"}`)}}, nil
	})
	test := one("a", calltest.Matches("v", "^x"))
	before := one("a", calltest.Matches("v", "^x"))
	rep, err := calltest.Repeat(context.Background(), agent, test, 50, 8, nil)
	require.NoError(t, err)
	assert.Equal(t, 25, rep.Passed)
	assert.True(t, reflect.DeepEqual(before, test), "the caller's test is not modified")

	_, err = calltest.Repeat(context.Background(), agent, test, -1, 2, nil)
	assert.ErrorIs(t, err, calltest.ErrInvalidTest)
}

// A fully passing match is preferred to one a judge could not decide, and
// the outcome does not depend on the order of expectations.
func TestPassPreferredOverUnknown(t *testing.T) {
	judge := calltest.JudgeFunc(func(_ context.Context, q calltest.Question) (bool, string, error) {
		if q.Value == "weird" {
			return false, "", errors.New("cannot tell")
		}
		return true, "", nil
	})
	step := calltest.Step{Calls: []calltest.Call{call("x", `{"b": "weird"}`), call("x", `{"b": "fine"}`)}}
	test := one("x", calltest.Judged("b", "is fine"))
	test.AnyCallMatches = true
	res := check(t, test, step, &calltest.Options{Judge: judge})
	assert.Equal(t, calltest.Pass, res.Status)
	assert.Equal(t, 1, res.Expectations[0].Call)

	llm := calltest.Expectation{Tool: "x", Params: []calltest.ParamCheck{calltest.Judged("b", "is fine")}}
	plain := calltest.Expectation{Tool: "x"}
	for _, order := range [][]calltest.Expectation{{llm, plain}, {plain, llm}} {
		test := calltest.Test{Name: "t", History: history, Expect: order}
		assert.Equal(t, calltest.Pass, check(t, test, step, &calltest.Options{Judge: judge}).Status)
	}
}

func TestModeReasons(t *testing.T) {
	ab := []calltest.Expectation{{Tool: "a"}, {Tool: "b"}}
	res := check(t, calltest.Test{Name: "t", History: history, Expect: ab, Mode: "in-order"}, calltest.Step{Calls: []calltest.Call{call("b", `{}`)}})
	assert.Equal(t, calltest.Pass, res.Expectations[1].Status, "in-order finds the best subsequence, not the greedy one")
	assert.Equal(t, "expected a call to a; the agent called b", res.Expectations[0].Reason)

	res = check(t, calltest.Test{Name: "t", History: history, Expect: ab, Mode: "in-order"}, calltest.Step{Calls: []calltest.Call{call("b", `{}`), call("a", `{}`)}})
	assert.Equal(t, calltest.Fail, res.Status)

	res = check(t, calltest.Test{Name: "t", History: history, Expect: ab, Mode: "exact-order"}, calltest.Step{Calls: []calltest.Call{call("b", `{}`), call("a", `{}`)}})
	assert.Equal(t, "call 0 is to b; a was called at position 1, and exact-order mode needs it at 0", res.Expectations[0].Reason)

	sub := calltest.Test{Name: "t", History: history, Mode: "subset", Expect: []calltest.Expectation{{Tool: "a", Params: []calltest.ParamCheck{calltest.Equals("n", 1)}}}}
	res = check(t, sub, calltest.Step{Calls: []calltest.Call{call("a", `{"n": 2}`)}})
	assert.Equal(t, calltest.Fail, res.Status)
	assert.Equal(t, []string{"call 0 to a is not expected: expected exact 1 (number), got 2 (number)"}, res.Problems)
}

func TestMoreInvalidTests(t *testing.T) {
	two, one1 := 2.0, 1.0
	bad := map[string]calltest.Test{
		"no expectation":       {Name: "t", History: history},
		"tolerance, no target": one("a", calltest.ParamCheck{Path: "v", Type: "number", Abs: 0.1}),
		"min above max":        one("a", calltest.ParamCheck{Path: "v", Type: "number", Min: &two, Max: &one1}),
		"compat exact number":  one("a", calltest.ParamCheck{Path: "v", Type: "exact", ExpectedValue: 1e20}),
		"bad counts":           {Name: "t", History: history, Expect: []calltest.Expectation{{Tool: "a"}}, Counts: map[string]calltest.Bounds{"a": {Min: 3, Max: 1}}},
		"pattern not a string": one("a", calltest.Validates("v", map[string]any{"pattern": 5})),
		"minLength as string":  one("a", calltest.Validates("v", map[string]any{"minLength": "3"})),
		"required as string":   one("a", calltest.Validates("v", map[string]any{"required": "q"})),
		"enum as string":       one("a", calltest.Validates("v", map[string]any{"enum": "q"})),
		"draft-4 exclusive":    one("a", calltest.Validates("v", map[string]any{"minimum": 5, "exclusiveMinimum": true})),
		"unknown type":         one("a", calltest.Validates("v", map[string]any{"type": "float"})),
		"too deep":             one("a", calltest.Validates("v", deepSchema(100))),
	}
	for name, test := range bad {
		_, err := calltest.Check(context.Background(), test, calltest.Step{}, nil)
		assert.ErrorIs(t, err, calltest.ErrInvalidTest, name)
	}
	assert.True(t, math.IsNaN(calltest.Repeated{Runs: 3, Passed: 5}.PassHatK(2)))
	lo, _ := calltest.Repeated{Runs: 10, Passed: 12}.Wilson(1.96)
	assert.True(t, math.IsNaN(lo))
}

func deepSchema(n int) map[string]any {
	s := map[string]any{"type": "string"}
	for range n {
		s = map[string]any{"type": "array", "items": s}
	}
	return s
}

func TestLoaderRefusesNativeFieldsAndTrailingData(t *testing.T) {
	_, err := calltest.LoadElevenLabs([]byte(validDoc + ` {}`))
	assert.ErrorContains(t, err, "trailing data")
	doc := `{"type":"tool","name":"n","chat_history":[{"role":"user","message":"hi"}],
		"tool_call_parameters":{"referenced_tool":{"id":"b","type":"webhook"},"parameters":[{"path":"a","eval":{"type":"exact","expected_value":"6","native":true}}]}}`
	_, err = calltest.LoadElevenLabs([]byte(doc))
	assert.ErrorContains(t, err, `eval field "native" is not part of ElevenLabs' format`)
}

// FuzzCheck: arbitrary argument JSON against a test using every eval
// type never panics and always yields a status.
func FuzzCheck(f *testing.F) {
	for _, s := range []string{`{}`, `{"v": 6, "s": "x", "o": {"a": [1, {"b": null}]}}`, `{"v": "6", "o": [[[]]]}`, `{"v": 1e400}`, `{"s": "\u0000"}`} {
		f.Add([]byte(s))
	}
	schema := map[string]any{"type": []any{"object", "array"}, "items": map[string]any{"type": "integer", "maximum": 3},
		"properties": map[string]any{"a": map[string]any{"type": "array", "minItems": 1}}, "anyOf": []any{true, map[string]any{"not": map[string]any{"const": 1}}}}
	f.Fuzz(func(t *testing.T, data []byte) {
		args, err := tool.DecodeArgs(data)
		if err != nil {
			return
		}
		test := calltest.Test{Name: "fuzz", History: history, Expect: []calltest.Expectation{
			{Tool: "t", Params: []calltest.ParamCheck{
				calltest.Present("v"), calltest.ExactText("v", "6"), calltest.Equals("v", 6), calltest.Matches("s", "x+"),
				calltest.AnyOf("s", "x", 1), calltest.Near("v", 6, 0.5), calltest.Validates("o", schema), calltest.Judged("s", "ok"),
			}},
			{Tool: "t", Params: []calltest.ParamCheck{calltest.Present("o.a.0.b")}},
			{Tool: "u", Absent: true},
		}}
		for _, mode := range []string{"superset", "unordered", "subset", "in-order", "exact-order"} {
			test.Mode = mode
			res, err := calltest.Check(context.Background(), test, calltest.Step{Calls: []calltest.Call{{Name: "t", Arguments: args}, {Name: "t", Arguments: args}}}, nil)
			if err != nil || res.Status == "" {
				t.Fatalf("%s: %v %+v", mode, err, res)
			}
		}
	})
}

func TestValidateAgainstTools(t *testing.T) {
	type params struct {
		OrderID string `json:"order_id"`
	}
	getOrder, err := tool.New("get_order", "Get an order.", func(context.Context, *state.Shared, params) (any, error) { return "", nil }, nil)
	require.NoError(t, err)
	validate := func(test calltest.Test) error {
		_, err := calltest.Check(context.Background(), test, calltest.Step{}, &calltest.Options{Tools: []tool.Tool{getOrder}})
		return err
	}
	assert.NoError(t, validate(one("get_order", calltest.Present("order_id"))))
	assert.ErrorContains(t, validate(one("get_order", calltest.Present("orderid"))), `path "orderid" is not in the schema of get_order`)

	doc := `{"type":"tool","name":"n","chat_history":[{"role":"user","message":"hi"}],
		"tool_call_parameters":{"referenced_tool":{"id":"get_ordr","type":"webhook"}}}`
	_, err = calltest.LoadElevenLabs([]byte(doc), getOrder)
	assert.ErrorIs(t, err, calltest.ErrInvalidTest)
	assert.ErrorContains(t, err, `unknown tool "get_ordr"`)
}
