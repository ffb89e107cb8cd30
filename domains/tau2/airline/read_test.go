package airline_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/domains/tau2/airline"
	"github.com/voiceeval/schematools/domains/tau2/tau2tools"
	"github.com/voiceeval/schematools/internal/pyvalue"
	"github.com/voiceeval/schematools/tool"
)

func TestGetUserDetails(t *testing.T) {
	f := newFixture(t, newDB(t))
	tests := []struct {
		name string
		id   string
		want any // a failure result, or nil for the user record
	}{
		{"exact", "mia_li_3668", nil},
		{"case-folded", "MIA_LI_3668", nil},
		{"mixed case", "Mia_Li_3668", nil},
		{"unknown, named as given", "Nobody_1", notFound("User Nobody_1 not found")},
		{"empty", "", notFound("User  not found")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := f.Call(t, airline.KeyGetUserDetails, map[string]any{"user_id": tt.id})
			if tt.want != nil {
				assert.Equal(t, tt.want, out)
				return
			}
			assert.Equal(t, f.At(t, "users", "mia_li_3668"), out)
		})
	}
	// The result is a copy: changing it leaves the DB alone.
	out := f.Call(t, airline.KeyGetUserDetails, map[string]any{"user_id": "mia_li_3668"}).(map[string]any)
	out["email"] = "changed"
	assert.Equal(t, "mia.li3818@example.com", f.At(t, "users", "mia_li_3668", "email"))
	// Gift card balances come back as the floats they are.
	assert.Contains(t, canon(t, out), `"amount":163.0`)
}

func TestGetReservationDetails(t *testing.T) {
	f := newFixture(t, newDB(t))
	assert.Equal(t, f.At(t, "reservations", "NO6JO3"), f.Call(t, airline.KeyGetReservationDetails, map[string]any{"reservation_id": "no6jo3"}))
	assert.Equal(t, notFound("Reservation zzz999 not found"), f.Call(t, airline.KeyGetReservationDetails, map[string]any{"reservation_id": "zzz999"}))
}

func TestDBNotLoaded(t *testing.T) {
	args := map[string]map[string]any{
		airline.KeyGetUserDetails:              {"user_id": "mia_li_3668"},
		airline.KeyGetReservationDetails:       {"reservation_id": "NO6JO3"},
		airline.KeySearchDirectFlight:          {"origin": "JFK", "destination": "LAX", "date": "2024-05-15"},
		airline.KeySearchOnestopFlight:         {"origin": "JFK", "destination": "LAX", "date": "2024-05-15"},
		airline.KeyGetFlightStatus:             {"flight_number": "HAT001", "date": "2024-05-15"},
		airline.KeyCancelReservation:           {"reservation_id": "NO6JO3"},
		airline.KeySendCertificate:             {"user_id": "mia_li_3668", "amount": 100},
		airline.KeyUpdateReservationBaggages:   {"reservation_id": "NO6JO3", "total_baggages": 1, "nonfree_baggages": 1, "payment_id": "x"},
		airline.KeyUpdateReservationFlights:    {"reservation_id": "NO6JO3", "cabin": "economy", "flights": []any{}, "payment_id": "x"},
		airline.KeyUpdateReservationPassengers: {"reservation_id": "NO6JO3", "passengers": []any{}},
		airline.KeyBookReservation: {"user_id": "mia_li_3668", "origin": "JFK", "destination": "LAX", "flight_type": "one_way",
			"cabin": "economy", "flights": []any{}, "passengers": []any{}, "payment_methods": []any{},
			"total_baggages": 0, "nonfree_baggages": 0, "insurance": "no"},
	}
	for _, db := range []map[string]any{nil, {}} {
		f := newFixture(t, db)
		for key, a := range args {
			assert.Equal(t, tau2tools.DBNotInitialized(), f.Call(t, key, a), "%s with DB %v", key, db)
		}
		// The tools that never read the DB work without one.
		assert.IsType(t, airline.AirportsResult{}, f.Call(t, airline.KeyListAllAirports, nil))
		assert.Equal(t, tau2tools.CalculateResult{Status: "success", Result: "4.0"}, f.Call(t, airline.KeyCalculate, map[string]any{"expression": "2+2"}))
		assert.Equal(t, tau2tools.StatusResult{Status: "success", Message: "Transfer successful"},
			f.Call(t, airline.KeyTransferToHumanAgents, map[string]any{"summary": "s"}))
		assert.Len(t, f.State.Actions(), 1)
	}
}

func TestListAllAirports(t *testing.T) {
	f := newFixture(t, newDB(t))
	out := f.Call(t, airline.KeyListAllAirports, map[string]any{})
	res, ok := out.(airline.AirportsResult)
	require.True(t, ok)
	assert.Equal(t, "success", res.Status)
	require.Len(t, res.Airports, 20)
	assert.Equal(t, airline.Airport{IATA: "SFO", City: "San Francisco"}, res.Airports[0])
	assert.Equal(t, airline.Airport{IATA: "LGA", City: "LaGuardia"}, res.Airports[19])
	assert.JSONEq(t, `{"iata":"SFO","city":"San Francisco"}`, canon(t, res.Airports[0]))
	res.Airports[0].City = "changed"
	again := f.Call(t, airline.KeyListAllAirports, nil).(airline.AirportsResult)
	assert.Equal(t, "San Francisco", again.Airports[0].City, "each call gets its own list")
	// Arguments are refused: the parameters model forbids extras.
	bad, ok := f.Call(t, airline.KeyListAllAirports, map[string]any{"city": "x"}).(tool.ValidationResult)
	require.True(t, ok)
	assert.Equal(t, []tool.Issue{{Field: "city", Error: "Extra inputs are not permitted", Type: "extra_forbidden"}}, bad.Details)
}

