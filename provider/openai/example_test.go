package openai_test

import (
	"context"
	"fmt"
	"net/http/httptest"

	"github.com/voiceeval/schematools/agent"
	"github.com/voiceeval/schematools/agent/agenttest"
	"github.com/voiceeval/schematools/provider/openai"
)

// A Model on an OpenAI-compatible server (here a local stand-in; a real
// one needs only its base URL and key). The zero Options are the
// defaults: streaming, 2 retries, 60 s per attempt.
func ExampleNew() {
	srv := httptest.NewServer(agenttest.New(agenttest.Turn{Text: "Hello! How can I help?"}))
	defer srv.Close()

	m := openai.New("my-model", &openai.Options{BaseURL: srv.URL + "/v1", APIKey: "test-key"})
	var streamed string
	resp, err := m.Complete(context.Background(), agent.Request{
		Messages: []agent.Message{{Role: agent.RoleUser, Content: "Hi"}},
		OnText:   func(delta string) { streamed += delta },
	})
	if err != nil {
		panic(err)
	}
	fmt.Println(resp.Text)
	fmt.Println(streamed == resp.Text, resp.FinishReason)
	// Output:
	// Hello! How can I help?
	// true stop
}
