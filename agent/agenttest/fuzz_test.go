package agenttest_test

import (
	"testing"

	"github.com/voiceeval/schematools/agent/agenttest"
)

// FuzzDecodeRequest: any body is decoded or refused with an error, never
// a panic; a decoded request has a model and messages with known roles.
func FuzzDecodeRequest(f *testing.F) {
	for _, s := range []string{
		body + `}`, body + `,"stream":true,"stream_options":{"include_usage":true}}`,
		`{"model":"m","messages":[{"role":"tool","tool_call_id":"c","content":"{}"},{"role":"assistant","tool_calls":[{"id":"c","type":"function","function":{"name":"f","arguments":"{}"}}]}]}`,
		`{"model":"m","messages":[{"role":"user","content":[{"type":"text","text":"x"}]}],"tool_choice":"auto"}`,
		``, `null`, `{"model":1}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := agenttest.DecodeRequest(b)
		if err != nil {
			return
		}
		if r.Model == "" || len(r.Messages) == 0 {
			t.Fatalf("accepted a request without model or messages: %q", b)
		}
		for _, m := range r.Messages {
			_ = m.Text()
			if m.Role == "tool" && m.ToolCallID == "" {
				t.Fatalf("accepted a tool message without id: %q", b)
			}
		}
	})
}
