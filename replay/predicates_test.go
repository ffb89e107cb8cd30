package replay_test

import (
	"encoding/json"
	"errors"
	"github.com/voiceeval/schematools/hooks"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/voiceeval/schematools/replay"
)

func TestEvaluate(t *testing.T) {
	preds := hooks.Set{Predicates: map[string]hooks.Predicate{
		"airplane_is": func(db, args map[string]any) (bool, error) {
			return db["device"].(map[string]any)["airplane"] == args["on"], nil
		},
		"fails": func(db, args map[string]any) (bool, error) { return false, errors.New("no device") },
	}}
	agent, user := synthDBs()
	msg := "phone is in airplane mode"
	tests := []struct {
		name string
		a    replay.Assertion
		want replay.Verdict
	}{
		{"passes", replay.Assertion{EnvType: "user", FuncName: "airplane_is", Arguments: map[string]any{"on": false}, AssertValue: true, Message: &msg},
			replay.Verdict{FuncName: "airplane_is", Side: "user", Arguments: map[string]any{"on": false}, Passed: true, Expected: true, Actual: boolPtr(true), Message: &msg}},
		{"assert false", replay.Assertion{EnvType: "user", FuncName: "airplane_is", Arguments: map[string]any{"on": true}, AssertValue: false},
			replay.Verdict{FuncName: "airplane_is", Side: "user", Arguments: map[string]any{"on": true}, Passed: true, Expected: false, Actual: boolPtr(false)}},
		{"true equals 1", replay.Assertion{EnvType: "user", FuncName: "airplane_is", Arguments: map[string]any{"on": false}, AssertValue: json.Number("1")},
			replay.Verdict{FuncName: "airplane_is", Side: "user", Arguments: map[string]any{"on": false}, Passed: true, Expected: json.Number("1"), Actual: boolPtr(true)}},
		{"fails", replay.Assertion{EnvType: "user", FuncName: "fails", AssertValue: true},
			replay.Verdict{FuncName: "fails", Side: "user", Arguments: map[string]any{}, Expected: true, Error: strPtr("Predicate raised: no device")}},
		{"unknown", replay.Assertion{EnvType: "assistant", FuncName: "nope", AssertValue: true},
			replay.Verdict{FuncName: "nope", Side: "agent", Arguments: map[string]any{}, Expected: true, Error: strPtr("No predicate 'nope' registered under domain='synth'. Available: ['airplane_is', 'fails'].")}},
		{"bad side", replay.Assertion{EnvType: "robot", FuncName: "airplane_is"},
			replay.Verdict{FuncName: "airplane_is", Side: "robot", Arguments: map[string]any{}, Error: strPtr("Unknown side 'robot'; expected 'user' or 'agent'.")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, []replay.Verdict{tt.want}, replay.Evaluate(preds, "synth", []replay.Assertion{tt.a}, agent, user))
		})
	}
	v := replay.Evaluate(preds, "synth", []replay.Assertion{{EnvType: "user", FuncName: "airplane_is"}}, agent, nil)[0]
	assert.Contains(t, *v.Error, "No user DB available")
	vs := replay.Evaluate(preds, "synth", []replay.Assertion{tests[0].a, tests[1].a}, agent, user)
	assert.Equal(t, []replay.Verdict{tests[0].want, tests[1].want}, vs, "in order")
}

func boolPtr(b bool) *bool    { return &b }
func strPtr(s string) *string { return &s }
