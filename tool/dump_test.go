package tool_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/tool"
)

func TestModelDump(t *testing.T) {
	type leg struct {
		FlightNumber string `json:"flight_number"`
		Date         string `json:"date"`
	}
	type inner struct {
		Note string `json:"note"`
	}
	type params struct {
		inner
		UserID  string            `json:"user_id"`
		Amount  int               `json:"amount"`
		Rate    float64           `json:"rate"`
		Ok      bool              `json:"ok"`
		Legs    []leg             `json:"legs"`
		None    []leg             `json:"none"`
		Tags    map[string]string `json:"tags"`
		Skipped string            `json:"-"`
		Plain   string
		private string
	}
	got := tool.ModelDump(params{
		inner: inner{Note: "n"}, UserID: "u", Amount: 12, Rate: 2.5, Ok: true,
		Legs: []leg{{"HAT001", "2024-05-01"}}, Tags: map[string]string{"a": "b"}, Skipped: "x", Plain: "p", private: "q",
	})
	assert.Equal(t, map[string]any{
		"note": "n", "user_id": "u", "amount": int64(12), "rate": 2.5, "ok": true,
		"legs": []any{map[string]any{"flight_number": "HAT001", "date": "2024-05-01"}},
		"none": nil, "tags": map[string]any{"a": "b"}, "Plain": "p",
	}, got)
	assert.Equal(t, map[string]any{}, tool.ModelDump(nil))
	assert.Equal(t, map[string]any{}, tool.ModelDump(struct{}{}))
}

// A json.Number parameter is dumped as the number it is, not as its text:
// pydantic's model_dump() of a float field is a float.
func TestModelDumpNumber(t *testing.T) {
	type params struct {
		Amount json.Number   `json:"amount"`
		Count  json.Number   `json:"count"`
		Unset  json.Number   `json:"unset"`
		Ptr    *json.Number  `json:"ptr"`
		List   []json.Number `json:"list"`
	}
	n := json.Number("7")
	got := tool.ModelDump(params{Amount: "12.5", Count: "3", Ptr: &n, List: []json.Number{"1e2"}})
	assert.Equal(t, map[string]any{
		"amount": json.Number("12.5"), "count": json.Number("3"), "unset": nil, "ptr": json.Number("7"),
		"list": []any{json.Number("1e2")},
	}, got)
	data, err := json.Marshal(got)
	require.NoError(t, err)
	assert.JSONEq(t, `{"amount": 12.5, "count": 3, "unset": null, "ptr": 7, "list": [1e2]}`, string(data))
}
