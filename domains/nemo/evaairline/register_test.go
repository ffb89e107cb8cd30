package evaairline_test

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/domains/nemo/evaairline"
	"github.com/voiceeval/schematools/domains/nemo/nemodata"
	"github.com/voiceeval/schematools/internal/pyschema"
	"github.com/voiceeval/schematools/registry"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

// Every tool presents exactly the original's schema.
func TestSchemasAreTheOriginals(t *testing.T) {
	schemas, err := pyschema.ParseFS(nemodata.FS, "tool_schemas.jsonl")
	require.NoError(t, err)
	tools, err := evaairline.NewTools(nil, nil)
	require.NoError(t, err)
	require.Len(t, tools, 16)
	for i, tl := range tools {
		name := evaairline.ToolNames()[i]
		assert.Equal(t, name, tl.Name())
		s, err := pyschema.Find(schemas, evaairline.Domain, name, nil)
		require.NoError(t, err, name)
		assert.NoError(t, pyschema.Compare(tl, s), name)
	}
}

func TestRegister(t *testing.T) {
	r := new(registry.Tools)
	require.NoError(t, evaairline.Register(r))
	assert.Equal(t, evaairline.ToolNames(), r.Names(evaairline.Domain))
	assert.ErrorIs(t, evaairline.Register(r), registry.ErrDuplicate)

	var spec []registry.ToolSpec
	for _, n := range evaairline.ToolNames() {
		spec = append(spec, registry.ToolSpec{Name: n})
	}
	st := state.New()
	set, err := r.NewSet(evaairline.Domain, spec, registry.Deps{State: st})
	require.NoError(t, err)
	assert.Len(t, set.Tools(), 16)

	spec[0] = registry.ToolSpec{Name: evaairline.NameGetReservation, Args: map[string]any{"description": "x"}}
	_, err = r.NewSet(evaairline.Domain, spec, registry.Deps{State: st})
	assert.Error(t, err, "the tools take no keyword arguments")

	_, err = evaairline.New("NoSuchTool", nil, nil)
	assert.Error(t, err)
}

// Without a DB every tool but EndConversationTool validates, then answers
// db_not_initialized.
func TestNoDB(t *testing.T) {
	st := state.New()
	tl, err := evaairline.New(evaairline.NameGetReservation, st, nil)
	require.NoError(t, err)
	res, err := tl.Execute(context.Background(), map[string]any{"confirmation_number": "ABC123", "last_name": "X"})
	require.NoError(t, err)
	assert.Equal(t, tool.Failure("db_not_initialized",
		"Scenario database not loaded. This indicates a fixture-loading bug; contact the evaluator."), res)
	res, err = tl.Execute(context.Background(), map[string]any{"confirmation_number": "AB", "last_name": "X"})
	require.NoError(t, err)
	assert.Equal(t, "invalid_confirmation_number_format", res.(tool.FailureResult).ErrorType)
}

