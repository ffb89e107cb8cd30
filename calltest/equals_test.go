package calltest_test

import (
	"encoding/json"
	"errors"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/calltest"
)

// Equals and AnyOf take ordinary Go values: each is compared as the JSON
// it writes, so a []string equals a decoded list, a uint a decoded number.
func TestEqualsTakesGoValues(t *testing.T) {
	type item struct {
		SKU  string `json:"sku"`
		Qty  uint8  `json:"qty"`
		Note string `json:"note,omitempty"`
	}
	args := `{"tags": ["a", "b"], "ids": [1, 2, 3], "seats": {"a": 1, "b": 2}, "item": {"sku": "A1", "qty": 2},
		"party_size": 6, "small": -3, "price": 0.1, "big": 12345678901234567890, "order": {"items": [{"sku": "A1", "qty": 2}], "at": [20, 0]}}`
	tests := []struct {
		name  string
		path  string
		value any
	}{
		{"[]string", "tags", []string{"a", "b"}},
		{"[]int", "ids", []int{1, 2, 3}},
		{"map[string]int", "seats", map[string]int{"a": 1, "b": 2}},
		{"struct with json tags", "item", item{SKU: "A1", Qty: 2}},
		{"pointer to struct", "item", &item{SKU: "A1", Qty: 2}},
		{"uint", "party_size", uint(6)},
		{"int8", "small", int8(-3)},
		{"float32", "price", float32(0.1)},
		{"json.Number", "big", json.Number("12345678901234567890")},
		{"whole float", "party_size", 6.0},
		{"nested", "order", map[string]any{"items": []item{{SKU: "A1", Qty: 2}}, "at": [2]uint16{20, 0}}},
		{"raw message", "order", json.RawMessage(`{"at": [20, 0.0], "items": [{"qty": 2, "sku": "A1"}]}`)},
	}
	step := calltest.Step{Calls: []calltest.Call{call("book", args)}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := check(t, one("book", calltest.Equals(tt.path, tt.value)), step)
			assert.Equal(t, calltest.Pass, res.Status, "Equals: %+v", res.Expectations[0].Params)
			res = check(t, one("book", calltest.AnyOf(tt.path, "nothing", tt.value)), step)
			assert.Equal(t, calltest.Pass, res.Status, "AnyOf: %+v", res.Expectations[0].Params)
		})
	}

	res := check(t, one("book", calltest.Equals("tags", []string{"a"})), step)
	assert.Equal(t, `expected exact ["a"] (array), got ["a","b"] (array)`, res.Expectations[0].Params[0].Message)
	res = check(t, one("book", calltest.Equals("party_size", uint(7))), step)
	assert.Equal(t, `expected exact 7 (number), got 6 (number)`, res.Expectations[0].Params[0].Message)
	res = check(t, one("book", calltest.AnyOf("party_size", uint(7), []int{6})), step)
	assert.Equal(t, `expected one of [7 (number), [6] (array)], got 6 (number)`, res.Expectations[0].Params[0].Message)
}

// A value that cannot be written as JSON makes the test invalid, naming
// its type; the caller's test is left as it was.
func TestEqualsRefusesNonJSONValues(t *testing.T) {
	type withNaN struct {
		X float64 `json:"x"`
	}
	tests := []struct {
		name  string
		value any
		want  string
	}{
		{"channel", make(chan int), "chan int"},
		{"func", func() {}, "func()"},
		{"NaN", math.NaN(), "float64"},
		{"infinity", float32(math.Inf(1)), "float32"},
		{"complex", complex(1, 2), "complex128"},
		{"NaN in a struct", withNaN{X: math.NaN()}, "calltest_test.withNaN"},
		{"NaN in a list", []any{1, math.NaN()}, "float64"},
		{"func in a map", map[string]any{"f": func() {}}, "func()"},
		{"bad json.Number", json.Number("six"), "json.Number"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, c := range []calltest.ParamCheck{calltest.Equals("x", tt.value), calltest.AnyOf("x", 1, tt.value)} {
				_, err := calltest.Check(t.Context(), one("f", c), calltest.Step{}, nil)
				require.Error(t, err)
				assert.True(t, errors.Is(err, calltest.ErrInvalidTest), "%v", err)
				assert.Contains(t, err.Error(), tt.want)
				assert.Contains(t, err.Error(), `path "x"`)
			}
		})
	}
}

// The normalised values are the check's own: the caller's Values slice
// and ExpectedValue are not written to.
func TestEqualsDoesNotModifyTheTest(t *testing.T) {
	values := []any{uint(6), []string{"a"}}
	c := calltest.AnyOf("n", values...)
	test := one("f", c, calltest.Equals("m", []int{1}))
	res := check(t, test, calltest.Step{Calls: []calltest.Call{call("f", `{"n": 6, "m": [1]}`)}})
	assert.Equal(t, calltest.Pass, res.Status)
	assert.Equal(t, uint(6), test.Expect[0].Params[0].Values[0])
	assert.Equal(t, []string{"a"}, test.Expect[0].Params[0].Values[1])
	assert.Equal(t, []int{1}, test.Expect[0].Params[1].ExpectedValue)
}
