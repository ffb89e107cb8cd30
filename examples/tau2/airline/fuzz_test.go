package airline_test

import (
	"context"
	"encoding/json"
	"sort"
	"testing"

	"github.com/voiceeval/schematools/dbhash"
	"github.com/voiceeval/schematools/examples/tau2/airline"
	"github.com/voiceeval/schematools/replay"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

// FuzzTools sends arbitrary arguments to every airline tool, on the test
// DB. Nothing panics (Execute is called directly, not through a path that
// recovers), every result encodes as JSON, and a call answered with a
// validation or domain error, or a Go error, leaves the DB and the action
// log as they were.
func FuzzTools(f *testing.F) {
	keys := make([]string, 0, len(names))
	for k := range names {
		keys = append(keys, k)
	}
	sort.Strings(keys)
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
	for i := range keys {
		for _, s := range seeds {
			f.Add(uint8(i), []byte(s))
		}
	}
	base := newDB(f)
	f.Fuzz(func(t *testing.T, which uint8, raw []byte) {
		args, err := tool.DecodeArgs(raw)
		if err != nil {
			return
		}
		key := keys[int(which)%len(keys)]
		st := state.New()
		st.SetDB(state.Clone(base).(map[string]any))
		m, err := airline.Tools(replay.Env{Domain: airline.Domain, Agent: st})
		if err != nil {
			t.Fatal(err)
		}
		before, err := dbhash.Hash(st.Snapshot())
		if err != nil {
			t.Fatal(err)
		}
		out, callErr := m[key].Execute(context.Background(), args)
		if _, err := json.Marshal(out); err != nil {
			t.Fatalf("%s(%s): result does not encode: %v", key, raw, err)
		}
		refused := callErr != nil
		switch out.(type) {
		case tool.ValidationResult, tool.FailureResult:
			refused = true
		}
		if !refused {
			return
		}
		after, err := dbhash.Hash(st.Snapshot())
		if err != nil {
			t.Fatal(err)
		}
		if after != before || st.ActionCount() != 0 {
			t.Fatalf("%s(%s): a refused call changed the state (%v, %v)", key, raw, out, callErr)
		}
	})
}
