package tool_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
	"github.com/voiceeval/schematools/tool/schema"
)

// newRuleTool builds a tool of parameters P that returns "ok".
func newRuleTool[P any](t *testing.T, opts *tool.Options) tool.Tool {
	t.Helper()
	tl, err := tool.New("rules", "Rules.", func(context.Context, *state.Shared, P) (any, error) { return "ok", nil }, opts)
	require.NoError(t, err)
	return tl
}

// issuesOf runs tl and returns the (field, type) pairs of its validation
// result, or nil when the call passed.
func issuesOf(t *testing.T, tl tool.Tool, args map[string]any) [][2]string {
	t.Helper()
	res, err := tl.Execute(context.Background(), args)
	require.NoError(t, err)
	vr, ok := res.(tool.ValidationResult)
	if !ok {
		return nil
	}
	var out [][2]string
	for _, d := range vr.Details {
		out = append(out, [2]string{d.Field, d.Type})
	}
	return out
}

// A validate rule JSON Schema can express is written into the schema.
func TestValidateRulesReachTheSchema(t *testing.T) {
	type line struct {
		Code string `json:"code" validate:"len=4"`
	}
	type params struct {
		Size   string   `json:"size" validate:"oneof=small 'extra large'"`
		Count  int      `json:"count" validate:"gte=1,lt=10"`
		Ratio  float64  `json:"ratio,omitempty" validate:"omitempty,gt=0,max=1.5"`
		Level  int      `json:"level,omitempty" validate:"omitempty,oneof=1 2 3"`
		Name   string   `json:"name,omitempty" validate:"required,min=2,max=5"`
		Tags   []string `json:"tags" validate:"min=1,max=3,dive,oneof=a b"`
		Lines  []line   `json:"lines,omitempty" validate:"omitempty,gt=0,dive"`
		Either string   `json:"either,omitempty" validate:"omitempty,email|url"`
	}
	tl := newRuleTool[params](t, nil)
	props := tl.Properties()
	assert.Equal(t, []any{"small", "extra large"}, props["size"].(map[string]any)["enum"])
	assert.Equal(t, map[string]any{"type": "integer", "minimum": json.Number("1"), "exclusiveMaximum": json.Number("10")}, props["count"])
	assert.Equal(t, map[string]any{"type": "number", "exclusiveMinimum": json.Number("0"), "maximum": json.Number("1.5")}, props["ratio"])
	assert.Equal(t, []any{json.Number("1"), json.Number("2"), json.Number("3")}, props["level"].(map[string]any)["enum"])
	assert.Equal(t, map[string]any{"type": "string", "minLength": json.Number("2"), "maxLength": json.Number("5")}, props["name"])
	assert.Equal(t, map[string]any{"type": "array", "minItems": json.Number("1"), "maxItems": json.Number("3"),
		"items": map[string]any{"type": "string", "enum": []any{"a", "b"}}}, props["tags"])
	lines := props["lines"].(map[string]any)
	assert.Equal(t, json.Number("1"), lines["minItems"], "gt=0 on a list is at least one item")
	assert.Equal(t, map[string]any{"type": "string", "minLength": json.Number("4"), "maxLength": json.Number("4")},
		lines["items"].(map[string]any)["properties"].(map[string]any)["code"])
	assert.Equal(t, map[string]any{"type": "string"}, props["either"], "an or-rule has no keyword")
	assert.Equal(t, []string{"size", "count", "name", "tags"}, tl.Required(), "validate:\"required\" makes the key required")

	assert.Equal(t, [][2]string{{"name", "missing"}}, issuesOf(t, tl, map[string]any{"size": "small", "count": 1, "tags": []any{"a"}}))
	assert.Nil(t, issuesOf(t, tl, map[string]any{"size": "extra large", "count": 9, "name": "Ada", "tags": []any{"a", "b"}}))
}

