package tool_test

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"math/big"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/voiceeval/schematools/internal/clip"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

// FuzzClip: Clip's output is at most clip.Max bytes, valid UTF-8 when its
// input is, and the input itself when that is short enough.
func FuzzClip(f *testing.F) {
	for _, seed := range []string{"", "abc", strings.Repeat("é", 600), strings.Repeat("😀", 300) + "x", strings.Repeat("a", 1001)} {
		f.Add(seed, 1)
	}
	f.Fuzz(func(t *testing.T, s string, times int) {
		if times < 1 || times > 64 {
			times = 1
		}
		s = strings.Repeat(s, times)
		got := clip.String(s)
		if len(got) > clip.Max {
			t.Fatalf("Clip returned %d bytes", len(got))
		}
		if len(s) <= clip.Max && got != s {
			t.Fatalf("a short text was changed")
		}
		if utf8.ValidString(s) && !utf8.ValidString(got) {
			t.Fatalf("valid UTF-8 in, invalid out")
		}
	})
}

// FuzzUniqueItems checks a uniqueItems list against a pairwise reference
// of JSON equality (numbers as Python compares json.loads values, objects
// whatever their key order, NaN one value), and that a multipleOf rule
// never panics whatever number arrives.
func FuzzUniqueItems(f *testing.F) {
	for _, seed := range []string{
		`{"l": [1, 1.0]}`, `{"l": [1e20, 100000000000000000000]}`, `{"l": [true, 1]}`,
		`{"l": [{"a": 1, "b": [1, 2]}, {"b": [1, 2.0], "a": 1}]}`, `{"l": [NaN, NaN]}`, `{"l": [1e400, Infinity]}`,
		`{"l": [-0, 0.0, "0"]}`, `{"l": [[1, 2], [2, 1]], "n": 7}`, `{"n": 1e308}`, `{"n": -9223372036854775808}`,
		`{"f": 0.30000000000000004}`, `{"f": 1e-320}`,
	} {
		f.Add([]byte(seed))
	}
	type params struct {
		L []any   `json:"l,omitempty" jsonschema:"uniqueItems=true"`
		N int     `json:"n,omitempty" jsonschema:"multipleOf=7"`
		F float64 `json:"f,omitempty" jsonschema:"multipleOf=0.1"`
	}
	tl, err := tool.New("rules", "Rules.", func(context.Context, *state.Shared, params) (any, error) { return "ok", nil }, nil)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		args, err := tool.DecodeArgs(raw)
		if err != nil {
			return
		}
		res, err := tl.Execute(context.Background(), args)
		if err != nil {
			t.Fatal(err)
		}
		list, ok := args["l"].([]any)
		if !ok {
			return
		}
		want := false
		for i := range list {
			for j := range i {
				if jsonEqual(list[i], list[j]) {
					want = true
				}
			}
		}
		got := false
		if vr, ok := res.(tool.ValidationResult); ok {
			for _, d := range vr.Details {
				if d.Type == "unique_items" {
					got = true
				}
			}
		}
		if got != want {
			t.Fatalf("%s: unique_items reported %v, reference says duplicates %v", raw, got, want)
		}
	})
}

// jsonEqual is the reference equality of two json.loads values.
func jsonEqual(a, b any) bool {
	switch x := a.(type) {
	case nil:
		return b == nil
	case bool, string:
		return a == b
	case json.Number, float64:
		if _, ok := b.(json.Number); !ok {
			if _, ok := b.(float64); !ok {
				return false
			}
		}
		xi, xf := pyNumber(x)
		yi, yf := pyNumber(b)
		switch {
		case xi != nil && yi != nil:
			return xi.Cmp(yi) == 0
		case xi != nil:
			return wholeEqual(xi, yf)
		case yi != nil:
			return wholeEqual(yi, xf)
		}
		return xf == yf || (math.IsNaN(xf) && math.IsNaN(yf))
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !jsonEqual(x[i], y[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			w, ok := y[k]
			if !ok || !jsonEqual(v, w) {
				return false
			}
		}
		return true
	}
	return false
}

// pyNumber is a json.loads number: an integer, or else a double.
func pyNumber(v any) (*big.Int, float64) {
	if f, ok := v.(float64); ok {
		return nil, f
	}
	s := string(v.(json.Number))
	if !strings.ContainsAny(s, ".eE") {
		n, _ := new(big.Int).SetString(s, 10)
		return n, 0
	}
	g, err := strconv.ParseFloat(s, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return nil, math.NaN()
	}
	return nil, g // out of range: ±Inf, as Python's float()
}

// wholeEqual reports whether double f is exactly the integer n.
func wholeEqual(n *big.Int, f float64) bool {
	if math.IsNaN(f) || math.IsInf(f, 0) || f != math.Trunc(f) {
		return false
	}
	m, _ := big.NewFloat(f).Int(nil)
	return m.Cmp(n) == 0
}
