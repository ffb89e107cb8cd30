package evaairline

import (
	"context"
	"maps"
	"strings"

	"github.com/voiceeval/schematools/internal/pyvalue"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

// cancelResult is CancelReservationTool's success.
type cancelResult struct {
	Status               string `json:"status"`
	ConfirmationNumber   string `json:"confirmation_number"`
	JourneyID            string `json:"journey_id"`
	IsRefundable         bool   `json:"is_refundable"`
	CancellationFee      int64  `json:"cancellation_fee"`
	RefundAmountEligible any    `json:"refund_amount_eligible"`
	CreditAmountEligible any    `json:"credit_amount_eligible"`
	ReservationStatus    string `json:"reservation_status"`
	Message              string `json:"message"`
}

// runCancelReservation cancels one journey of a reservation (the
// reservation too once every booking is cancelled), gives its seat back,
// and says what refund or credit is due.
func runCancelReservation(ctx context.Context, t *evaTool, v values) (any, error) {
	return t.write(ctx, []string{tableReservations, tableJourneys}, func(db map[string]any, o *state.Order) (any, state.Action, error) {
		confirmation := upper(v.str("confirmation_number"))
		journeyID, reason := v.str("journey_id"), v.str("cancellation_reason")
		res, booking, fail := reservationBooking(db, confirmation, journeyID)
		if fail != nil {
			return *fail, nil, nil
		}
		if booking["status"] == "cancelled" {
			return tool.Failure("already_cancelled", "Journey "+journeyID+" is already cancelled"), nil, nil
		}
		fare, err := bookingTotalFare(booking)
		if err != nil {
			return nil, nil, err
		}
		refundable := reason == "irrops_refund" || reason == "24_hour_rule" || res["fare_type"] == "refundable"
		var fee int64 = 100
		if refundable {
			fee = 0
		}
		net, err := fare.Sub(pyvalue.IntNum(fee))
		if err != nil {
			return nil, nil, pyErr(err)
		}
		refund, credit := pyvalue.IntNum(0), pyvalue.IntNum(0)
		if refundable {
			refund = maxZero(net)
		} else {
			credit = maxZero(net)
		}
		fareClass := fareClassKey(getOr(booking, "fare_class", "main_cabin"))
		if f := dict(table(db, tableJourneys)[journeyID]); len(f) > 0 {
			if err := moveSeat(o, list(getOr(f, "segments", []any{})), fareClass, +1); err != nil {
				return nil, nil, err
			}
		}
		booking["status"] = "cancelled"
		all := true
		for _, b := range list(getOr(res, "bookings", []any{})) {
			if dict(b)["status"] != "cancelled" {
				all = false
				break
			}
		}
		status := "active"
		if all {
			res["status"] = "cancelled"
			status = "cancelled"
		}
		action := state.Action{
			"action_type":            ActionCancelReservation,
			"confirmation_number":    confirmation,
			"journey_id":             journeyID,
			"cancellation_reason":    reason,
			"is_refundable":          refundable,
			"cancellation_fee":       fee,
			"refund_amount_eligible": dbNum(refund),
		}
		return cancelResult{
			Status: statusSuccess, ConfirmationNumber: confirmation, JourneyID: journeyID,
			IsRefundable: refundable, CancellationFee: fee, RefundAmountEligible: dbNum(refund),
			CreditAmountEligible: dbNum(credit), ReservationStatus: status,
			Message: "Journey " + journeyID + " cancelled successfully",
		}, action, nil
	})
}

// refundResult is ProcessRefundTool's success.
type refundResult struct {
	Status             string `json:"status"`
	ConfirmationNumber string `json:"confirmation_number"`
	RefundID           string `json:"refund_id"`
	RefundAmount       any    `json:"refund_amount"`
	RefundType         string `json:"refund_type"`
	ProcessingDays     int    `json:"processing_days"`
	Message            string `json:"message"`
}

const refundProcessingDays = 7

// runProcessRefund records a refund REF-<confirmation>-<nnn>, numbered by
// the scenario's process_refund call counter.
func runProcessRefund(ctx context.Context, t *evaTool, v values) (any, error) {
	confirmation := upper(v.str("confirmation_number"))
	amount, _ := v["refund_amount"].(float64)
	refundType := v.str("refund_type")
	// The counter is the state's, which a DB callback must not call: check
	// first (nothing removes a reservation), count, then write.
	early, err := t.db.Read(t.st, func(db map[string]any) (any, error) {
		if lookupReservation(db, confirmation) == nil {
			return reservationNotFound(confirmation), nil
		}
		if !(amount > 0) {
			return tool.Failure("invalid_amount", "Refund amount must be greater than 0, got "+pyvalue.Str(amount)), nil
		}
		return nil, nil
	})
	if early != nil || err != nil {
		return early, err
	}
	id := "REF-" + confirmation + "-" + zfill3(t.st.NextCallIndex(counterProcessRefund))
	amountValue := dbNum(pyvalue.FloatNum(amount))
	return t.write(ctx, []string{tableRefunds}, func(db map[string]any, o *state.Order) (any, state.Action, error) {
		refunds, date, err := datedTable(db, tableRefunds)
		if err != nil {
			return nil, nil, err
		}
		refunds[id] = o.Keep(map[string]any{
			"refund_id":           id,
			"confirmation_number": confirmation,
			"refund_amount":       amountValue,
			"refund_type":         refundType,
			"processing_days":     int64(refundProcessingDays),
			"initiated_date":      state.Clone(date),
			"status":              "processing",
		}, "refund_id", "confirmation_number", "refund_amount", "refund_type", "processing_days", "initiated_date", "status")
		action := state.Action{
			"action_type":         ActionProcessRefund,
			"confirmation_number": confirmation,
			"refund_amount":       amountValue,
			"refund_type":         refundType,
		}
		return refundResult{
			Status: statusSuccess, ConfirmationNumber: confirmation, RefundID: id, RefundAmount: amountValue,
			RefundType: refundType, ProcessingDays: refundProcessingDays,
			Message: "$" + pyvalue.Str(amount) + " refund initiated, processing time 7 business days",
		}, action, nil
	})
}

// setDefaultTable is db.setdefault(name, {}) as a dict.
func setDefaultTable(db map[string]any, name string) (map[string]any, error) {
	v, ok := db[name]
	if !ok {
		m := map[string]any{}
		db[name] = m
		return m, nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, pyvalue.StrError{Exc: pyvalue.Raise("TypeError", "'%s' object does not support item assignment", pyvalue.TypeName(v))}
	}
	return m, nil
}

// datedTable is the start of recording a row dated today:
// db.setdefault(name, {}) as a dict, then db["_current_date"].
func datedTable(db map[string]any, name string) (map[string]any, any, error) {
	t, err := setDefaultTable(db, name)
	if err != nil {
		return nil, nil, err
	}
	date, err := mustKey(db, keyCurrentDate)
	if err != nil {
		return nil, nil, err
	}
	return t, date, nil
}

// seatResult is AssignSeatTool's success.
type seatResult struct {
	Status             string `json:"status"`
	ConfirmationNumber string `json:"confirmation_number"`
	PassengerID        string `json:"passenger_id"`
	JourneyID          string `json:"journey_id"`
	FlightNumber       any    `json:"flight_number"`
	SeatAssigned       string `json:"seat_assigned"`
	FareClass          any    `json:"fare_class"`
	Preference         string `json:"preference"`
	Message            string `json:"message"`
}

var (
	seatBaseRows   = map[string]int64{"basic_economy": 25, "main_cabin": 20, "premium_economy": 10, "business": 5, "first": 1}
	seatLetters    = map[string]string{"window": "A", "aisle": "C", "middle": "B", "no_preference": "C"}
	allSeatTypes   = []any{"window", "aisle", "middle"}
	defaultBaseRow = int64(20)
)

// runAssignSeat assigns a seat on a booking's segment: row from the fare
// class plus int(passenger_id[-3:]) — a ValueError for ids of fewer than
// three digits, as in the original — and letter from the preference.
func runAssignSeat(ctx context.Context, t *evaTool, v values) (any, error) {
	return t.write(ctx, []string{tableReservations}, func(db map[string]any, o *state.Order) (any, state.Action, error) {
		confirmation := upper(v.str("confirmation_number"))
		passengerID, journeyID := v.str("passenger_id"), v.str("journey_id")
		preference, flightNumber := v.str("seat_preference"), v.str("flight_number")
		_, booking, fail := reservationBooking(db, confirmation, journeyID)
		if fail != nil {
			return *fail, nil, nil
		}
		targets, fail := findBookingSegment(booking, journeyID, flightNumber)
		if fail != nil {
			return *fail, nil, nil
		}
		seg := targets[0]
		var flight any = flightNumber
		if flightNumber == "" {
			flight = getOr(seg, "flight_number", "")
		}
		var journeySeg map[string]any
		if j := dict(table(db, tableJourneys)[journeyID]); len(j) > 0 {
			for _, s := range list(getOr(j, "segments", []any{})) {
				if js := dict(s); js != nil && pyvalue.Equal(js["flight_number"], flight) {
					journeySeg = js
					break
				}
			}
		}
		fareClass := getOr(booking, "fare_class", "main_cabin")
		fc := fareClassKey(fareClass)
		if len(journeySeg) > 0 {
			seats := getOr(dict(getOr(journeySeg, "available_seats", map[string]any{})), fc, int64(0))
			if c, ok := cmpNum(seats, int64(0)); !ok || c <= 0 {
				if !ok {
					if _, err := pyvalue.Less(int64(0), seats); err != nil {
						return nil, nil, pyErr(err)
					}
				}
				return tool.Failure("no_seats_available", "No seats available in "+pyvalue.Str(fareClass)+" fare class"), nil, nil
			}
			var available any = allSeatTypes
			if raw := dict(journeySeg["available_seat_types"]); len(raw) > 0 {
				available = getOr(raw, fc, allSeatTypes)
			}
			if preference != "no_preference" {
				in, err := pyvalue.Contains(preference, available)
				if err != nil {
					return nil, nil, pyErr(err)
				}
				if !in {
					names, err := joinStrings(available)
					if err != nil {
						return nil, nil, err
					}
					return tool.Failure("seat_type_unavailable", "No "+preference+" seats available in "+pyvalue.Str(fareClass)+
						" on this flight. Available types: "+names), nil, nil
				}
			}
		}
		index := pyvalue.IntNum(0)
		if r := []rune(passengerID); len(r) >= 3 {
			n, err := pyvalue.ParseInt(string(r[len(r)-3:]))
			if err != nil {
				return nil, nil, pyErr(err)
			}
			index = n
		}
		base, ok := seatBaseRows[fc]
		if !ok {
			base = defaultBaseRow
		}
		row, err := pyvalue.IntNum(base).Add(index)
		if err != nil {
			return nil, nil, pyErr(err)
		}
		letter, ok := seatLetters[preference]
		if !ok {
			letter = "C"
		}
		seat := row.String() + letter
		seg["seat"] = seat
		action := state.Action{
			"action_type":         ActionAssignSeat,
			"confirmation_number": confirmation,
			"passenger_id":        passengerID,
			"journey_id":          journeyID,
			"flight_number":       state.Clone(flight),
			"seat_preference":     preference,
			"seat_assigned":       seat,
		}
		return seatResult{
			Status: statusSuccess, ConfirmationNumber: confirmation, PassengerID: passengerID, JourneyID: journeyID,
			FlightNumber: state.Clone(flight), SeatAssigned: seat, FareClass: state.Clone(fareClass), Preference: preference,
			Message: "Seat " + seat + " (" + preference + ") successfully assigned",
		}, action, nil
	})
}

// joinStrings is ", ".join(v).
func joinStrings(v any) (string, error) {
	if s, ok := v.(string); ok {
		return strings.Join(strings.Split(s, ""), ", "), nil
	}
	items, ok := v.([]any)
	if !ok {
		return "", pyvalue.StrError{Exc: pyvalue.Raise("TypeError", "can only join an iterable")}
	}
	parts := make([]string, len(items))
	for i, it := range items {
		s, ok := it.(string)
		if !ok {
			return "", pyvalue.StrError{Exc: pyvalue.Raise("TypeError", "sequence item %d: expected str instance, %s found", i, pyvalue.TypeName(it))}
		}
		parts[i] = s
	}
	return strings.Join(parts, ", "), nil
}

// segmentTargets are the segments a baggage or meal change applies to,
// in the reservation's booking of the journey (see reservationBooking):
// the flight's when given, else every segment of the booking.
func segmentTargets(db map[string]any, confirmation, journeyID, flightNumber string) ([]map[string]any, *tool.FailureResult) {
	_, booking, fail := reservationBooking(db, confirmation, journeyID)
	if fail != nil {
		return nil, fail
	}
	if flightNumber != "" {
		return findBookingSegment(booking, journeyID, flightNumber)
	}
	var out []map[string]any
	for _, s := range list(getOr(booking, "segments", []any{})) {
		if seg := dict(s); seg != nil {
			out = append(out, seg)
		}
	}
	return out, nil
}

// optional is an optional argument as Python holds it: None when omitted.
func optional(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// baggageResult is AddBaggageAllowanceTool's success.
type baggageResult struct {
	Status             string `json:"status"`
	ConfirmationNumber string `json:"confirmation_number"`
	JourneyID          string `json:"journey_id"`
	BagsChecked        any    `json:"bags_checked"`
	Message            string `json:"message"`
}

// runAddBaggageAllowance sets bags_checked on the booking's segments.
func runAddBaggageAllowance(ctx context.Context, t *evaTool, v values) (any, error) {
	return t.write(ctx, []string{tableReservations}, func(db map[string]any, o *state.Order) (any, state.Action, error) {
		confirmation := upper(v.str("confirmation_number"))
		journeyID, flightNumber := v.str("journey_id"), v.str("flight_number")
		bags := v.num("num_bags")
		targets, fail := segmentTargets(db, confirmation, journeyID, flightNumber)
		if fail != nil {
			return *fail, nil, nil
		}
		for _, seg := range targets {
			seg["bags_checked"] = dbNum(bags)
		}
		action := state.Action{
			"action_type":         ActionAddBaggageAllowance,
			"confirmation_number": confirmation,
			"journey_id":          journeyID,
			"flight_number":       optional(flightNumber),
			"num_bags":            dbNum(bags),
		}
		return baggageResult{
			Status: statusSuccess, ConfirmationNumber: confirmation, JourneyID: journeyID, BagsChecked: dbNum(bags),
			Message: "Baggage allowance set to " + bags.String() + " checked bag(s)",
		}, action, nil
	})
}

// mealResult is AddMealRequestTool's success.
type mealResult struct {
	Status             string `json:"status"`
	ConfirmationNumber string `json:"confirmation_number"`
	PassengerID        string `json:"passenger_id"`
	JourneyID          string `json:"journey_id"`
	MealType           string `json:"meal_type"`
	Message            string `json:"message"`
}

// runAddMealRequest sets meal_request on the booking's segments.
func runAddMealRequest(ctx context.Context, t *evaTool, v values) (any, error) {
	return t.write(ctx, []string{tableReservations}, func(db map[string]any, o *state.Order) (any, state.Action, error) {
		confirmation := upper(v.str("confirmation_number"))
		passengerID, journeyID := v.str("passenger_id"), v.str("journey_id")
		meal, flightNumber := v.str("meal_type"), v.str("flight_number")
		targets, fail := segmentTargets(db, confirmation, journeyID, flightNumber)
		if fail != nil {
			return *fail, nil, nil
		}
		for _, seg := range targets {
			seg["meal_request"] = meal
		}
		action := state.Action{
			"action_type":         ActionAddMealRequest,
			"confirmation_number": confirmation,
			"passenger_id":        passengerID,
			"journey_id":          journeyID,
			"meal_type":           meal,
			"flight_number":       optional(flightNumber),
		}
		return mealResult{
			Status: statusSuccess, ConfirmationNumber: confirmation, PassengerID: passengerID, JourneyID: journeyID,
			MealType: meal, Message: meal + " meal request added",
		}, action, nil
	})
}

// standbyResult is AddToStandbyTool's success.
type standbyResult struct {
	Status              string `json:"status"`
	ConfirmationNumber  string `json:"confirmation_number"`
	JourneyID           string `json:"journey_id"`
	StandbyListPosition int    `json:"standby_list_position"`
	Message             string `json:"message"`
}

// runAddToStandby adds passengers to a journey's standby list (and the
// request to the reservation's, when there is one).
func runAddToStandby(ctx context.Context, t *evaTool, v values) (any, error) {
	return t.write(ctx, []string{tableJourneys, tableReservations}, func(db map[string]any, o *state.Order) (any, state.Action, error) {
		confirmation := upper(v.str("confirmation_number"))
		journeyID := v.str("journey_id")
		ids := v.strs("passenger_ids")
		flight := dict(table(db, tableJourneys)[journeyID])
		if len(flight) == 0 {
			return tool.Failure("flight_not_found", "Flight "+journeyID+" not found"), nil, nil
		}
		if flight["status"] == "cancelled" {
			return tool.Failure("flight_cancelled", "Cannot add to standby for cancelled flight"), nil, nil
		}
		res := lookupReservation(db, confirmation)
		if res != nil && len(ids) > 0 {
			valid := map[string]bool{}
			for _, p := range list(getOr(res, "passengers", []any{})) {
				if id, ok := dict(p)["passenger_id"].(string); ok {
					valid[id] = true
				}
			}
			var invalid []string
			for _, id := range ids {
				if !valid[id] {
					invalid = append(invalid, id)
				}
			}
			if len(invalid) > 0 {
				return tool.Failure("invalid_passengers", "Unknown passenger ID(s): "+strings.Join(invalid, ", ")), nil, nil
			}
		}
		standby, ok := flight["standby_list"]
		if !ok {
			standby = []any{}
		}
		flightList, ok := standby.([]any)
		if !ok {
			return nil, nil, pyvalue.StrError{Exc: pyvalue.Raise("TypeError", "object of type '%s' has no len()", pyvalue.TypeName(standby))}
		}
		position := len(flightList) + len(ids)
		if res != nil {
			rl, ok := getOr(res, "standby_list", []any{}).([]any)
			if !ok {
				return nil, nil, pyvalue.StrError{Exc: pyvalue.Raise("AttributeError", "object has no attribute 'append'")}
			}
			o.Set(res, "standby_list", append(rl, o.Keep(map[string]any{
				"journey_id":    journeyID,
				"passenger_ids": stringsAny(ids),
				"position":      int64(position),
				"status":        "pending",
			}, "journey_id", "passenger_ids", "position", "status")))
		}
		for _, id := range ids {
			flightList = append(flightList, o.Keep(map[string]any{
				"confirmation_number": confirmation,
				"passenger_id":        id,
				"position":            int64(len(flightList) + 1),
			}, "confirmation_number", "passenger_id", "position"))
		}
		o.Set(flight, "standby_list", flightList)
		action := state.Action{
			"action_type":         ActionAddToStandby,
			"confirmation_number": confirmation,
			"journey_id":          journeyID,
			"passenger_ids":       stringsAny(ids),
		}
		return standbyResult{
			Status: statusSuccess, ConfirmationNumber: confirmation, JourneyID: journeyID, StandbyListPosition: position,
			Message: "Added " + itoa(len(ids)) + " passenger(s) to standby list",
		}, action, nil
	})
}

func stringsAny(s []string) []any {
	out := make([]any, len(s))
	for i, x := range s {
		out[i] = x
	}
	return out
}

// creditResult is IssueTravelCreditTool's success.
type creditResult struct {
	Status             string `json:"status"`
	ConfirmationNumber string `json:"confirmation_number"`
	PassengerID        string `json:"passenger_id"`
	CreditCode         string `json:"credit_code"`
	Amount             any    `json:"amount"`
	ValidMonths        int    `json:"valid_months"`
	Message            string `json:"message"`
}

// runIssueTravelCredit records a travel credit TC<confirmation><PAX>,
// valid one year from the scenario's date.
func runIssueTravelCredit(ctx context.Context, t *evaTool, v values) (any, error) {
	return t.write(ctx, []string{tableTravelCredits}, func(db map[string]any, o *state.Order) (any, state.Action, error) {
		confirmation := upper(v.str("confirmation_number"))
		passengerID, reason := v.str("passenger_id"), v.str("credit_reason")
		amount, _ := v["amount"].(float64)
		if lookupReservation(db, confirmation) == nil {
			return reservationNotFound(confirmation), nil, nil
		}
		code := "TC" + confirmation + upper(prefix(passengerID, 3))
		credits, err := setDefaultTable(db, tableTravelCredits)
		if err != nil {
			return nil, nil, err
		}
		date, err := currentDate(db)
		if err != nil {
			return nil, nil, err
		}
		year, err := pyvalue.ParseInt(prefix(date, 4))
		if err != nil {
			return nil, nil, pyErr(err)
		}
		next, _ := year.Add(pyvalue.IntNum(1))
		amountValue := dbNum(pyvalue.FloatNum(amount))
		credits[code] = o.Keep(map[string]any{
			"credit_code":         code,
			"confirmation_number": confirmation,
			"passenger_id":        passengerID,
			"amount":              amountValue,
			"credit_reason":       reason,
			"issued_date":         date,
			"expiry_date":         next.String() + string([]rune(date)[min(4, len([]rune(date))):]),
			"status":              "active",
		}, "credit_code", "confirmation_number", "passenger_id", "amount", "credit_reason", "issued_date", "expiry_date", "status")
		action := state.Action{
			"action_type":         ActionIssueTravelCredit,
			"confirmation_number": confirmation,
			"passenger_id":        passengerID,
			"amount":              amountValue,
			"credit_reason":       reason,
		}
		return creditResult{
			Status: statusSuccess, ConfirmationNumber: confirmation, PassengerID: passengerID, CreditCode: code,
			Amount: amountValue, ValidMonths: 12,
			Message: "$" + pyvalue.Str(amount) + " travel credit issued with code " + code,
		}, action, nil
	})
}

// prefix is s[:n], by code point.
func prefix(s string, n int) string {
	r := []rune(s)
	if len(r) > n {
		r = r[:n]
	}
	return string(r)
}

// currentDate is db["_current_date"] as a string.
func currentDate(db map[string]any) (string, error) {
	v, err := mustKey(db, keyCurrentDate)
	if err != nil {
		return "", err
	}
	s, ok := v.(string)
	if !ok {
		return "", pyvalue.StrError{Exc: pyvalue.Raise("TypeError", "'%s' object is not subscriptable", pyvalue.TypeName(v))}
	}
	return s, nil
}

// hotelResult is IssueHotelVoucherTool's success.
type hotelResult struct {
	Status             string `json:"status"`
	ConfirmationNumber string `json:"confirmation_number"`
	PassengerID        string `json:"passenger_id"`
	VoucherCode        string `json:"voucher_code"`
	NumberOfNights     any    `json:"number_of_nights"`
	ValidAt            string `json:"valid_at"`
	Message            string `json:"message"`
}

// runIssueHotelVoucher records a hotel voucher HOTEL-<confirmation> of at
// most three nights.
func runIssueHotelVoucher(ctx context.Context, t *evaTool, v values) (any, error) {
	return t.write(ctx, []string{tableHotelVouchers}, func(db map[string]any, o *state.Order) (any, state.Action, error) {
		confirmation := upper(v.str("confirmation_number"))
		passengerID := v.str("passenger_id")
		nights := v.num("num_nights")
		if lookupReservation(db, confirmation) == nil {
			return reservationNotFound(confirmation), nil, nil
		}
		if c, _ := nights.Cmp(pyvalue.IntNum(3)); c > 0 {
			return tool.Failure("exceeds_authority", "Hotel vouchers can be issued for maximum of 3 nights"), nil, nil
		}
		code := "HOTEL-" + confirmation
		if err := issueVoucher(db, o, tableHotelVouchers, code, confirmation, passengerID, map[string]any{"num_nights": dbNum(nights)}, "num_nights"); err != nil {
			return nil, nil, err
		}
		action := state.Action{
			"action_type":         ActionIssueHotelVoucher,
			"confirmation_number": confirmation,
			"passenger_id":        passengerID,
			"num_nights":          dbNum(nights),
		}
		return hotelResult{
			Status: statusSuccess, ConfirmationNumber: confirmation, PassengerID: passengerID, VoucherCode: code,
			NumberOfNights: dbNum(nights), ValidAt: "Any hotels in airport area",
			Message: "Hotel voucher issued with code " + code + " for " + nights.String() + " nights",
		}, action, nil
	})
}

// issueVoucher records the voucher code in the table name (setdefault):
// issued today, active, with the fields of its kind besides, named in
// order by keys (noted in o with the others', in the original's order).
func issueVoucher(db map[string]any, o *state.Order, name, code, confirmation, passengerID string, fields map[string]any, keys ...string) error {
	vouchers, date, err := datedTable(db, name)
	if err != nil {
		return err
	}
	row := map[string]any{
		"voucher_code":        code,
		"confirmation_number": confirmation,
		"passenger_id":        passengerID,
		"issued_date":         state.Clone(date),
		"status":              "active",
	}
	maps.Copy(row, fields)
	order := append([]string{"voucher_code", "confirmation_number", "passenger_id"}, keys...)
	vouchers[code] = o.Keep(row, append(order, "issued_date", "status")...)
	return nil
}

// mealVoucherResult is IssueMealVoucherTool's success.
type mealVoucherResult struct {
	Status             string `json:"status"`
	ConfirmationNumber string `json:"confirmation_number"`
	PassengerID        string `json:"passenger_id"`
	VoucherCode        string `json:"voucher_code"`
	Amount             int64  `json:"amount"`
	ValidAt            string `json:"valid_at"`
	Message            string `json:"message"`
}

// mealVoucherAmounts are the voucher amounts by reason.
var mealVoucherAmounts = map[string]int64{"delay_over_2_hours": 12, "delay_over_4_hours": 15, "cancellation_wait_same_day": 15, "irrops_overnight": 25}

// runIssueMealVoucher records a meal voucher MEAL-<confirmation>-<PAXn>
// whose amount the reason fixes.
func runIssueMealVoucher(ctx context.Context, t *evaTool, v values) (any, error) {
	return t.write(ctx, []string{tableMealVouchers}, func(db map[string]any, o *state.Order) (any, state.Action, error) {
		confirmation := upper(v.str("confirmation_number"))
		passengerID, reason := v.str("passenger_id"), v.str("voucher_reason")
		if lookupReservation(db, confirmation) == nil {
			return reservationNotFound(confirmation), nil, nil
		}
		amount, ok := mealVoucherAmounts[reason]
		if !ok {
			amount = 12
		}
		code := "MEAL-" + confirmation + "-" + upper(prefix(passengerID, 4))
		if err := issueVoucher(db, o, tableMealVouchers, code, confirmation, passengerID, map[string]any{"amount": amount, "voucher_reason": reason}, "amount", "voucher_reason"); err != nil {
			return nil, nil, err
		}
		action := state.Action{
			"action_type":         ActionIssueMealVoucher,
			"confirmation_number": confirmation,
			"passenger_id":        passengerID,
			"voucher_reason":      reason,
			"amount":              amount,
		}
		return mealVoucherResult{
			Status: statusSuccess, ConfirmationNumber: confirmation, PassengerID: passengerID, VoucherCode: code,
			Amount: amount, ValidAt: "Airport terminal restaurants",
			Message: "$" + itoa(int(amount)) + " meal voucher issued with code " + code,
		}, action, nil
	})
}

// transferResult is TransferToAgentTool's success; after it is delivered
// the tool sends the exit signal.
type transferResult struct {
	Status             string `json:"status"`
	TransferID         string `json:"transfer_id"`
	ConfirmationNumber string `json:"confirmation_number"`
	TransferReason     string `json:"transfer_reason"`
	IssueSummary       string `json:"issue_summary"`
	EstimatedWait      string `json:"estimated_wait"`
	Message            string `json:"message"`
}

// runTransferToAgent records the transfer TRF-<confirmation>-<nnn>,
// numbered by the scenario's transfer_to_agent call counter.
func runTransferToAgent(ctx context.Context, t *evaTool, v values) (any, error) {
	confirmation := upper(v.str("confirmation_number"))
	reason, summary := v.str("transfer_reason"), v.str("issue_summary")
	early, err := t.db.Read(t.st, func(db map[string]any) (any, error) {
		if confirmation != "" && lookupReservation(db, confirmation) == nil {
			return reservationNotFound(confirmation), nil
		}
		return nil, nil
	})
	if early != nil || err != nil {
		return early, err
	}
	id := "TRF-" + confirmation + "-" + zfill3(t.st.NextCallIndex(counterTransferToAgent))
	t.db.Recorder.Record(ctx, t.st, state.Action{
		"action_type":         ActionTransferToAgent,
		"confirmation_number": confirmation,
		"transfer_reason":     reason,
		"issue_summary":       summary,
	})
	return transferResult{
		Status: statusSuccess, TransferID: id, ConfirmationNumber: confirmation, TransferReason: reason,
		IssueSummary: summary, EstimatedWait: "2-3 minutes", Message: "Transferring to live agent",
	}, nil
}