func TestGetFlightStatus(t *testing.T) {
	f := newFixture(t, newDB(t))
	tests := []struct {
		number, date string
		want         any
	}{
		{"HAT001", "2024-05-15", airline.FlightStatusResult{Status: "success", FlightStatus: "available"}},
		{"hat001", "2024-05-16", airline.FlightStatusResult{Status: "success", FlightStatus: "landed"}},
		{"HAT001", "2024-05-17", airline.FlightStatusResult{Status: "success", FlightStatus: "cancelled"}},
		{"HAT001", "2024-05-18", notFound("Flight HAT001 not found on date 2024-05-18")},
		{"hat999", "2024-05-15", notFound("Flight hat999 not found on date 2024-05-15")},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, f.Call(t, airline.KeyGetFlightStatus, map[string]any{"flight_number": tt.number, "date": tt.date}), tt.number+" "+tt.date)
	}
	requireJSON(t, `{"status": "success", "flight_status": "available"}`,
		f.Call(t, airline.KeyGetFlightStatus, map[string]any{"flight_number": "HAT001", "date": "2024-05-15"}))
}

func TestSearchDirectFlight(t *testing.T) {
	f := newFixture(t, newDB(t))
	search := func(origin, dest, date string) any {
		return f.Call(t, airline.KeySearchDirectFlight, map[string]any{"origin": origin, "destination": dest, "date": date})
	}
	requireJSON(t, `{"status": "success", "flights": [{"flight_number": "HAT001", "origin": "JFK", "destination": "LAX",
		"status": "available", "scheduled_departure_time_est": "06:00:00", "scheduled_arrival_time_est": "09:00:00",
		"available_seats": {"basic_economy": 9, "economy": 5, "business": 1},
		"prices": {"basic_economy": 50, "economy": 100, "business": 500}}]}`, search("JFK", "LAX", "2024-05-15"))
	// Only "available" dates count; airport codes are not case-folded.
	requireJSON(t, `{"status": "success", "flights": []}`, search("JFK", "LAX", "2024-05-16"))
	requireJSON(t, `{"status": "success", "flights": []}`, search("jfk", "LAX", "2024-05-15"))
	// Several results come in flight-number order.
	out := search("ORD", "LAX", "2024-05-15").(airline.DirectFlightsResult)
	require.Len(t, out.Flights, 2)
	assert.Equal(t, "HAT005", out.Flights[0].FlightNumber)
	assert.Equal(t, "HAT006", out.Flights[1].FlightNumber)
}

func TestSearchOnestopFlight(t *testing.T) {
	f := newFixture(t, newDB(t))
	search := func(date string) any {
		return f.Call(t, airline.KeySearchOnestopFlight, map[string]any{"origin": "JFK", "destination": "LAX", "date": date})
	}
	res := search("2024-05-15").(airline.OnestopFlightsResult)
	var pairs [][2]string
	for _, p := range res.OnestopFlights {
		pairs = append(pairs, [2]string{p[0].FlightNumber.(string) + "@" + p[0].Date, p[1].FlightNumber.(string) + "@" + p[1].Date})
	}
	// HAT002 arrives the next day ("01:00:00+1"): its connection is searched
	// on 2024-05-16 and, as tau2 compares times as text, any departure
	// counts. HAT004 lands at 07:30, so only HAT006 (12:00) connects, not
	// HAT005 (07:00).
	assert.Equal(t, [][2]string{
		{"HAT002@2024-05-15", "HAT003@2024-05-16"},
		{"HAT004@2024-05-15", "HAT006@2024-05-15"},
	}, pairs)
	requireJSON(t, `{"flight_number": "HAT002", "origin": "JFK", "destination": "ORD", "status": "available",
		"scheduled_departure_time_est": "20:00:00", "scheduled_arrival_time_est": "01:00:00+1",
		"available_seats": {"basic_economy": 3, "economy": 3, "business": 3},
		"prices": {"basic_economy": 40, "economy": 80, "business": 300}, "date": "2024-05-15"}`, res.OnestopFlights[0][0])

	// The day after 2024-05-05 is "2024-05-6", not zero-padded: the
	// connection on 2024-05-06 is never found.
	requireJSON(t, `{"status": "success", "onestop_flights": []}`, search("2024-05-05"))
	// A date whose last two characters are not a number fails as Python's
	// int() does — when a first leg that day arrives the next day.
	requireJSON(t, `{"status": "success", "onestop_flights": []}`, search("2024-05-1x"))
	db := newDB(t)
	dates := db["flights"].(map[string]any)["HAT002"].(map[string]any)["dates"].(map[string]any)
	dates["2024-05-1x"] = dates["2024-05-15"]
	g := newFixture(t, db)
	err := g.CallErr(t, airline.KeySearchOnestopFlight, map[string]any{"origin": "JFK", "destination": "LAX", "date": "2024-05-1x"})
	assert.EqualError(t, err, "invalid literal for int() with base 10: '1x'")
	var exc *pyvalue.Error
	require.ErrorAs(t, err, &exc)
	assert.Equal(t, "ValueError", exc.Type)
}
