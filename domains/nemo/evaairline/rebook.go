package evaairline

import (
	"context"
	"strings"

	"github.com/voiceeval/schematools/internal/pyvalue"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

// newJourney is the new journey in RebookFlightTool's result.
type newJourney struct {
	JourneyID   string `json:"journey_id"`
	NumStops    any    `json:"num_stops"`
	Segments    any    `json:"segments"`
	Departure   any    `json:"departure"`
	Arrival     any    `json:"arrival"`
	Origin      any    `json:"origin"`
	Destination any    `json:"destination"`
}

// costSummary is the cost summary in RebookFlightTool's result.
type costSummary struct {
	OriginalFareClass any  `json:"original_fare_class"`
	NewFareClass      any  `json:"new_fare_class"`
	CabinChanged      bool `json:"cabin_changed"`
	ChangeFee         any  `json:"change_fee"`
	FareDifference    any  `json:"fare_difference"`
	CreditDue         any  `json:"credit_due"`
	TotalCollected    any  `json:"total_collected"`
	FeeWaived         bool `json:"fee_waived"`
}

// replacedSegment is the replaced leg of a partial rebook.
type replacedSegment struct {
	FlightNumber string `json:"flight_number"`
	Origin       any    `json:"origin"`
	Destination  any    `json:"destination"`
	FarePaid     any    `json:"fare_paid"`
}

// keptSegment is a kept leg of a partial rebook.
type keptSegment struct {
	FlightNumber any `json:"flight_number"`
	Origin       any `json:"origin"`
	Destination  any `json:"destination"`
	FarePaid     any `json:"fare_paid"`
	Seat         any `json:"seat"`
}

// rebookResult is RebookFlightTool's success; the last three keys only
// for a partial rebook.
type rebookResult struct {
	Status             string           `json:"status"`
	ConfirmationNumber string           `json:"confirmation_number"`
	NewJourney         newJourney       `json:"new_journey"`
	CostSummary        costSummary      `json:"cost_summary"`
	Message            string           `json:"message"`
	PartialRebook      *bool            `json:"partial_rebook,omitempty"`
	ReplacedSegment    *replacedSegment `json:"replaced_segment,omitempty"`
	KeptSegments       *[]keptSegment   `json:"kept_segments,omitempty"`
}

// voluntaryChangeFees are the change fees of a voluntary change, by the
// original fare class (75 for any other).
// bookingKeys are a booking's keys in the order of the original's dict
// literals (see state.Order.Keep).
var bookingKeys = []string{"journey_id", "fare_class", "fare_paid", "status", "segments"}

var voluntaryChangeFees = map[string]int64{"basic_economy": 75, "main_cabin": 75, "premium_economy": 75, "business": 0, "first": 0}

// fareClassKey is a fare class from the DB as a key ("" when it is not a
// string, which no key equals).
func fareClassKey(v any) string {
	s, _ := v.(string)
	return s
}

// runRebookFlight moves a booking (or, with flight_number, one leg of it)
// to another journey: the old booking is cancelled, a new one added (with
// the replaced booking's bags and meal carried over, no seat), the kept
// legs of a partial rebook kept as a booking of their own, seats moved
// between the journeys, and the fees computed as the original does.
func runRebookFlight(ctx context.Context, t *evaTool, v values) (any, error) {
	return t.write(ctx, []string{tableReservations, tableJourneys}, func(db map[string]any, o *state.Order) (any, state.Action, error) {
		confirmation := upper(v.str("confirmation_number"))
		journeyID, newJourneyID := v.str("journey_id"), v.str("new_journey_id")
		rebookingType := v.str("rebooking_type")
		waive, _ := v["waive_change_fee"].(bool)
		newFareClass := v.str("new_fare_class")
		flightNumber := v.str("flight_number")

		res, booking, fail := reservationBooking(db, confirmation, journeyID)
		if fail != nil {
			return *fail, nil, nil
		}
		journeys := table(db, tableJourneys)
		newFlight := dict(journeys[newJourneyID])
		if len(newFlight) == 0 {
			return tool.Failure("flight_not_found", "Flight "+newJourneyID+" not found"), nil, nil
		}
		if !pyvalue.Truthy(getOr(newFlight, "bookable", true)) {
			return tool.Failure("not_bookable", "Flight "+newJourneyID+" is not available for booking"), nil, nil
		}
		originalClass := getOr(booking, "fare_class", "main_cabin")
		var target any = originalClass
		if newFareClass != "" {
			target = newFareClass
		}
		targetKey := fareClassKey(target)
		irrops := strings.Contains(rebookingType, "irrops")
		var changeFee int64
		switch {
		case irrops || waive:
		case rebookingType == "same_day":
			changeFee = 75
			if originalClass == "basic_economy" {
				changeFee = 199
			}
		default:
			changeFee = 75
			if f, ok := voluntaryChangeFees[fareClassKey(originalClass)]; ok {
				changeFee = f
			}
		}
		var replaced map[string]any
		if flightNumber != "" {
			targets, fail := findBookingSegment(booking, journeyID, flightNumber)
			if fail != nil {
				return *fail, nil, nil
			}
			replaced = targets[0]
		}
		var oldFare pyvalue.Num
		var err error
		if flightNumber != "" {
			oldFare, err = numAt(replaced, "fare_paid")
		} else {
			oldFare, err = bookingTotalFare(booking)
		}
		if err != nil {
			return nil, nil, err
		}
		fares := dict(getOr(newFlight, "fares", map[string]any{}))
		newFareValue := fares[targetKey]
		if newFareValue == nil {
			return tool.Failure("fare_class_not_available", "Fare class '"+pyvalue.Str(target)+"' is not available on flight "+newJourneyID), nil, nil
		}
		avail, _, err := journeySeats(newFlight)
		if err != nil {
			return nil, nil, err
		}
		if c, ok := cmpNum(getOr(avail, targetKey, int64(0)), int64(0)); !ok || c <= 0 {
			if !ok {
				if _, err := pyvalue.Less(int64(0), getOr(avail, targetKey, int64(0))); err != nil {
					return nil, nil, pyErr(err)
				}
			}
			return tool.Failure("no_seats_available", "No seats available in "+pyvalue.Str(target)+" on flight "+newJourneyID), nil, nil
		}
		newFare, err := num(newFareValue)
		if err != nil {
			return nil, nil, err
		}
		fareDifference, err := newFare.Sub(oldFare)
		if err != nil {
			return nil, nil, pyErr(err)
		}
		creditDue := maxZero(fareDifference.Neg())
		toCollect := maxZero(fareDifference)
		totalCollected := pyvalue.IntNum(0)
		if !irrops {
			if totalCollected, err = pyvalue.IntNum(changeFee).Add(toCollect); err != nil {
				return nil, nil, pyErr(err)
			}
		}

		// Every check passed: change the DB.
		bookings := list(res["bookings"])
		for _, b := range bookings {
			if bk := dict(b); bk != nil && bk["journey_id"] == journeyID {
				bk["status"] = "cancelled"
				break
			}
		}
		flightSegments := list(getOr(newFlight, "segments", []any{}))
		oldSegments := list(getOr(booking, "segments", []any{}))
		newSegments := make([]any, 0, len(flightSegments))
		for i, fs := range flightSegments {
			seg := dict(fs)
			var farePaid any
			switch {
			case irrops && flightNumber == "" && i < len(oldSegments):
				farePaid = getOr(dict(oldSegments[i]), "fare_paid", int64(0))
			case irrops && flightNumber != "" && len(flightSegments) == 1:
				farePaid = getOr(replaced, "fare_paid", int64(0))
			default:
				farePaid = getOr(dict(getOr(seg, "fares", map[string]any{})), targetKey, int64(0))
			}
			bags, meal := carriedAncillaries(oldSegments, replaced, i)
			newSegments = append(newSegments, o.Keep(map[string]any{
				"flight_number": state.Clone(seg["flight_number"]),
				"date":          state.Clone(newFlight["date"]),
				"fare_paid":     state.Clone(farePaid),
				"seat":          nil,
				"bags_checked":  bags,
				"meal_request":  meal,
			}, "flight_number", "date", "fare_paid", "seat", "bags_checked", "meal_request"))
		}
		newBookingFare := newFareValue
		if irrops {
			newBookingFare = dbNum(oldFare)
		}
		bookings = append(bookings, o.Keep(map[string]any{
			"journey_id": newJourneyID,
			"fare_class": state.Clone(target),
			"fare_paid":  state.Clone(newBookingFare),
			"status":     "confirmed",
			"segments":   newSegments,
		}, bookingKeys...))
		var kept []keptSegment
		if flightNumber != "" {
			var keptSegs []any
			for _, s := range oldSegments {
				if dict(s)["flight_number"] != flightNumber {
					keptSegs = append(keptSegs, s)
				}
			}
			if len(keptSegs) > 0 {
				sum, err := sumFares(keptSegs)
				if err != nil {
					return nil, nil, err
				}
				bookings = append(bookings, o.Keep(map[string]any{
					"journey_id": journeyID,
					"fare_class": state.Clone(originalClass),
					"fare_paid":  dbNum(sum),
					"status":     "confirmed",
					"segments":   o.Clone(keptSegs), // copy.deepcopy: each segment in its order
				}, bookingKeys...))
				for _, s := range keptSegs {
					seg := dict(s)
					kept = append(kept, keptSegment{
						FlightNumber: state.Clone(seg["flight_number"]), Origin: state.Clone(seg["origin"]),
						Destination: state.Clone(seg["destination"]), FarePaid: state.Clone(seg["fare_paid"]), Seat: state.Clone(seg["seat"]),
					})
				}
			}
		}
		res["bookings"] = bookings
		res["status"] = "changed"
		if err := moveSeat(o, flightSegments, targetKey, -1); err != nil {
			return nil, nil, err
		}
		if oldFlight := dict(journeys[strGet(booking, "journey_id")]); len(oldFlight) > 0 {
			if err := moveSeat(o, list(getOr(oldFlight, "segments", []any{})), fareClassKey(originalClass), +1); err != nil {
				return nil, nil, err
			}
		}

		result := rebookResult{
			Status:             statusSuccess,
			ConfirmationNumber: confirmation,
			NewJourney: newJourney{
				JourneyID: newJourneyID, NumStops: state.Clone(getOr(newFlight, "num_stops", int64(0))),
				Segments: getOr(newFlight, "segments", []any{}), // the DB's own: write copies the result in key order
				Origin:   state.Clone(newFlight["origin"]), Destination: state.Clone(newFlight["destination"]),
			},
			CostSummary: costSummary{
				OriginalFareClass: state.Clone(originalClass), NewFareClass: state.Clone(target),
				CabinChanged: !pyvalue.Equal(originalClass, target), ChangeFee: changeFee,
				FareDifference: dbNum(fareDifference), CreditDue: dbNum(creditDue), TotalCollected: dbNum(totalCollected),
				FeeWaived: irrops || waive,
			},
			Message: "Successfully rebooked to flight " + newJourneyID,
		}
		if segs := list(newFlight["segments"]); len(segs) > 0 {
			dep, err := mustKey(dict(segs[0]), "scheduled_departure")
			if err != nil {
				return nil, nil, err
			}
			arr, err := mustKey(dict(segs[len(segs)-1]), "scheduled_arrival")
			if err != nil {
				return nil, nil, err
			}
			result.NewJourney.Departure, result.NewJourney.Arrival = state.Clone(dep), state.Clone(arr)
		}
		if !pyvalue.Equal(originalClass, target) {
			result.Message += " in " + pyvalue.Str(target)
		}
		if flightNumber != "" {
			yes := true
			if kept == nil {
				kept = []keptSegment{}
			}
			result.PartialRebook = &yes
			result.ReplacedSegment = &replacedSegment{
				FlightNumber: flightNumber, Origin: state.Clone(replaced["origin"]),
				Destination: state.Clone(replaced["destination"]), FarePaid: state.Clone(replaced["fare_paid"]),
			}
			result.KeptSegments = &kept
		}
		action := state.Action{
			"action_type":         ActionRebookFlight,
			"confirmation_number": confirmation,
			"old_journey_id":      journeyID,
			"new_journey_id":      newJourneyID,
			"rebooking_type":      rebookingType,
			"original_fare_class": state.Clone(originalClass),
			"new_fare_class":      state.Clone(target),
			"change_fee":          changeFee,
			"fare_difference":     dbNum(fareDifference),
			"total_collected":     dbNum(totalCollected),
			"partial_rebook":      flightNumber != "",
		}
		if flightNumber != "" {
			action["replaced_flight_number"] = flightNumber
		}
		return result, action, nil
	})
}

// carriedAncillaries is what a new segment inherits from the booking it
// replaces: bags_checked (or 0) and meal_request, from the replaced leg of
// a partial rebook, else the old segment at the same position, else the
// first old segment.
func carriedAncillaries(old []any, replaced map[string]any, i int) (bags, meal any) {
	var source map[string]any
	switch {
	case replaced != nil:
		source = replaced
	case i < len(old):
		source = dict(old[i])
	case len(old) > 0:
		source = dict(old[0])
	}
	bags = state.Clone(source["bags_checked"])
	if !pyvalue.Truthy(bags) {
		bags = int64(0)
	}
	return bags, state.Clone(source["meal_request"])
}

// moveSeat adds delta to the available seats of fareClass on each
// segment (setdefault("available_seats", {}); get(fc, 0) + delta).
// New keys go last in o's key order, as the original's setdefault and
// assignment put them.
func moveSeat(o *state.Order, segments []any, fareClass string, delta int64) error {
	for _, s := range segments {
		seg := dict(s)
		if seg == nil {
			continue
		}
		seats, ok := seg["available_seats"]
		if !ok {
			seats = map[string]any{}
			o.Set(seg, "available_seats", seats)
		}
		m := dict(seats)
		if m == nil {
			return pyvalue.StrError{Exc: pyvalue.Raise("TypeError", "'%s' object does not support item assignment", pyvalue.TypeName(seats))}
		}
		n, err := numAt(m, fareClass)
		if err != nil {
			return err
		}
		if n, err = n.Add(pyvalue.IntNum(delta)); err != nil {
			return pyErr(err)
		}
		o.Set(m, fareClass, dbNum(n))
	}
	return nil
}

func journeyNotFound(journeyID string) tool.FailureResult {
	return tool.Failure("journey_not_found", "Journey "+journeyID+" not found in reservation")
}
