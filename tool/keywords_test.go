package tool_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

// detailsOf runs tl and returns the issues of its validation result, or nil
// when the call passed.
func detailsOf(t *testing.T, tl tool.Tool, args map[string]any) []tool.Issue {
	t.Helper()
	res, err := tl.Execute(context.Background(), args)
	require.NoError(t, err)
	vr, ok := res.(tool.ValidationResult)
	if !ok {
		return nil
	}
	return vr.Details
}

// multipleOf and uniqueItems reach the schema and the checks: the
// reviewer's {"qty": 7, "tags": ["a", "a"]} is refused.
func TestMultipleOfAndUniqueItemsAreChecked(t *testing.T) {
	type params struct {
		Qty  int      `json:"qty" jsonschema:"multipleOf=5"`
		Tags []string `json:"tags" jsonschema:"uniqueItems=true"`
	}
	tl := newRuleTool[params](t, nil)
	props := tl.Properties()
	assert.Equal(t, json.Number("5"), props["qty"].(map[string]any)["multipleOf"])
	assert.Equal(t, true, props["tags"].(map[string]any)["uniqueItems"])

	assert.Equal(t, []tool.Issue{
		{Field: "qty", Error: "Input should be a multiple of 5", Type: "multiple_of"},
		{Field: "tags", Error: "List should have unique items; item 1 repeats item 0", Type: "unique_items"},
	}, detailsOf(t, tl, map[string]any{"qty": 7, "tags": []any{"a", "a"}}))
	assert.Nil(t, detailsOf(t, tl, map[string]any{"qty": 10, "tags": []any{"a", "A"}}))
}

// multipleOf follows pydantic-core: an integer field takes the exact
// remainder, a float field rounds value/multipleOf and allows an absolute
// difference of 1e-9 (pydantic 2.13.4, pydantic-core 2.46.4, checked with
// the installed Python).
func TestMultipleOf(t *testing.T) {
	type params struct {
		I   int         `json:"i,omitempty" jsonschema:"multipleOf=5"`
		U   uint64      `json:"u,omitempty" jsonschema:"multipleOf=3"`
		F   float64     `json:"f,omitempty" jsonschema:"multipleOf=0.1"`
		F32 float32     `json:"f32,omitempty" jsonschema:"multipleOf=0.1"`
		G   float64     `json:"g,omitempty" jsonschema:"multipleOf=5"`
		N   json.Number `json:"n,omitempty" jsonschema:"multipleOf=2.5"`
		L   []int       `json:"l,omitempty" jsonschema:"multipleOf=2"`
		P   *int        `json:"p,omitempty" jsonschema:"multipleOf=4"`
		E   int         `json:"e,omitempty" jsonschema:"multipleOf=5,enum=5,enum=7"`
		B   int         `json:"b,omitempty" jsonschema:"multipleOf=5,maximum=3"`
	}
	tl := newRuleTool[params](t, nil)
	for _, tt := range []struct {
		key  string
		val  any
		fail bool
	}{
		{"i", 0, false}, {"i", 10, false}, {"i", -15, false}, {"i", 7, true}, {"i", -7, true},
		{"i", 9223372036854775805, false}, {"i", 9223372036854775807, true},
		{"u", uint64(18446744073709551615), false}, {"u", uint64(18446744073709551614), true},
		{"f", 0.3, false}, {"f", -0.3, false}, {"f", -0.7, false}, {"f", 0.35, true}, {"f", -0.35, true},
		{"f", 1e20, false}, {"f", 1e-12, false}, {"f", 0.3000000001, false}, {"f", 3.0000001, true},
		{"f32", 0.3, false}, {"f32", 0.35, true},
		{"g", 7.0, true}, {"g", 12.5, true}, {"g", 15, false},
		{"n", json.Number("7.5"), false}, {"n", json.Number("8"), true},
		{"l", []any{2, 4, 6}, false},
		{"p", 8, false}, {"p", 6, true},
	} {
		got := detailsOf(t, tl, map[string]any{tt.key: tt.val})
		if !tt.fail {
			assert.Nil(t, got, "%s=%v", tt.key, tt.val)
			continue
		}
		require.Len(t, got, 1, "%s=%v", tt.key, tt.val)
		assert.Equal(t, "multiple_of", got[0].Type, "%s=%v", tt.key, tt.val)
	}
	assert.Equal(t, []tool.Issue{{Field: "l.1", Error: "Input should be a multiple of 2", Type: "multiple_of"}},
		detailsOf(t, tl, map[string]any{"l": []any{2, 3}}))
	assert.Equal(t, []tool.Issue{{Field: "f", Error: "Input should be a multiple of 0.1", Type: "multiple_of"}},
		detailsOf(t, tl, map[string]any{"f": 0.35}))
	// Like pydantic, a value reports its first broken number rule only.
	assert.Equal(t, []tool.Issue{{Field: "b", Error: "Input should be a multiple of 5", Type: "multiple_of"}},
		detailsOf(t, tl, map[string]any{"b": 7}))
	assert.Equal(t, []tool.Issue{{Field: "e", Error: "Input should be '5' or '7'", Type: "enum"}}, detailsOf(t, tl, map[string]any{"e": 10}), "an enum is checked before multipleOf")
	lax := newRuleTool[params](t, &tool.Options{Lax: true})
	assert.Equal(t, "multiple_of", detailsOf(t, lax, map[string]any{"i": "7"})[0].Type, "a coerced value is checked")
}

