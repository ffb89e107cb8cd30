package pyjson_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/internal/pyjson"
)

// json.dumps(v, ensure_ascii=False), as CPython 3.11 writes each.
func TestUnicodeStyle(t *testing.T) {
	tests := []struct {
		in   any
		want string
	}{
		{"héllo", `"héllo"`},
		{`a"b\c`, `"a\"b\\c"`},
		{"\n\r\t\b\f\x00\x1f\x7f", "\"\\n\\r\\t\\b\\f\\u0000\\u001f\x7f\""},
		{"日本語 🎉", `"日本語 🎉"`},
		{"a\xed\xa0\xbdb", `"a\ud83db"`}, // a lone surrogate (WTF-8) has no UTF-8 form: escaped
		{map[string]any{"z": "é", "a": []any{1, "\u2028"}}, "{\"a\": [1, \"\u2028\"], \"z\": \"é\"}"},
	}
	for _, tt := range tests {
		got, err := pyjson.Marshal(tt.in, pyjson.Unicode)
		require.NoError(t, err, "%q", tt.in)
		assert.Equal(t, tt.want, string(got), "%q", tt.in)
	}
	_, err := pyjson.Marshal("\xff", pyjson.Unicode)
	assert.ErrorIs(t, err, pyjson.ErrInvalidString)
	ascii, err := pyjson.Marshal("é", pyjson.Default)
	require.NoError(t, err)
	assert.Equal(t, `"\u00e9"`, string(ascii), "the default style stays ensure_ascii")
}
