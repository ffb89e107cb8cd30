package openai_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/voiceeval/schematools/agent"
	"github.com/voiceeval/schematools/agent/agenttest"
	"github.com/voiceeval/schematools/provider/openai"
)

// Options.APIKeyEnv sends the variable's value, or "EMPTY" when it is
// unset, as NeMo's vLLM configs do.
func TestAPIKeyEnv(t *testing.T) {
	for _, tc := range []struct{ value, want string }{{"sk-test", "Bearer sk-test"}, {"", "Bearer EMPTY"}} {
		t.Setenv("SCHEMATOOLS_TEST_KEY", tc.value)
		var got string
		standin := agenttest.New(agenttest.Turn{Text: "hi"})
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			got = r.Header.Get("Authorization")
			standin.ServeHTTP(w, r)
		}))
		m := openai.New("m", &openai.Options{BaseURL: srv.URL + "/v1", APIKeyEnv: "SCHEMATOOLS_TEST_KEY", NoStreaming: true})
		if _, err := m.Complete(context.Background(), agent.Request{Messages: []agent.Message{{Role: agent.RoleUser, Content: "hello"}}}); err != nil {
			t.Fatal(err)
		}
		srv.Close()
		if got != tc.want {
			t.Errorf("value %q: Authorization %q, want %q", tc.value, got, tc.want)
		}
	}
}