// uniqueItems compares items by JSON value: numbers by value (1 and 1.0
// are the same, integers exactly, fractions as doubles, as Python
// compares what json.loads returns), objects whatever their key order,
// strings exactly; true is not 1.
func TestUniqueItems(t *testing.T) {
	type item struct {
		A int    `json:"a"`
		B string `json:"b,omitempty"`
	}
	type params struct {
		Any   []any            `json:"any,omitempty" jsonschema:"uniqueItems=true"`
		Ints  []int            `json:"ints,omitempty" jsonschema:"uniqueItems=true"`
		Objs  []item           `json:"objs,omitempty" jsonschema:"uniqueItems=true"`
		Maps  []map[string]any `json:"maps,omitempty" jsonschema:"uniqueItems=true,minItems=1"`
		Lists [][]string       `json:"lists,omitempty" jsonschema:"uniqueItems=true"`
		Nums  []json.Number    `json:"nums,omitempty" jsonschema:"uniqueItems=true"`
		Flts  []float64        `json:"flts,omitempty" jsonschema:"uniqueItems=true"`
	}
	tl := newRuleTool[params](t, nil)
	for _, tt := range []struct {
		key string
		val []any
		dup string // the expected message; "" when the items are unique
	}{
		{"any", []any{1, "1", true, nil, []any{1}, map[string]any{"1": 1}}, ""},
		{"any", []any{json.Number("1"), json.Number("1.0")}, "item 1 repeats item 0"},
		{"any", []any{json.Number("1e20"), json.Number("100000000000000000000")}, "item 1 repeats item 0"},
		{"any", []any{json.Number("100000000000000000001"), json.Number("1e20")}, ""},
		{"any", []any{json.Number("0.1"), json.Number("0.10000000000000000001")}, "item 1 repeats item 0"},
		{"any", []any{json.Number("-0"), json.Number("0.0")}, "item 1 repeats item 0"},
		{"any", []any{true, json.Number("1")}, ""},
		{"any", []any{"a", "b", map[string]any{"x": 1, "y": []any{1, 2}}, map[string]any{"y": []any{json.Number("1.0"), 2}, "x": 1}}, "item 3 repeats item 2"},
		{"any", []any{[]any{1, 2}, []any{2, 1}}, ""},
		{"any", []any{nil, nil}, "item 1 repeats item 0"},
		{"ints", []any{1, 2, 3, 2, 1}, "item 3 repeats item 1"},
		{"ints", []any{json.Number("1"), 1.0}, "item 1 repeats item 0"},
		{"objs", []any{map[string]any{"a": 1}, map[string]any{"a": 1, "b": "x"}}, ""},
		{"objs", []any{map[string]any{"a": 1, "b": "x"}, map[string]any{"b": "x", "a": 1}}, "item 1 repeats item 0"},
		{"maps", []any{map[string]any{"k": "v"}, map[string]any{"k": "v"}}, "item 1 repeats item 0"},
		{"lists", []any{[]any{"a"}, []any{"a", "b"}, []any{"a"}}, "item 2 repeats item 0"},
		{"nums", []any{json.Number("2.50"), json.Number("2.5")}, "item 1 repeats item 0"},
		{"flts", []any{0.5, 0.25}, ""},
	} {
		got := detailsOf(t, tl, map[string]any{tt.key: tt.val})
		if tt.dup == "" {
			assert.Nil(t, got, "%s=%v", tt.key, tt.val)
			continue
		}
		assert.Equal(t, []tool.Issue{{Field: tt.key, Error: "List should have unique items; " + tt.dup, Type: "unique_items"}}, got, "%s=%v", tt.key, tt.val)
	}
	lax := newRuleTool[params](t, &tool.Options{Lax: true})
	assert.Equal(t, "unique_items", detailsOf(t, lax, map[string]any{"ints": []any{"1", 1}})[0].Type,
		"the bound values are compared: \"1\" coerced is 1")
}

