package evaairline_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/voiceeval/schematools/domains/nemo/evaairline"
	"github.com/voiceeval/schematools/domains/nemo/nemodata"
)

// Replay a call script (a bot's tool calls, one JSON object a line) against
// scenario 1.1.3 and print each result and the DB hash after it: the
// gold path of the scenario, which reaches its expected DB hash.
func Example() {
	db, err := evaairline.LoadScenarioDB(nemodata.FS, "1.1.3")
	if err != nil {
		panic(err)
	}
	script := `{"tool": "GetReservationTool", "arguments": {"confirmation_number": "im2xu4", "last_name": "okonkwo"}}
{"tool": "RebookFlightTool", "arguments": {"confirmation_number": "IM2XU4", "journey_id": "FL_SK418_20260605", "new_journey_id": "FL_SK333_20260603", "rebooking_type": "voluntary", "waive_change_fee": false}}
{"tool": "AssignSeatTool", "arguments": {"confirmation_number": "IM2XU4", "passenger_id": "PAX001", "journey_id": "FL_SK333_20260603", "seat_preference": "aisle"}}`
	calls, err := evaairline.ParseCalls(strings.NewReader(script))
	if err != nil {
		panic(err)
	}
	st := evaairline.NewState(db, nil)
	err = evaairline.Replay(context.Background(), st, calls, func(s evaairline.Step) error {
		b, _ := json.Marshal(s.Result)
		var r struct{ Status, Message string }
		_ = json.Unmarshal(b, &r)
		fmt.Println(s.Call.Tool, r.Status, r.Message, s.DBHash[:12])
		return nil
	})
	if err != nil {
		panic(err)
	}
	// Output:
	// GetReservationTool success  6eedb59fd607
	// RebookFlightTool success Successfully rebooked to flight FL_SK333_20260603 e27893282792
	// AssignSeatTool success Seat 21C (aisle) successfully assigned 1997776b8971
}
