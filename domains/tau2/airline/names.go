package airline

import "github.com/voiceeval/schematools/domains/tau2/tau2tools"

// Domain is the tool domain of the tau2 airline port.
const Domain = "tau2_airline"

// Keys are the tau2 (snake_case) names of the tools: gold actions name
// tools by them, and the write tools record them as action types.
const (
	KeyGetUserDetails              = "get_user_details"
	KeyGetReservationDetails       = "get_reservation_details"
	KeyListAllAirports             = "list_all_airports"
	KeySearchDirectFlight          = "search_direct_flight"
	KeySearchOnestopFlight         = "search_onestop_flight"
	KeyGetFlightStatus             = "get_flight_status"
	KeyBookReservation             = "book_reservation"
	KeyCancelReservation           = "cancel_reservation"
	KeySendCertificate             = "send_certificate"
	KeyUpdateReservationBaggages   = "update_reservation_baggages"
	KeyUpdateReservationFlights    = "update_reservation_flights"
	KeyUpdateReservationPassengers = "update_reservation_passengers"
	KeyCalculate                   = tau2tools.KeyCalculate
	KeyTransferToHumanAgents       = tau2tools.KeyTransferToHumanAgents
)

// Names are the names the model sees and the registry keys on: the
// Python original's class names.
const (
	NameGetUserDetails              = "GetUserDetailsTool"
	NameGetReservationDetails       = "GetReservationDetailsTool"
	NameListAllAirports             = "ListAllAirportsTool"
	NameSearchDirectFlight          = "SearchDirectFlightTool"
	NameSearchOnestopFlight         = "SearchOnestopFlightTool"
	NameGetFlightStatus             = "GetFlightStatusTool"
	NameBookReservation             = "BookReservationTool"
	NameCancelReservation           = "CancelReservationTool"
	NameSendCertificate             = "SendCertificateTool"
	NameUpdateReservationBaggages   = "UpdateReservationBaggagesTool"
	NameUpdateReservationFlights    = "UpdateReservationFlightsTool"
	NameUpdateReservationPassengers = "UpdateReservationPassengersTool"
	NameCalculate                   = tau2tools.NameCalculate
	NameTransferToHumanAgents       = tau2tools.NameTransferToHumanAgents
)

// ActionTypes returns the action types the domain's write tools record.
func ActionTypes() []string {
	return []string{
		KeyBookReservation,
		KeyCancelReservation,
		KeySendCertificate,
		KeyUpdateReservationBaggages,
		KeyUpdateReservationFlights,
		KeyUpdateReservationPassengers,
		KeyTransferToHumanAgents,
	}
}
