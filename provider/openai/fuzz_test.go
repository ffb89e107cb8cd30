package openai_test

import (
	"bytes"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/voiceeval/schematools/agent/agenttest"
	"github.com/voiceeval/schematools/provider/openai"
	"github.com/voiceeval/schematools/tool"
)

// streamOf records what the stand-in streams for a turn.
func streamOf(t testing.TB, turn agenttest.Turn) []byte {
	t.Helper()
	rec := httptest.NewRecorder()
	req := httptest.NewRequest("POST", "/v1/chat/completions", strings.NewReader(`{"model":"m","messages":[{"role":"user","content":"x"}],"stream":true,"stream_options":{"include_usage":true}}`))
	agenttest.New(turn).ServeHTTP(rec, req)
	return rec.Body.Bytes()
}

// FuzzReadStream: any SSE body is read into a response or refused with
// an error, never a panic; an accepted one has its finish_reason, and
// its calls come from its deltas.
func FuzzReadStream(f *testing.F) {
	for _, tn := range []agenttest.Turn{
		{Text: "hello", Calls: []tool.ModelCall{{ID: "a", Name: "f", Arguments: `{"x": 1}`}, {ID: "b", Name: "g", Arguments: "{}"}}, Piece: 2},
		{Calls: []tool.ModelCall{{ID: "a", Name: "f", Arguments: `{"x": 1}`}, {ID: "b", Name: "f", Arguments: `{}`}}, Quirks: agenttest.Quirks{IndexZero: true, IDEveryChunk: true}},
		{Text: "x", Quirks: agenttest.Quirks{OneChunk: true}},
	} {
		f.Add(streamOf(f, tn))
	}
	f.Add([]byte("data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"function\":{\"arguments\":\"{\"}}]},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n"))
	f.Add([]byte("data: {broken\n\n"))
	f.Add([]byte(": comment\nevent: error\ndata: {\"error\":{\"message\":\"x\"}}\n\n"))
	f.Fuzz(func(t *testing.T, body []byte) {
		resp, err := openai.ReadStreamBytes(body)
		if err != nil {
			return
		}
		if resp.FinishReason == "" {
			t.Fatalf("accepted a stream without finish_reason: %q", body)
		}
		if len(resp.Calls) > bytes.Count(body, []byte("tool_calls"))*bytes.Count(body, []byte("data:")) {
			t.Fatalf("more calls than deltas: %q", body)
		}
	})
}
