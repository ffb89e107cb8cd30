package tool_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/internal/golden"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
	"github.com/voiceeval/schematools/tool/schema"
)

func jsonNumber(s string) json.Number { return json.Number(s) }

type item struct {
	Name     string `json:"name" jsonschema_description:"Menu item name."`
	Quantity int    `json:"quantity" validate:"min=1"`
}

type orderParams struct {
	Customer string         `json:"customer" jsonschema_description:"Who orders, e.g. Ada, Bob."`
	Size     string         `json:"size,omitempty" jsonschema:"enum=small,enum=large" validate:"omitempty,oneof=small large"`
	Items    []item         `json:"items" validate:"min=1,dive"`
	Tip      *float64       `json:"tip,omitempty"`
	Note     string         `json:"note,omitempty" validate:"max=20"`
	Extra    map[string]any `json:"extra,omitempty"`
	Anything any            `json:"anything,omitempty"`
	Count    uint8          `json:"count,omitempty"`
	Exact    json.Number    `json:"exact,omitempty"`
}

var orderRecorder = tool.Recorder{ActionTypes: []string{"order"}}

// mustOrderTool is a write tool: it stores an order and records an action.
func mustOrderTool(t testing.TB, st *state.Shared) *tool.Typed[orderParams] {
	t.Helper()
	tl, err := tool.New("order", "Place an order.",
		func(ctx context.Context, st *state.Shared, p orderParams) (any, error) {
			id := "ORD-" + p.Customer
			err := st.UpdateTables(nil, func(db map[string]any) error {
				if db == nil {
					return errors.New("no DB")
				}
				db["orders"].(map[string]any)[id] = p.Customer
				return nil
			})
			if err != nil {
				return nil, err
			}
			res := map[string]any{"order_id": id}
			orderRecorder.Record(ctx, st, state.NewAction("order", map[string]any{"customer": p.Customer}, res))
			return res, nil
		}, &tool.Options{State: st})
	require.NoError(t, err)
	return tl
}

// The schema derived from a parameters struct is pinned by a golden file.
func TestTypedSchemaGolden(t *testing.T) {
	tl := mustOrderTool(t, state.New())
	defs, err := schema.OpenAI([]tool.Tool{tl}, nil)
	require.NoError(t, err)
	got, err := json.MarshalIndent(defs[0], "", "  ")
	require.NoError(t, err)
	golden.Check(t, filepath.Join("testdata", "order_schema.golden.json"), append(got, '\n'))
	assert.Equal(t, []string{"customer", "items"}, tl.Required())
}

// Checklist 84: the function definition shape.
func TestSchemaShape(t *testing.T) {
	ft := &fakeTool{name: "_GoodTool"}
	end, err := schema.OpenAI([]tool.Tool{tool.Harness(nil, nil)[0]}, nil)
	require.NoError(t, err)
	assert.Equal(t,
		`{"name":"_GoodTool","description":"A fake tool.","parameters":{"type":"object","properties":{"value":{"type":"string"}},"required":["value"]}}`,
		jsonOf(t, tool.Schema(ft)))
	assert.Equal(t,
		`{"type":"function","function":{"name":"EndConversationTool","description":"End the conversation with the user.","parameters":{"type":"object","properties":{},"required":[]}}}`,
		string(end[0]))
}

func TestTypedPropertiesAreCopies(t *testing.T) {
	tl := mustOrderTool(t, state.New())
	p := tl.Properties()
	p["customer"].(map[string]any)["type"] = "integer"
	r := tl.Required()
	r[0] = "changed"
	assert.Equal(t, "string", tl.Properties()["customer"].(map[string]any)["type"])
	assert.Equal(t, "customer", tl.Required()[0])
}

