package tau2tools_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/domains/tau2/tau2tools"
	"github.com/voiceeval/schematools/internal/pyvalue"
)

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
	var exc *pyvalue.Error
	require.ErrorAs(t, err, &exc)
	assert.Equal(t, "TypeError", exc.Type)

	// A Python int has no bound: an int beyond 64 bits reads exactly
	// (the private Num refused it).
	d["big"] = json.Number("99999999999999999999")
	n, err = tau2tools.NumAt(d, "big")
	require.NoError(t, err)
	sum, err := n.Add(pyvalue.IntNum(1))
	require.NoError(t, err)
	assert.Equal(t, json.Number("100000000000000000000"), tau2tools.DBNumber(sum))
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

	assert.True(t, pyvalue.Equal("a", "a"))
	assert.False(t, pyvalue.Equal(json.Number("1"), "1"))

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
