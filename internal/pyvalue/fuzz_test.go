package pyvalue

import (
	"errors"
	"math"
	"strconv"
	"testing"

	"github.com/voiceeval/schematools/internal/pyjson"
)

// FuzzParseFloat: ParseFloat never panics, fails only with Python's
// ValueError, agrees with pyjson.ParseFloat on every JSON number token,
// and accepts every text ParseInt accepts, with the same rounding.
func FuzzParseFloat(f *testing.F) {
	for _, s := range []string{"1.5", " -0.0 ", "1_000", "1__0", "_1", ".5", "5.", "1e400", "-iNF", "nan", "\u0661\u0662", "\x1c1.5", "\u20031.5\u2003", "1e1_0", "0x10", "9007199254740993", "1" + string(bytesOf('0', 800)) + "1e-800"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		x, err := ParseFloat(s)
		if err != nil {
			var pe *Error
			if !errors.As(err, &pe) || pe.Type != "ValueError" || pe.Msg != "could not convert string to float: "+Repr(s) {
				t.Fatalf("ParseFloat(%q): %v", s, err)
			}
		}
		if _, ok := pyjson.Classify(s); ok {
			y, jerr := pyjson.ParseFloat(s)
			if jerr != nil && !errors.Is(jerr, strconv.ErrRange) {
				t.Fatalf("pyjson.ParseFloat(%q): %v", s, jerr)
			}
			if err != nil || math.Float64bits(x) != math.Float64bits(y) {
				t.Fatalf("ParseFloat(%q) = %v, %v; pyjson.ParseFloat gives %v", s, x, err, y)
			}
		}
		n, ierr := ParseInt(s)
		if ierr == nil {
			want, ferr := n.Float64()
			if err != nil || ferr == nil && x != want || ferr != nil && !math.IsInf(x, 0) {
				t.Fatalf("ParseInt(%q) = %v but ParseFloat gives %v, %v", s, n, x, err)
			}
		}
	})
}

// FuzzLoads: Loads never panics, fails exactly when pyjson.Decode does,
// and keeps the values: sorted, its JSON is pyjson's.
func FuzzLoads(f *testing.F) {
	for _, s := range []string{`{"b": 1, "a": [NaN, "\ud83d", 1e400, -0]}`, `{"a": 1, "a": 2}`, `[]`, ` "x" `, `{"a": }`, "\ufeff{}"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := Loads(data)
		w, derr := pyjson.Decode(data)
		if (err == nil) != (derr == nil) {
			t.Fatalf("Loads: %v; pyjson.Decode: %v", err, derr)
		}
		if err != nil {
			return
		}
		got, gerr := AppendJSON(nil, v, pyjson.Default, true)
		want, werr := pyjson.Marshal(w, pyjson.Default)
		if (gerr == nil) != (werr == nil) || string(got) != string(want) {
			t.Fatalf("Loads then AppendJSON = %s, %v; pyjson = %s, %v", got, gerr, want, werr)
		}
		if !EqualLoaded(v, w) && Repr(v) == Repr(w) && !containsNaN(w) {
			t.Fatalf("Loads value %s is not equal to pyjson's", Repr(v))
		}
	})
}

func containsNaN(v any) bool {
	switch x := v.(type) {
	case float64:
		return math.IsNaN(x)
	case []any:
		for _, e := range x {
			if containsNaN(e) {
				return true
			}
		}
	case map[string]any:
		for _, e := range x {
			if containsNaN(e) {
				return true
			}
		}
	}
	return false
}
