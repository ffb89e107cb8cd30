package tau2tools_test

import (
	"strings"
	"testing"

	"github.com/voiceeval/schematools/domains/tau2/tau2tools"
)

// FuzzCalculate: any input gives a result or a calculate error, the same
// one twice, and never a panic.
func FuzzCalculate(f *testing.F) {
	for _, s := range []string{"2 * ((350 - 122) + (499 - 127))", "10/3", "1/0", "(-8) ** 0.5", "()", "...", "(1)(*2)",
		"9 ** 9 ** 9", "1.5 // 0.0", "(((", "01", "", "2 ** -1074", "1000000 ** 2.5", "abc"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, expr string) {
		if len(expr) > 2000 {
			return
		}
		out, err := tau2tools.Calculate(expr)
		again, err2 := tau2tools.Calculate(expr)
		if out != again || (err == nil) != (err2 == nil) || (err != nil && err.Error() != err2.Error()) {
			t.Fatalf("not deterministic: %q", expr)
		}
		if err != nil {
			msg := err.Error()
			if msg != tau2tools.MessageInvalidChars && !strings.HasPrefix(msg, tau2tools.InvalidExpression) {
				t.Fatalf("%q: unexpected error %q", expr, msg)
			}
			return
		}
		if out == "" {
			t.Fatalf("%q: empty result", expr)
		}
	})
}