func TestTypedValidation(t *testing.T) {
	tl := mustOrderTool(t, state.New())
	ok := []any{map[string]any{"name": "latte", "quantity": 1}}
	tests := []struct {
		name string
		args map[string]any
		want []tool.Issue
	}{
		{"missing required", map[string]any{}, []tool.Issue{
			{Field: "customer", Error: "Field required", Type: "missing"},
			{Field: "items", Error: "Field required", Type: "missing"},
		}},
		{"unknown keys first, sorted", map[string]any{"customer": "a", "items": ok, "zeta": 1, "alpha": 2}, []tool.Issue{
			{Field: "alpha", Error: "Extra inputs are not permitted", Type: "extra_forbidden"},
			{Field: "zeta", Error: "Extra inputs are not permitted", Type: "extra_forbidden"},
		}},
		{"unknown, missing, then types", map[string]any{"customer": 5, "bogus": true}, []tool.Issue{
			{Field: "bogus", Error: "Extra inputs are not permitted", Type: "extra_forbidden"},
			{Field: "items", Error: "Field required", Type: "missing"},
			{Field: "customer", Error: "Input should be a valid string", Type: "string_type"},
		}},
		{"null is a type error", map[string]any{"customer": nil, "items": ok}, []tool.Issue{
			{Field: "customer", Error: "Input should be a valid string", Type: "string_type"},
		}},
		{"number is not a string", map[string]any{"customer": jsonNumber("1"), "items": ok}, []tool.Issue{
			{Field: "customer", Error: "Input should be a valid string", Type: "string_type"},
		}},
		{"string is not a list", map[string]any{"customer": "a", "items": "latte"}, []tool.Issue{
			{Field: "items", Error: "Input should be a valid list", Type: "list_type"},
		}},
		{"nested paths", map[string]any{"customer": "a", "items": []any{
			map[string]any{"name": "latte", "quantity": 1.5},
			map[string]any{"name": 3, "quantity": "two", "size": "xl"},
			"not an object",
		}}, []tool.Issue{
			{Field: "items.1.size", Error: "Extra inputs are not permitted", Type: "extra_forbidden"},
			{Field: "items.0.quantity", Error: "Input should be a valid integer, got a number with a fractional part", Type: "int_from_float"},
			{Field: "items.1.name", Error: "Input should be a valid string", Type: "string_type"},
			{Field: "items.1.quantity", Error: "Input should be a valid integer", Type: "int_type"},
			{Field: "items.2", Error: "Input should be a valid dictionary", Type: "dict_type"},
		}},
		{"nested missing", map[string]any{"customer": "a", "items": []any{map[string]any{}}}, []tool.Issue{
			{Field: "items.0.name", Error: "Field required", Type: "missing"},
			{Field: "items.0.quantity", Error: "Field required", Type: "missing"},
		}},
		{"ranges", map[string]any{"customer": "a", "items": ok, "count": 300, "tip": jsonNumber("1e999")}, []tool.Issue{
			{Field: "tip", Error: "Input should be a finite number", Type: "finite_number"},
			{Field: "count", Error: "Input should be a valid integer, the number is out of range", Type: "int_overflow"},
		}},
		{"negative unsigned", map[string]any{"customer": "a", "items": ok, "count": -1}, []tool.Issue{
			{Field: "count", Error: "Input should be greater than or equal to 0", Type: "greater_than_equal"},
		}},
		{"bad dictionary and number", map[string]any{"customer": "a", "items": ok, "extra": []any{}, "exact": "12"}, []tool.Issue{
			{Field: "extra", Error: "Input should be a valid dictionary", Type: "dict_type"},
			{Field: "exact", Error: "Input should be a valid number", Type: "float_type"},
		}},
		{"validator rules run last", map[string]any{"customer": "a", "size": "huge", "note": "this note is far too long", "items": []any{
			map[string]any{"name": "latte", "quantity": 0},
		}}, []tool.Issue{
			{Field: "size", Error: "Input should be 'small' or 'large'", Type: "oneof"},
			{Field: "items.0.quantity", Error: "Input should be greater than or equal to 1", Type: "min"},
			{Field: "note", Error: "String should have at most 20 characters", Type: "max"},
		}},
		{"empty list", map[string]any{"customer": "a", "items": []any{}}, []tool.Issue{
			{Field: "items", Error: "List should have at least 1 item", Type: "min"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := tl.Execute(context.Background(), tt.args)
			require.NoError(t, err)
			vr, ok := res.(tool.ValidationResult)
			require.True(t, ok, "got %#v", res)
			assert.Equal(t, "error", vr.Status)
			assert.Equal(t, "validation_error", vr.ErrorType)
			assert.Equal(t, "Tool arguments failed validation.", vr.Message)
			assert.Equal(t, tt.want, vr.Details)
		})
	}
}

func TestTypedValidationResultJSON(t *testing.T) {
	tl := mustOrderTool(t, state.New())
	res, err := tl.Execute(context.Background(), map[string]any{"items": []any{}})
	require.NoError(t, err)
	assert.Equal(t,
		`{"status":"error","error_type":"validation_error","message":"Tool arguments failed validation.","details":[{"field":"customer","error":"Field required","type":"missing"}]}`,
		jsonOf(t, res))
}

func TestTypedBindsAcceptedValues(t *testing.T) {
	var got orderParams
	tl, err := tool.New("capture", "Capture params.", func(_ context.Context, _ *state.Shared, p orderParams) (any, error) {
		got = p
		return "ok", nil
	}, nil)
	require.NoError(t, err)
	res, err := tl.Execute(context.Background(), map[string]any{
		"customer": "Ada",
		"items":    []any{map[string]any{"name": "latte", "quantity": jsonNumber("2")}, map[string]any{"name": "tea", "quantity": 3.0}},
		"tip":      1,
		"extra":    map[string]any{"k": []any{"v"}},
		"anything": []any{true},
		"count":    uint64(7),
		"exact":    jsonNumber("12345678901234567890"),
		"size":     "small",
	})
	require.NoError(t, err)
	assert.Equal(t, "ok", res)
	tip := 1.0
	assert.Equal(t, orderParams{
		Customer: "Ada", Size: "small",
		Items:    []item{{"latte", 2}, {"tea", 3}},
		Tip:      &tip,
		Extra:    map[string]any{"k": []any{"v"}},
		Anything: []any{true}, Count: 7, Exact: "12345678901234567890",
	}, got)

	// Go callers may pass typed slices too.
	_, err = tl.Execute(context.Background(), map[string]any{"customer": "Bo", "items": []map[string]any{{"name": "x", "quantity": int64(1)}}})
	require.NoError(t, err)
	assert.Equal(t, []item{{"x", 1}}, got.Items)
}

func TestTypedOptions(t *testing.T) {
	var hookResult any
	var gotState *state.Shared
	tl, err := tool.New("lenient", "Lenient tool.",
		func(_ context.Context, st *state.Shared, _ item) (any, error) { gotState = st; return "done", nil },
		&tool.Options{ExtraArgs: true, ErrorType: "invalid_arguments", AfterResult: func(_ context.Context, _ *state.Shared, res any) error { hookResult = res; return nil }})
	require.NoError(t, err)
	assert.Equal(t, "invalid_arguments", tl.ErrorType())
	var et tool.ErrorTyper = tl
	assert.Equal(t, "invalid_arguments", et.ErrorType())
	assert.NotContains(t, tl.Properties()["name"], "additionalProperties")

	var d delivery
	require.NoError(t, tool.Call(context.Background(), tl, map[string]any{"name": "x", "quantity": 2, "ignored": true}, d.deliver, nil))
	assert.Equal(t, []any{"done"}, d.got)
	assert.Equal(t, "done", hookResult)
	assert.NotNil(t, gotState, "a tool without Options.State gets a private state")

	res, err := tl.Execute(context.Background(), map[string]any{})
	require.NoError(t, err)
	assert.Equal(t, "invalid_arguments", res.(tool.ValidationResult).ErrorType)

	p, invalid := tl.Decode(map[string]any{"name": "x", "quantity": 4})
	assert.Nil(t, invalid)
	assert.Equal(t, item{"x", 4}, p)
}

// A Go error from the function is returned, not wrapped in a result.
func TestTypedFunctionError(t *testing.T) {
	boom := errors.New("boom")
	tl, err := tool.New("fails", "Fails.", func(context.Context, *state.Shared, struct{}) (any, error) { return nil, boom }, nil)
	require.NoError(t, err)
	_, err = tl.Execute(context.Background(), nil)
	assert.ErrorIs(t, err, boom)
}

type recursive struct {
	Next *recursive `json:"next"`
}

type withChan struct {
	C chan int `json:"c"`
}

type withFunc struct {
	F func() `json:"f"`
}

type dupInner struct {
	A string `json:"x"`
}

// dupNames maps two fields to "x" through embedding.
type dupNames struct {
	dupInner
	B string `json:"x"`
}

type intKeys struct {
	M map[int]string `json:"m"`
}

func TestNewRejectsBadDefinitions(t *testing.T) {
	noop := func(context.Context, *state.Shared, item) (any, error) { return nil, nil }
	tests := []struct {
		name string
		make func() error
		want error
		msg  string
	}{
		{"empty name", func() error { _, err := tool.New("", "d", noop, nil); return err }, tool.ErrInvalidParams, "invalid tool name: the name is empty"},
		{"bad name", func() error { _, err := tool.New("has space", "d", noop, nil); return err }, tool.ErrInvalidParams, "has space"},
		{"empty description", func() error { _, err := tool.New("n", "", noop, nil); return err }, tool.ErrInvalidParams, "tool: n: description is required"},
		{"nil function", func() error { _, err := tool.New[item]("n", "d", nil, nil); return err }, tool.ErrInvalidParams, "nil function"},
		{"not a struct", func() error {
			_, err := tool.New("n", "d", func(context.Context, *state.Shared, string) (any, error) { return nil, nil }, nil)
			return err
		}, tool.ErrInvalidParams, "must be a struct"},
		{"pointer params", func() error {
			_, err := tool.New("n", "d", func(context.Context, *state.Shared, *item) (any, error) { return nil, nil }, nil)
			return err
		}, tool.ErrInvalidParams, "must be a struct"},
		{"recursive", func() error {
			_, err := tool.New("n", "d", func(context.Context, *state.Shared, recursive) (any, error) { return nil, nil }, nil)
			return err
		}, tool.ErrInvalidParams, "recursive"},
		{"channel", func() error {
			_, err := tool.New("n", "d", func(context.Context, *state.Shared, withChan) (any, error) { return nil, nil }, nil)
			return err
		}, tool.ErrInvalidParams, "no JSON form"},
		{"function", func() error {
			_, err := tool.New("n", "d", func(context.Context, *state.Shared, withFunc) (any, error) { return nil, nil }, nil)
			return err
		}, tool.ErrInvalidParams, "no JSON form"},
		{"duplicate JSON names", func() error {
			_, err := tool.New("n", "d", func(context.Context, *state.Shared, dupNames) (any, error) { return nil, nil }, nil)
			return err
		}, tool.ErrInvalidParams, `"x"`},
		{"non-string map keys", func() error {
			_, err := tool.New("n", "d", func(context.Context, *state.Shared, intKeys) (any, error) { return nil, nil }, nil)
			return err
		}, tool.ErrInvalidParams, "map keys"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.make()
			assert.ErrorIs(t, err, tt.want)
			assert.ErrorContains(t, err, tt.msg)
		})
	}
}

