package tau2test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/internal/pyschema"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

type leg struct {
	FlightNumber string `json:"flight_number"`
	Date         string `json:"date"`
}

type bookParams struct {
	Cabin   string `json:"cabin" validate:"oneof=business economy"`
	Flights []leg  `json:"flights"`
	Bags    int    `json:"bags"`
	Note    string `json:"note,omitempty"`
}

func bookTool(t *testing.T) tool.Tool {
	t.Helper()
	tl, err := tool.New("book", "Book.", func(context.Context, *state.Shared, bookParams) (any, error) { return nil, nil }, &tool.Options{Lax: true})
	require.NoError(t, err)
	return tl
}

func bookSchema(edit func(props map[string]any, s *pyschema.Schema)) pyschema.Schema {
	props := map[string]any{
		"cabin": map[string]any{"type": "string", "enum": []any{"business", "economy"}, "description": "The cabin."},
		"flights": map[string]any{"type": "array", "description": "Legs.", "items": map[string]any{
			"type": "object", "required": []any{"flight_number", "date"},
			"properties": map[string]any{
				"flight_number": map[string]any{"type": "string", "description": "A number."},
				"date":          map[string]any{"type": "string"},
			},
		}},
		"bags": map[string]any{"type": "integer", "title": "Bags"},
		"note": map[string]any{"type": "string"},
	}
	s := pyschema.Schema{Domain: "d", Name: "book", Description: "Book.", Properties: props,
		Required: []string{"cabin", "flights", "bags"}, Order: []string{"cabin", "flights", "bags", "note"}}
	if edit != nil {
		edit(props, &s)
	}
	return s
}

func TestDeclarationDiff(t *testing.T) {
	cases := []struct {
		name string
		edit func(props map[string]any, s *pyschema.Schema)
		want []string
	}{
		{name: "agrees, texts aside"},
		{name: "a type", edit: func(p map[string]any, _ *pyschema.Schema) { p["bags"] = map[string]any{"type": "number"} },
			want: []string{`bags: {"type":"integer"}, the original's {"type":"number"}`}},
		{name: "an enum the declaration does not check", edit: func(p map[string]any, _ *pyschema.Schema) {
			p["note"] = map[string]any{"type": "string", "enum": []any{"a"}}
		}, want: []string{`note: {"type":"string"}, the original's {"enum":["a"],"type":"string"}`}},
		{name: "another enum", edit: func(p map[string]any, _ *pyschema.Schema) {
			p["cabin"] = map[string]any{"type": "string", "enum": []any{"economy", "business"}}
		}, want: []string{`cabin: {"enum":["business","economy"],"type":"string"}, the original's {"enum":["economy","business"],"type":"string"}`}},
		{name: "required", edit: func(_ map[string]any, s *pyschema.Schema) { s.Required = []string{"cabin", "flights"} },
			want: []string{`required ["cabin" "flights" "bags"], the original's ["cabin" "flights"]`}},
		{name: "order", edit: func(_ map[string]any, s *pyschema.Schema) { s.Order = []string{"flights", "cabin", "bags", "note"} },
			want: []string{`properties ["cabin" "flights" "bags" "note"], the original's ["flights" "cabin" "bags" "note"]`}},
		{name: "a nested required list", edit: func(p map[string]any, _ *pyschema.Schema) {
			p["flights"].(map[string]any)["items"].(map[string]any)["required"] = []any{"flight_number"}
		}, want: []string{`flights: {"items":{"properties":{"date":{"type":"string"},"flight_number":{"type":"string"}},"required":["flight_number","date"],"type":"object"},"type":"array"}, the original's {"items":{"properties":{"date":{"type":"string"},"flight_number":{"type":"string"}},"required":["flight_number"],"type":"object"},"type":"array"}`}},
	}
	tl := bookTool(t)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, DeclarationDiff(tl, bookSchema(c.edit)))
		})
	}
}

func TestTexts(t *testing.T) {
	s := bookSchema(nil)
	assert.Equal(t, []string{"bags.title", "cabin.description", "flights.description", "flights.items.flight_number.description"}, texts(s.Properties))
	assert.Empty(t, texts(tool.Schema(bookTool(t)).Parameters.Properties))
}
