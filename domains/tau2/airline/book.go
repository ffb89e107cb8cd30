package airline

import (
	"fmt"
	"github.com/voiceeval/schematools/domains/internal/pynum"

	"github.com/voiceeval/schematools/domains/tau2/tau2tools"
	"github.com/voiceeval/schematools/internal/pyvalue"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

var recorder = tool.Recorder{ActionTypes: ActionTypes()}

// NewBookReservation builds book_reservation (BookReservationTool).
//
// It checks, in this order, the Python original's order: the user exists
// (not_found "User <id> not found"); a reservation id is free (value_error
// "Too many reservations"); then every leg — the flight exists (not_found
// "Flight <n> not found"), flies that date (not_found "Flight <n> not
// found on date <d>"), is "available" that day (value_error "Flight <n>
// not available on date <d>") and has a seat in the cabin for every
// passenger (value_error "Not enough seats on flight <n>"); then every
// payment — the method is the user's (value_error "Payment method <id> not
// found") and a gift card or certificate covers its amount (value_error
// "Not enough balance in payment method <id>"); and finally that the
// payments add up to the price (value_error "Payment amount does not add
// up, total price is <T>, but paid <S>").
//
// The price is the cabin's price of every leg times the passengers, plus
// 30 per passenger with insurance, plus 50 per non-free bag. When every
// check passes: gift cards are debited, certificates are removed (even
// when only partly used), credit cards are left alone; each leg loses a
// seat per passenger in the cabin; the reservation is stored under the
// first free id of HATHAT, HATHAU, HATHAV, created at
// "2024-05-15T15:00:00", with "status": null and the user id as given
// (not case-folded); the user's reservation list gets its id. The result
// is a copy of the new reservation; the recorded result is
// {"reservation_id": id}.
func NewBookReservation(opts *tool.Options) (*tool.Typed[BookReservationParams], error) {
	return tau2tools.NewRecordWriteTool(Domain, NameBookReservation, recorder, []string{tau2tools.TableUsers, tableReservations, tableFlights},
		book, opts)
}

// bookedLeg is a leg that passed its checks: what to store and where its
// seats are counted.
type bookedLeg struct {
	seatsKey string         // the flight-date the seats belong to: one per (flight, date)
	day      map[string]any // the flight's record for the date
	record   map[string]any
}

// book works on w's own copies of the records it changes — the user, the
// flights of the legs — taken as it finds them (a copy equals its
// original until the booking is made), and adds the reservation with
// w.Put.
func book(w *state.Writer, p BookReservationParams) (any, state.Action, error) {
	db := w.DB
	userV, err := tau2tools.FindUser(db, p.UserID)
	if err != nil {
		return nil, nil, err
	}
	if userV == nil {
		return tau2tools.NotFound("User " + p.UserID + " not found"), nil, nil
	}
	if _, isDict := userV.(map[string]any); isDict {
		if userV, err = w.Own(tau2tools.TableUsers, pyvalue.Lower(p.UserID)); err != nil { // the key FindUser read
			return nil, nil, err
		}
	}
	reservations, err := tau2tools.GetDict(db, tableReservations)
	if err != nil {
		return nil, nil, err
	}
	id := ""
	for _, candidate := range newReservationIDs {
		if _, taken := reservations[candidate]; !taken {
			id = candidate
			break
		}
	}
	if id == "" {
		return tau2tools.ValueError("Too many reservations"), nil, nil
	}

	passengers := pyvalue.IntNum(int64(len(p.Passengers)))
	total := pyvalue.IntNum(0)
	legs := make([]bookedLeg, 0, len(p.Flights))
	for _, f := range p.Flights {
		flightV, err := findFlight(db, f.FlightNumber)
		if err != nil {
			return nil, nil, err
		}
		if flightV == nil {
			return tau2tools.NotFound("Flight " + f.FlightNumber + " not found"), nil, nil
		}
		if _, isDict := flightV.(map[string]any); isDict {
			if flightV, err = w.Own(tableFlights, pyvalue.Upper(f.FlightNumber)); err != nil { // the key findFlight read
				return nil, nil, err
			}
		}
		dayV, err := findFlightDate(db, f.FlightNumber, f.Date) // in the copy
		if err != nil {
			return nil, nil, err
		}
		if dayV == nil {
			return tau2tools.NotFound("Flight " + f.FlightNumber + " not found on date " + f.Date), nil, nil
		}
		day, err := tau2tools.AsDict(dayV)
		if err != nil {
			return nil, nil, err
		}
		if !pyvalue.Equal(day["status"], "available") {
			return tau2tools.ValueError("Flight " + f.FlightNumber + " not available on date " + f.Date), nil, nil
		}
		record, price, failure, err := quoteLeg(flightV, day, f, p.Cabin, passengers)
		if failure != nil || err != nil {
			return failure, nil, err
		}
		if total, err = addProduct(total, price, passengers); err != nil {
			return nil, nil, err
		}
		legs = append(legs, bookedLeg{seatsKey: pyvalue.Upper(f.FlightNumber) + "\x00" + f.Date, day: day, record: record})
	}
	if p.Insurance == InsuranceYes {
		if total, err = addProduct(total, pyvalue.IntNum(insurancePerPassenger), passengers); err != nil {
			return nil, nil, err
		}
	}
	if total, err = addProduct(total, pyvalue.IntNum(pricePerNonfreeBag), pyvalue.IntNum(int64(p.NonfreeBaggages))); err != nil {
		return nil, nil, err
	}

	// Python reads the user only when there is a payment to check.
	var user, methods map[string]any
	if len(p.PaymentMethods) > 0 {
		if user, err = tau2tools.AsDict(userV); err != nil {
			return nil, nil, err
		}
		if methods, err = tau2tools.GetDictOr(user, "payment_methods"); err != nil {
			return nil, nil, err
		}
	}
	paid := pyvalue.IntNum(0)
	for _, pay := range p.PaymentMethods {
		methodV := methods[pay.PaymentID]
		if methodV == nil {
			return tau2tools.ValueError("Payment method " + pay.PaymentID + " not found"), nil, nil
		}
		method, err := tau2tools.AsDict(methodV)
		if err != nil {
			return nil, nil, err
		}
		if src := method["source"]; pyvalue.Equal(src, "gift_card") || pyvalue.Equal(src, "certificate") {
			balance, err := pynum.NumAt(method, "amount")
			if err != nil {
				return nil, nil, err
			}
			if pynum.Less(balance, pyvalue.IntNum(int64(pay.Amount))) {
				return tau2tools.ValueError("Not enough balance in payment method " + pay.PaymentID), nil, nil
			}
		}
		if paid, err = paid.Add(pyvalue.IntNum(int64(pay.Amount))); err != nil {
			return nil, nil, err
		}
	}
	if !paid.Equal(total) {
		return tau2tools.ValueError(fmt.Sprintf("Payment amount does not add up, total price is %s, but paid %s", total, paid)), nil, nil
	}

	// Every refusal Python answers with a result is behind us. What is left
	// can only fail on a DB of the wrong shape, where Python would raise
	// half-way through its writes: work the writes out first, then apply
	// them, so that even then nothing changes.
	balances := map[string]pyvalue.Num{} // gift card -> balance after the payments
	removed := map[string]bool{}         // certificates used
	history := make([]any, 0, len(p.PaymentMethods))
	for _, pay := range p.PaymentMethods {
		method := methods[pay.PaymentID].(map[string]any)
		switch {
		case pyvalue.Equal(method["source"], "gift_card"):
			balance, ok := balances[pay.PaymentID]
			if !ok {
				if _, has := method["amount"]; !has {
					return nil, nil, tau2tools.Raise("KeyError", "amount")
				}
				if balance, err = pynum.NumAt(method, "amount"); err != nil {
					return nil, nil, err
				}
			}
			if balances[pay.PaymentID], err = balance.Sub(pyvalue.IntNum(int64(pay.Amount))); err != nil {
				return nil, nil, err
			}
		case pyvalue.Equal(method["source"], "certificate"):
			if removed[pay.PaymentID] {
				return nil, nil, tau2tools.Raise("KeyError", "%s", pay.PaymentID)
			}
			removed[pay.PaymentID] = true
		}
		history = append(history, map[string]any{"payment_id": pay.PaymentID, "amount": pynum.DBNumber(pyvalue.IntNum(int64(pay.Amount)))})
	}
	seatsLeft := map[string]pyvalue.Num{}
	for _, leg := range legs {
		left, ok := seatsLeft[leg.seatsKey]
		if !ok {
			seats, _ := tau2tools.GetDictOr(leg.day, "available_seats") // checked above
			left, _ = pynum.NumAt(seats, p.Cabin)
		}
		if seatsLeft[leg.seatsKey], err = left.Sub(passengers); err != nil {
			return nil, nil, err
		}
	}
	if user == nil {
		if user, err = tau2tools.AsDict(userV); err != nil {
			return nil, nil, err
		}
	}
	userReservations, err := tau2tools.SetDefaultList(user, "reservations")
	if err != nil {
		return nil, nil, err
	}

	flights := make([]any, len(legs))
	for i, leg := range legs {
		flights[i] = leg.record
	}
	passengerList := make([]any, len(p.Passengers))
	for i, pa := range p.Passengers {
		passengerList[i] = tool.ModelDump(pa)
	}
	reservation := map[string]any{
		"reservation_id":   id,
		"user_id":          p.UserID,
		"origin":           p.Origin,
		"destination":      p.Destination,
		"flight_type":      p.FlightType,
		"cabin":            p.Cabin,
		"flights":          flights,
		"passengers":       passengerList,
		"payment_history":  history,
		"created_at":       createdAt,
		"total_baggages":   pynum.DBNumber(pyvalue.IntNum(int64(p.TotalBaggages))),
		"nonfree_baggages": pynum.DBNumber(pyvalue.IntNum(int64(p.NonfreeBaggages))),
		"insurance":        p.Insurance,
		"status":           nil,
	}
	if err := w.Put(tableReservations, id, reservation); err != nil { // the first change: nothing has changed when it fails
		return nil, nil, err
	}
	o := w.Order()
	o.Keep(reservation, reservationKeys...)
	keepAll(o, flights, reservationFlightKeys)
	keepAll(o, passengerList, passengerKeys)
	keepAll(o, history, paymentKeys)
	for id, balance := range balances {
		methods[id].(map[string]any)["amount"] = pynum.DBNumber(balance)
	}
	for id := range removed {
		delete(methods, id)
	}
	for _, leg := range legs {
		// Python updates (available_seats or {}): an empty or missing seat
		// map is a throwaway dict, and the write is lost.
		if seats, _ := tau2tools.GetDictOr(leg.day, "available_seats"); len(seats) > 0 {
			seats[p.Cabin] = pynum.DBNumber(seatsLeft[leg.seatsKey])
		}
	}
	user["reservations"] = append(userReservations, id)

	return reservation, state.NewAction(KeyBookReservation, tool.ModelDump(p),
		map[string]any{"reservation_id": id}), nil
}

// addProduct returns total + a*b.
func addProduct(total, a, b pyvalue.Num) (pyvalue.Num, error) {
	prod, err := a.Mul(b)
	if err != nil {
		return prod, err
	}
	return total.Add(prod)
}

// quoteLeg checks that a flight's date (day) has seats in cabin for the
// passengers, and prices it: the reservation's record of the leg and the
// fare per passenger. A refusal for the model comes back as failure.
func quoteLeg(flightV any, day map[string]any, f FlightInfo, cabin string, passengers pyvalue.Num) (record map[string]any, price pyvalue.Num, failure any, err error) {
	seats, err := tau2tools.GetDictOr(day, "available_seats")
	if err != nil {
		return nil, price, nil, err
	}
	available, err := pynum.NumAt(seats, cabin)
	if err != nil {
		return nil, price, nil, err
	}
	if pynum.Less(available, passengers) {
		return nil, price, tau2tools.ValueError("Not enough seats on flight " + f.FlightNumber), nil
	}
	prices, err := tau2tools.GetDictOr(day, "prices")
	if err != nil {
		return nil, price, nil, err
	}
	priceV, ok := prices[cabin]
	if !ok {
		priceV = pynum.DBNumber(pyvalue.IntNum(0))
	}
	flight := flightV.(map[string]any) // findFlightDate checked it is a dict
	if record, err = reservationFlight(f.FlightNumber, f.Date, flight["origin"], flight["destination"], priceV); err != nil {
		return nil, price, nil, err
	}
	price, err = pynum.NumAt(prices, cabin)
	return record, price, nil, err
}
