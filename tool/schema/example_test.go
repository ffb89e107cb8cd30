package schema_test

import (
	"context"
	"fmt"

	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
	"github.com/voiceeval/schematools/tool/schema"
)

type statusParams struct {
	OrderID string `json:"order_id" jsonschema_description:"The order id." validate:"min=3"`
	Verbose bool   `json:"verbose,omitempty"`
}

// A tool set in OpenAI's dialect, strict, and what the export changed.
func ExampleOpenAI() {
	status, _ := tool.New("order_status", "Get an order's status.",
		func(_ context.Context, _ *state.Shared, p statusParams) (any, error) { return "placed", nil }, nil)
	var changed []string
	defs, err := schema.OpenAI([]tool.Tool{status}, &schema.Options{Strict: true, Report: &changed})
	fmt.Println(err)
	fmt.Println(string(defs[0]))
	fmt.Println(changed)
	// Output:
	// <nil>
	// {"type":"function","function":{"name":"order_status","description":"Get an order's status.","parameters":{"type":"object","properties":{"order_id":{"description":"The order id.","type":"string"},"verbose":{"type":["boolean","null"]}},"required":["order_id","verbose"],"additionalProperties":false},"strict":true}}
	// [order_status: order_id.minLength (strict mode does not support it)]
}
