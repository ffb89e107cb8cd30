package state_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/voiceeval/schematools/state"
)

func TestClone(t *testing.T) {
	type point struct{ X int }
	tests := []struct {
		name string
		in   any
	}{
		{"nil", nil},
		{"string", "s"},
		{"number", json.Number("12345678901234567890")},
		{"object", map[string]any{"a": []any{1, map[string]any{"b": nil}}}},
		{"list", []any{"x", []any{true}}},
		{"typed map", map[string][]string{"k": {"v"}}},
		{"typed slice", []map[string]any{{"k": "v"}}},
		{"struct", point{1}},
		{"nil map", map[string]any(nil)},
		{"nil slice", []any(nil)},
		{"action", state.Action{"arguments": map[string]any{"x": 1}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.in, state.Clone(tt.in))
		})
	}
}

func TestCloneDoesNotShare(t *testing.T) {
	in := map[string]any{"a": []any{map[string]any{"b": "c"}}, "t": map[string][]string{"k": {"v"}}}
	out := state.Clone(in).(map[string]any)
	out["a"].([]any)[0].(map[string]any)["b"] = "changed"
	out["t"].(map[string][]string)["k"][0] = "changed"
	assert.Equal(t, "c", in["a"].([]any)[0].(map[string]any)["b"])
	assert.Equal(t, "v", in["t"].(map[string][]string)["k"][0])
}

// Large objects are copied in parallel; the copy must still be complete
// and independent.
func TestCloneLargeObject(t *testing.T) {
	big := map[string]any{}
	for i := range 1000 {
		big[fmt.Sprint(i)] = map[string]any{"n": i, "l": []any{i, map[string]any{"x": i}}}
	}
	c := state.Clone(big).(map[string]any)
	assert.Equal(t, big, c)
	c["7"].(map[string]any)["l"].([]any)[1].(map[string]any)["x"] = "changed"
	assert.Equal(t, 7, big["7"].(map[string]any)["l"].([]any)[1].(map[string]any)["x"])
}
