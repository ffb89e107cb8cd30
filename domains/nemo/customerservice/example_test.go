package customerservice_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/voiceeval/schematools/domains/nemo/customerservice"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

func Example() {
	st := state.New()
	lookup, _ := customerservice.NewLookupAccount(st, customerservice.LookupAccountOptions{
		Accounts: json.RawMessage(`"{\"TC-1\": {\"name\": \"Ann\", \"balance\": \"$10.00\"}}"`),
	})
	refund, _ := customerservice.NewProcessRefund(st, customerservice.Options{})
	_ = tool.Call(context.Background(), refund, map[string]any{"account_id": "TC-1", "amount": json.Number("2.5"), "description": "Case", "date": "2025-01-15"},
		func(any) error { return nil }, nil)
	_ = tool.Call(context.Background(), lookup, map[string]any{"account_id": "TC-1"}, func(r any) error {
		b, _ := json.Marshal(r)
		fmt.Println(string(b))
		return nil
	}, nil)
	// Output: {"name":"Ann","balance":"$7.50","recent_charges":[{"description":"Refund - Case","amount":"-$2.50","date":"2025-01-15"}]}
}