// A jsonschema-tag rule is checked too, with pydantic's issue types and
// wording, in field order together with the validate rules.
func TestSchemaRulesAreChecked(t *testing.T) {
	type params struct {
		Mode  string   `json:"mode" jsonschema:"enum=fast,enum=slow"`
		Level int      `json:"level,omitempty" jsonschema:"enum=1,enum=2"`
		Count int      `json:"count,omitempty" jsonschema:"minimum=1,maximum=10"`
		Ratio float64  `json:"ratio,omitempty" jsonschema:"exclusiveMinimum=0,exclusiveMaximum=1"`
		Code  string   `json:"code,omitempty" jsonschema:"minLength=2,maxLength=3,pattern=^[A-Z]+$"`
		Tags  []string `json:"tags,omitempty" jsonschema:"minItems=1,maxItems=2"`
		Limit *int     `json:"limit,omitempty" validate:"omitempty,max=5" jsonschema:"minimum=0"`
		Note  string   `json:"note,omitempty" validate:"max=3"`
	}
	tl := newRuleTool[params](t, nil)
	assert.Nil(t, issuesOf(t, tl, map[string]any{"mode": "fast", "level": 2, "count": 10, "ratio": 0.5, "code": "AB", "tags": []any{"x"}, "limit": 0}))
	assert.Nil(t, issuesOf(t, tl, map[string]any{"mode": "slow", "limit": nil}), "absent and null optional values are not checked")

	res, err := tl.Execute(context.Background(), map[string]any{
		"mode": "medium", "level": 3, "count": 0, "ratio": 1, "code": "abcd", "tags": []any{}, "limit": -1, "note": "long",
	})
	require.NoError(t, err)
	assert.Equal(t, []tool.Issue{
		{Field: "mode", Error: "Input should be 'fast' or 'slow'", Type: "enum"},
		{Field: "level", Error: "Input should be '1' or '2'", Type: "enum"},
		{Field: "count", Error: "Input should be greater than or equal to 1", Type: "greater_than_equal"},
		{Field: "ratio", Error: "Input should be less than 1", Type: "less_than"},
		{Field: "code", Error: "String should have at most 3 characters", Type: "string_too_long"},
		{Field: "code", Error: "String should match pattern '^[A-Z]+$'", Type: "string_pattern_mismatch"},
		{Field: "tags", Error: "List should have at least 1 item", Type: "too_short"},
		{Field: "limit", Error: "Input should be greater than or equal to 0", Type: "greater_than_equal"},
		{Field: "note", Error: "String should have at most 3 characters", Type: "max"},
	}, res.(tool.ValidationResult).Details)

	// The same in lax mode: numeric strings are coerced, then checked.
	lax := newRuleTool[params](t, &tool.Options{Lax: true})
	assert.Equal(t, [][2]string{{"count", "less_than_equal"}}, issuesOf(t, lax, map[string]any{"mode": "fast", "count": "11"}))
	assert.Equal(t, [][2]string{{"mode", "enum"}}, issuesOf(t, lax, map[string]any{"mode": "Fast"}))

	// Type problems come first; rules are checked once every value binds.
	assert.Equal(t, [][2]string{{"count", "int_type"}}, issuesOf(t, tl, map[string]any{"mode": "medium", "count": "x"}))
}

// Rules inside lists and nested objects are checked at their JSON path.
func TestNestedSchemaRules(t *testing.T) {
	type line struct {
		SKU string `json:"sku" jsonschema:"pattern=^[0-9]{3}$"`
		Qty int    `json:"qty" validate:"min=1"`
	}
	type params struct {
		Lines []line   `json:"lines" validate:"dive"`
		Codes []string `json:"codes,omitempty" jsonschema:"enum=a,enum=b"`
		Loose []line   `json:"loose,omitempty"`
	}
	tl := newRuleTool[params](t, nil)
	props := tl.Properties()
	assert.Equal(t, []any{"a", "b"}, props["codes"].(map[string]any)["items"].(map[string]any)["enum"])
	qty := func(field string) map[string]any {
		return props[field].(map[string]any)["items"].(map[string]any)["properties"].(map[string]any)["qty"].(map[string]any)
	}
	assert.Equal(t, json.Number("1"), qty("lines")["minimum"])
	assert.NotContains(t, qty("loose"), "minimum", "without a dive the validator does not check list items, so the schema does not say it")
	assert.Nil(t, issuesOf(t, tl, map[string]any{"lines": []any{}, "loose": []any{map[string]any{"sku": "123", "qty": 0}}}))
	assert.Equal(t, [][2]string{{"lines.0.qty", "min"}, {"lines.1.sku", "string_pattern_mismatch"}, {"codes.1", "enum"}},
		issuesOf(t, tl, map[string]any{"lines": []any{
			map[string]any{"sku": "123", "qty": 0}, map[string]any{"sku": "12", "qty": 1},
		}, "codes": []any{"a", "c"}}))
}

