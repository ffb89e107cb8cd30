package tool_test

import (
	"context"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

// DecodeArgs is json.loads plus "must be an object": one policy for every
// caller (the live path, calltest, replay fuzzing).
func TestDecodeArgs(t *testing.T) {
	tests := []struct {
		name string
		raw  string
		want map[string]any // nil: an error
		err  string         // part of the error text
	}{
		{"empty", ``, map[string]any{}, ""},
		{"blank", " \n\t", map[string]any{}, ""},
		{"null", `null`, map[string]any{}, ""},
		{"object", `{"a": 1, "b": [true, null, "x"]}`, map[string]any{"a": json.Number("1"), "b": []any{true, nil, "x"}}, ""},
		{"big integer stays exact", `{"n": 123456789012345678901234567890}`, map[string]any{"n": json.Number("123456789012345678901234567890")}, ""},
		{"duplicate key keeps the last", `{"a": 1, "a": 2}`, map[string]any{"a": json.Number("2")}, ""},
		{"surrounding space", "  {\"a\": 1}\n", map[string]any{"a": json.Number("1")}, ""},
		{"trailing object", `{} {}`, nil, "extra data"},
		{"trailing garbage", `{"a": 1} x`, nil, "extra data"},
		{"trailing comma", `{"a": 1,}`, nil, "Invalid JSON"},
		{"malformed", `{"a":`, nil, "Invalid JSON"},
		{"single quotes", `{'a': 1}`, nil, "Invalid JSON"},
		{"array", `[1, 2]`, nil, "Input should be a valid dictionary"},
		{"string", `"{}"`, nil, "Input should be a valid dictionary"},
		{"number", `1`, nil, "Input should be a valid dictionary"},
		{"NaN at the top", `NaN`, nil, "Input should be a valid dictionary"},
		{"deep nesting", deepJSON(20000), nil, "Invalid JSON"},
		{"too many digits", `{"n": ` + strings.Repeat("9", 5000) + `}`, nil, "Invalid JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tool.DecodeArgs([]byte(tt.raw))
			if tt.want == nil {
				require.Error(t, err)
				assert.Contains(t, err.Error(), "tool: invalid tool arguments: ")
				assert.Contains(t, err.Error(), tt.err)
				assert.Nil(t, got)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

// NaN, Infinity and -Infinity are accepted, as json.loads accepts them;
// the tool's parameter checks then decide, as for any other value.
func TestDecodeArgsAcceptsNaNAsJSONLoads(t *testing.T) {
	got, err := tool.DecodeArgs([]byte(`{"a": NaN, "b": Infinity, "c": -Infinity, "d": [NaN]}`))
	require.NoError(t, err)
	assert.True(t, math.IsNaN(got["a"].(float64)))
	assert.True(t, math.IsInf(got["b"].(float64), 1))
	assert.True(t, math.IsInf(got["c"].(float64), -1))
	assert.True(t, math.IsNaN(got["d"].([]any)[0].(float64)))

	type params struct {
		Rate  float64 `json:"rate"`
		Count int     `json:"count"`
	}
	tl, err := tool.New("rate", "Rate.", func(_ context.Context, _ *state.Shared, p params) (any, error) { return p, nil }, nil)
	require.NoError(t, err)
	var d delivery
	require.NoError(t, tool.CallJSON(context.Background(), tl, []byte(`{"rate": NaN, "count": Infinity}`), d.deliver, nil))
	require.Len(t, d.got, 1)
	res, ok := d.got[0].(tool.ValidationResult)
	require.True(t, ok, "a NaN reaches the checks, which refuse it: %#v", d.got[0])
	assert.Len(t, res.Details, 2)
	for _, is := range res.Details {
		assert.NotEqual(t, "json_invalid", is.Type, "the decoder accepted it; the checks refused it")
	}
}

// Huge input is bounded: megabytes of arguments decode, and the size of
// the text, not the decoder, is the only limit.
func TestDecodeArgsHugeInput(t *testing.T) {
	big := `{"s": "` + strings.Repeat("x", 4<<20) + `", "list": [` + strings.Repeat("1,", 1<<18) + `1]}`
	got, err := tool.DecodeArgs([]byte(big))
	require.NoError(t, err)
	assert.Len(t, got["s"], 4<<20)
	assert.Len(t, got["list"], 1<<18+1)

	_, err = tool.DecodeArgs([]byte(big + "x"))
	assert.ErrorContains(t, err, "extra data", "trailing data is refused however large the value")
}
