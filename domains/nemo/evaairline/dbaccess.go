package evaairline

import (
	"github.com/voiceeval/schematools/domains/internal/pynum"
	"slices"
	"strings"

	"github.com/voiceeval/schematools/internal/pyvalue"
	"github.com/voiceeval/schematools/tool"
)

// The helpers below read the scenario DB as the original's dict code
// does. Where a DB does not have the fixtures' shape (a table that is not
// an object, a number that is not a number) Python would raise; they then
// return a Python exception, which a tool returns as its Go error (the
// live path delivers {"error": str(exc)}).

// dict is v as a dict, or nil.
func dict(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

// list is v as a list, or nil.
func list(v any) []any {
	l, _ := v.([]any)
	return l
}

// getOr is d.get(key, def).
func getOr(d map[string]any, key string, def any) any {
	if v, ok := d[key]; ok {
		return v
	}
	return def
}

// strGet is d.get(key, "") as a string ("" when it is not one).
func strGet(d map[string]any, key string) string {
	s, _ := d[key].(string)
	return s
}

// table is db.get(name, {}) as a dict: a missing table is empty.
func table(db map[string]any, name string) map[string]any {
	return dict(db[name])
}

// lookupReservation is the original's _lookup_reservation: the
// reservation under the confirmation number, upper-cased, or nil.
func lookupReservation(db map[string]any, confirmation string) map[string]any {
	r := dict(table(db, tableReservations)[pyvalue.Upper(confirmation)])
	if len(r) == 0 {
		return nil
	}
	return r
}

// findBookingJourney is _find_booking_journey: the first booking of the
// journey that is not cancelled, else the first booking of the journey.
func findBookingJourney(reservation map[string]any, journeyID string) map[string]any {
	var first map[string]any
	for _, b := range list(reservation["bookings"]) {
		bk := dict(b)
		if bk == nil || bk["journey_id"] != journeyID {
			continue
		}
		if first == nil {
			first = bk
		}
		if bk["status"] != "cancelled" {
			return bk
		}
	}
	if len(first) == 0 {
		return nil
	}
	return first
}

// reservationBooking is the prologue of the tools that change a booking:
// the reservation (else the reservation's not-found failure) and its
// booking of the journey (else the journey's).
func reservationBooking(db map[string]any, confirmation, journeyID string) (res, booking map[string]any, fail *tool.FailureResult) {
	res = lookupReservation(db, confirmation)
	if res == nil {
		f := reservationNotFound(confirmation)
		return nil, nil, &f
	}
	booking = findBookingJourney(res, journeyID)
	if booking == nil {
		f := journeyNotFound(journeyID)
		return nil, nil, &f
	}
	return res, booking, nil
}

// findBookingSegment is _find_booking_segment: the segments of the flight
// number, the only segment when none is given, or the original's error.
func findBookingSegment(booking map[string]any, journeyID, flightNumber string) ([]map[string]any, *tool.FailureResult) {
	segments := list(getOr(booking, "segments", []any{}))
	if flightNumber != "" {
		var targets []map[string]any
		for _, s := range segments {
			if seg := dict(s); seg != nil && seg["flight_number"] == flightNumber {
				targets = append(targets, seg)
			}
		}
		if len(targets) == 0 {
			f := tool.Failure("flight_not_found", "Flight "+flightNumber+" not found in journey "+journeyID)
			return nil, &f
		}
		return targets, nil
	}
	if len(segments) == 1 {
		return []map[string]any{dict(segments[0])}, nil
	}
	f := tool.Failure("flight_number_required", "Journey "+journeyID+" has "+itoa(len(segments))+" segments; flight_number is required")
	return nil, &f
}

func itoa(i int) string { return pyvalue.IntNum(int64(i)).String() }

// num reads v as a Python number; anything else is a TypeError.
func num(v any) (pyvalue.Num, error) {
	n, ok := pyvalue.NumOf(v)
	if !ok {
		return n, pyvalue.StrError{Exc: pyvalue.Raise("TypeError", "unsupported operand type(s): '%s' is not a number", pyvalue.TypeName(v))}
	}
	return n, nil
}

// numAt is d.get(key, 0) as a number.
func numAt(d map[string]any, key string) (pyvalue.Num, error) {
	return num(getOr(d, key, pyvalue.IntNum(0).Value()))
}

// sumFares is sum(s.get("fare_paid", 0) for s in segments).
func sumFares(segments []any) (pyvalue.Num, error) {
	total := pyvalue.IntNum(0)
	for _, s := range segments {
		n, err := numAt(dict(s), "fare_paid")
		if err != nil {
			return total, err
		}
		if total, err = total.Add(n); err != nil {
			return total, pyvalue.StrError{Exc: asPyError(err)}
		}
	}
	return total, nil
}

// bookingTotalFare is _get_booking_total_fare: the booking's fare_paid if
// it has one, else the sum of its segments'.
func bookingTotalFare(booking map[string]any) (pyvalue.Num, error) {
	if v, ok := booking["fare_paid"]; ok {
		return num(v)
	}
	return sumFares(list(getOr(booking, "segments", []any{})))
}

// journeySeats is _get_journey_available_seats: the first segment's seats
// by fare class, each lowered to the fewest seats any later segment has.
// Values are kept as the DB holds them.
func journeySeats(journey map[string]any) (map[string]any, []string, error) {
	segments := list(getOr(journey, "segments", []any{}))
	if len(segments) == 0 {
		return map[string]any{}, nil, nil
	}
	first := dict(getOr(dict(segments[0]), "available_seats", map[string]any{}))
	out := make(map[string]any, len(first))
	order := make([]string, 0, len(first))
	for k, v := range first {
		out[k] = v
		order = append(order, k)
	}
	slices.Sort(order)
	for _, s := range segments[1:] {
		seats := dict(getOr(dict(s), "available_seats", map[string]any{}))
		for _, fc := range order {
			a, b := getOr(out, fc, int64(0)), getOr(seats, fc, int64(0))
			less, err := pyvalue.Less(b, a)
			if err != nil {
				return nil, nil, pyvalue.StrError{Exc: asPyError(err)}
			}
			if less {
				out[fc] = b
			}
		}
	}
	return out, order, nil
}

// asPyError is err's Python exception, or a RuntimeError with its text.
func asPyError(err error) *pyvalue.Error {
	if e, ok := err.(*pyvalue.Error); ok {
		return e
	}
	return pyvalue.Raise("RuntimeError", "%s", err.Error())
}

// pyErr returns a Python exception as a tool's Go error: its Error() is
// str(exc).
func pyErr(err error) error {
	if err == nil {
		return nil
	}
	if _, ok := err.(pyvalue.StrError); ok {
		return err
	}
	return pyvalue.StrError{Exc: asPyError(err)}
}

// cmpNum compares two DB values as Python numbers: ok is false when one is
// not a number (Python would raise or compare otherwise).
func cmpNum(a, b any) (int, bool) {
	n, ok1 := pyvalue.NumOf(a)
	m, ok2 := pyvalue.NumOf(b)
	if !ok1 || !ok2 {
		return 0, false
	}
	return n.Cmp(m)
}

// dbNum is a computed number as the DB and results hold it (a json.Number
// written as Python writes it, so 0.0 stays a float).
func dbNum(n pyvalue.Num) any { return pynum.DBNumber(n) }

// maxZero is Python's max(0, n).
func maxZero(n pyvalue.Num) pyvalue.Num { return pynum.Max(pyvalue.IntNum(0), n) }

// upper is Python's str.upper().
func upper(s string) string { return pyvalue.Upper(s) }

// zfill3 is str(i).zfill(3).
func zfill3(i int) string {
	s := itoa(i)
	if len(s) < 3 {
		s = strings.Repeat("0", 3-len(s)) + s
	}
	return s
}
