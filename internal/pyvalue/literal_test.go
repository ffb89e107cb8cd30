package pyvalue

import (
	"bufio"
	"encoding/json"
	"errors"
	"math"
	"os"
	"reflect"
	"strings"
	"testing"
)

// literalVector is one line of testdata/literal_vectors.jsonl, written by
// gen_literal_vectors.py with CPython 3.11.
type literalVector struct {
	Src         string `json:"src"`
	Repr        string `json:"repr"`
	Error       string `json:"error"`
	Unsupported bool   `json:"unsupported"`
}

// TestParseLiteralVectors: where eval succeeds, ParseLiteral gives the
// value whose repr is eval's; where eval fails, or the value is one
// ParseLiteral refuses on purpose, it fails.
func TestParseLiteralVectors(t *testing.T) {
	f, err := os.Open("testdata/literal_vectors.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	n := 0
	for sc.Scan() {
		n++
		var v literalVector
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			t.Fatalf("line %d: %v", n, err)
		}
		got, err := ParseLiteral(v.Src)
		short := v.Src
		if len(short) > 60 {
			short = short[:60] + "..."
		}
		switch {
		case v.Repr != "":
			if err != nil {
				t.Errorf("ParseLiteral(%q): %v; eval gives %s", short, err, v.Repr)
			} else if r := litRepr(got); r != v.Repr {
				t.Errorf("ParseLiteral(%q) = %s; eval gives %s", short, r, v.Repr)
			}
		default:
			if err == nil {
				t.Errorf("ParseLiteral(%q) = %s; want an error (eval: %q, unsupported: %v)", short, Repr(got), v.Error, v.Unsupported)
				continue
			}
			var pe *Error
			if !errors.As(err, &pe) {
				t.Errorf("ParseLiteral(%q): error %T is not a *pyvalue.Error", short, err)
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if n < 100 {
		t.Fatalf("only %d vectors", n)
	}
}

func TestParseLiteralValues(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want any
	}{
		{"None", nil},
		{"[1, -2, 3.5]", []any{json.Number("1"), json.Number("-2"), 3.5}},
		{"(1, 2)", []any{json.Number("1"), json.Number("2")}},
		{"{'b': 1, 'a': [True]}", Dict{{"b", json.Number("1")}, {"a", []any{true}}}},
		{"{'a': 1, 'b': 2, 'a': 3}", Dict{{"a", json.Number("3")}, {"b", json.Number("2")}}},
		{"b'\\x00a\\u'", []byte("\x00a\\u")},
		{"b''", []byte{}},
		{"'\\ud83d'", "\xed\xa0\xbd"},
		{"'\\ud83d\\ude00'", "\xed\xa0\xbd\xed\xb8\x80"},
		{"0x_10", json.Number("16")},
		{"-0", json.Number("0")},
		{"-True", json.Number("-1")},
		{"'a' \"b\" '''c'''", "abc"},
	} {
		got, err := ParseLiteral(tc.src)
		if err != nil {
			t.Errorf("ParseLiteral(%q): %v", tc.src, err)
			continue
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ParseLiteral(%q) = %#v, want %#v", tc.src, got, tc.want)
		}
	}
}

func TestParseLiteralErrors(t *testing.T) {
	for _, tc := range []struct {
		src, typ, part string
	}{
		{"inf", "NameError", "name 'inf' is not defined"},
		{"[nan]", "NameError", "'nan'"},
		{"-'a'", "TypeError", "bad operand type for unary -: 'str'"},
		{"{1, 2}", "SyntaxError", "sets are not supported"},
		{"{1: 2}", "SyntaxError", "only str keys"},
		{"1j", "SyntaxError", "complex"},
		{"'\\N{DASH}'", "SyntaxError", "\\N{...}"},
		{strings.Repeat("[", 201) + strings.Repeat("]", 201), "SyntaxError", "too many nested parentheses"},
		{strings.Repeat("1", 4301), "SyntaxError", "Exceeds the limit (4300 digits)"},
		{"'a", "SyntaxError", "unterminated string literal (at byte 0)"},
		{"[1] x", "SyntaxError", "unexpected 'x' after the value (at byte 4)"},
		{"\xff", "SyntaxError", "not valid UTF-8"},
		{"[1]\x00", "SyntaxError", "null bytes"},
		{"01", "SyntaxError", "leading zeros"},
		{"'a' b'b'", "SyntaxError", "cannot mix bytes"},
		{"", "SyntaxError", "unexpected end of input"},
	} {
		_, err := ParseLiteral(tc.src)
		var pe *Error
		if !errors.As(err, &pe) || pe.Type != tc.typ || !strings.Contains(pe.Msg, tc.part) {
			t.Errorf("ParseLiteral(%.40q) error = %v; want %s containing %q", tc.src, err, tc.typ, tc.part)
		}
	}
}

// litRepr is Repr, with bytes written as Python writes them.
func litRepr(v any) string {
	switch x := v.(type) {
	case []byte:
		q := "'"
		if strings.Contains(string(x), "'") && !strings.Contains(string(x), `"`) {
			q = `"`
		}
		var b strings.Builder
		b.WriteString("b" + q)
		for _, c := range x {
			switch {
			case string(c) == q || c == '\\':
				b.WriteByte('\\')
				b.WriteByte(c)
			case c == '\t':
				b.WriteString(`\t`)
			case c == '\n':
				b.WriteString(`\n`)
			case c == '\r':
				b.WriteString(`\r`)
			case c < 0x20 || c >= 0x7f:
				b.WriteString(`\x` + hexDigits[c>>4:c>>4+1] + hexDigits[c&0xf:c&0xf+1])
			default:
				b.WriteByte(c)
			}
		}
		return b.String() + q
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = litRepr(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case Dict:
		parts := make([]string, 0, len(x))
		for _, it := range x.Items() {
			parts = append(parts, Repr(it.Key)+": "+litRepr(it.Value))
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	return Repr(v)
}

// literalSafe reports whether litRepr(v) is a literal ParseLiteral reads
// back: no inf or nan (names eval does not know).
func literalSafe(v any) bool {
	switch x := v.(type) {
	case float64:
		return !math.IsInf(x, 0) && !math.IsNaN(x)
	case []any:
		for _, e := range x {
			if !literalSafe(e) {
				return false
			}
		}
	case Dict:
		for _, it := range x {
			if !literalSafe(it.Value) {
				return false
			}
		}
	}
	return true
}

// FuzzParseLiteral: ParseLiteral never panics, fails only with a *Error,
// and what it reads, written back in Python's repr, reads again as the
// same value.
func FuzzParseLiteral(f *testing.F) {
	for _, s := range []string{
		"[{'role': 'user', 'content': 'hi'}, {'role': 'tool', 'content': '{\"a\": 1}', 'tool_call_id': 'c'}]",
		"{'a': (1, 2.5, -3e-05), 'b': [None, True, False]}", "'\\x41\\u00e9\\U0001F600\\ud83d\\101'",
		"r'\\n' 'x' '''y\nz'''", "b'\\xff' rb'\\\\'", "0x_1F", "1_000.5e+1_0", "{'a': 1, 'a': 2}", "-(+1)",
		"[" + strings.Repeat("[", 199) + strings.Repeat("]", 199) + "]", "'\\\n'", "# c\n[1, # d\n 2]",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := ParseLiteral(s)
		if err != nil {
			var pe *Error
			if !errors.As(err, &pe) {
				t.Fatalf("ParseLiteral(%q): error %T %v", s, err, err)
			}
			return
		}
		if !literalSafe(v) {
			return
		}
		r := litRepr(v)
		w, err := ParseLiteral(r)
		if err != nil {
			t.Fatalf("ParseLiteral(%q) = %s, which does not read back: %v", s, r, err)
		}
		if r2 := litRepr(w); r2 != r {
			t.Fatalf("ParseLiteral(%q) = %s, read back as %s", s, r, r2)
		}
	})
}
