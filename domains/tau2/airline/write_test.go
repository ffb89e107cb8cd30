package airline_test

import (
	"encoding/json"
	"github.com/voiceeval/schematools/domains/tau2/internal/tau2test"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/domains/tau2/airline"
	"github.com/voiceeval/schematools/domains/tau2/tau2tools"
	"github.com/voiceeval/schematools/internal/pyvalue"
	"github.com/voiceeval/schematools/tool"
)

// bookArgs are valid book_reservation arguments for the test DB: two
// passengers in economy on HAT001 (2 × 100), insurance (2 × 30) and one
// paid bag (50): 310, paid 150 by gift card, 100 by certificate, 60 by
// credit card.
func bookArgs() map[string]any {
	return map[string]any{
		"user_id": "Mia_Li_3668", "origin": "JFK", "destination": "LAX", "flight_type": "one_way", "cabin": "economy",
		"flights":    []any{map[string]any{"flight_number": "hat001", "date": "2024-05-15"}},
		"passengers": []any{map[string]any{"first_name": "Mia", "last_name": "Li", "dob": "1990-04-05"}, map[string]any{"first_name": "Amelia", "last_name": "Ahmed", "dob": "1957-03-21"}},
		"payment_methods": []any{
			map[string]any{"payment_id": "gift_card_7175741", "amount": 150},
			map[string]any{"payment_id": "certificate_7504069", "amount": 100},
			map[string]any{"payment_id": "credit_card_4421486", "amount": 60},
		},
		"total_baggages": 3, "nonfree_baggages": 1, "insurance": "yes",
	}
}

func TestBookReservation(t *testing.T) {
	f := newFixture(t, newDB(t))
	out := f.Call(t, airline.KeyBookReservation, bookArgs())
	want := `{"reservation_id": "HATHAT", "user_id": "Mia_Li_3668", "origin": "JFK", "destination": "LAX",
		"flight_type": "one_way", "cabin": "economy",
		"flights": [{"flight_number": "hat001", "origin": "JFK", "destination": "LAX", "date": "2024-05-15", "price": 100}],
		"passengers": [{"first_name": "Mia", "last_name": "Li", "dob": "1990-04-05"}, {"first_name": "Amelia", "last_name": "Ahmed", "dob": "1957-03-21"}],
		"payment_history": [{"payment_id": "gift_card_7175741", "amount": 150}, {"payment_id": "certificate_7504069", "amount": 100},
			{"payment_id": "credit_card_4421486", "amount": 60}],
		"created_at": "2024-05-15T15:00:00", "total_baggages": 3, "nonfree_baggages": 1, "insurance": "yes", "status": null}`
	requireJSON(t, want, out)
	requireJSON(t, want, f.At(t, "reservations", "HATHAT"))
	// The gift card keeps a float balance; the certificate is gone even
	// though 150 of it is unused; the credit card is untouched.
	requireJSON(t, "13.0", f.At(t, "users", "mia_li_3668", "payment_methods", "gift_card_7175741", "amount"))
	assert.NotContains(t, f.At(t, "users", "mia_li_3668", "payment_methods"), "certificate_7504069")
	assert.Contains(t, f.At(t, "users", "mia_li_3668", "payment_methods"), "credit_card_4421486")
	requireJSON(t, "3", f.At(t, "flights", "HAT001", "dates", "2024-05-15", "available_seats", "economy"))
	requireJSON(t, `["NO6JO3", "HATHAT"]`, f.At(t, "users", "mia_li_3668", "reservations"))
	actions := f.State.Actions()
	require.Len(t, actions, 1)
	requireJSON(t, `{"action_type": "book_reservation", "name": "book_reservation",
		"arguments": {"user_id": "Mia_Li_3668", "origin": "JFK", "destination": "LAX", "flight_type": "one_way", "cabin": "economy",
			"flights": [{"flight_number": "hat001", "date": "2024-05-15"}],
			"passengers": [{"first_name": "Mia", "last_name": "Li", "dob": "1990-04-05"}, {"first_name": "Amelia", "last_name": "Ahmed", "dob": "1957-03-21"}],
			"payment_methods": [{"payment_id": "gift_card_7175741", "amount": 150}, {"payment_id": "certificate_7504069", "amount": 100},
				{"payment_id": "credit_card_4421486", "amount": 60}],
			"total_baggages": 3, "nonfree_baggages": 1, "insurance": "yes"},
		"result": {"reservation_id": "HATHAT"}}`, actions[0])

	// The next bookings take HATHAU, then HATHAV, then there is no id left.
	for _, id := range []string{"HATHAU", "HATHAV"} {
		a := bookArgs()
		a["passengers"] = a["passengers"].([]any)[:1]
		a["payment_methods"] = []any{map[string]any{"payment_id": "credit_card_4421486", "amount": 180}}
		res, ok := f.Call(t, airline.KeyBookReservation, a).(map[string]any)
		require.True(t, ok)
		assert.Equal(t, id, res["reservation_id"])
	}
	before := f.Hash(t)
	assert.Equal(t, valueError("Too many reservations"), f.Call(t, airline.KeyBookReservation, bookArgs()))
	assert.Equal(t, before, f.Hash(t))
}

