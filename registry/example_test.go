package registry_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"

	"github.com/voiceeval/schematools/registry"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

// Register a domain's tools and the shared harness tools once, then build
// each scenario's tool set from its {tool name: keyword arguments} spec.
func Example() {
	reg := &registry.Tools{Logger: slog.New(slog.DiscardHandler)}
	if err := registry.RegisterHarness(reg); err != nil {
		panic(err)
	}
	type greeterOptions struct {
		Greeting string `json:"greeting"`
	}
	err := reg.Register("hotel", "greet_guest", registry.Configured(func(d registry.Deps, o greeterOptions) (tool.Tool, error) {
		type params struct {
			Name string `json:"name"`
		}
		return tool.New("greet_guest", "Greet a guest by name.",
			func(_ context.Context, _ *state.Shared, p params) (any, error) {
				return o.Greeting + ", " + p.Name + "!", nil
			}, &tool.Options{State: d.State})
	}))
	if err != nil {
		panic(err)
	}

	// A scenario: its own state, its own keyword arguments.
	st := state.New()
	set, err := reg.NewSet("hotel", []registry.ToolSpec{
		{Name: "greet_guest", Args: map[string]any{"greeting": "Welcome"}},
		{Name: "EndConversationTool"}, // found in "default"
	}, registry.Deps{State: st})
	if err != nil {
		panic(err)
	}
	fmt.Println(set.Names())
	_ = set.Call(context.Background(), "greet_guest", map[string]any{"name": "Ada"}, func(v any) error {
		b, _ := json.Marshal(v)
		fmt.Println(string(b))
		return nil
	}, nil)

	_, err = reg.NewSet("hotel", []registry.ToolSpec{{Name: "greet_gest"}}, registry.Deps{State: st})
	fmt.Println(err)
	// Output:
	// [greet_guest EndConversationTool]
	// "Welcome, Ada!"
	// registry: building the tools of domain 'hotel': tool 'greet_gest' not found in domain 'hotel' or 'default'. Available in 'hotel': ['greet_guest']. Available in 'default': ['EndConversationTool', 'SendScenarioSummaryTool', 'TransferToHumanAgentsTool'].
}
