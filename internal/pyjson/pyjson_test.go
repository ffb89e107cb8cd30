package pyjson_test

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/internal/pyjson"
)

// Python's repr of each float, as json.dumps writes it.
func TestAppendFloat(t *testing.T) {
	tests := []struct {
		in   float64
		want string
	}{
		{0.1, "0.1"}, {2.5, "2.5"}, {1.0, "1.0"}, {100.0, "100.0"}, {0.0, "0.0"}, {math.Copysign(0, -1), "-0.0"},
		{1e-05, "1e-05"}, {0.0001, "0.0001"}, {1.5e-07, "1.5e-07"}, {0.00012345, "0.00012345"},
		{1234567.5, "1234567.5"}, {9999999999999998.0, "9999999999999998.0"}, {1e16, "1e+16"}, {1e22, "1e+22"},
		{123456789012345680.0, "1.2345678901234568e+17"}, {0.30000000000000004, "0.30000000000000004"},
		{5e-324, "5e-324"}, {math.MaxFloat64, "1.7976931348623157e+308"}, {-1.5e-10, "-1.5e-10"},
		{math.NaN(), "NaN"}, {math.Inf(1), "Infinity"}, {math.Inf(-1), "-Infinity"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, string(pyjson.AppendFloat(nil, tt.in)), "%v", tt.in)
	}
	assert.Equal(t, "99999999999999991611392", string(pyjson.AppendIntegralFloat(nil, 1e23)))
	assert.Equal(t, "-12", string(pyjson.AppendIntegralFloat(nil, -12)))
}

func TestAppendString(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain text", `"plain text"`},
		{"é中", `"\u00e9\u4e2d"`},
		{"😀", `"\ud83d\ude00"`},
		{"\x7f\x00\x1f", `"\u007f\u0000\u001f"`},
		{"\b\f\n\r\t", `"\b\f\n\r\t"`},
		{`<>&/`, `"<>&/"`},
		{`"\`, `"\"\\"`},
		{"\xed\xa0\x80", `"\ud800"`},
		{"long safe run of text, then é", `"long safe run of text, then \u00e9"`},
	}
	for _, tt := range tests {
		got, err := pyjson.AppendString(nil, tt.in)
		require.NoError(t, err)
		assert.Equal(t, tt.want, string(got), "%q", tt.in)
	}
	_, err := pyjson.AppendString(nil, "bad \xff byte")
	assert.ErrorIs(t, err, pyjson.ErrInvalidString)
}

func TestMarshalStyles(t *testing.T) {
	v := map[string]any{"b": []any{json.Number("1"), json.Number("2.50"), json.Number("-0"), json.Number("1E2")}, "a": nil, "c": true}
	out, err := pyjson.Marshal(v, pyjson.Compact)
	require.NoError(t, err)
	assert.Equal(t, `{"a":null,"b":[1,2.5,0,100.0],"c":true}`, string(out))
	out, err = pyjson.Marshal(v, pyjson.Default)
	require.NoError(t, err)
	assert.Equal(t, `{"a": null, "b": [1, 2.5, 0, 100.0], "c": true}`, string(out))

	_, err = pyjson.Marshal(struct{}{}, pyjson.Compact)
	assert.ErrorIs(t, err, pyjson.ErrUnsupported)
	_, err = pyjson.Marshal(json.Number("1x"), pyjson.Compact)
	assert.ErrorIs(t, err, pyjson.ErrInvalidNumber)
}

func TestClassify(t *testing.T) {
	for s, want := range map[string][2]bool{
		"0": {true, true}, "-12": {true, true}, "1.0": {false, true}, "1e2": {false, true}, "1E+2": {false, true},
		"01": {false, false}, "1.": {false, false}, ".5": {false, false}, "1e": {false, false}, "": {false, false}, "-": {false, false},
	} {
		isInt, ok := pyjson.Classify(s)
		assert.Equal(t, want[1], ok, s)
		if ok {
			assert.Equal(t, want[0], isInt, s)
		}
	}
}

func TestDecode(t *testing.T) {
	v, err := pyjson.Decode([]byte("\xef\xbb\xbf {\"a\": [1, 1.0, 1e2, -0, 12345678901234567890123], \"b\": \"\\ud83d\\ude00\\ud800\", \"a\": \"last\"} "))
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"a": "last", "b": "😀\xed\xa0\x80"}, v)

	v, err = pyjson.Decode([]byte(`[1, 1.0, 1e2, -0, 12345678901234567890123, NaN, Infinity, -Infinity, true, false, null]`))
	require.NoError(t, err)
	list := v.([]any)
	assert.Equal(t, []any{json.Number("1"), json.Number("1.0"), json.Number("1e2"), json.Number("-0"), json.Number("12345678901234567890123")}, list[:5])
	assert.True(t, math.IsNaN(list[5].(float64)))
	assert.Equal(t, []any{math.Inf(1), math.Inf(-1), true, false, nil}, list[6:])

	v, err = pyjson.Decode([]byte(`"\u00E9\/\b\f\n\r\t\"\\ é"`))
	require.NoError(t, err)
	assert.Equal(t, "é/\b\f\n\r\t\"\\ é", v)
}

func TestDecodeErrors(t *testing.T) {
	for _, in := range []string{
		``, ` `, `{`, `{"a":1,}`, `[1,]`, `[1 2]`, `01`, `1.`, `.5`, `-`, `-NaN`, `nul`, `{'a':1}`, `{"a" 1}`,
		"\"\x01\"", `"\u12"`, `"\x"`, `"abc`, "\"\xff\"", `{} x`, `[1]]`, `{"a":}`, `{1:2}`,
	} {
		_, err := pyjson.Decode([]byte(in))
		require.Error(t, err, "%q", in)
		assert.ErrorIs(t, err, pyjson.ErrSyntax, "%q", in)
	}
	var se *pyjson.SyntaxError
	_, err := pyjson.Decode([]byte(`[1, x]`))
	require.ErrorAs(t, err, &se)
	assert.Equal(t, 4, se.Offset)
}

func TestStrip(t *testing.T) {
	assert.Equal(t, "none", pyjson.Strip(" \t\n\r\v\f\x1c\x1d\x1e\x1f\u0085\u00a0\u1680\u2000\u200a\u2028\u2029\u202f\u205f\u3000none\u3000 "))
	assert.Equal(t, "\u200bnone", pyjson.Strip("\u200bnone"), "zero-width space is not whitespace in Python")
	assert.Equal(t, "", pyjson.Strip("   "))
}