func TestBookReservationRefusals(t *testing.T) {
	with := func(change func(a map[string]any)) map[string]any {
		a := bookArgs()
		change(a)
		return a
	}
	leg := func(number, date string) []any {
		return []any{map[string]any{"flight_number": number, "date": date}}
	}
	tests := []struct {
		name string
		args map[string]any
		want tool.FailureResult
	}{
		{"unknown user", with(func(a map[string]any) { a["user_id"] = "nobody_1" }), notFound("User nobody_1 not found")},
		{"unknown flight", with(func(a map[string]any) { a["flights"] = leg("hat999", "2024-05-15") }), notFound("Flight hat999 not found")},
		{"no flight that day", with(func(a map[string]any) { a["flights"] = leg("HAT001", "2024-05-20") }), notFound("Flight HAT001 not found on date 2024-05-20")},
		{"landed", with(func(a map[string]any) { a["flights"] = leg("HAT001", "2024-05-16") }), valueError("Flight HAT001 not available on date 2024-05-16")},
		{"cancelled", with(func(a map[string]any) { a["flights"] = leg("HAT001", "2024-05-17") }), valueError("Flight HAT001 not available on date 2024-05-17")},
		{"no seats", with(func(a map[string]any) { a["cabin"] = "business" }), valueError("Not enough seats on flight hat001")},
		{"unknown payment", with(func(a map[string]any) {
			a["payment_methods"] = []any{map[string]any{"payment_id": "paypal_1", "amount": 310}}
		}), valueError("Payment method paypal_1 not found")},
		{"gift card short", with(func(a map[string]any) {
			a["payment_methods"] = []any{map[string]any{"payment_id": "gift_card_7175741", "amount": 164}, map[string]any{"payment_id": "credit_card_4421486", "amount": 146}}
		}), valueError("Not enough balance in payment method gift_card_7175741")},
		{"certificate short", with(func(a map[string]any) {
			a["payment_methods"] = []any{map[string]any{"payment_id": "certificate_7504069", "amount": 251}, map[string]any{"payment_id": "credit_card_4421486", "amount": 59}}
		}), valueError("Not enough balance in payment method certificate_7504069")},
		{"does not add up", with(func(a map[string]any) {
			a["payment_methods"] = []any{map[string]any{"payment_id": "credit_card_4421486", "amount": 300}}
		}), valueError("Payment amount does not add up, total price is 310, but paid 300")},
		{"first failure wins", with(func(a map[string]any) {
			a["flights"] = append(leg("HAT001", "2024-05-16"), leg("hat999", "2024-05-15")...)
		}), valueError("Flight HAT001 not available on date 2024-05-16")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, newDB(t))
			before := f.Hash(t)
			assert.Equal(t, tt.want, f.Call(t, airline.KeyBookReservation, tt.args))
			assert.Equal(t, before, f.Hash(t), "a refused booking changes nothing")
			assert.Empty(t, f.State.Actions())
		})
	}
}

