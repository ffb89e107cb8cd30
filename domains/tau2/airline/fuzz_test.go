package airline_test

import (
	"encoding/json"
	"testing"

	"github.com/voiceeval/schematools/domains/tau2/airline"
	"github.com/voiceeval/schematools/internal/replaytest"
)

// FuzzTools sends arbitrary arguments to every airline tool, on the test
// DB (see replaytest.FuzzTools): nothing panics, every result encodes, and a
// refused call leaves the DB and the action log as they were.
func FuzzTools(f *testing.F) {
	seeds := []string{
		`{}`, `{"user_id": "mia_li_3668"}`, `{"reservation_id": "no6jo3"}`, `{"expression": "1/0"}`,
		`{"origin": "JFK", "destination": "LAX", "date": "2024-05-15"}`,
		`{"flight_number": "HAT001", "date": "2024-05-15"}`,
		`{"user_id": "mia_li_3668", "amount": "150"}`,
		`{"reservation_id": "NO6JO3", "total_baggages": 3, "nonfree_baggages": 9, "payment_id": "gift_card_7175741"}`,
		`{"reservation_id": "NO6JO3", "cabin": "business", "flights": [{"flight_number": "HAT004", "date": "2024-05-15"}], "payment_id": "gift_card_7175741"}`,
		`{"reservation_id": "NO6JO3", "passengers": [{"first_name": "a", "last_name": "b", "dob": "c"}]}`,
		`{"summary": "x"}`,
	}
	b, _ := json.Marshal(bookArgs())
	seeds = append(seeds, string(b))
	replaytest.FuzzTools(f, airline.Domain, airline.Tools, newDB(f), seeds)
}
