package pyjson_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/internal/pyjson"
)

// A string made of NUL and a number's text is a string, whatever number
// came before it (the interning of short values once keyed both alike).
func TestDecodeNumbersAndStringsNeverShareABox(t *testing.T) {
	tests := []struct {
		in   string
		want []any
	}{
		{`[8,"\u00008"]`, []any{json.Number("8"), "\x008"}},
		{`["\u00008",8]`, []any{"\x008", json.Number("8")}},
		{`[1.5,"\u00001.5",1.5,"1.5"]`, []any{json.Number("1.5"), "\x001.5", json.Number("1.5"), "1.5"}},
		{`["8",8,"8"]`, []any{"8", json.Number("8"), "8"}},
	}
	for _, tt := range tests {
		v, err := pyjson.Decode([]byte(tt.in))
		require.NoError(t, err, tt.in)
		assert.Equal(t, tt.want, v, tt.in)
	}
}
