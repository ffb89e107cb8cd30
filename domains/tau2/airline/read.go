package airline

import (
	"context"

	"github.com/voiceeval/schematools/domains/tau2/tau2tools"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

// NewGetUserDetails builds get_user_details (GetUserDetailsTool). The
// user id is matched lower-cased; the result is a copy of the user record,
// or not_found "User <id> not found" naming the id as given (see
// [tau2tools.NewGetUserDetails]: the retail domain has the same tool).
func NewGetUserDetails(opts *tool.Options) (*tool.Typed[GetUserDetailsParams], error) {
	return tau2tools.NewGetUserDetails(Domain, opts)
}

// NewGetReservationDetails builds get_reservation_details
// (GetReservationDetailsTool). The reservation id is matched upper-cased;
// the result is a copy of the reservation, or not_found "Reservation <id>
// not found".
func NewGetReservationDetails(opts *tool.Options) (*tool.Typed[GetReservationDetailsParams], error) {
	return tau2tools.NewReadTool(Domain, NameGetReservationDetails,
		func(db map[string]any, p GetReservationDetailsParams) (any, error) {
			res, err := findReservation(db, p.ReservationID)
			return tau2tools.Found(res, err, "Reservation "+p.ReservationID+" not found")
		}, opts)
}

// Airport is one entry of list_all_airports.
type Airport struct {
	IATA string `json:"iata"`
	City string `json:"city"`
}

// AirportsResult is list_all_airports' result.
type AirportsResult struct {
	Status   string    `json:"status"`
	Airports []Airport `json:"airports"`
}

// airports is tau2's fixed airport list, in its order.
var airports = [...]Airport{
	{"SFO", "San Francisco"}, {"JFK", "New York"}, {"LAX", "Los Angeles"}, {"ORD", "Chicago"},
	{"DFW", "Dallas"}, {"DEN", "Denver"}, {"SEA", "Seattle"}, {"ATL", "Atlanta"},
	{"MIA", "Miami"}, {"BOS", "Boston"}, {"PHX", "Phoenix"}, {"IAH", "Houston"},
	{"LAS", "Las Vegas"}, {"MCO", "Orlando"}, {"EWR", "Newark"}, {"CLT", "Charlotte"},
	{"MSP", "Minneapolis"}, {"DTW", "Detroit"}, {"PHL", "Philadelphia"}, {"LGA", "LaGuardia"},
}

// NewListAllAirports builds list_all_airports (ListAllAirportsTool): the
// 20 airports of tau2's fixed list. It takes no arguments and never reads
// the DB.
func NewListAllAirports(opts *tool.Options) (*tool.Typed[ListAllAirportsParams], error) {
	return tau2tools.New(Domain, NameListAllAirports,
		func(context.Context, *state.Shared, ListAllAirportsParams) (any, error) {
			return AirportsResult{Status: tau2tools.Success, Airports: append([]Airport(nil), airports[:]...)}, nil
		}, opts)
}

// FlightStatusResult is get_flight_status' result.
type FlightStatusResult struct {
	Status       string `json:"status"`
	FlightStatus any    `json:"flight_status"`
}

// NewGetFlightStatus builds get_flight_status (GetFlightStatusTool): the
// status of the flight on the date ("available", "landed", "cancelled",
// "on time", "flying", "delayed"), or not_found "Flight <number> not found
// on date <date>". The flight number is matched upper-cased.
func NewGetFlightStatus(opts *tool.Options) (*tool.Typed[GetFlightStatusParams], error) {
	return tau2tools.NewReadTool(Domain, NameGetFlightStatus,
		func(db map[string]any, p GetFlightStatusParams) (any, error) {
			day, err := findFlightDate(db, p.FlightNumber, p.Date)
			if err != nil {
				return nil, err
			}
			if day == nil {
				return tau2tools.NotFound("Flight " + p.FlightNumber + " not found on date " + p.Date), nil
			}
			d, err := tau2tools.AsDict(day)
			if err != nil {
				return nil, err
			}
			return FlightStatusResult{Status: tau2tools.Success, FlightStatus: state.Clone(d["status"])}, nil
		}, opts)
}
