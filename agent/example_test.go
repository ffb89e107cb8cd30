package agent_test

import (
	"context"
	"fmt"

	"github.com/voiceeval/schematools/agent"
	"github.com/voiceeval/schematools/tool"
)

// weather is a tool.Tool written by hand (tool.New builds one from a
// typed function).
type weather struct{}

func (weather) Name() string        { return "get_weather" }
func (weather) Description() string { return "Get the weather in a city." }
func (weather) Properties() map[string]any {
	return map[string]any{"city": map[string]any{"type": "string"}}
}
func (weather) Required() []string { return []string{"city"} }
func (weather) Execute(_ context.Context, args map[string]any) (any, error) {
	return map[string]any{"city": args["city"], "sky": "sunny"}, nil
}

// A turn of the loop: the model calls a tool, the loop runs it and writes
// its result into the context, and the model answers in words. The model
// here is a script; a provider adapter (provider/openai, …) is used the
// same way.
func ExampleLoop_Turn() {
	tools, err := tool.NewSet(weather{})
	if err != nil {
		panic(err)
	}
	model := agent.ModelFunc(func(_ context.Context, req agent.Request) (agent.Response, error) {
		last := req.Messages[len(req.Messages)-1]
		if last.Role == agent.RoleUser {
			return agent.Response{Calls: []tool.ModelCall{{ID: "call_1", Name: "get_weather", Arguments: `{"city":"Paris"}`}}, FinishReason: "tool_calls"}, nil
		}
		return agent.Response{Text: "It is sunny in Paris.", FinishReason: "stop"}, nil
	})
	loop := &agent.Loop{
		Model:   model,
		Tools:   tools,
		Context: agent.NewContext(agent.Message{Role: agent.RoleSystem, Content: "You are a weather bot."}),
	}
	res, err := loop.Turn(context.Background(), "Weather in Paris?")
	if err != nil {
		panic(err)
	}
	fmt.Println("model calls:", len(res.Responses))
	for _, m := range loop.Context.Messages() {
		b, _ := m.MarshalJSON()
		fmt.Println(string(b))
	}
	// Output:
	// model calls: 2
	// {"role": "system", "content": "You are a weather bot."}
	// {"role": "user", "content": "Weather in Paris?"}
	// {"role": "assistant", "tool_calls": [{"id": "call_1", "function": {"name": "get_weather", "arguments": "{\"city\": \"Paris\"}"}, "type": "function"}]}
	// {"role": "tool", "content": "{\"city\": \"Paris\", \"sky\": \"sunny\"}", "tool_call_id": "call_1"}
	// {"role": "assistant", "content": "It is sunny in Paris."}
}
