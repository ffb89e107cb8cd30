package airline

import (
	"fmt"
	"github.com/voiceeval/schematools/domains/internal/pynum"

	"github.com/voiceeval/schematools/domains/tau2/tau2tools"
	"github.com/voiceeval/schematools/internal/pyvalue"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

// NewCancelReservation builds cancel_reservation (CancelReservationTool):
// it appends a refund {payment_id, amount: -amount} for every entry of
// the payment history (refunds included: it does not check whether the
// reservation was already cancelled) and sets "status": "cancelled". Seats
// are not released and balances are not restored — tau2's behaviour. The
// result is a copy of the reservation; the recorded result is
// {"reservation_id": <id as given>, "status": "cancelled"}. An unknown id
// is not_found "Reservation <id> not found".
func NewCancelReservation(opts *tool.Options) (*tool.Typed[ReservationIDParams], error) {
	return tau2tools.NewRecordWriteTool(Domain, NameCancelReservation, recorder, []string{tableReservations},
		func(w *state.Writer, p ReservationIDParams) (any, state.Action, error) {
			res, failure, err := reservationOf(w, p.ReservationID)
			if failure != nil || err != nil {
				return failure, nil, err
			}
			history, err := tau2tools.GetListOr(res, "payment_history")
			if err != nil {
				return nil, nil, err
			}
			refunds := make([]any, 0, len(history))
			for _, entry := range history {
				pay, err := tau2tools.AsDict(entry)
				if err != nil {
					return nil, nil, err
				}
				amount, err := pynum.NumAt(pay, "amount")
				if err != nil {
					return nil, nil, err
				}
				refunds = append(refunds, map[string]any{"payment_id": state.Clone(pay["payment_id"]), "amount": pynum.DBNumber(amount.Neg())})
			}
			existing, err := tau2tools.SetDefaultList(res, "payment_history")
			if err != nil {
				return nil, nil, err
			}
			res["payment_history"] = append(existing, keepAll(w.Order(), refunds, paymentKeys)...)
			w.Order().Set(res, "status", "cancelled")
			return res, state.NewAction(KeyCancelReservation, tool.ModelDump(p),
				map[string]any{"reservation_id": p.ReservationID, "status": "cancelled"}), nil
		}, opts)
}

// CertificateResult is send_certificate's result.
type CertificateResult = tau2tools.StatusResult

// NewSendCertificate builds send_certificate (SendCertificateTool): it
// adds {"source": "certificate", "id": id, "amount": float(amount)} to the
// user's payment methods under the first free id of certificate_3221322,
// certificate_3221323, certificate_3221324 (value_error "Too many
// certificates" when none is), and answers {"status": "success",
// "message": "Certificate <id> added to user <user id as given> with
// amount <amount>."}. The recorded result is {"payment_id", "amount"}.
func NewSendCertificate(opts *tool.Options) (*tool.Typed[SendCertificateParams], error) {
	return tau2tools.NewRecordWriteTool(Domain, NameSendCertificate, recorder, []string{tau2tools.TableUsers},
		func(w *state.Writer, p SendCertificateParams) (any, state.Action, error) {
			user, err := ownUser(w, p.UserID)
			if err != nil {
				return nil, nil, err
			}
			if user == nil {
				return tau2tools.NotFound("User " + p.UserID + " not found"), nil, nil
			}
			methods := map[string]any{}
			if v, ok := user["payment_methods"]; ok {
				if methods, ok = v.(map[string]any); !ok {
					return nil, nil, tau2tools.Raise("TypeError", "argument of type '%s' is not iterable", pyvalue.TypeName(v))
				}
			}
			user["payment_methods"] = methods // setdefault: created even when no id is free
			for _, id := range newCertificateIDs {
				if _, taken := methods[id]; taken {
					continue
				}
				methods[id] = w.Order().Keep(map[string]any{"source": "certificate", "id": id, "amount": pynum.DBNumber(pyvalue.FloatNum(float64(p.Amount)))},
					certificateKeys...)
				return CertificateResult{
						Status:  tau2tools.Success,
						Message: fmt.Sprintf("Certificate %s added to user %s with amount %d.", id, p.UserID, p.Amount),
					}, state.NewAction(KeySendCertificate, tool.ModelDump(p),
						map[string]any{"payment_id": id, "amount": p.Amount}), nil
			}
			return tau2tools.ValueError("Too many certificates"), nil, nil
		}, opts)
}

// NewUpdateReservationBaggages builds update_reservation_baggages
// (UpdateReservationBaggagesTool): it charges 50 per non-free bag added
// (nothing for bags removed) to the payment method — see
// NewUpdateReservationFlights for the payment rules — and sets both bag
// counts. The result is a copy of the reservation; the recorded result is
// {"reservation_id", "charged"}.
func NewUpdateReservationBaggages(opts *tool.Options) (*tool.Typed[UpdateReservationBaggagesParams], error) {
	return tau2tools.NewRecordWriteTool(Domain, NameUpdateReservationBaggages, recorder, []string{tableReservations, tau2tools.TableUsers},
		func(w *state.Writer, p UpdateReservationBaggagesParams) (any, state.Action, error) {
			res, user, failure, err := reservationAndUser(w, p.ReservationID)
			if failure != nil || err != nil {
				return failure, nil, err
			}
			old, err := pynum.NumAt(res, "nonfree_baggages")
			if err != nil {
				return nil, nil, err
			}
			added, err := pyvalue.IntNum(int64(p.NonfreeBaggages)).Sub(old)
			if err != nil {
				return nil, nil, err
			}
			charge, err := pyvalue.IntNum(pricePerNonfreeBag).Mul(pynum.Max(pyvalue.IntNum(0), added))
			if err != nil {
				return nil, nil, err
			}
			pay, failure, err := paymentForUpdate(user, res, p.PaymentID, charge)
			if failure != nil || err != nil {
				return failure, nil, err
			}
			pay.apply()
			res["total_baggages"] = pynum.DBNumber(pyvalue.IntNum(int64(p.TotalBaggages)))
			res["nonfree_baggages"] = pynum.DBNumber(pyvalue.IntNum(int64(p.NonfreeBaggages)))
			return res, state.NewAction(KeyUpdateReservationBaggages, tool.ModelDump(p),
				map[string]any{"reservation_id": p.ReservationID, "charged": pynum.DBNumber(charge)}), nil
		}, opts)
}

// NewUpdateReservationFlights builds update_reservation_flights
// (UpdateReservationFlightsTool). Each leg of the new itinerary that
// matches a leg of the reservation (same flight number as given, same
// date) keeps that leg and its price when the cabin does not change;
// any other leg is priced anew: the flight must exist (not_found "Flight
// <n> not found"), be "available" on the date (value_error "Flight <n>
// not available on date <d>") with a seat in the cabin per passenger
// (value_error "Not enough seats on flight <n>"). The difference — new
// prices minus old prices, times the passengers — may be negative.
//
// Payment (shared with update_reservation_baggages): the method must be
// the user's (value_error "Payment method not found") and not a
// certificate ("Certificate cannot be used to update reservation"); a gift
// card must cover a positive difference ("Gift card balance is not
// enough") and is debited by it — credited when it is negative; a nonzero
// difference is added to the payment history. Then the flights and the
// cabin are replaced; seats are not touched (tau2 defers them). The result
// is a copy of the reservation; the recorded result is {"reservation_id",
// "charged"}.
func NewUpdateReservationFlights(opts *tool.Options) (*tool.Typed[UpdateReservationFlightsParams], error) {
	return tau2tools.NewRecordWriteTool(Domain, NameUpdateReservationFlights, recorder, []string{tableReservations, tau2tools.TableUsers},
		updateFlights, opts)
}

func updateFlights(w *state.Writer, p UpdateReservationFlightsParams) (any, state.Action, error) {
	db := w.DB
	res, user, failure, err := reservationAndUser(w, p.ReservationID)
	if failure != nil || err != nil {
		return failure, nil, err
	}
	passengersV := res["passengers"]
	count := 0
	if pyvalue.Truthy(passengersV) {
		if count, err = pyvalue.Len(passengersV); err != nil {
			return nil, nil, tau2tools.Exception(err)
		}
	}
	passengers := pyvalue.IntNum(int64(count))
	existing, existingErr := tau2tools.GetListOr(res, "flights")
	sameCabin := pyvalue.Equal(res["cabin"], p.Cabin)

	total := pyvalue.IntNum(0)
	legs := make([]any, 0, len(p.Flights))
	for _, f := range p.Flights {
		match, err := keptLeg(existing, existingErr, f, sameCabin)
		if err != nil {
			return nil, nil, err
		}
		if match != nil {
			price, err := pynum.NumAt(match, "price")
			if err != nil {
				return nil, nil, err
			}
			if total, err = addProduct(total, price, passengers); err != nil {
				return nil, nil, err
			}
			legs = append(legs, w.Order().Clone(match)) // copy.deepcopy keeps the leg's order
			continue
		}
		flightV, err := findFlight(db, f.FlightNumber)
		if err != nil {
			return nil, nil, err
		}
		if flightV == nil {
			return tau2tools.NotFound("Flight " + f.FlightNumber + " not found"), nil, nil
		}
		dayV, err := findFlightDate(db, f.FlightNumber, f.Date)
		if err != nil {
			return nil, nil, err
		}
		notAvailable := tau2tools.ValueError("Flight " + f.FlightNumber + " not available on date " + f.Date)
		if dayV == nil {
			return notAvailable, nil, nil
		}
		day, err := tau2tools.AsDict(dayV)
		if err != nil {
			return nil, nil, err
		}
		if !pyvalue.Equal(day["status"], "available") {
			return notAvailable, nil, nil
		}
		record, price, failure, err := quoteLeg(flightV, day, f, p.Cabin, passengers)
		if failure != nil || err != nil {
			return failure, nil, err
		}
		if total, err = addProduct(total, price, passengers); err != nil {
			return nil, nil, err
		}
		legs = append(legs, w.Order().Keep(record, reservationFlightKeys...))
	}
	if existingErr != nil {
		return nil, nil, existingErr
	}
	paidBefore := pyvalue.IntNum(0)
	for _, leg := range existing {
		l, err := tau2tools.AsDict(leg)
		if err != nil {
			return nil, nil, err
		}
		price, err := pynum.NumAt(l, "price")
		if err != nil {
			return nil, nil, err
		}
		if paidBefore, err = paidBefore.Add(price); err != nil {
			return nil, nil, err
		}
	}
	paidBefore, err = paidBefore.Mul(passengers)
	if err != nil {
		return nil, nil, err
	}
	if total, err = total.Sub(paidBefore); err != nil {
		return nil, nil, err
	}
	pay, failure, err := paymentForUpdate(user, res, p.PaymentID, total)
	if failure != nil || err != nil {
		return failure, nil, err
	}
	pay.apply()
	res["flights"] = legs
	res["cabin"] = p.Cabin
	return res, state.NewAction(KeyUpdateReservationFlights, tool.ModelDump(p),
		map[string]any{"reservation_id": p.ReservationID, "charged": pynum.DBNumber(total)}), nil
}

// keptLeg returns the first leg of the reservation with the flight's
// number and date, when the cabin does not change, or nil.
func keptLeg(existing []any, existingErr error, f FlightInfo, sameCabin bool) (map[string]any, error) {
	if existingErr != nil {
		return nil, existingErr
	}
	for _, leg := range existing {
		l, err := tau2tools.AsDict(leg)
		if err != nil {
			return nil, err
		}
		if pyvalue.Equal(l["flight_number"], f.FlightNumber) && pyvalue.Equal(l["date"], f.Date) && sameCabin {
			return l, nil
		}
	}
	return nil, nil
}

// NewUpdateReservationPassengers builds update_reservation_passengers
// (UpdateReservationPassengersTool): the passenger list is replaced when
// the new one is as long as the old one (value_error "Number of passengers
// does not match" otherwise). The result is a copy of the reservation; the
// recorded result is {"reservation_id"}.
func NewUpdateReservationPassengers(opts *tool.Options) (*tool.Typed[UpdateReservationPassengersParams], error) {
	return tau2tools.NewRecordWriteTool(Domain, NameUpdateReservationPassengers, recorder, []string{tableReservations},
		func(w *state.Writer, p UpdateReservationPassengersParams) (any, state.Action, error) {
			res, failure, err := reservationOf(w, p.ReservationID)
			if failure != nil || err != nil {
				return failure, nil, err
			}
			count := 0
			if v := res["passengers"]; pyvalue.Truthy(v) {
				if count, err = pyvalue.Len(v); err != nil {
					return nil, nil, tau2tools.Exception(err)
				}
			}
			if len(p.Passengers) != count {
				return tau2tools.ValueError("Number of passengers does not match"), nil, nil
			}
			list := make([]any, len(p.Passengers))
			for i, pa := range p.Passengers {
				list[i] = tool.ModelDump(pa)
			}
			res["passengers"] = keepAll(w.Order(), list, passengerKeys)
			return res, state.NewAction(KeyUpdateReservationPassengers, tool.ModelDump(p),
				map[string]any{"reservation_id": p.ReservationID}), nil
		}, opts)
}

// reservationOf looks the reservation up and returns w's own copy of it,
// to change. An unknown id gives the not_found result to answer with (a
// tool.FailureResult; nil otherwise).
func reservationOf(w *state.Writer, id string) (map[string]any, any, error) {
	resV, err := findReservation(w.DB, id)
	if err != nil {
		return nil, nil, err
	}
	if resV == nil {
		return nil, tau2tools.NotFound("Reservation " + id + " not found"), nil
	}
	res, err := w.Own(tableReservations, pyvalue.Upper(id)) // the key findReservation read
	return res, nil, err
}

// reservationAndUser looks up the reservation and the user it belongs to,
// as w's own copies; failure is as for reservationOf.
func reservationAndUser(w *state.Writer, id string) (res map[string]any, user any, failure any, err error) {
	if res, failure, err = reservationOf(w, id); failure != nil || err != nil {
		return nil, nil, failure, err
	}
	userID := res["user_id"]
	if user, err = tau2tools.FindUser(w.DB, userID); err != nil {
		return nil, nil, nil, err
	}
	if user == nil {
		return nil, nil, tau2tools.NotFound("User " + pyvalue.Str(userID) + " not found"), nil
	}
	// FindUser found a user, so the id is a string. A user that is not a
	// dict is left as it is: the payment check raises on it, after the
	// refusals Python makes first, and nothing is written.
	if _, isDict := user.(map[string]any); isDict {
		if user, err = w.Own(tau2tools.TableUsers, pyvalue.Lower(userID.(string))); err != nil {
			return nil, nil, nil, err
		}
	}
	return res, user, nil, nil
}

// ownUser returns w's own copy of the user whose id is id (matched as
// FindUser matches it), or nil when there is none. A user that is not a
// dict is Python's AttributeError.
func ownUser(w *state.Writer, id string) (map[string]any, error) {
	userV, err := tau2tools.FindUser(w.DB, id)
	if err != nil || userV == nil {
		return nil, err
	}
	if _, err := tau2tools.AsDict(userV); err != nil {
		return nil, err
	}
	return w.Own(tau2tools.TableUsers, pyvalue.Lower(id)) // the key FindUser read
}

// payment is a checked payment for an update, ready to apply.
type payment struct {
	apply func()
}

// paymentForUpdate checks that the user's payment method id can pay total
// for a change to res, and returns how to apply the payment: debit a gift
// card (credit it when total is negative) and, when total is not zero,
// append {payment_id, amount: total} to the payment history. A refusal is
// the value_error result to answer with (a tool.FailureResult).
func paymentForUpdate(userV any, res map[string]any, id string, total pyvalue.Num) (payment, any, error) {
	fail := func(msg string) (payment, any, error) {
		return payment{}, tau2tools.ValueError(msg), nil
	}
	methods, err := tau2tools.PaymentMethods(userV)
	if err != nil {
		return payment{}, nil, err
	}
	methodV, ok := methods[id]
	if !ok {
		return fail("Payment method not found")
	}
	method, err := tau2tools.AsDict(methodV)
	if err != nil {
		return payment{}, nil, err
	}
	var debit func()
	switch src := method["source"]; {
	case pyvalue.Equal(src, "certificate"):
		return fail("Certificate cannot be used to update reservation")
	case pyvalue.Equal(src, "gift_card"):
		balance, err := pynum.NumAt(method, "amount")
		if err != nil {
			return payment{}, nil, err
		}
		if pynum.Less(balance, total) {
			return fail("Gift card balance is not enough")
		}
		if _, has := method["amount"]; !has {
			return payment{}, nil, tau2tools.Raise("KeyError", "amount")
		}
		after, err := balance.Sub(total)
		if err != nil {
			return payment{}, nil, err
		}
		debit = func() { method["amount"] = pynum.DBNumber(after) }
	}
	var history []any
	record := !total.IsZero()
	if record {
		if history, err = tau2tools.SetDefaultList(res, "payment_history"); err != nil {
			return payment{}, nil, err
		}
	}
	return payment{apply: func() {
		if debit != nil {
			debit()
		}
		if record {
			res["payment_history"] = append(history, map[string]any{"payment_id": id, "amount": pynum.DBNumber(total)})
		}
	}}, nil, nil
}