func TestBookReservationPriceIsAFloatWhenAPriceIs(t *testing.T) {
	db := newDB(t)
	db["flights"].(map[string]any)["HAT001"].(map[string]any)["dates"].(map[string]any)["2024-05-15"].(map[string]any)["prices"].(map[string]any)["economy"] = json.Number("100.0")
	f := newFixture(t, db)
	a := bookArgs()
	a["payment_methods"] = []any{map[string]any{"payment_id": "credit_card_4421486", "amount": 1}}
	// Python prints the total as the float it became.
	assert.Equal(t, valueError("Payment amount does not add up, total price is 310.0, but paid 1"), f.Call(t, airline.KeyBookReservation, a))
	// A whole float price is stored as the int the reservation model makes
	// of it; a fractional one is a validation error, raised.
	a["payment_methods"] = []any{map[string]any{"payment_id": "credit_card_4421486", "amount": 310}}
	res := f.Call(t, airline.KeyBookReservation, a)
	requireJSON(t, `[{"flight_number": "hat001", "origin": "JFK", "destination": "LAX", "date": "2024-05-15", "price": 100}]`, res.(map[string]any)["flights"])

	db = newDB(t)
	db["flights"].(map[string]any)["HAT001"].(map[string]any)["dates"].(map[string]any)["2024-05-15"].(map[string]any)["prices"].(map[string]any)["economy"] = json.Number("100.5")
	f = newFixture(t, db)
	before := f.Hash(t)
	err := f.CallErr(t, airline.KeyBookReservation, a)
	assert.Contains(t, err.Error(), "1 validation error for ReservationFlight\nprice\n")
	assert.Equal(t, before, f.Hash(t))
}

func TestBookReservationEdgeCases(t *testing.T) {
	// The same gift card twice: each payment is checked against the
	// balance before either is taken, and both are taken.
	f := newFixture(t, newDB(t))
	a := bookArgs()
	a["payment_methods"] = []any{
		map[string]any{"payment_id": "gift_card_7175741", "amount": 150},
		map[string]any{"payment_id": "gift_card_7175741", "amount": 150},
		map[string]any{"payment_id": "credit_card_4421486", "amount": 10},
	}
	f.Call(t, airline.KeyBookReservation, a)
	requireJSON(t, "-137.0", f.At(t, "users", "mia_li_3668", "payment_methods", "gift_card_7175741", "amount"))

	// The same certificate twice: Python raises KeyError half-way through
	// its writes; the port refuses before writing anything.
	f = newFixture(t, newDB(t))
	a["payment_methods"] = []any{
		map[string]any{"payment_id": "certificate_7504069", "amount": 150},
		map[string]any{"payment_id": "certificate_7504069", "amount": 150},
		map[string]any{"payment_id": "credit_card_4421486", "amount": 10},
	}
	before := f.Hash(t)
	assert.EqualError(t, f.CallErr(t, airline.KeyBookReservation, a), "'certificate_7504069'")
	assert.Equal(t, before, f.Hash(t))

	// The same leg twice takes the seats twice.
	f = newFixture(t, newDB(t))
	a = bookArgs()
	a["flights"] = []any{map[string]any{"flight_number": "HAT001", "date": "2024-05-15"}, map[string]any{"flight_number": "hat001", "date": "2024-05-15"}}
	a["payment_methods"] = []any{map[string]any{"payment_id": "credit_card_4421486", "amount": 510}}
	f.Call(t, airline.KeyBookReservation, a)
	requireJSON(t, "1", f.At(t, "flights", "HAT001", "dates", "2024-05-15", "available_seats", "economy"))

	// Lax arguments: numeric strings for integers are recorded as ints.
	f = newFixture(t, newDB(t))
	a = bookArgs()
	a["total_baggages"], a["nonfree_baggages"] = "3", "1"
	a["payment_methods"] = []any{map[string]any{"payment_id": "credit_card_4421486", "amount": "310", "note": "dropped"}}
	f.Call(t, airline.KeyBookReservation, a)
	args := f.State.Actions()[0]["arguments"].(map[string]any)
	requireJSON(t, `[{"payment_id": "credit_card_4421486", "amount": 310}]`, args["payment_methods"])
	requireJSON(t, "3", args["total_baggages"])
}

