package bridge

import (
	"errors"
	"strings"
	"testing"
)

// indentedSize counts what indentJSON writes, byte for byte.
func FuzzIndentedSize(f *testing.F) {
	for _, s := range []string{`[]`, `{}`, `[1,[2,{}],{"a":[]}]`, `{"a":"[\"]","b":{"c":[1,2]}}`, `"x"`, `[[[[]]]]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := indentedSize(b), int64(len(indentJSON(b))); got != want {
			t.Fatalf("indentedSize(%q) = %d, indentJSON writes %d", b, got, want)
		}
	})
}

// A context whose JSON would indent past the bound is refused before it
// is written (1 MiB of depth-900 nests indents to ~1 GB); JSON nested past
// MaxDepth stays the str, as NeMo's bridge keeps it when json.loads raises.
func TestHistoryBudgets(t *testing.T) {
	nest := strings.Repeat("[", 899) + strings.Repeat("]", 899)
	ctx := `"[` + strings.Repeat(nest+",", 40) + nest + `]"`
	h := &History{Reply: map[string]any{"context": ctx}}
	if _, err := h.JSONWithin(32 << 20); !errors.Is(err, ErrBudget) {
		t.Fatalf("err = %v, want ErrBudget", err)
	}
	deep := strings.Repeat("[", 901) + strings.Repeat("]", 901)
	h = &History{Reply: map[string]any{"context": `"` + deep + `"`}}
	v, err := h.Value()
	if err != nil || v != deep {
		t.Fatalf("Value = %.20v, %v: want the str", v, err)
	}
	out, err := h.JSON()
	if err != nil || string(out) != `"`+deep+`"` {
		t.Fatalf("JSON = %.20s, %v", out, err)
	}
	h.MaxDepth = 1000
	if v, err := h.Value(); err != nil || v == deep {
		t.Fatalf("with MaxDepth 1000: %.20v, %v: want the list", v, err)
	}
}
