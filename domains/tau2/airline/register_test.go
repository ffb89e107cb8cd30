package airline_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/domains/tau2/airline"
	"github.com/voiceeval/schematools/domains/tau2/internal/tau2test"
	"github.com/voiceeval/schematools/replay"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

var names = map[string]string{
	"get_user_details":              "GetUserDetailsTool",
	"get_reservation_details":       "GetReservationDetailsTool",
	"list_all_airports":             "ListAllAirportsTool",
	"search_direct_flight":          "SearchDirectFlightTool",
	"search_onestop_flight":         "SearchOnestopFlightTool",
	"get_flight_status":             "GetFlightStatusTool",
	"book_reservation":              "BookReservationTool",
	"cancel_reservation":            "CancelReservationTool",
	"send_certificate":              "SendCertificateTool",
	"update_reservation_baggages":   "UpdateReservationBaggagesTool",
	"update_reservation_flights":    "UpdateReservationFlightsTool",
	"update_reservation_passengers": "UpdateReservationPassengersTool",
	"calculate":                     "CalculateTool",
	"transfer_to_human_agents":      "TransferToHumanAgentsTool",
}

func TestToolsAndRegister(t *testing.T) {
	st := state.New()
	set := tau2test.RequireToolSet(t, airline.Domain, airline.Tools, airline.Register, names, st)
	assert.Equal(t, []string{"book_reservation", "cancel_reservation", "send_certificate", "update_reservation_baggages",
		"update_reservation_flights", "update_reservation_passengers", "transfer_to_human_agents"}, airline.ActionTypes())

	// The set's tools work on the scenario's state, on the live path.
	st.SetDB(newDB(t))
	assert.Equal(t, airline.FlightStatusResult{Status: "success", FlightStatus: "available"},
		tau2test.CallSet(t, set, "GetFlightStatusTool", `{"flight_number": "hat001", "date": "2024-05-15"}`))
	// A search that finds nothing is still a non-empty result: not wrapped.
	assert.Equal(t, airline.DirectFlightsResult{Status: "success", Flights: []airline.DirectFlight{}},
		tau2test.CallSet(t, set, "SearchDirectFlightTool", `{"origin": "X", "destination": "Y", "date": "2024-05-15"}`))
}

// TestSchemas pins what the model sees of each tool: properties in the
// Python original's order, all required, enums on the three enumerated
// arguments, nested item objects.
func TestSchemas(t *testing.T) {
	m, err := airline.Tools(replay.Env{Domain: airline.Domain, Agent: state.New()})
	require.NoError(t, err)
	order := map[string][]string{
		"get_user_details":              {"user_id"},
		"get_reservation_details":       {"reservation_id"},
		"list_all_airports":             {},
		"search_direct_flight":          {"origin", "destination", "date"},
		"search_onestop_flight":         {"origin", "destination", "date"},
		"get_flight_status":             {"flight_number", "date"},
		"book_reservation":              {"user_id", "origin", "destination", "flight_type", "cabin", "flights", "passengers", "payment_methods", "total_baggages", "nonfree_baggages", "insurance"},
		"cancel_reservation":            {"reservation_id"},
		"send_certificate":              {"user_id", "amount"},
		"update_reservation_baggages":   {"reservation_id", "total_baggages", "nonfree_baggages", "payment_id"},
		"update_reservation_flights":    {"reservation_id", "cabin", "flights", "payment_id"},
		"update_reservation_passengers": {"reservation_id", "passengers"},
		"calculate":                     {"expression"},
		"transfer_to_human_agents":      {"summary"},
	}
	tau2test.RequireSchemas(t, m, order)
	book := tool.Schema(m["book_reservation"])
	b, err := json.Marshal(book.Parameters.Properties)
	require.NoError(t, err)
	var props map[string]map[string]any
	require.NoError(t, json.Unmarshal(b, &props))
	assert.Equal(t, []any{"round_trip", "one_way"}, props["flight_type"]["enum"])
	assert.Equal(t, []any{"business", "economy", "basic_economy"}, props["cabin"]["enum"])
	assert.Equal(t, []any{"yes", "no"}, props["insurance"]["enum"])
	assert.Equal(t, "integer", props["total_baggages"]["type"])
	items := props["payment_methods"]["items"].(map[string]any)
	assert.Equal(t, []any{"payment_id", "amount"}, items["required"])
	assert.Equal(t, "integer", items["properties"].(map[string]any)["amount"].(map[string]any)["type"])
	upd := tool.Schema(m["update_reservation_flights"]).Parameters.Properties["cabin"].(map[string]any)
	assert.Equal(t, []any{"business", "economy", "basic_economy"}, toAny(upd["enum"]))
}

func toAny(v any) []any {
	b, _ := json.Marshal(v)
	var out []any
	_ = json.Unmarshal(b, &out)
	return out
}
