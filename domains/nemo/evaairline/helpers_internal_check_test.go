package evaairline_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
)

// The comparison of the conformance tests tells ints from floats and sees
// every key.
func TestSameJSONIsStrict(t *testing.T) {
	for _, c := range []struct {
		got, want any
		same      bool
	}{
		{json.Number("1"), json.Number("1.0"), false},
		{1.0, json.Number("1.0"), false}, // a Go float64 of 1.0 reaches the wire as 1
		{json.Number("1e-07"), json.Number("1E-7"), true},
		{map[string]any{"a": json.Number("2")}, map[string]any{"a": json.Number("2"), "b": nil}, false},
		{struct {
			A string `json:"a"`
		}{"x"}, map[string]any{"a": "x"}, true},
		{[]any{}, []any{nil}, false},
	} {
		same, _ := sameJSON(c.got, c.want)
		assert.Equal(t, c.same, same, "%v vs %v", c.got, c.want)
	}
}
