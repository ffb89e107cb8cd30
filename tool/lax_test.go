package tool_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

type laxFlight struct {
	FlightNumber string `json:"flight_number"`
	Date         string `json:"date"`
}

type laxParams struct {
	UserID  string      `json:"user_id"`
	Amount  int         `json:"amount"`
	Rate    float64     `json:"rate"`
	Insured bool        `json:"insured"`
	Flights []laxFlight `json:"flights"`
}

func laxTool(t *testing.T) *tool.Typed[laxParams] {
	t.Helper()
	tl, err := tool.New("lax", "Echo the bound parameters.", func(_ context.Context, _ *state.Shared, p laxParams) (any, error) {
		return p, nil
	}, &tool.Options{Lax: true})
	require.NoError(t, err)
	return tl
}

func TestLaxCoercions(t *testing.T) {
	tl := laxTool(t)
	flights := []any{map[string]any{"flight_number": "HAT001", "date": "2024-05-01", "extra": "dropped"}}
	tests := []struct {
		name string
		args map[string]any
		want laxParams
	}{
		{"numeric strings", map[string]any{"user_id": "u", "amount": " 12 ", "rate": "2.5", "insured": "yes", "flights": flights},
			laxParams{UserID: "u", Amount: 12, Rate: 2.5, Insured: true, Flights: []laxFlight{{"HAT001", "2024-05-01"}}}},
		{"booleans as numbers", map[string]any{"user_id": "u", "amount": true, "rate": false, "insured": 0, "flights": []any{}},
			laxParams{UserID: "u", Amount: 1, Rate: 0, Insured: false, Flights: []laxFlight{}}},
		{"whole float for an integer", map[string]any{"user_id": "u", "amount": 12.0, "rate": 3, "insured": "OFF", "flights": []any{}},
			laxParams{UserID: "u", Amount: 12, Rate: 3, Insured: false, Flights: []laxFlight{}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, invalid := tl.Decode(tt.args)
			require.Nil(t, invalid)
			assert.Equal(t, tt.want, p)
		})
	}
}

func TestLaxIssuesInPydanticOrder(t *testing.T) {
	tl := laxTool(t)
	_, invalid := tl.Decode(map[string]any{
		"zzz": 1, "amount": "twelve", "rate": "x", "insured": "maybe", "flights": "HAT001", "aaa": 2,
	})
	require.NotNil(t, invalid)
	got := make([][3]string, len(invalid.Details))
	for i, d := range invalid.Details {
		got[i] = [3]string{d.Field, d.Error, d.Type}
	}
	assert.Equal(t, [][3]string{
		{"user_id", "Field required", "missing"},
		{"amount", "Input should be a valid integer, unable to parse string as an integer", "int_parsing"},
		{"rate", "Input should be a valid number, unable to parse string as a number", "float_parsing"},
		{"insured", "Input should be a valid boolean, unable to interpret input", "bool_parsing"},
		{"flights", "Input should be a valid list", "list_type"},
		{"aaa", "Extra inputs are not permitted", "extra_forbidden"},
		{"zzz", "Extra inputs are not permitted", "extra_forbidden"},
	}, got)
}

func TestLaxKeepsStringsStrict(t *testing.T) {
	_, invalid := laxTool(t).Decode(map[string]any{"user_id": 5, "amount": 1, "rate": 1, "insured": true, "flights": []any{map[string]any{"flight_number": nil, "date": "d"}}})
	require.NotNil(t, invalid)
	assert.Equal(t, "user_id", invalid.Details[0].Field)
	assert.Equal(t, "string_type", invalid.Details[0].Type)
	assert.Equal(t, "flights.0.flight_number", invalid.Details[1].Field)
}

type laxEnumParams struct {
	Cabin string `json:"cabin" validate:"oneof=business economy basic_economy"`
}

func TestLaxEnumIssues(t *testing.T) {
	tl, err := tool.New("enum", "Pick a cabin.", func(_ context.Context, _ *state.Shared, p laxEnumParams) (any, error) {
		return p.Cabin, nil
	}, &tool.Options{Lax: true})
	require.NoError(t, err)
	_, invalid := tl.Decode(map[string]any{"cabin": "first"})
	require.NotNil(t, invalid)
	assert.Equal(t, tool.Issue{Field: "cabin", Error: "Input should be 'business', 'economy' or 'basic_economy'", Type: "enum"}, invalid.Details[0])
}
