package airline

import "github.com/voiceeval/schematools/examples/tau2/tau2tools"

// Values of the enumerated arguments.
const (
	FlightTypeRoundTrip = "round_trip"
	FlightTypeOneWay    = "one_way"

	CabinBusiness     = "business"
	CabinEconomy      = "economy"
	CabinBasicEconomy = "basic_economy"

	InsuranceYes = "yes"
	InsuranceNo  = "no"
)

// FlightInfo is one leg of a booking or of a new itinerary.
type FlightInfo struct {
	FlightNumber string `json:"flight_number" jsonschema_description:"The flight number, for example 'HAT001'."`
	Date         string `json:"date" jsonschema_description:"The date of the flight, as YYYY-MM-DD."`
}

// Passenger is one traveller.
type Passenger struct {
	FirstName string `json:"first_name" jsonschema_description:"The passenger's first name."`
	LastName  string `json:"last_name" jsonschema_description:"The passenger's last name."`
	DOB       string `json:"dob" jsonschema_description:"The passenger's date of birth, as YYYY-MM-DD."`
}

// Payment is one payment towards a booking: an amount taken from one of
// the user's payment methods.
type Payment struct {
	PaymentID string `json:"payment_id" jsonschema_description:"The id of a payment method in the user's profile, for example 'credit_card_7815826'."`
	Amount    int    `json:"amount" jsonschema_description:"The amount to take from this payment method, in dollars."`
}

// GetUserDetailsParams are the arguments of get_user_details, shared with
// the retail domain.
type GetUserDetailsParams = tau2tools.GetUserDetailsParams

// GetReservationDetailsParams are the arguments of
// get_reservation_details.
type GetReservationDetailsParams struct {
	ReservationID string `json:"reservation_id" jsonschema_description:"The reservation's id, for example '8JX2WO'."`
}

// ListAllAirportsParams are the (no) arguments of list_all_airports.
type ListAllAirportsParams struct{}

// SearchParams are the arguments of search_direct_flight and
// search_onestop_flight.
type SearchParams struct {
	Origin      string `json:"origin" jsonschema_description:"The three-letter code of the departure airport, for example 'JFK'."`
	Destination string `json:"destination" jsonschema_description:"The three-letter code of the arrival airport, for example 'LAX'."`
	Date        string `json:"date" jsonschema_description:"The date of travel, as YYYY-MM-DD, for example '2024-05-01'."`
}

// GetFlightStatusParams are the arguments of get_flight_status.
type GetFlightStatusParams struct {
	FlightNumber string `json:"flight_number" jsonschema_description:"The flight number, for example 'HAT001'."`
	Date         string `json:"date" jsonschema_description:"The date of the flight, as YYYY-MM-DD."`
}

// BookReservationParams are the arguments of book_reservation.
type BookReservationParams struct {
	UserID          string       `json:"user_id" jsonschema_description:"The id of the user who books, for example 'sara_doe_496'."`
	Origin          string       `json:"origin" jsonschema_description:"The three-letter code of the trip's origin, for example 'SFO'."`
	Destination     string       `json:"destination" jsonschema_description:"The three-letter code of the trip's destination, for example 'JFK'."`
	FlightType      string       `json:"flight_type" jsonschema_description:"One way or round trip." validate:"oneof=round_trip one_way"`
	Cabin           string       `json:"cabin" jsonschema_description:"The cabin class of every leg." validate:"oneof=business economy basic_economy"`
	Flights         []FlightInfo `json:"flights" jsonschema_description:"Every leg of the trip, in order: flight number and date."`
	Passengers      []Passenger  `json:"passengers" jsonschema_description:"Every passenger travelling on the reservation."`
	PaymentMethods  []Payment    `json:"payment_methods" jsonschema_description:"How the total is paid: payment method ids from the user's profile and the amount taken from each."`
	TotalBaggages   int          `json:"total_baggages" jsonschema_description:"The number of checked bags on the reservation."`
	NonfreeBaggages int          `json:"nonfree_baggages" jsonschema_description:"How many of those bags are paid for."`
	Insurance       string       `json:"insurance" jsonschema_description:"Whether the reservation includes travel insurance." validate:"oneof=yes no"`
}

// ReservationIDParams select one reservation: the arguments of
// cancel_reservation.
type ReservationIDParams struct {
	ReservationID string `json:"reservation_id" jsonschema_description:"The reservation's id, for example 'ZFA04Y'."`
}

// SendCertificateParams are the arguments of send_certificate.
type SendCertificateParams struct {
	UserID string `json:"user_id" jsonschema_description:"The id of the user who receives the certificate, for example 'sara_doe_496'."`
	Amount int    `json:"amount" jsonschema_description:"The value of the certificate, in dollars."`
}

// UpdateReservationBaggagesParams are the arguments of
// update_reservation_baggages.
type UpdateReservationBaggagesParams struct {
	ReservationID   string `json:"reservation_id" jsonschema_description:"The reservation's id, for example 'ZFA04Y'."`
	TotalBaggages   int    `json:"total_baggages" jsonschema_description:"The new number of checked bags on the reservation."`
	NonfreeBaggages int    `json:"nonfree_baggages" jsonschema_description:"The new number of bags that are paid for."`
	PaymentID       string `json:"payment_id" jsonschema_description:"The payment method that pays for added bags: an id from the user's profile, for example 'credit_card_7815826' or 'gift_card_7815826'."`
}

// UpdateReservationFlightsParams are the arguments of
// update_reservation_flights.
type UpdateReservationFlightsParams struct {
	ReservationID string       `json:"reservation_id" jsonschema_description:"The reservation's id, for example 'ZFA04Y'."`
	Cabin         string       `json:"cabin" jsonschema_description:"The cabin class of the whole reservation after the change." validate:"oneof=business economy basic_economy"`
	Flights       []FlightInfo `json:"flights" jsonschema_description:"The complete new itinerary: every leg, including the legs that do not change."`
	PaymentID     string       `json:"payment_id" jsonschema_description:"The payment method that pays (or receives) the price difference: an id from the user's profile, for example 'credit_card_7815826' or 'gift_card_7815826'."`
}

// UpdateReservationPassengersParams are the arguments of
// update_reservation_passengers.
type UpdateReservationPassengersParams struct {
	ReservationID string      `json:"reservation_id" jsonschema_description:"The reservation's id, for example 'ZFA04Y'."`
	Passengers    []Passenger `json:"passengers" jsonschema_description:"The new passenger list; it must have as many passengers as the reservation has."`
}
