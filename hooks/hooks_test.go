package hooks_test

import (
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/hooks"
)

func synth() hooks.Set {
	return hooks.Set{Init: map[string]hooks.Init{
		"set_roaming": {Func: func(db, args map[string]any, _ func() time.Time) error {
			db["lines"].(map[string]any)["L1"].(map[string]any)["roaming"] = args["on"]
			return nil
		}},
		"set_airplane": {Func: func(db, args map[string]any, _ func() time.Time) error {
			db["device"] = args["on"]
			return nil
		}},
		"broken": {Func: func(map[string]any, map[string]any, func() time.Time) error { return errors.New("cannot") }},
		"dated": {Func: func(db, _ map[string]any, now func() time.Time) error {
			db["today"] = now().Format(time.DateOnly)
			return nil
		}},
	}}
}

func TestApplyInit(t *testing.T) {
	h := synth()
	db := map[string]any{"lines": map[string]any{"L1": map[string]any{"roaming": false}}}
	res := h.ApplyInit("synth", []hooks.InitAction{
		{FuncName: "set_roaming", Arguments: map[string]any{"on": true}},
		{FuncName: "broken"},
		{FuncName: "missing"},
		{FuncName: "bad", Invalid: "'bad' raised: TypeError: nope"},
		{FuncName: "set_roaming", Arguments: nil},
	}, db, nil)
	assert.False(t, res.Success)
	assert.Equal(t, []string{
		"[action 1] 'broken' raised: cannot",
		"[action 2] No initialization function 'missing' registered under domain='synth'. Available: ['broken', 'dated', 'set_airplane', 'set_roaming'].",
		"[action 3] 'bad' raised: TypeError: nope",
	}, res.Errors)
	assert.Nil(t, db["lines"].(map[string]any)["L1"].(map[string]any)["roaming"], "the last action still ran, with no arguments")

	assert.Equal(t, hooks.InitResult{Success: true, Errors: []string{}}, h.ApplyInit("synth", nil, db, nil))
	noDB := h.ApplyInit("synth", nil, nil, nil)
	assert.False(t, noDB.Success)
	assert.Contains(t, noDB.Errors[0], "No db provided to apply_initialization_actions")
	other := hooks.Set{}.ApplyInit("other_domain", []hooks.InitAction{{FuncName: "set_roaming"}}, db, nil)
	assert.Equal(t, []string{"[action 0] No initialization function 'set_roaming' registered under domain='other_domain'. Available: []."}, other.Errors)

	day := time.Date(2025, 2, 25, 0, 0, 0, 0, time.UTC)
	require.True(t, h.ApplyInit("synth", []hooks.InitAction{{FuncName: "dated"}}, db, func() time.Time { return day }).Success)
	assert.Equal(t, "2025-02-25", db["today"], "the functions read the given clock")

	panics := hooks.Set{Init: map[string]hooks.Init{"p": {Func: func(db, _ map[string]any, _ func() time.Time) error {
		return db["x"].(map[string]any)["y"].(error)
	}}}}
	res = panics.ApplyInit("d", []hooks.InitAction{{FuncName: "p"}}, map[string]any{}, nil)
	assert.Contains(t, res.Errors[0], "'p' raised: panic:")
}

func TestApplyDottedPaths(t *testing.T) {
	db := map[string]any{"a": map[string]any{"b": map[string]any{"c": 1}}, "list": []any{map[string]any{}}, "": map[string]any{}}
	require.NoError(t, hooks.ApplyDottedPaths(db, map[string]any{"a.b.c": 2, "top": "x", ".k": "empty segment"}))
	assert.Equal(t, 2, db["a"].(map[string]any)["b"].(map[string]any)["c"])
	assert.Equal(t, "x", db["top"])
	assert.Equal(t, "empty segment", db[""].(map[string]any)["k"])

	// Missing intermediates are never created; lists are not indexed; the
	// paths before the failing one (in sorted order) stay applied.
	err := hooks.ApplyDottedPaths(db, map[string]any{"a.b.c": 3, "a.missing.x": 1, "z": 9})
	assert.ErrorIs(t, err, hooks.ErrPath)
	assert.ErrorContains(t, err, `key "missing" is missing`)
	assert.Equal(t, 3, db["a"].(map[string]any)["b"].(map[string]any)["c"])
	assert.NotContains(t, db, "z")
	assert.NotContains(t, db["a"], "missing")

	err = hooks.ApplyDottedPaths(db, map[string]any{"list.0.x": 1})
	assert.ErrorContains(t, err, `"list" is not an object`)
}

func TestApplyDelta(t *testing.T) {
	var seen map[string]any
	custom := hooks.Set{Apply: func(db, delta map[string]any) error { seen = delta; return nil }}
	db := map[string]any{"k": 1}
	require.NoError(t, custom.ApplyDelta(db, map[string]any{"k": 2}))
	assert.Equal(t, map[string]any{"k": 2}, seen)
	assert.Equal(t, 1, db["k"], "the custom applier replaced the default")
	require.NoError(t, hooks.Set{}.ApplyDelta(db, map[string]any{"k": 3}))
	assert.Equal(t, 3, db["k"], "without one, the dotted-path default")
	require.NoError(t, hooks.Set{}.ApplyDelta(db, nil), "an empty delta does nothing")

	broken := hooks.Set{Apply: func(db, delta map[string]any) error { panic("bug") }}
	assert.ErrorContains(t, broken.ApplyDelta(db, map[string]any{"k": 1}), "panicked")
}
