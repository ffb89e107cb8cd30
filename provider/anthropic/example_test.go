package anthropic_test

import (
	"context"
	"fmt"
	"net/http/httptest"

	"github.com/voiceeval/schematools/agent"
	"github.com/voiceeval/schematools/agent/agenttest"
	"github.com/voiceeval/schematools/provider/anthropic"
)

// A Model on the Messages API (here a local stand-in; a real one needs
// only its key). The zero Options are the defaults: streaming,
// max_tokens 4096, 2 retries, 60 s per attempt.
func ExampleNew() {
	srv := httptest.NewServer(agenttest.New(agenttest.Turn{Text: "Hello! How can I help?"}))
	defer srv.Close()

	m := anthropic.New("my-model", &anthropic.Options{BaseURL: srv.URL, APIKey: "test-key"})
	loop := &agent.Loop{Model: m, Context: agent.NewContext(agent.Message{Role: agent.RoleSystem, Content: "Be brief."})}
	res, err := loop.Turn(context.Background(), "Hi")
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Responses[0].Text)
	fmt.Println(res.Responses[0].FinishReason)
	// Output:
	// Hello! How can I help?
	// end_turn
}
