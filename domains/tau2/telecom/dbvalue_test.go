package telecom

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/internal/pyvalue"
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
		assert.Equal(t, tc.want, pyvalue.Repr(tc.v), "%#v", tc.v)
	}
	assert.Equal(t, "{'server_address': 'h', 'protocol': 'p', 'x': 1, 'z': 2}",
		pyvalue.Repr(orderedDict(map[string]any{"z": 2, "x": 1, "protocol": "p", "server_address": "h"}, vpnDetailsOrder)))
	assert.Equal(t, "abc", pyvalue.Str("abc"))
	assert.Equal(t, "65.0", pyvalue.Str(json.Number("65.0")))
}

func TestPyNumbers(t *testing.T) {
	for s, want := range map[string]float64{
		"15.1": 15.1, " 2 ": 2, "1_000.5": 1000.5, "-1e3": -1000, "+.5": 0.5, "1e-400": 0, "\u00a012\u2003": 12,
		// CPython reads any Unicode decimal digits ("١٢" is 12.0, "𝟙" 1.0),
		// which the copy this package had refused.
		"١٢": 12, "𝟙": 1,
	} {
		got, err := pyvalue.Float(s)
		require.NoError(t, err, s)
		assert.Equal(t, want, got, s)
	}
	for _, s := range []string{"inf", "-Infinity", "NaN"} {
		_, err := pyvalue.Float(s)
		assert.NoError(t, err, s)
	}
	// float("-nan") is nan in CPython; the copy this package had gave 0.0.
	f, err := pyvalue.Float("-nan")
	require.NoError(t, err)
	assert.True(t, math.IsNaN(f))
	// "\x1c" is str.isspace but not float()'s whitespace: CPython refuses
	// "\x1c1.5" (the copy this package had read 1.5).
	for _, s := range []string{"", "abc", "1__0", "_1", "0x10", "1e", "--1", "1,5", "\x1c1.5"} {
		_, err := pyvalue.Float(s)
		assert.EqualError(t, err, "ValueError: could not convert string to float: "+pyvalue.Repr(s), s)
	}
	_, err = pyvalue.Float(json.Number("1" + strings.Repeat("0", 400)))
	assert.EqualError(t, err, "OverflowError: int too large to convert to float")
	f, err = pyvalue.Float(json.Number("1e400"))
	require.NoError(t, err)
	assert.True(t, math.IsInf(f, 1))

	assert.Equal(t, "4.00", format2(4))
	assert.Equal(t, "0.13", format2(0.125000001))
	assert.Equal(t, "inf", format2(math.Inf(1)))
	assert.Equal(t, 2.67, round2(2.675))
	assert.Equal(t, json.Number("4.0"), floatValue(4))
	assert.Equal(t, json.Number("1e-05"), floatValue(0.00001))
	assert.True(t, math.IsNaN(floatValue(math.NaN()).(float64)))
}

// The DB arithmetic is Python's: a float operand makes a float, an int
// too large for one is an OverflowError, a non-number a TypeError, and
// int - int is exact (abs(10**20 + 1 - 10**20) < 1e-6 is false, where the
// float arithmetic this package had said true).
func TestPyArithmetic(t *testing.T) {
	got, err := floatOp(json.Number("3"), "*", 1.5, pyvalue.Num.Mul)
	require.NoError(t, err)
	assert.Equal(t, 4.5, got)
	_, err = floatOp(json.Number("1"+strings.Repeat("0", 400)), "*", 1.5, pyvalue.Num.Mul)
	assert.EqualError(t, err, "OverflowError: int too large to convert to float")
	_, err = floatOp(nil, "+", 1.5, pyvalue.Num.Add)
	assert.EqualError(t, err, "TypeError: unsupported operand type(s) for +: 'NoneType' and 'float'")

	near, err := closeTo(json.Number("100000000000000000001"), json.Number("100000000000000000000"))
	require.NoError(t, err)
	assert.False(t, near, "int - int is exact")
	near, err = closeTo(json.Number("2.0000000001"), true)
	require.NoError(t, err)
	assert.False(t, near)
	near, err = closeTo(json.Number("1.0000000001"), true)
	require.NoError(t, err)
	assert.True(t, near, "True is 1")
	near, err = closeTo(math.NaN(), 1)
	require.NoError(t, err)
	assert.False(t, near)
	_, err = closeTo("1", 1)
	assert.EqualError(t, err, "TypeError: unsupported operand type(s) for -: 'str' and 'int'")
}

func TestPyLower(t *testing.T) {
	assert.Equal(t, "ada lovelace", pyvalue.Lower("Ada LOVELACE"))
	assert.Equal(t, "i̇stanbul", pyvalue.Lower("İstanbul"), "full case mapping: two code points")
	assert.Equal(t, "όσος", pyvalue.Lower("ΌΣΟΣ"), "final sigma")
}

// Python's exceptions for a DB of the wrong shape.
func TestPyErrors(t *testing.T) {
	_, err := subscript(map[string]any{}, "k")
	assert.EqualError(t, err, "KeyError: 'k'")
	assert.EqualError(t, raised(err), "'k'", "a tool's caller sees str(exc)")
	_, err = subscript(nil, "k")
	assert.EqualError(t, err, "TypeError: 'NoneType' object is not subscriptable")
	_, err = subscript([]any{}, "k")
	assert.EqualError(t, err, "TypeError: list indices must be integers or slices, not str")
	_, err = subscript("s", "k")
	assert.EqualError(t, err, "TypeError: string indices must be integers, not 'str'")
	_, err = get([]any{}, "k", nil)
	assert.EqualError(t, err, "AttributeError: 'list' object has no attribute 'get'")
	_, err = assignable(nil)
	assert.EqualError(t, err, "TypeError: 'NoneType' object does not support item assignment")
	_, err = pyvalue.Iter(json.Number("1"))
	assert.EqualError(t, err, "TypeError: 'int' object is not iterable")
	keys, err := pyvalue.Iter(map[string]any{"b": 1, "a": 2})
	require.NoError(t, err)
	assert.Equal(t, []any{"a", "b"}, keys)
	in, err := pyvalue.Contains("b", "abc")
	require.NoError(t, err)
	assert.True(t, in)
	_, err = pyvalue.Contains("b", nil)
	assert.EqualError(t, err, "TypeError: argument of type 'NoneType' is not iterable")
	_, err = lookup(map[string]any{}, []any{}, nil)
	assert.EqualError(t, err, "TypeError: unhashable type: 'list'")
	assert.EqualError(t, hashable(map[string]any{}), "TypeError: unhashable type: 'dict'")
	assert.NoError(t, hashable(json.Number("1")))

	f := newFixture(t, map[string]any{"customers": nil}, nil)
	err = f.CallErr(t, NameGetCustomerByID, map[string]any{"customer_id": "C1"})
	assert.EqualError(t, err, "'NoneType' object is not iterable")
	f = newFixture(t, map[string]any{"plans": []any{}}, nil)
	err = f.CallErr(t, NameGetCustomerByPhone, map[string]any{"phone_number": "1"})
	assert.EqualError(t, err, "'customers'")
}
