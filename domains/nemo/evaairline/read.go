package evaairline

import (
	"context"
	"slices"
	"sort"
	"strings"

	"github.com/voiceeval/schematools/internal/pyvalue"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

const statusSuccess = "success"

// reservationResult is GetReservationTool's success.
type reservationResult struct {
	Status      string `json:"status"`
	Reservation any    `json:"reservation"`
}

func notFound(message string) tool.FailureResult { return tool.Failure("not_found", message) }

func reservationNotFound(confirmation string) tool.FailureResult {
	return notFound("Reservation " + confirmation + " not found")
}

// runGetReservation authenticates the caller: the reservation, its
// bookings sorted by their first segment's date then journey id, when a
// passenger's last name matches (case-insensitively); an empty last name
// skips the check.
func runGetReservation(_ context.Context, t *evaTool, v values) (any, error) {
	return t.read(func(db map[string]any, o *state.Order) (any, error) {
		confirmation := upper(v.str("confirmation_number"))
		lastName := v.str("last_name")
		res := lookupReservation(db, confirmation)
		if res == nil {
			return reservationNotFound(confirmation), nil
		}
		if lastName != "" {
			want := pyvalue.Lower(lastName)
			match := false
			for _, p := range list(getOr(res, "passengers", []any{})) {
				if pyvalue.Lower(strGet(dict(p), "last_name")) == want {
					match = true
					break
				}
			}
			if !match {
				return tool.Failure("authentication_failed", "Last name does not match reservation "+confirmation), nil
			}
		}
		// copy.deepcopy of the reservation (read's Copy, in its key order),
		// with its bookings sorted: a dict holding the DB's own values but
		// a sorted copy of the list.
		bookings, ok := res["bookings"].([]any)
		if !ok {
			return nil, pyvalue.StrError{Exc: pyvalue.Raise("KeyError", "'bookings'")}
		}
		bookings = slices.Clone(bookings)
		if err := sortBookings(bookings); err != nil {
			return nil, err
		}
		keys := o.Of(res)
		out := make(pyvalue.Dict, len(keys))
		for i, k := range keys {
			out[i] = pyvalue.Item{Key: k, Value: res[k]}
			if k == "bookings" {
				out[i].Value = bookings
			}
		}
		return reservationResult{Status: statusSuccess, Reservation: out}, nil
	})
}

// sortBookings sorts bookings (stably) by (first segment's date, journey
// id), as the original's key does.
func sortBookings(bookings []any) error {
	type key struct{ date, id any }
	keys := make([]key, len(bookings))
	for i, b := range bookings {
		bk := dict(b)
		segs := list(getOr(bk, "segments", []any{map[string]any{}}))
		if len(segs) == 0 {
			return pyvalue.StrError{Exc: pyvalue.Raise("IndexError", "list index out of range")}
		}
		keys[i] = key{getOr(dict(segs[0]), "date", ""), getOr(bk, "journey_id", "")}
	}
	idx := make([]int, len(bookings))
	for i := range idx {
		idx[i] = i
	}
	var firstErr error
	less := func(a, b any) bool {
		l, err := pyvalue.Less(a, b)
		if err != nil && firstErr == nil {
			firstErr = pyvalue.StrError{Exc: asPyError(err)}
		}
		return l
	}
	sort.SliceStable(idx, func(i, j int) bool {
		a, b := keys[idx[i]], keys[idx[j]]
		if !pyvalue.Equal(a.date, b.date) {
			return less(a.date, b.date)
		}
		return less(a.id, b.id)
	})
	if firstErr != nil {
		return firstErr
	}
	sorted := make([]any, len(bookings))
	for i, j := range idx {
		sorted[i] = bookings[j]
	}
	copy(bookings, sorted)
	return nil
}

// journeyResult is GetFlightStatusTool's success.
type journeyResult struct {
	Status  string `json:"status"`
	Journey any    `json:"journey"`
}

// runGetFlightStatus finds the journey FL_<FLIGHT>_<YYYYMMDD>, else the
// first journey (in the fixture's order) on that date with a segment of
// that flight number.
func runGetFlightStatus(_ context.Context, t *evaTool, v values) (any, error) {
	return t.read(func(db map[string]any, o *state.Order) (any, error) {
		flightNumber := upper(v.str("flight_number"))
		date := strings.ReplaceAll(v.str("flight_date"), "-", "")
		journeys := table(db, tableJourneys)
		flight := dict(journeys["FL_"+flightNumber+"_"+date])
		if len(flight) == 0 {
			flight = nil
			for _, id := range journeyOrder(journeys) {
				f := dict(journeys[id])
				if strings.ReplaceAll(strGet(f, "date"), "-", "") != date {
					continue
				}
				for _, s := range list(getOr(f, "segments", []any{})) {
					if upper(strGet(dict(s), "flight_number")) == flightNumber {
						flight = f
						break
					}
				}
				if len(flight) > 0 {
					break
				}
			}
		}
		if len(flight) == 0 {
			return notFound("Flight " + v.str("flight_number") + " not found for date " + v.str("flight_date")), nil
		}
		return journeyResult{Status: statusSuccess, Journey: flight}, nil
	})
}

// disruptionResult is GetDisruptionInfoTool's success.
type disruptionResult struct {
	Status     string `json:"status"`
	Disruption any    `json:"disruption"`
}

// runGetDisruptionInfo reads the disruption <FLIGHT>_<date>.
func runGetDisruptionInfo(_ context.Context, t *evaTool, v values) (any, error) {
	return t.read(func(db map[string]any, o *state.Order) (any, error) {
		flightNumber := upper(v.str("flight_number"))
		d := dict(table(db, tableDisruptions)[flightNumber+"_"+v.str("date")])
		if len(d) == 0 {
			return notFound("No disruption info found for flight " + flightNumber), nil
		}
		return disruptionResult{Status: statusSuccess, Disruption: d}, nil
	})
}

// option is one flight of SearchRebookingOptionsTool.
type option struct {
	JourneyID            string `json:"journey_id"`
	Origin               any    `json:"origin"`
	Destination          any    `json:"destination"`
	NumStops             any    `json:"num_stops"`
	TotalDurationMinutes any    `json:"total_duration_minutes"`
	Segments             any    `json:"segments"`
	DepartureTime        any    `json:"departure_time"`
	ArrivalTime          any    `json:"arrival_time"`
	AvailableSeats       seats  `json:"available_seats"`
	Fare                 any    `json:"fare"`
}

// seats are a journey's available seats, by fare class in the original's
// order.
type seats struct {
	BasicEconomy   any `json:"basic_economy"`
	MainCabin      any `json:"main_cabin"`
	PremiumEconomy any `json:"premium_economy"`
	Business       any `json:"business"`
	First          any `json:"first"`
}

// searchResult is SearchRebookingOptionsTool's success.
type searchResult struct {
	Status  string   `json:"status"`
	Options []option `json:"options"`
	Count   int      `json:"count"`
	Message string   `json:"message"`
}

var searchableStatuses = []string{"scheduled", "on_time", "delayed"}

// runSearchRebookingOptions lists the bookable journeys between two
// airports on a date with seats for every passenger in the fare class
// ("any": the cheapest class with seats), by departure time.
func runSearchRebookingOptions(_ context.Context, t *evaTool, v values) (any, error) {
	return t.read(func(db map[string]any, o *state.Order) (any, error) {
		origin, destination, date := upper(v.str("origin")), upper(v.str("destination")), v.str("date")
		count := v.num("passenger_count")
		fareClass := v.str("fare_class")
		journeys := table(db, tableJourneys)
		results := []option{}
		for _, id := range journeyOrder(journeys) {
			f := dict(journeys[id])
			if f["origin"] != origin || f["destination"] != destination || f["date"] != date {
				continue
			}
			if st, ok := f["status"].(string); !ok || !containsStr(searchableStatuses, st) {
				continue
			}
			if !pyvalue.Truthy(getOr(f, "bookable", false)) {
				continue
			}
			avail, order, err := journeySeats(f)
			if err != nil {
				return nil, err
			}
			enough := func(fc string) (bool, error) {
				ge, err := geCount(getOr(avail, fc, int64(0)), count)
				return ge, err
			}
			if fareClass == "any" {
				anyEnough := false
				for _, fc := range order {
					if avail[fc] == nil {
						continue
					}
					ok, err := geCount(avail[fc], count)
					if err != nil {
						return nil, err
					}
					if ok {
						anyEnough = true
						break
					}
				}
				if !anyEnough {
					continue
				}
			} else if ok, err := enough(fareClass); err != nil {
				return nil, err
			} else if !ok {
				continue
			}
			fares := dict(getOr(f, "fares", map[string]any{}))
			actual := fareClass
			if fareClass == "any" {
				var best any
				bestClass := ""
				for _, fc := range fareClasses {
					ok, err := enough(fc)
					if err != nil {
						return nil, err
					}
					if !ok || fares[fc] == nil {
						continue
					}
					if bestClass == "" {
						best, bestClass = fares[fc], fc
						continue
					}
					l, err := pyvalue.Less(fares[fc], best)
					if err != nil {
						return nil, pyErr(err)
					}
					if l {
						best, bestClass = fares[fc], fc
					}
				}
				if bestClass != "" {
					actual = bestClass
				}
			}
			segments := list(getOr(f, "segments", []any{}))
			var dep, arr any
			if len(segments) > 0 {
				var err error
				if dep, err = mustKey(dict(segments[0]), "scheduled_departure"); err != nil {
					return nil, err
				}
				if arr, err = mustKey(dict(segments[len(segments)-1]), "scheduled_arrival"); err != nil {
					return nil, err
				}
			}
			// The DB's own values: read copies the result in key order.
			at := func(fc string) any { return getOr(avail, fc, int64(0)) }
			results = append(results, option{
				JourneyID: id, Origin: f["origin"], Destination: f["destination"],
				NumStops: getOr(f, "num_stops", int64(0)), TotalDurationMinutes: f["total_duration_minutes"],
				Segments: getOr(f, "segments", []any{}), DepartureTime: dep, ArrivalTime: arr,
				AvailableSeats: seats{at("basic_economy"), at("main_cabin"), at("premium_economy"), at("business"), at("first")},
				Fare:           fares[actual],
			})
		}
		var firstErr error
		sort.SliceStable(results, func(i, j int) bool {
			l, err := pyvalue.Less(results[i].DepartureTime, results[j].DepartureTime)
			if err != nil && firstErr == nil {
				firstErr = pyErr(err)
			}
			return l
		})
		if firstErr != nil {
			return nil, firstErr
		}
		return searchResult{Status: statusSuccess, Options: results, Count: len(results), Message: itoa(len(results)) + " flight(s) found"}, nil
	})
}

// geCount is seats >= count, with Python's comparison.
func geCount(seats any, count pyvalue.Num) (bool, error) {
	l, err := pyvalue.Less(seats, count.Value())
	if err != nil {
		return false, pyErr(err)
	}
	return !l, nil
}

// mustKey is d[key]: a missing key is Python's KeyError.
func mustKey(d map[string]any, key string) (any, error) {
	v, ok := d[key]
	if !ok {
		return nil, pyvalue.StrError{Exc: pyvalue.Raise("KeyError", "%s", pyvalue.Repr(key))}
	}
	return v, nil
}

func containsStr(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
