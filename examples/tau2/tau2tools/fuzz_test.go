package tau2tools_test

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/voiceeval/schematools/examples/tau2/tau2tools"
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

// FuzzPyInt: PyInt never panics and agrees with itself.
func FuzzPyInt(f *testing.F) {
	for _, s := range []string{"12", " -5 ", "1_0", "٥", "", "_"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := tau2tools.PyInt(s)
		if err == nil && n == nil {
			t.Fatal("nil int without an error")
		}
		_ = tau2tools.PyLower(s)
		_ = tau2tools.PyUpper(s)
		_ = tau2tools.PyRepr(s)
	})
}

// FuzzPyFloat: any string gives a float or Python's ValueError, the same
// one twice, never a panic; what Go reads the same way agrees.
func FuzzPyFloat(f *testing.F) {
	for _, s := range []string{"1.5", " -2e3 ", "1_0.0_1", "nan", "-Infinity", "0x1p3", "١.٥", "", "1e400", "._1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := tau2tools.PyFloat(s)
		again, err2 := tau2tools.PyFloat(s)
		if (err == nil) != (err2 == nil) || (err == nil && got != again && got == got) {
			t.Fatalf("not deterministic: %q", s)
		}
		if err != nil {
			var pe *tau2tools.PyError
			if !errors.As(err, &pe) || pe.Type != "ValueError" {
				t.Fatalf("%q: unexpected error %v", s, err)
			}
			return
		}
		if want, perr := strconv.ParseFloat(s, 64); perr == nil && !strings.ContainsAny(s, "xXpP_") && want != got && want == want {
			t.Fatalf("%q: got %v, Go reads %v", s, got, want)
		}
	})
}
