package airline_test

import (
	"github.com/voiceeval/schematools/domains/tau2/internal/tau2test"
	"testing"

	"github.com/voiceeval/schematools/domains/tau2/airline"
	"github.com/voiceeval/schematools/internal/replaytest"
	"github.com/voiceeval/schematools/tool"
)

// testDBJSON is a small airline DB in the tau2 layout. Gift card and
// certificate balances are floats, as in the real data; everything else
// is an int.
const testDBJSON = `{
 "flights": {
  "HAT001": {"flight_number": "HAT001", "origin": "JFK", "destination": "LAX",
   "scheduled_departure_time_est": "06:00:00", "scheduled_arrival_time_est": "09:00:00",
   "dates": {
    "2024-05-15": {"status": "available", "available_seats": {"basic_economy": 9, "economy": 5, "business": 1}, "prices": {"basic_economy": 50, "economy": 100, "business": 500}},
    "2024-05-16": {"status": "landed", "actual_departure_time_est": "2024-05-16T06:01:00", "actual_arrival_time_est": "2024-05-16T09:02:00"},
    "2024-05-17": {"status": "cancelled"}}},
  "HAT002": {"flight_number": "HAT002", "origin": "JFK", "destination": "ORD",
   "scheduled_departure_time_est": "20:00:00", "scheduled_arrival_time_est": "01:00:00+1",
   "dates": {
    "2024-05-15": {"status": "available", "available_seats": {"basic_economy": 3, "economy": 3, "business": 3}, "prices": {"basic_economy": 40, "economy": 80, "business": 300}},
    "2024-05-05": {"status": "available", "available_seats": {"basic_economy": 3, "economy": 3, "business": 3}, "prices": {"basic_economy": 40, "economy": 80, "business": 300}}}},
  "HAT003": {"flight_number": "HAT003", "origin": "ORD", "destination": "LAX",
   "scheduled_departure_time_est": "07:00:00", "scheduled_arrival_time_est": "10:00:00",
   "dates": {
    "2024-05-16": {"status": "available", "available_seats": {"basic_economy": 2, "economy": 2, "business": 2}, "prices": {"basic_economy": 30, "economy": 60, "business": 200}},
    "2024-05-06": {"status": "available", "available_seats": {"basic_economy": 2, "economy": 2, "business": 2}, "prices": {"basic_economy": 30, "economy": 60, "business": 200}}}},
  "HAT004": {"flight_number": "HAT004", "origin": "JFK", "destination": "ORD",
   "scheduled_departure_time_est": "05:00:00", "scheduled_arrival_time_est": "07:30:00",
   "dates": {
    "2024-05-15": {"status": "available", "available_seats": {"basic_economy": 4, "economy": 4, "business": 4}, "prices": {"basic_economy": 45, "economy": 90, "business": 350}}}},
  "HAT005": {"flight_number": "HAT005", "origin": "ORD", "destination": "LAX",
   "scheduled_departure_time_est": "07:00:00", "scheduled_arrival_time_est": "09:00:00",
   "dates": {
    "2024-05-15": {"status": "available", "available_seats": {"basic_economy": 4, "economy": 4, "business": 4}, "prices": {"basic_economy": 35, "economy": 70, "business": 250}}}},
  "HAT006": {"flight_number": "HAT006", "origin": "ORD", "destination": "LAX",
   "scheduled_departure_time_est": "12:00:00", "scheduled_arrival_time_est": "14:00:00",
   "dates": {
    "2024-05-15": {"status": "available", "available_seats": {"basic_economy": 4, "economy": 4, "business": 4}, "prices": {"basic_economy": 36, "economy": 72, "business": 260}}}}
 },
 "users": {
  "mia_li_3668": {"user_id": "mia_li_3668", "name": {"first_name": "Mia", "last_name": "Li"},
   "address": {"address1": "975 Sunset Drive", "address2": "Suite 217", "city": "Austin", "country": "USA", "state": "TX", "zip": "78750"},
   "email": "mia.li3818@example.com", "dob": "1990-04-05",
   "payment_methods": {
    "credit_card_4421486": {"source": "credit_card", "id": "credit_card_4421486", "brand": "visa", "last_four": "7447"},
    "gift_card_7175741": {"source": "gift_card", "id": "gift_card_7175741", "amount": 163.0},
    "certificate_7504069": {"source": "certificate", "id": "certificate_7504069", "amount": 250.0}},
   "saved_passengers": [{"first_name": "Amelia", "last_name": "Ahmed", "dob": "1957-03-21"}],
   "membership": "gold", "reservations": ["NO6JO3"]}
 },
 "reservations": {
  "NO6JO3": {"reservation_id": "NO6JO3", "user_id": "mia_li_3668", "origin": "JFK", "destination": "LAX",
   "flight_type": "one_way", "cabin": "economy",
   "flights": [{"origin": "JFK", "destination": "LAX", "flight_number": "HAT001", "date": "2024-05-15", "price": 100}],
   "passengers": [{"first_name": "Mia", "last_name": "Li", "dob": "1990-04-05"}],
   "payment_history": [{"payment_id": "gift_card_7175741", "amount": 100}],
   "created_at": "2024-05-14T09:52:38", "total_baggages": 1, "nonfree_baggages": 0, "insurance": "no"}
 }
}`

// newDB returns a fresh copy of the test DB, read as Python's json.loads
// reads it (exact numbers).
func newDB(t testing.TB) map[string]any { return replaytest.DecodeDB(t, testDBJSON) }

// newFixture binds the 14 tools to a fresh state holding db.
func newFixture(t testing.TB, db map[string]any) *tau2test.Fixture {
	t.Helper()
	return tau2test.NewFixture(t, airline.Domain, airline.Tools, db)
}

var (
	canon       = replaytest.Canon
	requireJSON = replaytest.RequireJSON
)

func failure(errorType, message string) tool.FailureResult { return tool.Failure(errorType, message) }

func notFound(msg string) tool.FailureResult   { return failure("not_found", msg) }
func valueError(msg string) tool.FailureResult { return failure("value_error", msg) }
