package evaairline_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/domains/nemo/evaairline"
	"github.com/voiceeval/schematools/domains/nemo/nemodata"
	"github.com/voiceeval/schematools/tool"
)

// Hostile arguments never panic (Execute is called directly, as the live
// path would recover a panic into a result).
func FuzzTools(f *testing.F) {
	for _, s := range []string{
		`{"confirmation_number": "IM2XU4", "last_name": ""}`,
		`{"confirmation_number": "im2xu4", "journey_id": "FL_SK418_20260605", "new_journey_id": "FL_SK333_20260603", "rebooking_type": "irrops_delay", "waive_change_fee": 1, "flight_number": "SK418"}`,
		`{"confirmation_number": "IM2XU4", "passenger_id": "PAX١٢٣", "journey_id": "FL_SK418_20260605", "seat_preference": "window"}`,
		`{"origin": "ord", "destination": "MIA", "date": "2026-06-03", "passenger_count": "1.0", "fare_class": "any"}`,
		`{"confirmation_number": "IM2XU4", "refund_amount": "Infinity", "refund_type": "full_fare"}`,
		`{"confirmation_number": "IM2XU4", "journey_id": "FL_SK357_20260603", "passenger_ids": []}`,
		`{"confirmation_number": null, "amount": NaN, "num_bags": 1e400, "passenger_ids": {"a": 1}}`,
	} {
		for i := range evaairline.ToolNames() {
			f.Add(uint8(i), []byte(s))
		}
	}
	db, err := evaairline.LoadScenarioDB(nemodata.FS, "1.1.3")
	require.NoError(f, err)
	f.Fuzz(func(t *testing.T, which uint8, raw []byte) {
		names := evaairline.ToolNames()
		st := evaairline.NewState(copyDB(db), nil)
		tools, err := evaairline.NewTools(st, nil)
		require.NoError(t, err)
		args, err := tool.DecodeArgs(raw)
		if err != nil {
			return
		}
		// Execute directly: the live path would turn a panic into a result.
		_, _ = tools[int(which)%len(names)].Execute(context.Background(), args)
		_, err = st.Hash()
		require.NoError(t, err)
	})
}
