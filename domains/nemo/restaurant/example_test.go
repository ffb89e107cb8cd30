package restaurant_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/voiceeval/schematools/domains/nemo/basictools"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

func Example() {
	order, _ := basictools.NewPlaceOrder(state.New(), basictools.PlaceOrderOptions{AutoValidate: "False"}, nil)
	args, _ := tool.DecodeArgs([]byte(`{"items": [{"name": "Fries", "unit_price": "3.49", "quantity": 3}], "customer_name": "Mei", "total_price": 11.47}`))
	_ = tool.Call(context.Background(), order, args, func(r any) error {
		b, _ := json.Marshal(r)
		fmt.Println(string(b))
		return nil
	}, nil)
	// Output: {"error":"The total price is incorrect. The calculated total price is 10.47 but the expected total price is 11.47."}
}
