package pyjson

import (
	"strings"
	"testing"
)

func TestNesting(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int
	}{
		{``, 0}, {`1`, 0}, {`[]`, 1}, {`{"a": [1, {"b": []}]}`, 4},
		{`["[[[", "\"[["]`, 1}, {`"\\"`, 0}, {strings.Repeat("[", 1000) + strings.Repeat("]", 1000), 1000},
		{`[[]][[[]]]`, 3},
	} {
		if got := Nesting([]byte(tc.in)); got != tc.want {
			t.Errorf("Nesting(%.40q) = %d, want %d", tc.in, got, tc.want)
		}
	}
}

func TestEscapeLoneSurrogates(t *testing.T) {
	lone := func(s string) string {
		v, err := Decode([]byte(s))
		if err != nil {
			t.Fatal(err)
		}
		return v.(string)
	}
	for _, tc := range []struct{ in, want string }{
		{"plain", "plain"},
		{"héllo €", "héllo €"},
		{lone(`"a\ud800b"`), `a\ud800b`},
		{lone(`"\udfff\ud83d"`), `\udfff\ud83d`},
		{lone(`"\ud83d\ude00"`), "😀"},    // a pair is a character
		{"\xed\x9f\xbf", "\xed\x9f\xbf"}, // U+D7FF is no surrogate
		{"\xed\xa0", "\xed\xa0"},         // cut short: left as it is
	} {
		if got := string(EscapeLoneSurrogates([]byte(tc.in))); got != tc.want {
			t.Errorf("EscapeLoneSurrogates(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func FuzzEscapeLoneSurrogates(f *testing.F) {
	f.Add([]byte("a\xed\xa0\x80b"))
	f.Add([]byte("\xed\xed\xbf\xbf"))
	f.Fuzz(func(t *testing.T, b []byte) {
		out := EscapeLoneSurrogates(b)
		for i := 0; i < len(out); i++ {
			if _, ok := surrogateAt(string(out[i:min(i+3, len(out))]), 0); ok {
				t.Fatalf("a surrogate is left at %d: %q", i, out)
			}
		}
		if !strings.Contains(string(b), "\xed") && string(out) != string(b) {
			t.Fatalf("changed text without 0xED: %q -> %q", b, out)
		}
	})
}

func FuzzNesting(f *testing.F) {
	f.Add([]byte(`{"a": [1, {"b": "]]"}]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		n := Nesting(b)
		if n < 0 || n > len(b) {
			t.Fatalf("Nesting = %d for %d bytes", n, len(b))
		}
		if v, err := Decode(b); err == nil {
			if d := depthOf(v); d != n {
				t.Fatalf("Nesting = %d, the decoded value nests %d: %q", n, d, b)
			}
		}
	})
}

// depthOf is a decoded value's nesting.
func depthOf(v any) int {
	switch x := v.(type) {
	case []any:
		d := 0
		for _, e := range x {
			d = max(d, depthOf(e))
		}
		return d + 1
	case map[string]any:
		d := 0
		for _, e := range x {
			d = max(d, depthOf(e))
		}
		return d + 1
	}
	return 0
}
