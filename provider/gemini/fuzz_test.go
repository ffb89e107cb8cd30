package gemini_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"iter"
	"net/http/httptest"
	"strings"
	"testing"

	"google.golang.org/genai"

	"github.com/voiceeval/schematools/agent/agenttest"
	"github.com/voiceeval/schematools/provider/gemini"
	"github.com/voiceeval/schematools/tool"
)

// streamOf records what the stand-in streams for a turn.
func streamOf(t testing.TB, turn agenttest.Turn) []byte {
	t.Helper()
	rec := httptest.NewRecorder()
	req := httptest.NewRequest("POST", "/v1beta/models/m:streamGenerateContent?alt=sse", strings.NewReader(`{"contents":[{"role":"user","parts":[{"text":"x"}]}]}`))
	agenttest.New(turn).ServeHTTP(rec, req)
	return rec.Body.Bytes()
}

// responses decodes an SSE body's data lines as the SDK's responses.
func responses(body []byte) iter.Seq2[*genai.GenerateContentResponse, error] {
	return func(yield func(*genai.GenerateContentResponse, error) bool) {
		sc := bufio.NewScanner(bytes.NewReader(body))
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			data, ok := bytes.CutPrefix(sc.Bytes(), []byte("data:"))
			if !ok {
				continue
			}
			var r genai.GenerateContentResponse
			if err := json.Unmarshal(data, &r); err != nil {
				yield(nil, err)
				return
			}
			if !yield(&r, nil) {
				return
			}
		}
	}
}

// FuzzReadResponses: any stream of responses is read into a response or
// refused with an error, never a panic; an accepted one has its
// finishReason, a distinct non-empty id per call, and native parts that
// read back.
func FuzzReadResponses(f *testing.F) {
	for _, tn := range []agenttest.Turn{
		{Text: "hello", Thinking: "hm", Calls: []tool.ModelCall{{ID: "a", Name: "get_order_details", Arguments: `{"order_id": "x", "extra": "{\"a\": 1}"}`}, {ID: "b", Name: "g", Arguments: "{}"}}, Piece: 2},
		{Text: "x", Quirks: agenttest.Quirks{CallIDs: true}, Calls: []tool.ModelCall{{ID: "a", Name: "f"}}},
	} {
		f.Add(streamOf(f, tn))
	}
	f.Add([]byte("data: {\"promptFeedback\":{\"blockReason\":\"SAFETY\"}}\n\n"))
	f.Add([]byte("data: {\"candidates\":[null,{}]}\n\ndata: {\"candidates\":[{\"finishReason\":\"STOP\",\"content\":{\"parts\":[null,{\"functionCall\":{\"id\":\"\",\"args\":null}}]}}]}\n\n"))
	set := testSet(f)
	byName := map[string]tool.Tool{}
	for _, tl := range set.Tools() {
		byName[tl.Name()] = tl
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		resp, err := gemini.ReadResponses(responses(body), nil, byName, 3)
		if err != nil {
			return
		}
		if resp.FinishReason == "" {
			t.Fatalf("accepted a stream without finishReason: %q", body)
		}
		ids := map[string]bool{}
		for _, c := range resp.Calls {
			if c.ID == "" || (ids[c.ID] && strings.HasPrefix(c.ID, gemini.MadeUpIDPrefix)) {
				t.Fatalf("call id %q empty or made up twice: %q", c.ID, body)
			}
			ids[c.ID] = true
			if !json.Valid([]byte(c.Arguments)) {
				t.Fatalf("arguments not JSON: %q", c.Arguments)
			}
		}
		var parts []*genai.Part
		if err := json.Unmarshal(resp.Native[gemini.NativeKey], &parts); err != nil {
			t.Fatalf("native: %v", err)
		}
	})
}
