package airline

import (
	"fmt"
	"github.com/voiceeval/schematools/domains/internal/pynum"

	"github.com/voiceeval/schematools/domains/tau2/tau2tools"
	"github.com/voiceeval/schematools/internal/pyvalue"
	"github.com/voiceeval/schematools/state"
)

// Tables of the airline DB.
const (
	tableFlights      = "flights"
	tableReservations = "reservations"
)

// createdAt is the creation time of every new reservation: tau2 pins its
// clock to this moment.
const createdAt = "2024-05-15T15:00:00"

// newReservationIDs are the ids a new reservation may take, the first one
// free wins; tau2 books at most three reservations per task.
var newReservationIDs = []string{"HATHAT", "HATHAU", "HATHAV"}

// newCertificateIDs are the ids a new certificate may take, per user.
var newCertificateIDs = []string{"certificate_3221322", "certificate_3221323", "certificate_3221324"}

// Extra costs, in dollars.
const (
	insurancePerPassenger = 30
	pricePerNonfreeBag    = 50
)

// findReservation returns the reservation whose id is key, matched
// upper-cased, or nil.
func findReservation(db map[string]any, key string) (any, error) {
	reservations, err := tau2tools.GetDict(db, tableReservations)
	if err != nil {
		return nil, err
	}
	return tau2tools.GetFolded(reservations, key, pyvalue.Upper, "upper")
}

// findFlight returns the flight whose number is key, matched upper-cased,
// or nil.
func findFlight(db map[string]any, key string) (any, error) {
	flights, err := tau2tools.GetDict(db, tableFlights)
	if err != nil {
		return nil, err
	}
	return tau2tools.GetFolded(flights, key, pyvalue.Upper, "upper")
}

// findFlightDate returns what the flight numbered key holds for date (its
// status that day, seats and prices), or nil when the flight or the date
// is unknown.
func findFlightDate(db map[string]any, key, date string) (any, error) {
	flight, err := findFlight(db, key)
	if err != nil || flight == nil {
		return nil, err
	}
	f, err := tau2tools.AsDict(flight)
	if err != nil {
		return nil, err
	}
	dates, err := tau2tools.GetDictOr(f, "dates")
	if err != nil {
		return nil, err
	}
	return dates[date], nil
}

// pydanticInt validates v as pydantic's lax int does for a stored model
// field: ints and booleans as they are, whole floats as ints; anything
// else is a validation error (returned as its message).
func pydanticInt(v any) (int64, string) {
	n, ok := pyvalue.NumOf(v)
	if !ok {
		if _, ok := v.(string); ok {
			return 0, "Input should be a valid integer, unable to parse string as an integer [type=int_parsing]"
		}
		return 0, "Input should be a valid integer [type=int_type]"
	}
	if !n.IsFloat() {
		i, ok := n.Int64()
		if !ok { // an int beyond 64 bits
			return 0, "Input should be a valid integer [type=int_type]"
		}
		return i, ""
	}
	f, _ := n.Float64()
	if f != f || f > 9.2e18 || f < -9.2e18 {
		return 0, "Input should be a finite number [type=finite_number]"
	}
	if f != float64(int64(f)) {
		return 0, "Input should be a valid integer, got a number with a fractional part [type=int_from_float]"
	}
	return int64(f), ""
}

// Key orders of the records the write tools build, as the Python
// original's pydantic models dump them (fields in declaration order) or
// its dict literals write them (see state.Order.Keep).
var (
	// reservationKeys are the Reservation model's fields.
	reservationKeys = []string{"reservation_id", "user_id", "origin", "destination", "flight_type", "cabin", "flights",
		"passengers", "payment_history", "created_at", "total_baggages", "nonfree_baggages", "insurance", "status"}
	// reservationFlightKeys are the ReservationFlight model's fields
	// (FlightBase's first): not the order of the legs in the tau2 data.
	reservationFlightKeys = []string{"flight_number", "origin", "destination", "date", "price"}
	// paymentKeys are a payment_history entry's keys.
	paymentKeys = []string{"payment_id", "amount"}
	// passengerKeys are the Passenger model's fields.
	passengerKeys = []string{"first_name", "last_name", "dob"}
	// certificateKeys are those of the certificate send_certificate adds.
	certificateKeys = []string{"source", "id", "amount"}
)

// keepAll notes the key order keys of every object of list, and returns
// list.
func keepAll(o *state.Order, list []any, keys []string) []any {
	for _, v := range list {
		if m, ok := v.(map[string]any); ok {
			o.Keep(m, keys...)
		}
	}
	return list
}

// reservationFlight builds one leg of a reservation as the Python
// original's ReservationFlight model dumps it, validating the values it
// takes from the DB as the model does. Its key order is
// reservationFlightKeys'.
func reservationFlight(flightNumber, date string, origin, destination, price any) (map[string]any, error) {
	var problems []string
	check := func(field string, v any) {
		if _, ok := v.(string); !ok {
			problems = append(problems, field+"\n  Input should be a valid string [type=string_type]")
		}
	}
	check("origin", origin)
	check("destination", destination)
	p, msg := pydanticInt(price)
	if msg != "" {
		problems = append(problems, "price\n  "+msg)
	}
	if len(problems) > 0 {
		head := "1 validation error"
		if len(problems) > 1 {
			head = fmt.Sprintf("%d validation errors", len(problems))
		}
		msg := head + " for ReservationFlight"
		for _, p := range problems {
			msg += "\n" + p
		}
		return nil, tau2tools.Raise("ValidationError", "%s", msg)
	}
	return map[string]any{
		"flight_number": flightNumber,
		"origin":        origin,
		"destination":   destination,
		"date":          date,
		"price":         pynum.DBNumber(pyvalue.IntNum(p)),
	}, nil
}