// iata is a value with a rule of its own: a type that checks itself in
// UnmarshalJSON, the way to add a rule the tags cannot state.
type iata string

func (c *iata) UnmarshalJSON(data []byte) error {
	var s string
	if err := json.Unmarshal(data, &s); err != nil {
		return err
	}
	if len(s) != 3 {
		return fmt.Errorf("%q is not an IATA code", s)
	}
	*c = iata(s)
	return nil
}

// A custom rule (a type checking itself) reports the JSON field name.
func TestCustomRule(t *testing.T) {
	type params struct {
		Origin iata `json:"origin"`
	}
	tl, err := tool.New("fly", "Fly.", func(context.Context, *state.Shared, params) (any, error) { return "ok", nil }, nil)
	require.NoError(t, err)
	res, err := tl.Execute(context.Background(), map[string]any{"origin": "Paris"})
	require.NoError(t, err)
	assert.Equal(t, []tool.Issue{{Field: "origin", Error: `Value error, "Paris" is not an IATA code`, Type: "value_error"}}, res.(tool.ValidationResult).Details)
	// A tag the validator does not know is refused when the tool is built.
	type unknownTag struct {
		Origin string `json:"origin" validate:"iata"`
	}
	_, err = tool.New("fly", "Fly.", func(context.Context, *state.Shared, unknownTag) (any, error) { return "ok", nil }, nil)
	assert.ErrorIs(t, err, tool.ErrInvalidParams)
}

