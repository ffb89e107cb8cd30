package coffee_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/voiceeval/schematools/domains/coffee"
	"github.com/voiceeval/schematools/registry"
	"github.com/voiceeval/schematools/state"
)

// Register the coffee-shop tools, build the menu lookup for a scenario that
// offers espresso only, and call it on the live path.
func Example() {
	st := state.New()
	st.StartScenario(coffee.Domain, nil)
	st.SetDB(coffee.DB())
	reg := new(registry.Tools)
	if err := coffee.Register(reg); err != nil {
		panic(err)
	}
	set, err := reg.NewSet(coffee.Domain, []registry.ToolSpec{
		{Name: coffee.NameGetMenu, Args: map[string]any{"items": []any{"espresso"}}},
	}, registry.Deps{State: st})
	if err != nil {
		panic(err)
	}
	_ = set.CallJSON(context.Background(), coffee.NameGetMenu, []byte(`{}`), func(v any) error {
		b, _ := json.Marshal(v)
		fmt.Println(string(b))
		return nil
	}, nil)
	// Output: [{"item_id":"espresso","name":"Espresso","prices":{"large":3.5,"medium":3.0,"small":2.5}}]
}