// Validation, table-driven: eva's response names the first failing field
// of its table, in the model's order, else the first error.
func TestValidation(t *testing.T) {
	root := nemodata.FS
	db, err := evaairline.LoadScenarioDB(root, "1.1.3")
	require.NoError(t, err)
	st := evaairline.NewState(db, nil)
	for _, c := range []struct {
		tool      string
		args      map[string]any
		errorType string
		message   string
	}{
		{evaairline.NameGetReservation, map[string]any{"last_name": "Okonkwo"}, "invalid_confirmation_number_format",
			"Invalid confirmation_number '{'last_name': 'Okonkwo'}': must be 6 alphanumeric characters"},
		{evaairline.NameGetReservation, map[string]any{"confirmation_number": "IM2XU4"}, "invalid_parameter",
			"Invalid or missing parameter 'last_name': Field required"},
		{evaairline.NameAssignSeat, map[string]any{"confirmation_number": "IM2XU4", "passenger_id": "PAX001", "journey_id": "FL_SK418_20260605", "seat_preference": "aisle", "flight_number": "621"},
			"invalid_flight_number_format", `Invalid flight_number '621': String should match pattern '^[A-Za-z]{2,3}\d{1,4}$'`},
		{evaairline.NameIssueHotelVoucher, map[string]any{"confirmation_number": "IM2XU4", "passenger_id": "PAX001", "num_nights": 2.5},
			"invalid_parameter", "Invalid or missing parameter 'num_nights': Input should be a valid integer, got a number with a fractional part"},
		{evaairline.NameRebookFlight, map[string]any{"confirmation_number": "IM2XU4", "journey_id": "FL_SK418_20260605", "new_journey_id": "FL_SK333_20260603", "rebooking_type": "voluntary", "waive_change_fee": "maybe"},
			"invalid_parameter", "Invalid or missing parameter 'waive_change_fee': Input should be a valid boolean, unable to interpret input"},
		{evaairline.NameAddToStandby, map[string]any{"confirmation_number": "IM2XU4", "journey_id": "FL_SK418_20260605", "passenger_ids": []any{"PAX001", 7}},
			"invalid_passenger_id_format", "Invalid passenger_ids '7': Input should be a valid string"},
		{evaairline.NameProcessRefund, map[string]any{"confirmation_number": "IM2XU4", "refund_amount": "-1", "refund_type": "full"},
			"invalid_refund_type", "Invalid refund_type 'full': Input should be 'full_fare', 'partial_fare', 'taxes_only' or 'ancillary_fees'"},
	} {
		tl, err := evaairline.New(c.tool, st, nil)
		require.NoError(t, err)
		res, err := tl.Execute(context.Background(), c.args)
		require.NoError(t, err, c.tool)
		assert.Equal(t, tool.Failure(c.errorType, c.message), res, c.tool)
	}
}

// AssignSeatTool's passenger index is int(passenger_id[-3:]): "PAX1" is a
// ValueError, which the live path delivers as {"error": str(exc)}.
func TestAssignSeatShortPassengerID(t *testing.T) {
	db, err := evaairline.LoadScenarioDB(nemodata.FS, "1.1.3")
	require.NoError(t, err)
	st := evaairline.NewState(db, nil)
	tl, err := evaairline.New(evaairline.NameAssignSeat, st, nil)
	require.NoError(t, err)
	args := map[string]any{"confirmation_number": "IM2XU4", "passenger_id": "PAX1", "journey_id": "FL_SK418_20260605", "seat_preference": "aisle"}
	_, err = tl.Execute(context.Background(), args)
	require.Error(t, err)
	assert.Equal(t, "invalid literal for int() with base 10: 'AX1'", err.Error())
	var got any
	require.NoError(t, tool.Call(context.Background(), tl, args, func(r any) error { got = r; return nil }, nil))
	b, _ := jsonText(got)
	assert.JSONEq(t, `{"error": "invalid literal for int() with base 10: 'AX1'"}`, b)
	assert.Empty(t, st.Actions())
	assert.False(t, errors.Is(err, context.Canceled))
}

// The 50 shipped scenarios load, and each has an expected DB.
func TestShippedScenarios(t *testing.T) {
	ids, err := evaairline.ScenarioIDs(nemodata.FS)
	require.NoError(t, err)
	require.Len(t, ids, 50)
	assert.Equal(t, "1.1.2", ids[0])
	assert.Equal(t, "7.4.1", ids[len(ids)-1])
	for _, id := range ids {
		db, err := evaairline.LoadScenarioDB(nemodata.FS, evaairline.FixturePath(id))
		require.NoError(t, err, id)
		assert.NotEmpty(t, db["_current_date"], id)
		_, err = evaairline.ExpectedDB(nemodata.FS, id)
		require.NoError(t, err, id)
	}
	_, err = evaairline.LoadScenarioDB(nemodata.FS, "../eva_airline/1.1.2.json")
	assert.ErrorIs(t, err, state.ErrPathEscape)
	_, err = evaairline.ExpectedDB(nemodata.FS, "9.9.9")
	assert.Error(t, err)
}
