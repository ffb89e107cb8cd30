package bridge

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// indentJSON writes what encoding/json's Indent writes of compact JSON
// (json.dump(indent=2)'s form), and indentedSize counts it.
func FuzzIndentedSize(f *testing.F) {
	for _, s := range []string{`[]`, `{}`, `[1,[2,{}],{"a":[]}]`, `{"a":"[\"]","b":{"c":[1,2]}}`, `"x"`, `[[[[]]]]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := indentedSize(b), int64(len(indentJSON(b))); got != want {
			t.Fatalf("indentedSize(%q) = %d, indentJSON writes %d", b, got, want)
		}
		var compact, want bytes.Buffer
		if json.Compact(&compact, b) != nil {
			return
		}
		if err := json.Indent(&want, compact.Bytes(), "", "  "); err != nil {
			t.Fatal(err)
		}
		if got := indentJSON(compact.Bytes()); !bytes.Equal(got, want.Bytes()) {
			t.Fatalf("indentJSON(%q) = %q, want %q", compact.Bytes(), got, want.Bytes())
		}
	})
}

// A context whose JSON would indent past the bound is refused before it
// is written (1 MiB of depth-900 nests indents to ~1 GB); JSON nested past
// MaxDepth is refused too (Python's json.loads raises there).
func TestHistoryBudgets(t *testing.T) {
	nest := strings.Repeat("[", 899) + strings.Repeat("]", 899)
	ctx := `"[` + strings.Repeat(nest+",", 40) + nest + `]"`
	h := &History{Reply: map[string]any{"context": ctx}}
	if _, err := h.JSON(32 << 20); !errors.Is(err, ErrBudget) {
		t.Fatalf("err = %v, want ErrBudget", err)
	}
	deep := strings.Repeat("[", 901) + strings.Repeat("]", 901)
	h = &History{Reply: map[string]any{"context": `"` + deep + `"`}}
	if _, err := h.Value(); !errors.Is(err, ErrBudget) || !strings.Contains(err.Error(), "nested 901 deep, past 900") {
		t.Fatalf("Value: %v, want ErrBudget", err)
	}
	if _, err := h.JSON(0); !errors.Is(err, ErrBudget) {
		t.Fatalf("JSON: %v, want ErrBudget", err)
	}
	h.MaxDepth = 1000
	if v, err := h.Value(); err != nil || v == deep {
		t.Fatalf("with MaxDepth 1000: %.20v, %v: want the list", v, err)
	}
}