func TestBookReservationValidation(t *testing.T) {
	f := newFixture(t, newDB(t))
	a := bookArgs()
	a["cabin"] = "first"
	a["insurance"] = "YES"
	out, ok := f.Call(t, airline.KeyBookReservation, a).(tool.ValidationResult)
	require.True(t, ok)
	assert.Equal(t, "validation_error", out.ErrorType)
	assert.Equal(t, []tool.Issue{
		{Field: "cabin", Error: "Input should be 'business', 'economy' or 'basic_economy'", Type: "enum"},
		{Field: "insurance", Error: "Input should be 'yes' or 'no'", Type: "enum"},
	}, out.Details)
	delete(a, "passengers")
	a["flights"] = []any{map[string]any{"flight_number": "HAT001"}}
	a["extra"] = 1
	out = f.Call(t, airline.KeyBookReservation, a).(tool.ValidationResult)
	assert.Equal(t, []tool.Issue{
		{Field: "flights.0.date", Error: "Field required", Type: "missing"},
		{Field: "passengers", Error: "Field required", Type: "missing"},
		{Field: "extra", Error: "Extra inputs are not permitted", Type: "extra_forbidden"},
	}, out.Details)
	assert.Empty(t, f.State.Actions())
}

func TestCancelReservation(t *testing.T) {
	f := newFixture(t, newDB(t))
	out := f.Call(t, airline.KeyCancelReservation, map[string]any{"reservation_id": "no6jo3"})
	requireJSON(t, `[{"payment_id": "gift_card_7175741", "amount": 100}, {"payment_id": "gift_card_7175741", "amount": -100}]`,
		out.(map[string]any)["payment_history"])
	assert.Equal(t, "cancelled", f.At(t, "reservations", "NO6JO3", "status"))
	// No seats released, no balance restored.
	requireJSON(t, "5", f.At(t, "flights", "HAT001", "dates", "2024-05-15", "available_seats", "economy"))
	requireJSON(t, "163.0", f.At(t, "users", "mia_li_3668", "payment_methods", "gift_card_7175741", "amount"))
	requireJSON(t, `[{"action_type": "cancel_reservation", "name": "cancel_reservation", "arguments": {"reservation_id": "no6jo3"},
		"result": {"reservation_id": "no6jo3", "status": "cancelled"}}]`, f.State.Actions())

	// Cancelling again refunds every entry again, refunds included.
	out = f.Call(t, airline.KeyCancelReservation, map[string]any{"reservation_id": "NO6JO3"})
	requireJSON(t, `[{"payment_id": "gift_card_7175741", "amount": 100}, {"payment_id": "gift_card_7175741", "amount": -100},
		{"payment_id": "gift_card_7175741", "amount": -100}, {"payment_id": "gift_card_7175741", "amount": 100}]`,
		out.(map[string]any)["payment_history"])

	assert.Equal(t, notFound("Reservation xyz not found"), f.Call(t, airline.KeyCancelReservation, map[string]any{"reservation_id": "xyz"}))
	assert.Len(t, f.State.Actions(), 2)
}

