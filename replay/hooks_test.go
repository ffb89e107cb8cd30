package replay_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/replay"
)

func TestApplyInit(t *testing.T) {
	funcs := synthInit()
	db, _ := synthDBs()
	res := replay.ApplyInit(funcs, "synth", []replay.InitAction{
		{FuncName: "set_roaming", Arguments: map[string]any{"on": true}},
		{FuncName: "broken"},
		{FuncName: "missing"},
		{FuncName: "set_roaming", Arguments: nil},
	}, db)
	assert.False(t, res.Success)
	assert.Equal(t, []string{
		"[action 1] 'broken' raised: cannot",
		"[action 2] No initialization function 'missing' registered under domain='synth'. Available: ['broken', 'set_airplane', 'set_roaming'].",
	}, res.Errors)
	assert.Nil(t, db["lines"].(map[string]any)["L1"].(map[string]any)["roaming"], "the last action still ran, with no arguments")

	ok := replay.ApplyInit(funcs, "synth", nil, db)
	assert.Equal(t, replay.InitResult{Success: true, Errors: []string{}}, ok)
	noDB := replay.ApplyInit(funcs, "synth", nil, nil)
	assert.Equal(t, []string{replay.NoDBMessage}, noDB.Errors)
	other := replay.ApplyInit(funcs, "other_domain", []replay.InitAction{{FuncName: "set_roaming"}}, db)
	assert.Equal(t, []string{"[action 0] No initialization function 'set_roaming' registered under domain='other_domain'. Available: []."}, other.Errors)

	panics := replay.NewInitFuncs()
	panics.MustRegister("d", "p", func(db, args map[string]any) error { return db["x"].(map[string]any)["y"].(error) })
	res = replay.ApplyInit(panics, "d", []replay.InitAction{{FuncName: "p"}}, map[string]any{})
	assert.Contains(t, res.Errors[0], "'p' raised: panic:")
}

func TestApplyDottedPaths(t *testing.T) {
	db := map[string]any{"a": map[string]any{"b": map[string]any{"c": 1}}, "list": []any{map[string]any{}}, "": map[string]any{}}
	require.NoError(t, replay.ApplyDottedPaths(db, map[string]any{"a.b.c": 2, "top": "x", ".k": "empty segment"}))
	assert.Equal(t, 2, db["a"].(map[string]any)["b"].(map[string]any)["c"])
	assert.Equal(t, "x", db["top"])
	assert.Equal(t, "empty segment", db[""].(map[string]any)["k"])

	// Missing intermediates are never created; lists are not indexed; the
	// paths before the failing one (in sorted order) stay applied.
	err := replay.ApplyDottedPaths(db, map[string]any{"a.b.c": 3, "a.missing.x": 1, "z": 9})
	assert.ErrorIs(t, err, replay.ErrPath)
	assert.ErrorContains(t, err, `key "missing" is missing`)
	assert.Equal(t, 3, db["a"].(map[string]any)["b"].(map[string]any)["c"])
	assert.NotContains(t, db, "z")
	assert.NotContains(t, db["a"], "missing")

	err = replay.ApplyDottedPaths(db, map[string]any{"list.0.x": 1})
	assert.ErrorContains(t, err, `"list" is not an object`)
}

func TestApplyDelta(t *testing.T) {
	appliers := replay.NewAppliers()
	var seen map[string]any
	appliers.MustRegister("custom", replay.ApplierName, func(db, delta map[string]any) error { seen = delta; return nil })
	db := map[string]any{"k": 1}
	require.NoError(t, replay.ApplyDelta(appliers, "custom", db, map[string]any{"k": 2}))
	assert.Equal(t, map[string]any{"k": 2}, seen)
	assert.Equal(t, 1, db["k"], "the custom applier replaced the default")
	require.NoError(t, replay.ApplyDelta(appliers, "plain", db, map[string]any{"k": 3}))
	assert.Equal(t, 3, db["k"], "other domains use the dotted-path default")
	require.NoError(t, replay.ApplyDelta(nil, "plain", db, nil), "an empty delta does nothing")

	appliers.MustRegister("broken", replay.ApplierName, func(db, delta map[string]any) error { panic("bug") })
	assert.ErrorContains(t, replay.ApplyDelta(appliers, "broken", db, map[string]any{"k": 1}), "panicked")
}

func TestEvaluate(t *testing.T) {
	preds := replay.NewPredicates()
	preds.MustRegister("synth", "airplane_is", func(db, args map[string]any) (bool, error) {
		return db["device"].(map[string]any)["airplane"] == args["on"], nil
	})
	preds.MustRegister("synth", "fails", func(db, args map[string]any) (bool, error) { return false, errors.New("no device") })
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
			assert.Equal(t, tt.want, replay.Evaluate(preds, "synth", tt.a, agent, user))
		})
	}
	v := replay.Evaluate(preds, "synth", replay.Assertion{EnvType: "user", FuncName: "airplane_is"}, agent, nil)
	assert.Contains(t, *v.Error, "No user DB available")
	assert.Len(t, replay.EvaluateAll(preds, "synth", []replay.Assertion{tests[0].a, tests[1].a}, agent, user), 2)
}

func boolPtr(b bool) *bool    { return &b }
func strPtr(s string) *string { return &s }