type recSlice []recSlice
type recMap map[string]recMap

type withRecursiveSlice struct {
	L recSlice `json:"l"`
}
type withRecursiveMap struct {
	M recMap `json:"m"`
}

// Recursive named slice and map types are constructor errors, not stack
// overflows.
func TestNewRejectsRecursiveContainers(t *testing.T) {
	_, err := tool.New("n", "d", func(context.Context, *state.Shared, withRecursiveSlice) (any, error) { return nil, nil }, nil)
	assert.ErrorIs(t, err, tool.ErrInvalidParams)
	_, err = tool.New("n", "d", func(context.Context, *state.Shared, withRecursiveMap) (any, error) { return nil, nil }, nil)
	assert.ErrorIs(t, err, tool.ErrInvalidParams)
}

// validate tags that do not fit a value (validator/v10 panics on them)
// never crash a call; misspelled tags fail at construction.
func TestValidatorPanicsAreContained(t *testing.T) {
	type loose struct {
		Value any `json:"value" validate:"oneof=a b"`
	}
	tl, err := tool.New("loose", "Loose.", func(context.Context, *state.Shared, loose) (any, error) { return "ok", nil }, nil)
	if err != nil {
		assert.ErrorIs(t, err, tool.ErrInvalidParams)
		return
	}
	res, err := tl.Execute(context.Background(), map[string]any{"value": true})
	require.NoError(t, err)
	vr, ok := res.(tool.ValidationResult)
	require.True(t, ok, "got %#v", res)
	assert.Equal(t, "validator_error", vr.Details[0].Type)

	type misspelled struct {
		Name string `json:"name" validate:"minn=1"`
	}
	_, err = tool.New("typo", "Typo.", func(context.Context, *state.Shared, misspelled) (any, error) { return "ok", nil }, nil)
	assert.ErrorIs(t, err, tool.ErrInvalidParams)
}