func TestSendCertificate(t *testing.T) {
	f := newFixture(t, newDB(t))
	for _, id := range []string{"certificate_3221322", "certificate_3221323", "certificate_3221324"} {
		out := f.Call(t, airline.KeySendCertificate, map[string]any{"user_id": "MIA_LI_3668", "amount": 150})
		assert.Equal(t, tau2tools.StatusResult{Status: "success", Message: "Certificate " + id + " added to user MIA_LI_3668 with amount 150."}, out)
		requireJSON(t, `{"source": "certificate", "id": "`+id+`", "amount": 150.0}`, f.At(t, "users", "mia_li_3668", "payment_methods", id))
	}
	before := f.Hash(t)
	assert.Equal(t, valueError("Too many certificates"), f.Call(t, airline.KeySendCertificate, map[string]any{"user_id": "mia_li_3668", "amount": 1}))
	assert.Equal(t, before, f.Hash(t))
	assert.Equal(t, notFound("User x not found"), f.Call(t, airline.KeySendCertificate, map[string]any{"user_id": "x", "amount": 1}))
	actions := f.State.Actions()
	require.Len(t, actions, 3)
	requireJSON(t, `{"action_type": "send_certificate", "name": "send_certificate", "arguments": {"user_id": "MIA_LI_3668", "amount": 150},
		"result": {"payment_id": "certificate_3221322", "amount": 150}}`, actions[0])
}

func TestUpdateReservationBaggages(t *testing.T) {
	tests := []struct {
		name     string
		nonfree  int
		payment  string
		want     any // a failure, or nil
		charged  string
		giftCard string
	}{
		{"two paid bags on the gift card", 2, "gift_card_7175741", nil, "100", "63.0"},
		{"two paid bags on the credit card", 2, "credit_card_4421486", nil, "100", "163.0"},
		{"no paid bag: nothing charged", 0, "gift_card_7175741", nil, "0", "163.0"},
		{"certificate", 1, "certificate_7504069", valueError("Certificate cannot be used to update reservation"), "", "163.0"},
		{"gift card short", 4, "gift_card_7175741", valueError("Gift card balance is not enough"), "", "163.0"},
		{"unknown method", 1, "paypal_1", valueError("Payment method not found"), "", "163.0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, newDB(t))
			before := f.Hash(t)
			out := f.Call(t, airline.KeyUpdateReservationBaggages, map[string]any{
				"reservation_id": "NO6JO3", "total_baggages": 3, "nonfree_baggages": tt.nonfree, "payment_id": tt.payment})
			requireJSON(t, tt.giftCard, f.At(t, "users", "mia_li_3668", "payment_methods", "gift_card_7175741", "amount"))
			if tt.want != nil {
				assert.Equal(t, tt.want, out)
				assert.Equal(t, before, f.Hash(t))
				assert.Empty(t, f.State.Actions())
				return
			}
			res := out.(map[string]any)
			requireJSON(t, "3", res["total_baggages"])
			history := `[{"payment_id": "gift_card_7175741", "amount": 100}]`
			if tt.charged != "0" {
				history = `[{"payment_id": "gift_card_7175741", "amount": 100}, {"payment_id": "` + tt.payment + `", "amount": ` + tt.charged + `}]`
			}
			requireJSON(t, history, res["payment_history"])
			requireJSON(t, `{"reservation_id": "NO6JO3", "charged": `+tt.charged+`}`, f.State.Actions()[0]["result"])
		})
	}
	f := newFixture(t, newDB(t))
	assert.Equal(t, notFound("Reservation nope not found"), f.Call(t, airline.KeyUpdateReservationBaggages,
		map[string]any{"reservation_id": "nope", "total_baggages": 1, "nonfree_baggages": 1, "payment_id": "x"}))
	// A reservation whose user is unknown names the user it holds.
	db := newDB(t)
	db["reservations"].(map[string]any)["NO6JO3"].(map[string]any)["user_id"] = nil
	f = newFixture(t, db)
	assert.Equal(t, notFound("User None not found"), f.Call(t, airline.KeyUpdateReservationBaggages,
		map[string]any{"reservation_id": "NO6JO3", "total_baggages": 1, "nonfree_baggages": 1, "payment_id": "x"}))
}

