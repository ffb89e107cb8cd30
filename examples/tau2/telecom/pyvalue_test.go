package telecom

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/examples/tau2/tau2tools"
)

func TestPyRepr(t *testing.T) {
	for _, tc := range []struct {
		v    any
		want string
	}{
		{nil, "None"}, {true, "True"}, {false, "False"},
		{"it's", `"it's"`}, {`say "hi"`, `'say "hi"'`}, {`both ' and "`, `'both \' and "'`},
		{"tab\tnew\nline\\", `'tab\tnew\nline\\'`}, {"\x00\x7f\u00a0é\u200b😀", `'\x00\x7f\xa0é\u200b😀'`},
		{"\xed\xa0\x80", `'\ud800'`},
		{json.Number("12"), "12"}, {json.Number("-0"), "0"}, {json.Number("2.50"), "2.5"}, {json.Number("1e16"), "1e+16"},
		{json.Number("123456789012345678901234567890"), "123456789012345678901234567890"},
		{2.0, "2.0"}, {math.Inf(-1), "-inf"}, {math.NaN(), "nan"}, {7, "7"},
		{[]any{}, "[]"}, {map[string]any{}, "{}"},
		{map[string]any{"b": []any{1.5, nil}, "a": map[string]any{"x": "y"}}, "{'a': {'x': 'y'}, 'b': [1.5, None]}"},
	} {
		assert.Equal(t, tc.want, pyRepr(tc.v), "%#v", tc.v)
	}
	assert.Equal(t, "{'server_address': 'h', 'protocol': 'p', 'x': 1, 'z': 2}",
		reprDict(map[string]any{"z": 2, "x": 1, "protocol": "p", "server_address": "h"}, vpnDetailsOrder))
	assert.Equal(t, "abc", pyStr("abc"))
	assert.Equal(t, "65.0", pyStr(json.Number("65.0")))
}

func TestPyNumbers(t *testing.T) {
	for s, want := range map[string]float64{
		"15.1": 15.1, " 2 ": 2, "1_000.5": 1000.5, "-1e3": -1000, "+.5": 0.5, "1e-400": 0, "\u00a012\u2003": 12,
	} {
		got, err := floatOfString(s)
		require.NoError(t, err, s)
		assert.Equal(t, want, got, s)
	}
	for _, s := range []string{"inf", "-Infinity", "NaN"} {
		_, err := floatOfString(s)
		assert.NoError(t, err, s)
	}
	for _, s := range []string{"", "abc", "1__0", "_1", "0x10", "1e", "--1", "1,5"} {
		_, err := floatOfString(s)
		assert.EqualError(t, err, "could not convert string to float: "+tau2tools.PyRepr(s), s)
	}
	_, err := pyFloat(json.Number("1" + strings.Repeat("0", 400)))
	assert.EqualError(t, err, "int too large to convert to float")
	f, err := pyFloat(json.Number("1e400"))
	require.NoError(t, err)
	assert.True(t, math.IsInf(f, 1))

	c, ok := compare(json.Number("9007199254740993"), 9007199254740992.0)
	assert.True(t, ok)
	assert.Equal(t, 1, c, "exact between a large int and a float")
	_, ok = compare("1", 1)
	assert.False(t, ok)
	_, ok = compare(math.NaN(), 1)
	assert.False(t, ok)

	assert.Equal(t, "4.00", fixed2(4))
	assert.Equal(t, "0.13", fixed2(0.125000001))
	assert.Equal(t, "inf", fixed2(math.Inf(1)))
	assert.Equal(t, json.Number("4.0"), floatValue(4))
	assert.Equal(t, json.Number("1e-05"), floatValue(0.00001))
	assert.True(t, math.IsNaN(floatValue(math.NaN()).(float64)))
}

func TestPyLower(t *testing.T) {
	assert.Equal(t, "ada lovelace", pyLower("Ada LOVELACE"))
	assert.Equal(t, "i̇stanbul", pyLower("İstanbul"), "full case mapping: two code points")
	assert.Equal(t, "όσος", pyLower("ΌΣΟΣ"), "final sigma")
}

// Python's exceptions for a DB of the wrong shape.
func TestPyErrors(t *testing.T) {
	_, err := subscript(map[string]any{}, "k")
	assert.EqualError(t, err, "'k'")
	assert.EqualError(t, typed(err), "KeyError: 'k'")
	_, err = subscript(nil, "k")
	assert.EqualError(t, err, "'NoneType' object is not subscriptable")
	_, err = subscript([]any{}, "k")
	assert.EqualError(t, err, "list indices must be integers or slices, not str")
	_, err = subscript("s", "k")
	assert.EqualError(t, err, "string indices must be integers, not 'str'")
	_, err = get([]any{}, "k", nil)
	assert.EqualError(t, err, "'list' object has no attribute 'get'")
	_, err = assignable(nil)
	assert.EqualError(t, err, "'NoneType' object does not support item assignment")
	_, err = iterate(json.Number("1"))
	assert.EqualError(t, err, "'int' object is not iterable")
	keys, err := iterate(map[string]any{"b": 1, "a": 2})
	require.NoError(t, err)
	assert.Equal(t, []any{"a", "b"}, keys)
	in, err := contains("abc", "b")
	require.NoError(t, err)
	assert.True(t, in)
	_, err = contains(nil, "b")
	assert.EqualError(t, err, "argument of type 'NoneType' is not iterable")
	_, err = lookup(map[string]any{}, []any{}, nil)
	assert.EqualError(t, err, "unhashable type: 'list'")

	f := newFixture(t, map[string]any{"customers": nil}, nil)
	err = f.callErr(t, NameGetCustomerByID, map[string]any{"customer_id": "C1"})
	assert.EqualError(t, err, "'NoneType' object is not iterable")
	f = newFixture(t, map[string]any{"plans": []any{}}, nil)
	err = f.callErr(t, NameGetCustomerByPhone, map[string]any{"phone_number": "1"})
	assert.EqualError(t, err, "'customers'")
}