// A rule written both ways must agree; then it is checked once.
func TestRuleDeclaredTwice(t *testing.T) {
	type agree struct {
		Size string `json:"size" jsonschema:"enum=small,enum=large" validate:"oneof=large small"`
		N    int    `json:"n" jsonschema:"minimum=1" validate:"min=1"`
	}
	tl := newRuleTool[agree](t, nil)
	assert.Equal(t, [][2]string{{"size", "oneof"}, {"n", "min"}}, issuesOf(t, tl, map[string]any{"size": "tiny", "n": 0}), "each rule reported once")

	mk := func(f func() error) error { return f() }
	type enumClash struct {
		Size string `json:"size" jsonschema:"enum=small,enum=large" validate:"oneof=small medium"`
	}
	type boundClash struct {
		N int `json:"n" jsonschema:"maximum=10" validate:"max=9"`
	}
	type lengthClash struct {
		S string `json:"s" jsonschema:"minLength=2" validate:"min=1"`
	}
	for name, f := range map[string]func() error{
		"enum": func() error {
			_, err := tool.New("x", "X.", func(context.Context, *state.Shared, enumClash) (any, error) { return nil, nil }, nil)
			return err
		},
		"bound": func() error {
			_, err := tool.New("x", "X.", func(context.Context, *state.Shared, boundClash) (any, error) { return nil, nil }, nil)
			return err
		},
		"length": func() error {
			_, err := tool.New("x", "X.", func(context.Context, *state.Shared, lengthClash) (any, error) { return nil, nil }, nil)
			return err
		},
	} {
		err := mk(f)
		assert.ErrorIs(t, err, tool.ErrInvalidParams, name)
		assert.ErrorContains(t, err, "write the rule once", name)
	}

	type badPattern struct {
		S string `json:"s" jsonschema:"pattern=([a-z"`
	}
	_, err := tool.New("x", "X.", func(context.Context, *state.Shared, badPattern) (any, error) { return nil, nil }, nil)
	assert.ErrorIs(t, err, tool.ErrInvalidParams)
}

// Options.Properties changes what the tool presents, not what it checks.
func TestWithProperties(t *testing.T) {
	type params struct {
		Reason string `json:"reason"`
		Note   string `json:"note,omitempty"`
	}
	shown := map[string]any{
		"reason": map[string]any{"type": "string", "description": "Why, in the original's words.", "enum": []any{"a", "b"}},
		"note":   map[string]any{"type": "string"},
	}
	tl := newRuleTool[params](t, &tool.Options{Properties: shown})
	assert.Equal(t, shown, tl.Properties())
	assert.Equal(t, []string{"reason"}, tl.Required(), "the required list still comes from the struct")
	shown["note"].(map[string]any)["type"] = "integer"
	assert.Equal(t, "string", tl.Properties()["note"].(map[string]any)["type"], "the tool keeps its own copy")
	defs, err := schema.OpenAI([]tool.Tool{tl}, nil)
	require.NoError(t, err)
	assert.Contains(t, string(defs[0]), `"properties":{"reason":{"description":"Why, in the original's words.","enum":["a","b"],"type":"string"},"note":{"type":"string"}}`)
	assert.Nil(t, issuesOf(t, tl, map[string]any{"reason": "c"}), "the override does not add checks")

	_, err = tool.New("x", "X.", func(context.Context, *state.Shared, params) (any, error) { return nil, nil },
		&tool.Options{Properties: map[string]any{"reason": map[string]any{"type": "string"}}})
	assert.ErrorIs(t, err, tool.ErrInvalidParams, "the override names every property")
}
