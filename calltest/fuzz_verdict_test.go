package calltest_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/voiceeval/schematools/calltest"
)

// FuzzParseVerdict: never a panic; an answer is either a verdict or an
// ErrVerdict; a pass needs the word pass in the text and a "verdict" key;
// a verdict written back as JSON reads the same.
func FuzzParseVerdict(f *testing.F) {
	for _, s := range []string{
		`{"verdict": "pass", "reason": "ok"}`,
		`{"verdict": "fail", "reason": "no"}`,
		"```json\n{\"verdict\": \"pass\", \"reason\": \"ok\"}\n```",
		`{"verdict": "pass", "verdict": "fail", "reason": ""}`,
		`{"verdict": "pass", "reason": "ok"} x`,
		`{"verdict": "p\u0061ss", "reason": "\ud800"}`,
		`pass`, ``, `{}`, `null`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		pass, reason, err := calltest.ParseVerdict(text)
		if err != nil {
			if !errors.Is(err, calltest.ErrVerdict) {
				t.Fatalf("error %v does not wrap ErrVerdict", err)
			}
			if pass || reason != "" {
				t.Fatalf("an error with pass=%v reason=%q", pass, reason)
			}
			return
		}
		if !strings.Contains(text, "verdict") {
			t.Fatalf("a verdict without the key: %q", text)
		}
		if pass && !strings.Contains(text, "pass") && !strings.Contains(text, `\u`) {
			t.Fatalf("a pass without the word: %q", text)
		}
		v := calltest.VerdictFail
		if pass {
			v = calltest.VerdictPass
		}
		b, _ := json.Marshal(map[string]string{"verdict": v, "reason": reason})
		pass2, reason2, err := calltest.ParseVerdict(string(b))
		if err != nil || pass2 != pass || reason2 != reason {
			t.Fatalf("round trip of %s: %v %q %v", b, pass2, reason2, err)
		}
	})
}
