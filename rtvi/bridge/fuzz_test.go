package bridge_test

import (
	"errors"
	"testing"

	"github.com/voiceeval/schematools/rtvi"
	"github.com/voiceeval/schematools/rtvi/bridge"
)

// FuzzDecodeFrame: decoding a frame (and the JSON it carries) never
// panics, always gives a known kind, and a malformed event says why.
func FuzzDecodeFrame(f *testing.F) {
	for _, m := range []string{
		`{"label": "rtvi-ai", "type": "bot-tts-text", "data": {"text": "Hi"}}`,
		`{"type": "metrics", "data": {"tokens": [{"prompt_tokens": 1e3, "completion_tokens": true}]}}`,
		`{"type": "server-message", "data": {"type": "action-applied", "action": {"name": 1}, "tool_domain": null}}`,
		`{"type": "server-message", "data": {"text": "<final_response></final_response>"}}`,
		`{"type": "server-response", "id": "x", "data": {"t": "get_context_history", "d": {"context": "[]"}}}`,
		`{"type": "error-response", "data": {"error": [1]}}`, `[]`, `{"type": "bot-ready"}`,
	} {
		f.Add(rtvi.MessageFrameBytes([]byte(m)))
	}
	f.Add([]byte{0x0a, 0x02, 0x18, 0x01})
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, e := range []bridge.Event{bridge.DecodeFrame(b), bridge.DecodeMessage(b)} {
			if e.Kind < bridge.KindMalformed || e.Kind > bridge.KindOther {
				t.Fatalf("kind %v", e.Kind)
			}
			if (e.Kind == bridge.KindMalformed) != (e.Err != nil) || e.Err != nil && !errors.Is(e.Err, bridge.ErrMalformed) {
				t.Fatalf("kind %v with error %v", e.Kind, e.Err)
			}
			if e.Kind == bridge.KindActionApplied && (e.Action == nil || e.Action.Action == nil) {
				t.Fatalf("action-applied without its record")
			}
			if e.Kind == bridge.KindFrame && e.Frame == nil {
				t.Fatalf("frame event without its frame")
			}
		}
	})
}

// FuzzParseLiteral: the context parser never panics, and fails with an
// error rather than a value for what it cannot read.
func FuzzParseLiteral(f *testing.F) {
	for _, s := range []string{"[{'role': 'user', 'content': 'hi'}]", "{'a': (1, -2.5e-3, None)}", "'\\ud800'", "b'\\xff'", "[" + "]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := bridge.ParseLiteral(s)
		if err != nil && v != nil {
			t.Fatalf("ParseLiteral(%q) = %v with error %v", s, v, err)
		}
		h := &bridge.History{Reply: map[string]any{"context": s}}
		_, _ = h.JSON(0)
	})
}
