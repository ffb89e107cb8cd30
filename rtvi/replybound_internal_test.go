package rtvi

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestClipEscaped(t *testing.T) {
	for _, tt := range []struct {
		in   string
		n    int
		want string // as written
	}{
		{"abc", 3, "abc"},
		{"abcdef", 5, `a...f`},
		{"abcdefgh", 7, `ab...gh`},
		{"abcdefgh", 8, `abcdefgh`},
		{"abcdefgh", 2, ``},
		{"abcdefgh", 3, `...`},
		{"abcdefgh", 4, `...h`},
		{"ééé", 17, `\u00e9...\u00e9`}, // never inside an escape
		{"ééé", 15, `\u00e9...\u00e9`},
		{"ééé", 14, `...\u00e9`},
		{"\n\n\n\n", 7, `\n...\n`},
		{"😀😀", 23, `...\ud83d\ude00`}, // never between the halves of a pair
		{"😀😀😀", 27, `\ud83d\ude00...\ud83d\ude00`},
		{"\xed\xa0\x80\xed\xa0\x80\xed\xa0\x80", 15, `\ud800...\ud800`}, // lone surrogates are one escape each
		{"a\"b\"c\"d", 8, `a...c\"d`},
	} {
		got := string(clipEscaped(escaped(tt.in), tt.n))
		assert.Equal(t, tt.want, got, "clipEscaped(%q, %d)", tt.in, tt.n)
	}
}

func TestMaxJSON(t *testing.T) {
	for _, limit := range []int{0, 1, 2, 3, 50, 128, 129, 130, 131, 300, 16386, 16387, 16388, 1 << 20} {
		n := maxJSON(limit)
		if n >= 0 {
			assert.LessOrEqual(t, messageFrameSize(n), limit, "limit %d", limit)
		}
		assert.Greater(t, messageFrameSize(n+1), limit, "limit %d: %d is not the largest", limit, n)
	}
	assert.Equal(t, -1, maxJSON(1))
}

// FuzzClipEscaped: a clipped text is at most n bytes, the contents of a
// valid JSON string, and the text itself when it fits.
func FuzzClipEscaped(f *testing.F) {
	for _, s := range []string{"", "abc", "é\n\"\\😀\x01", "\xed\xa0\x80\xed\xb0\x80", "\xff"} {
		f.Add(s, 10)
	}
	f.Fuzz(func(t *testing.T, s string, n int) {
		n %= 200
		e := escaped(s)
		got := clipEscaped(e, n)
		require.LessOrEqual(t, len(got), max(n, 0))
		if len(e) <= n {
			require.Equal(t, e, got)
		}
		var back string
		require.NoError(t, json.Unmarshal([]byte(`"`+string(got)+`"`), &back), "%s", got)
		if len(e) > n && n >= 3 {
			require.Contains(t, string(got), ellipsis)
		}
		if !strings.Contains(string(e), `\ud`) { // no surrogates: Go decodes every piece
			require.True(t, utf8.ValidString(back))
		}
	})
}

// The sizes Config.MaxReplyBytes's doc gives: an empty error-response is
// an 83-byte frame, the least a limit must allow for any reply.
func TestEmptyErrorResponseSize(t *testing.T) {
	assert.Equal(t, 83, messageFrameSize(len(renderErrorResponse(nil, nil))))
	assert.Nil(t, fitErrorResponse("id", "text", maxJSON(82)))
	assert.Equal(t, `{"label": "rtvi-ai", "type": "error-response", "id": "", "data": {"error": ""}}`, string(fitErrorResponse("id", "text", maxJSON(83))))
	assert.Equal(t, `{"label": "rtvi-ai", "type": "error-response", "id": "id", "data": {"error": ""}}`, string(fitErrorResponse("id", "text", maxJSON(85))))
	assert.Equal(t, 1000, maxEcho)
}
