package rtvi_test

import (
	"context"
	"fmt"

	"github.com/voiceeval/schematools/rtvi"
)

// A harness starts a scenario, seeds its DB and pulls the summary; the
// dispatcher answers each message as the Python bot would.
func ExampleDispatcher() {
	d := rtvi.NewDispatcher(rtvi.Config{})
	ctx := context.Background()
	for _, msg := range []string{
		`{"label": "rtvi-ai", "type": "client-message", "id": "update_prompt_1", "data": {"t": "update_system_prompt", "d": {"prompt": "You are a barista.", "tool_domain": "coffee"}}}`,
		`{"label": "rtvi-ai", "type": "client-message", "id": "apply_init_agent_2", "data": {"t": "apply_initialization", "d": {"shared_state_init": "{\"db\": {\"x\": 1}}"}}}`,
		`{"label": "rtvi-ai", "type": "client-message", "id": "get_scenario_summary_3", "data": {"t": "get_scenario_summary", "d": {}}}`,
		`{"label": "rtvi-ai", "type": "client-message", "id": "oops_4", "data": {"t": "oops"}}`,
	} {
		reply, err := d.Handle(ctx, []byte(msg))
		if err != nil {
			fmt.Println("error:", err)
		}
		fmt.Println(string(reply))
	}
	// Output:
	// {"label": "rtvi-ai", "type": "server-response", "id": "update_prompt_1", "data": {"t": "update_system_prompt", "d": true}}
	// {"label": "rtvi-ai", "type": "server-response", "id": "apply_init_agent_2", "data": {"t": "apply_initialization", "d": {"errors": [], "success": true}}}
	// {"label": "rtvi-ai", "type": "server-response", "id": "get_scenario_summary_3", "data": {"t": "get_scenario_summary", "d": {"actions": [], "db_hash": "5041bf1f713df204784353e82f6a4a535931cb64f1f4b4a5aeaffcb720918b22"}}}
	// {"label": "rtvi-ai", "type": "error-response", "id": "oops_4", "data": {"error": "unknown message type: oops"}}
}

// A scripted turn: one LLM response with its token usage, then the reply
// spoken (text standing in for audio). Send would write each message into
// a pipecat message frame on the bot's connection.
func ExampleEmitter() {
	e := &rtvi.Emitter{Send: func(_ context.Context, msg []byte) error {
		fmt.Println(string(msg))
		return nil
	}}
	ctx := context.Background()
	_ = e.LLMResponse(ctx, rtvi.Usage{PromptTokens: 120, CompletionTokens: 8, TotalTokens: 128}, "Your order is placed.")
	_ = e.Say(ctx, "Your order is placed.")
	// Output:
	// {"label": "rtvi-ai", "type": "bot-llm-started"}
	// {"label": "rtvi-ai", "type": "bot-llm-text", "data": {"text": "Your order is placed."}}
	// {"label": "rtvi-ai", "type": "bot-llm-stopped"}
	// {"label": "rtvi-ai", "type": "metrics", "data": {"tokens": [{"prompt_tokens": 120, "completion_tokens": 8, "total_tokens": 128}]}}
	// {"label": "rtvi-ai", "type": "bot-tts-started"}
	// {"label": "rtvi-ai", "type": "bot-started-speaking"}
	// {"label": "rtvi-ai", "type": "bot-tts-text", "data": {"text": "Your order is placed."}}
	// {"label": "rtvi-ai", "type": "bot-stopped-speaking"}
	// {"label": "rtvi-ai", "type": "bot-tts-stopped"}
}
