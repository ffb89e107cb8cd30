package airline

import (
	"github.com/voiceeval/schematools/dbhash"
	"github.com/voiceeval/schematools/domains/tau2/tau2tools"
	"github.com/voiceeval/schematools/internal/pyvalue"
	"github.com/voiceeval/schematools/tool"
)

// DirectFlight is one flight found by a search: the flight, its schedule,
// and that day's seats and prices. Values come from the DB as they are
// (a missing one is null).
type DirectFlight struct {
	FlightNumber           any    `json:"flight_number"`
	Origin                 any    `json:"origin"`
	Destination            any    `json:"destination"`
	Status                 string `json:"status"`
	ScheduledDepartureTime any    `json:"scheduled_departure_time_est"`
	ScheduledArrivalTime   any    `json:"scheduled_arrival_time_est"`
	AvailableSeats         any    `json:"available_seats"`
	Prices                 any    `json:"prices"`
}

// Leg is one flight of a one-stop connection: a DirectFlight and its
// date.
type Leg struct {
	DirectFlight
	Date string `json:"date"`
}

// DirectFlightsResult is search_direct_flight's result.
type DirectFlightsResult struct {
	Status  string         `json:"status"`
	Flights []DirectFlight `json:"flights"`
}

// OnestopFlightsResult is search_onestop_flight's result: pairs of legs.
type OnestopFlightsResult struct {
	Status         string   `json:"status"`
	OnestopFlights [][2]Leg `json:"onestop_flights"`
}

// NewSearchDirectFlight builds search_direct_flight
// (SearchDirectFlightTool): the flights from origin to destination whose
// status on the date is "available", in flight-number order. Airport codes
// are matched exactly (not case-folded), as in the Python original.
func NewSearchDirectFlight(opts *tool.Options) (*tool.Typed[SearchParams], error) {
	return tau2tools.NewReadTool(Domain, NameSearchDirectFlight,
		func(db map[string]any, p SearchParams) (any, error) {
			found, err := searchDirect(db, p.Date, p.Origin, p.Destination, nil)
			if err != nil {
				return nil, err
			}
			return DirectFlightsResult{Status: tau2tools.Success, Flights: found}, nil
		}, opts)
}

// NewSearchOnestopFlight builds search_onestop_flight
// (SearchOnestopFlightTool): every available first leg from origin on the
// date paired with every available second leg from its destination to
// destination that leaves at or after the first leg's arrival time (as
// text). When the first leg arrives the next day ("+1" in its arrival
// time), the second leg is searched on "2024-05-" followed by the date's
// last two characters read as a number plus one — not zero-padded, so
// the day after "2024-05-05" is "2024-05-6", which matches no flight. This
// is tau2's rule, kept as it is.
func NewSearchOnestopFlight(opts *tool.Options) (*tool.Typed[SearchParams], error) {
	return tau2tools.NewReadTool(Domain, NameSearchOnestopFlight,
		func(db map[string]any, p SearchParams) (any, error) {
			firsts, err := searchDirect(db, p.Date, p.Origin, nil, nil)
			if err != nil {
				return nil, err
			}
			pairs := [][2]Leg{}
			for _, first := range firsts {
				// Python's "+1" in (arrival or ""): the first leg lands the next day.
				nextDay, err := tau2tools.PyIn("+1", first.ScheduledArrivalTime)
				if err != nil {
					return nil, err
				}
				date2 := p.Date
				if nextDay {
					if date2, err = dayAfter(p.Date); err != nil {
						return nil, err
					}
				}
				seconds, err := searchDirect(db, date2, first.Destination, p.Destination, first.ScheduledArrivalTime)
				if err != nil {
					return nil, err
				}
				for _, second := range seconds {
					pairs = append(pairs, [2]Leg{{first, p.Date}, {second, date2}})
				}
			}
			return OnestopFlightsResult{Status: tau2tools.Success, OnestopFlights: pairs}, nil
		}, opts)
}

// searchDirect finds the flights available on date. origin and destination
// filter when not nil, with Python's == against the DB's values; leaveAfter,
// when not nil, drops flights scheduled to leave before it (text order).
func searchDirect(db map[string]any, date string, origin, destination, leaveAfter any) ([]DirectFlight, error) {
	flights, err := tau2tools.GetDictOr(db, tableFlights)
	if err != nil {
		return nil, err
	}
	found := []DirectFlight{}
	for _, key := range tau2tools.SortedKeys(flights) {
		flight, err := tau2tools.AsDict(flights[key])
		if err != nil {
			return nil, err
		}
		dates, err := tau2tools.GetDictOr(flight, "dates")
		if err != nil {
			return nil, err
		}
		if origin != nil && !dbhash.Equal(flight["origin"], origin) {
			continue
		}
		if destination != nil && !dbhash.Equal(flight["destination"], destination) {
			continue
		}
		dayV, ok := dates[date]
		if !ok {
			continue
		}
		day, err := tau2tools.AsDict(dayV)
		if err != nil {
			return nil, err
		}
		if !pyvalue.Equal(day["status"], "available") {
			continue
		}
		if leaveAfter != nil {
			before, err := leavesBefore(flight, leaveAfter)
			if err != nil {
				return nil, err
			}
			if before {
				continue
			}
		}
		found = append(found, DirectFlight{
			FlightNumber:           flight["flight_number"],
			Origin:                 flight["origin"],
			Destination:            flight["destination"],
			Status:                 "available",
			ScheduledDepartureTime: flight["scheduled_departure_time_est"],
			ScheduledArrivalTime:   flight["scheduled_arrival_time_est"],
			AvailableSeats:         day["available_seats"], // the DB's own: NewReadTool copies the result
			Prices:                 day["prices"],
		})
	}
	return found, nil
}

// leavesBefore is Python's flight.get("scheduled_departure_time_est", "")
// < leaveAfter, for strings; other types cannot be ordered.
func leavesBefore(flight map[string]any, leaveAfter any) (bool, error) {
	dep, ok := flight["scheduled_departure_time_est"]
	if !ok {
		dep = ""
	}
	d, ok1 := dep.(string)
	l, ok2 := leaveAfter.(string)
	if !ok1 || !ok2 {
		return false, tau2tools.Raise("TypeError", "'<' not supported between instances of '%s' and '%s'",
			pyvalue.TypeName(dep), pyvalue.TypeName(leaveAfter))
	}
	return d < l, nil
}

// dayAfter is tau2's next-day rule: "2024-05-" and int(date[-2:]) + 1,
// not zero-padded. A date whose last two characters are not a number
// raises Python's ValueError.
func dayAfter(date string) (string, error) {
	r := []rune(date)
	n, err := pyvalue.ParseInt(string(r[max(0, len(r)-2):]))
	if err != nil {
		return "", tau2tools.Exception(err)
	}
	next, err := n.Add(pyvalue.IntNum(1))
	return "2024-05-" + next.String(), err
}
