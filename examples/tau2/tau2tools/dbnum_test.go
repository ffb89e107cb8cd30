package tau2tools_test

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/examples/tau2/tau2tools"
)

// PyFloat is Python's float() of a JSON value.
func TestPyFloat(t *testing.T) {
	ok := []struct {
		in   any
		want float64
	}{
		{json.Number("272.33"), 272.33}, {json.Number("12"), 12}, {json.Number("1e400"), math.Inf(1)},
		{1.5, 1.5}, {int64(3), 3}, {true, 1}, {false, 0},
		{"12.5", 12.5}, {" \t-3 \n", -3}, {"1_000.5", 1000.5}, {"1e1_0", 1e10}, {".5", 0.5}, {"5.", 5}, {"+1E-2", 0.01},
		{"١٢", 12}, {"inf", math.Inf(1)}, {"-Infinity", math.Inf(-1)}, {"1e400", math.Inf(1)},
	}
	for _, tt := range ok {
		got, err := tau2tools.PyFloat(tt.in)
		require.NoError(t, err, "%#v", tt.in)
		assert.Equal(t, tt.want, got, "%#v", tt.in)
	}
	nan, err := tau2tools.PyFloat("-nan")
	require.NoError(t, err)
	assert.True(t, math.IsNaN(nan))

	bad := []struct {
		in   any
		want string
	}{
		{"abc", "could not convert string to float: 'abc'"}, {"", "could not convert string to float: ''"},
		{"1__0", "could not convert string to float: '1__0'"}, {"_1", "could not convert string to float: '_1'"},
		{"1_", "could not convert string to float: '1_'"}, {"0x10", "could not convert string to float: '0x10'"},
		{"1e", "could not convert string to float: '1e'"}, {".", "could not convert string to float: '.'"},
		{"--1", "could not convert string to float: '--1'"}, {"infinit", "could not convert string to float: 'infinit'"},
		{nil, "float() argument must be a string or a real number, not 'NoneType'"},
		{[]any{}, "float() argument must be a string or a real number, not 'list'"},
		{json.Number("1" + strings.Repeat("0", 400)), "int too large to convert to float"},
	}
	for _, tt := range bad {
		_, err := tau2tools.PyFloat(tt.in)
		assert.EqualError(t, err, tt.want, "%#v", tt.in)
	}
}

func TestNumAtAndNumOrZero(t *testing.T) {
	d := map[string]any{"f": json.Number("1.5"), "none": nil, "zero": "", "s": "x"}
	n, err := tau2tools.NumAt(d, "missing")
	require.NoError(t, err)
	assert.Equal(t, "0", n.String())
	_, err = tau2tools.NumAt(d, "none")
	assert.EqualError(t, err, "none: a number was expected, not NoneType")
	for _, key := range []string{"missing", "none", "zero"} {
		n, err = tau2tools.NumOrZero(d, key)
		require.NoError(t, err)
		assert.Equal(t, "0", n.String(), key)
	}
	n, err = tau2tools.NumOrZero(d, "f")
	require.NoError(t, err)
	assert.Equal(t, "1.5", n.String())
	_, err = tau2tools.NumOrZero(d, "s")
	assert.EqualError(t, err, "s: a number was expected, not str")
}

func TestPyInIsStrGetKey(t *testing.T) {
	tests := []struct {
		v    any
		want bool
		err  string
	}{
		{"pending (item modified)", true, ""}, {"processed", false, ""}, {nil, false, ""}, {"", false, ""},
		{[]any{"pending"}, true, ""}, {[]any{"pend"}, false, ""}, {map[string]any{"pending": 1}, true, ""},
		{json.Number("3"), false, "argument of type 'int' is not iterable"}, {true, false, "argument of type 'bool' is not iterable"},
	}
	for _, tt := range tests {
		got, err := tau2tools.PyIn("pending", tt.v)
		if tt.err != "" {
			assert.EqualError(t, err, tt.err, "%#v", tt.v)
			continue
		}
		require.NoError(t, err)
		assert.Equal(t, tt.want, got, "%#v", tt.v)
	}
	in, err := tau2tools.PyIn("", nil) // "" in ""
	require.NoError(t, err)
	assert.True(t, in)

	assert.True(t, tau2tools.IsStr("a", "a"))
	assert.False(t, tau2tools.IsStr(json.Number("1"), "1"))

	m := map[string]any{"a": 1, "1": 2}
	for _, k := range []any{"a", json.Number("1"), nil, true} {
		v, err := tau2tools.GetKey(m, k)
		require.NoError(t, err)
		if k == "a" {
			assert.Equal(t, 1, v)
		} else {
			assert.Nil(t, v, "%#v", k)
		}
	}
	_, err = tau2tools.GetKey(m, []any{})
	assert.EqualError(t, err, "unhashable type: 'list'")
	assert.Equal(t, []string{"1", "a"}, tau2tools.SortedKeys(m))
}
