package airline

import "github.com/voiceeval/schematools/domains/tau2/tau2tools"

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
	FlightNumber string `json:"flight_number"`
	Date         string `json:"date"`
}

// Passenger is one traveller.
type Passenger struct {
	FirstName string `json:"first_name"`
	LastName  string `json:"last_name"`
	DOB       string `json:"dob"`
}

// Payment is one payment towards a booking: an amount taken from one of
// the user's payment methods.
type Payment struct {
	PaymentID string `json:"payment_id"`
	Amount    int    `json:"amount"`
}

// GetUserDetailsParams are the arguments of get_user_details, shared with
// the retail domain.
type GetUserDetailsParams = tau2tools.GetUserDetailsParams

// GetReservationDetailsParams are the arguments of
// get_reservation_details.
type GetReservationDetailsParams struct {
	ReservationID string `json:"reservation_id"`
}

// ListAllAirportsParams are the (no) arguments of list_all_airports.
type ListAllAirportsParams struct{}

// SearchParams are the arguments of search_direct_flight and
// search_onestop_flight.
type SearchParams struct {
	Origin      string `json:"origin"`
	Destination string `json:"destination"`
	Date        string `json:"date"`
}

// GetFlightStatusParams are the arguments of get_flight_status.
type GetFlightStatusParams struct {
	FlightNumber string `json:"flight_number"`
	Date         string `json:"date"`
}

// BookReservationParams are the arguments of book_reservation.
type BookReservationParams struct {
	UserID          string       `json:"user_id"`
	Origin          string       `json:"origin"`
	Destination     string       `json:"destination"`
	FlightType      string       `json:"flight_type" validate:"oneof=round_trip one_way"`
	Cabin           string       `json:"cabin" validate:"oneof=business economy basic_economy"`
	Flights         []FlightInfo `json:"flights"`
	Passengers      []Passenger  `json:"passengers"`
	PaymentMethods  []Payment    `json:"payment_methods"`
	TotalBaggages   int          `json:"total_baggages"`
	NonfreeBaggages int          `json:"nonfree_baggages"`
	Insurance       string       `json:"insurance" validate:"oneof=yes no"`
}

// ReservationIDParams select one reservation: the arguments of
// cancel_reservation.
type ReservationIDParams struct {
	ReservationID string `json:"reservation_id"`
}

// SendCertificateParams are the arguments of send_certificate.
type SendCertificateParams struct {
	UserID string `json:"user_id"`
	Amount int    `json:"amount"`
}

// UpdateReservationBaggagesParams are the arguments of
// update_reservation_baggages.
type UpdateReservationBaggagesParams struct {
	ReservationID   string `json:"reservation_id"`
	TotalBaggages   int    `json:"total_baggages"`
	NonfreeBaggages int    `json:"nonfree_baggages"`
	PaymentID       string `json:"payment_id"`
}

// UpdateReservationFlightsParams are the arguments of
// update_reservation_flights.
type UpdateReservationFlightsParams struct {
	ReservationID string       `json:"reservation_id"`
	Cabin         string       `json:"cabin" validate:"oneof=business economy basic_economy"`
	Flights       []FlightInfo `json:"flights"`
	PaymentID     string       `json:"payment_id"`
}

// UpdateReservationPassengersParams are the arguments of
// update_reservation_passengers.
type UpdateReservationPassengersParams struct {
	ReservationID string      `json:"reservation_id"`
	Passengers    []Passenger `json:"passengers"`
}
