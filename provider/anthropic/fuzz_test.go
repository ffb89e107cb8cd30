package anthropic_test

import (
	"bytes"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/voiceeval/schematools/agent/agenttest"
	"github.com/voiceeval/schematools/provider/anthropic"
	"github.com/voiceeval/schematools/tool"
)

// streamOf records what the stand-in streams for a turn.
func streamOf(t testing.TB, turn agenttest.Turn) []byte {
	t.Helper()
	rec := httptest.NewRecorder()
	req := httptest.NewRequest("POST", "/v1/messages", strings.NewReader(`{"model":"m","max_tokens":9,"messages":[{"role":"user","content":"x"}],"stream":true}`))
	agenttest.New(turn).ServeHTTP(rec, req)
	return rec.Body.Bytes()
}

// FuzzReadStream: any SSE body is read into a response or refused with
// an error, never a panic; an accepted one has its stop reason, its calls
// come from its tool_use blocks, and its native blocks are a JSON list.
func FuzzReadStream(f *testing.F) {
	for _, tn := range []agenttest.Turn{
		{Text: "hello", Thinking: "hm", Calls: []tool.ModelCall{{ID: "a", Name: "f", Arguments: `{"x": 1}`}, {ID: "b", Name: "g", Arguments: "{}"}}, Piece: 2},
		{Text: "x"},
	} {
		f.Add(streamOf(f, tn))
	}
	f.Add([]byte("event: message_start\ndata: {\"type\":\"message_start\",\"message\":{}}\n\nevent: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":5,\"delta\":{\"type\":\"text_delta\",\"text\":\"x\"}}\n\n"))
	f.Add([]byte("event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"x\"}}\n\n"))
	f.Fuzz(func(t *testing.T, body []byte) {
		resp, err := anthropic.ReadStreamBytes(body)
		if err != nil {
			return
		}
		if resp.FinishReason == "" {
			t.Fatalf("accepted a stream without stop_reason: %q", body)
		}
		if len(resp.Calls) > bytes.Count(body, []byte("tool_use")) {
			t.Fatalf("more calls than tool_use blocks: %q", body)
		}
		var native []json.RawMessage
		if err := json.Unmarshal(resp.Native[anthropic.NativeKey], &native); err != nil {
			t.Fatalf("native: %v", err)
		}
	})
}