// newErr is the error tool.New returns for parameters P.
func newErr[P any]() error {
	_, err := tool.New("x", "X.", func(context.Context, *state.Shared, P) (any, error) { return nil, nil }, nil)
	return err
}

// tool.New refuses a jsonschema keyword the checks do not enforce — the
// schema would promise what is not checked — and a checked keyword that
// does not reach the schema (a bad value, or a type invopop drops it for).
func TestUncheckedKeywordsAreRefused(t *testing.T) {
	for name, tt := range map[string]struct {
		err  error
		want string
	}{
		"format": {newErr[struct {
			S string `json:"s" jsonschema:"format=email"`
		}](), `field s: jsonschema keyword "format" is not checked`},
		"default": {newErr[struct {
			N int `json:"n,omitempty" jsonschema:"default=3"`
		}](), `"default" is not checked`},
		"nullable": {newErr[struct {
			S *string `json:"s" jsonschema:"nullable"`
		}](), `"nullable" is not checked`},
		"hidden": {newErr[struct {
			S string `json:"s" jsonschema:"-"`
		}](), `"-" is not checked`},
		"type": {newErr[struct {
			N int `json:"n" jsonschema:"type=string"`
		}](), `"type" is not checked`},
		"oneof_type": {newErr[struct {
			V any `json:"v" jsonschema:"oneof_type=string;integer"`
		}](), `"oneof_type" is not checked`},
		"miscased": {newErr[struct {
			S string `json:"s" jsonschema:"minlength=2"`
		}](), `"minlength" is not checked`},
		"bare uniqueItems": {newErr[struct {
			L []string `json:"l" jsonschema:"uniqueItems"`
		}](), `"uniqueItems" is not checked`},
		"uniqueItems=false": {newErr[struct {
			L []string `json:"l" jsonschema:"uniqueItems=false"`
		}](), `uniqueItems=false`},
		"extras": {newErr[struct {
			N int `json:"n" jsonschema_extras:"const=1"`
		}](), `jsonschema_extras keyword "const" is not checked`},
		"nested": {newErr[struct {
			Lines []struct {
				S string `json:"s" jsonschema:"readOnly=true"`
			} `json:"lines"`
		}](), `field lines: field s: jsonschema keyword "readOnly"`},
		"wrong type": {newErr[struct {
			N int `json:"n" jsonschema:"minLength=3"`
		}](), `field n: jsonschema keyword minLength=3 does not reach the schema`},
		"bad number": {newErr[struct {
			N int `json:"n" jsonschema:"minimum=abc"`
		}](), `minimum=abc does not reach the schema`},
		"uniqueItems on a string": {newErr[struct {
			S string `json:"s" jsonschema:"uniqueItems=true"`
		}](), `uniqueItems=true does not reach the schema`},
		"multipleOf=0": {newErr[struct {
			N float64 `json:"n" jsonschema:"multipleOf=0"`
		}](), `multipleOf must be a positive number`},
		"multipleOf<0": {newErr[struct {
			N int `json:"n" jsonschema:"multipleOf=-5"`
		}](), `multipleOf must be a positive number`},
		"fractional multipleOf on an int": {newErr[struct {
			N int `json:"n" jsonschema:"multipleOf=0.5"`
		}](), `multipleOf of an integer must be an integer`},
	} {
		assert.ErrorIs(t, tt.err, tool.ErrInvalidParams, name)
		assert.ErrorContains(t, tt.err, tt.want, name)
	}

	// Annotations and every checked keyword are accepted.
	type ok struct {
		S string   `json:"s" jsonschema:"title=S,description=An s.,example=ab,required,enum=ab,enum=cd,minLength=2,maxLength=2,pattern=^[a-z]+$"`
		N float64  `json:"n" jsonschema:"minimum=0,maximum=10,exclusiveMinimum=-1,exclusiveMaximum=11,multipleOf=0.5"`
		L []string `json:"l" jsonschema:"minItems=1,maxItems=3,uniqueItems=true"`
		M int      `json:"m" jsonschema:"multipleOf=5.0" jsonschema_extras:"title=M"`
	}
	require.NoError(t, newErr[ok]())
}