func TestUpdateReservationFlights(t *testing.T) {
	update := func(f *tau2test.Fixture, cabin string, payment string, legs ...[2]string) any {
		flights := make([]any, len(legs))
		for i, l := range legs {
			flights[i] = map[string]any{"flight_number": l[0], "date": l[1]}
		}
		return f.Call(t, airline.KeyUpdateReservationFlights, map[string]any{
			"reservation_id": "NO6JO3", "cabin": cabin, "flights": flights, "payment_id": payment})
	}

	// Same legs, same cabin: the old leg is kept as it is and nothing is
	// charged.
	f := newFixture(t, newDB(t))
	out := update(f, "economy", "gift_card_7175741", [2]string{"HAT001", "2024-05-15"})
	requireJSON(t, `[{"origin": "JFK", "destination": "LAX", "flight_number": "HAT001", "date": "2024-05-15", "price": 100}]`, out.(map[string]any)["flights"])
	requireJSON(t, `{"reservation_id": "NO6JO3", "charged": 0}`, f.State.Actions()[0]["result"])
	requireJSON(t, `[{"payment_id": "gift_card_7175741", "amount": 100}]`, f.At(t, "reservations", "NO6JO3", "payment_history"))

	// A cheaper itinerary refunds the gift card: 45 + 35 - 100 = -20.
	f = newFixture(t, newDB(t))
	out = update(f, "basic_economy", "gift_card_7175741", [2]string{"HAT004", "2024-05-15"}, [2]string{"HAT005", "2024-05-15"})
	requireJSON(t, `[{"flight_number": "HAT004", "origin": "JFK", "destination": "ORD", "date": "2024-05-15", "price": 45},
		{"flight_number": "HAT005", "origin": "ORD", "destination": "LAX", "date": "2024-05-15", "price": 35}]`, out.(map[string]any)["flights"])
	assert.Equal(t, "basic_economy", f.At(t, "reservations", "NO6JO3", "cabin"))
	requireJSON(t, "183.0", f.At(t, "users", "mia_li_3668", "payment_methods", "gift_card_7175741", "amount"))
	requireJSON(t, `{"payment_id": "gift_card_7175741", "amount": -20}`, f.At(t, "reservations", "NO6JO3", "payment_history").([]any)[1])
	requireJSON(t, `{"reservation_id": "NO6JO3", "charged": -20}`, f.State.Actions()[0]["result"])
	// Seats are not touched.
	requireJSON(t, "4", f.At(t, "flights", "HAT004", "dates", "2024-05-15", "available_seats", "basic_economy"))

	// A cabin change prices the same leg anew: 500 - 100.
	f = newFixture(t, newDB(t))
	update(f, "business", "credit_card_4421486", [2]string{"HAT001", "2024-05-15"})
	requireJSON(t, `{"reservation_id": "NO6JO3", "charged": 400}`, f.State.Actions()[0]["result"])

	refusals := []struct {
		name    string
		cabin   string
		payment string
		leg     [2]string
		want    tool.FailureResult
	}{
		{"unknown flight", "economy", "credit_card_4421486", [2]string{"HAT999", "2024-05-15"}, notFound("Flight HAT999 not found")},
		{"no flight that day", "economy", "credit_card_4421486", [2]string{"HAT001", "2024-05-20"}, valueError("Flight HAT001 not available on date 2024-05-20")},
		{"landed", "economy", "credit_card_4421486", [2]string{"HAT001", "2024-05-16"}, valueError("Flight HAT001 not available on date 2024-05-16")},
		{"no seats", "business", "credit_card_4421486", [2]string{"HAT003", "2024-05-16"}, valueError("")},
		{"gift card short", "business", "gift_card_7175741", [2]string{"HAT001", "2024-05-15"}, valueError("Gift card balance is not enough")},
		{"certificate", "business", "certificate_7504069", [2]string{"HAT001", "2024-05-15"}, valueError("Certificate cannot be used to update reservation")},
	}
	for _, tt := range refusals {
		t.Run(tt.name, func(t *testing.T) {
			db := newDB(t)
			if tt.name == "no seats" {
				db["flights"].(map[string]any)["HAT003"].(map[string]any)["dates"].(map[string]any)["2024-05-16"].(map[string]any)["available_seats"].(map[string]any)["business"] = json.Number("0")
				tt.want = valueError("Not enough seats on flight HAT003")
			}
			f := newFixture(t, db)
			before := f.Hash(t)
			assert.Equal(t, tt.want, update(f, tt.cabin, tt.payment, tt.leg))
			assert.Equal(t, before, f.Hash(t))
			assert.Empty(t, f.State.Actions())
		})
	}
}

