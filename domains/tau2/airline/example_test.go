package airline_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/voiceeval/schematools/dbhash"
	"github.com/voiceeval/schematools/domains/tau2/airline"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

// A live call of one airline tool: the model's raw arguments in, one
// delivered result out. The flight number is matched case-insensitively,
// as the Python original does for speech-recognised ids.
func Example() {
	db, _ := dbhash.Decode([]byte(`{"flights": {"HAT001": {"flight_number": "HAT001", "origin": "JFK", "destination": "LAX",
		"dates": {"2024-05-15": {"status": "on time"}}}}}`))
	st := state.New()
	st.SetDB(db.(map[string]any))
	status, err := airline.NewGetFlightStatus(&tool.Options{State: st})
	if err != nil {
		panic(err)
	}
	deliver := func(result any) error {
		b, _ := json.Marshal(result)
		fmt.Println(string(b))
		return nil
	}
	ctx := context.Background()
	_ = tool.CallJSON(ctx, status, []byte(`{"flight_number": "hat001", "date": "2024-05-15"}`), deliver, nil)
	_ = tool.CallJSON(ctx, status, []byte(`{"flight_number": "HAT002", "date": "2024-05-15"}`), deliver, nil)
	_ = tool.CallJSON(ctx, status, []byte(`{"flight_number": 1}`), deliver, nil)
	// Output:
	// {"status":"success","flight_status":"on time"}
	// {"status":"error","error_type":"not_found","message":"Flight HAT002 not found on date 2024-05-15"}
	// {"status":"error","error_type":"validation_error","message":"Tool arguments failed validation.","details":[{"field":"flight_number","error":"Input should be a valid string","type":"string_type"},{"field":"date","error":"Field required","type":"missing"}]}
}