func TestBytesAndNonFiniteFloats(t *testing.T) {
	type params struct {
		Blob  []byte  `json:"blob"`
		Ratio float64 `json:"ratio,omitempty"`
	}
	var got params
	tl, err := tool.New("blob", "Blob.", func(_ context.Context, _ *state.Shared, p params) (any, error) { got = p; return "ok", nil }, nil)
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"type": "string", "contentEncoding": "base64"}, tl.Properties()["blob"])

	res, err := tl.Execute(context.Background(), map[string]any{"blob": "aGk="})
	require.NoError(t, err)
	assert.Equal(t, "ok", res)
	assert.Equal(t, []byte("hi"), got.Blob)

	for args, want := range map[string]tool.Issue{
		`{"blob": "%%%"}`:            {Field: "blob", Error: "Input should be base64-encoded bytes", Type: "bytes_type"},
		`{"blob": [1, 2]}`:           {Field: "blob", Error: "Input should be a valid string", Type: "string_type"},
		`{"blob": "", "ratio": NaN}`: {Field: "ratio", Error: "Input should be a finite number", Type: "finite_number"},
	} {
		var d []any
		require.NoError(t, tool.CallJSON(context.Background(), tl, []byte(args), func(v any) error { d = append(d, v); return nil }, nil))
		assert.Equal(t, []tool.Issue{want}, d[0].(tool.ValidationResult).Details, args)
	}
}

func TestParametersOrder(t *testing.T) {
	p := tool.Parameters{Type: "object", Properties: map[string]any{"b": 1, "a": 2, "z": 3, "c": 4}, Order: []string{"z", "missing", "b", "z"}}
	assert.Equal(t, `{"type":"object","properties":{"z":3,"b":1,"a":2,"c":4},"required":[]}`, jsonOf(t, p))
	tl := mustOrderTool(t, state.New())
	assert.Equal(t, []string{"customer", "size", "items", "tip", "note", "extra", "anything", "count", "exact"}, tl.PropertyOrder())
}

// OpenAI's strict mode sends null for optional arguments it has nothing
// for: null on an optional field means absent; on a required one it is
// still a type error.
func TestNullOnOptionalFieldIsAbsent(t *testing.T) {
	type params struct {
		Name  string `json:"name"`
		Limit int    `json:"limit,omitempty"`
	}
	var got params
	tl, err := tool.New("opt", "Optional.", func(_ context.Context, _ *state.Shared, p params) (any, error) { got = p; return "ok", nil }, nil)
	require.NoError(t, err)
	res, err := tl.Execute(context.Background(), map[string]any{"name": "x", "limit": nil})
	require.NoError(t, err)
	assert.Equal(t, "ok", res)
	assert.Equal(t, params{Name: "x"}, got)
	res, err = tl.Execute(context.Background(), map[string]any{"name": nil})
	require.NoError(t, err)
	assert.Equal(t, "string_type", res.(tool.ValidationResult).Details[0].Type)
}