func TestUpdateReservationPassengers(t *testing.T) {
	f := newFixture(t, newDB(t))
	one := []any{map[string]any{"first_name": "Ann", "last_name": "Lee", "dob": "2000-01-01", "middle": "dropped"}}
	out := f.Call(t, airline.KeyUpdateReservationPassengers, map[string]any{"reservation_id": "NO6JO3", "passengers": one})
	requireJSON(t, `[{"first_name": "Ann", "last_name": "Lee", "dob": "2000-01-01"}]`, out.(map[string]any)["passengers"])
	requireJSON(t, `[{"action_type": "update_reservation_passengers", "name": "update_reservation_passengers",
		"arguments": {"reservation_id": "NO6JO3", "passengers": [{"first_name": "Ann", "last_name": "Lee", "dob": "2000-01-01"}]},
		"result": {"reservation_id": "NO6JO3"}}]`, f.State.Actions())
	two := append(one, one[0])
	before := f.Hash(t)
	assert.Equal(t, valueError("Number of passengers does not match"),
		f.Call(t, airline.KeyUpdateReservationPassengers, map[string]any{"reservation_id": "NO6JO3", "passengers": two}))
	assert.Equal(t, before, f.Hash(t))
}

// TestMalformedDBRaises: where the DB does not have tau2's shape, tools
// return the exception Python would raise, as a Go error, and change
// nothing.
func TestMalformedDBRaises(t *testing.T) {
	db := newDB(t)
	db["users"].(map[string]any)["mia_li_3668"].(map[string]any)["payment_methods"].(map[string]any)["gift_card_7175741"] = "broken"
	db["reservations"].(map[string]any)["BAD001"] = "broken"
	db["flights"].(map[string]any)["HAT007"] = []any{}
	f := newFixture(t, db)
	before := f.Hash(t)
	calls := []struct {
		key  string
		args map[string]any
		want string
	}{
		{airline.KeyCancelReservation, map[string]any{"reservation_id": "BAD001"}, "'str' object has no attribute 'get'"},
		{airline.KeyUpdateReservationBaggages, map[string]any{"reservation_id": "NO6JO3", "total_baggages": 1, "nonfree_baggages": 1, "payment_id": "gift_card_7175741"},
			"'str' object has no attribute 'get'"},
		{airline.KeySearchDirectFlight, map[string]any{"origin": "JFK", "destination": "LAX", "date": "2024-05-15"}, "'list' object has no attribute 'get'"},
	}
	for _, c := range calls {
		err := f.CallErr(t, c.key, c.args)
		assert.EqualError(t, err, c.want, c.key)
		var pe *pyvalue.Error
		assert.ErrorAs(t, err, &pe)
	}
	assert.Equal(t, before, f.Hash(t))
	assert.Empty(t, f.State.Actions())
	// The read tool returns what is stored, whatever it is.
	assert.Equal(t, "broken", f.Call(t, airline.KeyGetReservationDetails, map[string]any{"reservation_id": "bad001"}))
}
