package gemini_test

import (
	"context"
	"fmt"
	"net/http/httptest"

	"github.com/voiceeval/schematools/agent"
	"github.com/voiceeval/schematools/agent/agenttest"
	"github.com/voiceeval/schematools/provider/gemini"
)

// A Model on the Gemini API (here a local stand-in; a real one needs only
// its key). The zero Options are the defaults: streaming, 2 retries 1 s
// apart then 2 s, 60 s per request.
func ExampleNew() {
	srv := httptest.NewServer(agenttest.New(agenttest.Turn{Text: "Hello! How can I help?"}))
	defer srv.Close()

	m, err := gemini.New(context.Background(), "my-model", &gemini.Options{BaseURL: srv.URL, APIKey: "test-key"})
	if err != nil {
		panic(err)
	}
	resp, err := m.Complete(context.Background(), agent.Request{Messages: []agent.Message{{Role: agent.RoleUser, Content: "Hi"}}})
	if err != nil {
		panic(err)
	}
	fmt.Println(resp.Text)
	fmt.Println(resp.FinishReason)
	// Output:
	// Hello! How can I help?
	// STOP
}
