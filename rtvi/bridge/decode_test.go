package bridge_test

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/voiceeval/schematools/rtvi"
	"github.com/voiceeval/schematools/rtvi/bridge"
)

func TestDecodeMessage(t *testing.T) {
	for _, tc := range []struct {
		msg  string
		want bridge.Event
	}{
		{`{"label": "rtvi-ai", "type": "bot-ready", "id": "c1", "data": {"version": "1.1.0"}}`,
			bridge.Event{Kind: bridge.KindBotReady, Type: "bot-ready", ID: "c1"}},
		{`{"label": "rtvi-ai", "type": "bot-started-speaking"}`, bridge.Event{Kind: bridge.KindStartedSpeaking, Type: "bot-started-speaking"}},
		{`{"label": "rtvi-ai", "type": "bot-stopped-speaking"}`, bridge.Event{Kind: bridge.KindStoppedSpeaking, Type: "bot-stopped-speaking"}},
		{`{"label": "rtvi-ai", "type": "bot-tts-text", "data": {"text": " Hi. "}}`, bridge.Event{Kind: bridge.KindTTSText, Type: "bot-tts-text", Text: " Hi. "}},
		// str() of what is there: a number, None.
		{`{"type": "bot-tts-text", "data": {"text": 5}}`, bridge.Event{Kind: bridge.KindTTSText, Type: "bot-tts-text", Text: "5"}},
		{`{"type": "bot-tts-text", "data": {"text": null}}`, bridge.Event{Kind: bridge.KindTTSText, Type: "bot-tts-text", Text: "None"}},
		{`{"type": "bot-tts-text"}`, bridge.Event{Kind: bridge.KindTTSText, Type: "bot-tts-text"}},
		{`{"type": "metrics", "data": {"tokens": [{"prompt_tokens": 10, "completion_tokens": 2, "total_tokens": 12}, {"prompt_tokens": null, "completion_tokens": 3.9}]}}`,
			bridge.Event{Kind: bridge.KindMetrics, Type: "metrics", Tokens: []bridge.Usage{{Calls: 1, Prompt: 10, Completion: 2}, {Calls: 1, Completion: 3, Partial: 1}}}},
		{`{"type": "metrics", "data": {"ttfb": [{"processor": "x", "value": 0.1}]}}`, bridge.Event{Kind: bridge.KindMetrics, Type: "metrics"}},
		{`{"type": "metrics", "data": null}`, bridge.Event{Kind: bridge.KindMetrics, Type: "metrics"}},
		{`{"type": "server-message", "data": {"type": "action-applied", "action": {"action_type": "place_order", "name": "place_order", "arguments": {"customer": "Ada"}, "result": {}}, "tool_domain": "coffee"}}`,
			bridge.Event{Kind: bridge.KindActionApplied, Type: "server-message", Action: &bridge.ActionApplied{
				Action: map[string]any{"action_type": "place_order", "name": "place_order", "arguments": map[string]any{"customer": "Ada"}, "result": map[string]any{}},
				Name:   "place_order", Arguments: map[string]any{"customer": "Ada"}, ToolDomain: "coffee"}}},
		{`{"type": "server-message", "data": {"type": "action-applied", "action": null}}`,
			bridge.Event{Kind: bridge.KindActionApplied, Type: "server-message", Action: &bridge.ActionApplied{Action: map[string]any{}}}},
		{`{"type": "server-message", "data": {"text": "<exit>The task is finished.</exit>"}}`, bridge.Event{Kind: bridge.KindExit, Type: "server-message", Text: "The task is finished."}},
		{`{"type": "server-message", "data": {"text": "<exit></exit>"}}`, bridge.Event{Kind: bridge.KindExit, Type: "server-message"}},
		{`{"type": "server-message", "data": {"text": "<final_response>{\"a\": 1}</final_response>"}}`, bridge.Event{Kind: bridge.KindFinalResponse, Type: "server-message", Text: `{"a": 1}`}},
		{`{"type": "server-message", "data": {"text": "<exit>no end tag"}}`, bridge.Event{Kind: bridge.KindServerMessage, Type: "server-message", Text: "<exit>no end tag"}},
		{`{"type": "server-message", "data": ["<exit>x</exit>"]}`, bridge.Event{Kind: bridge.KindServerMessage, Type: "server-message"}},
		{`{"type": "server-response", "id": "r1", "data": {"t": "reset", "d": true}}`, bridge.Event{Kind: bridge.KindServerResponse, Type: "server-response", ID: "r1", T: "reset", D: true}},
		{`{"type": "error-response", "id": "r2", "data": {"error": "unknown message type: nope"}}`, bridge.Event{Kind: bridge.KindErrorResponse, Type: "error-response", ID: "r2", Error: "unknown message type: nope"}},
		{`{"type": "error", "data": {"error": "Invalid RTVI transport message", "fatal": false}}`, bridge.Event{Kind: bridge.KindError, Type: "error", Error: "Invalid RTVI transport message"}},
		{`{"type": "user-transcription", "data": {"text": "hi", "final": true}}`, bridge.Event{Kind: bridge.KindOther, Type: "user-transcription"}},
		{`{"type": 7}`, bridge.Event{Kind: bridge.KindOther}},
	} {
		got := bridge.DecodeMessage([]byte(tc.msg))
		tc.want.Message = tc.msg
		if got.Kind == bridge.KindServerResponse {
			tc.want = withD(tc.want, got)
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("DecodeMessage(%s)\n got %+v\nwant %+v", tc.msg, got, tc.want)
		}
	}
	for _, msg := range []string{`not json`, `[]`, `"x"`, `{"type": "bot-tts-text", "data": []}`, `{"type": "metrics", "data": {"tokens": {"a": 1}}}`,
		`{"type": "metrics", "data": {"tokens": [{"prompt_tokens": "x"}]}}`, `{"type": "metrics", "data": {"tokens": [1]}}`,
		`{"type": "server-response", "data": [1]}`, `{"type": "server-message", "data": {"type": "action-applied", "action": [1]}}`} {
		if e := bridge.DecodeMessage([]byte(msg)); e.Kind != bridge.KindMalformed || !errors.Is(e.Err, bridge.ErrMalformed) {
			t.Errorf("DecodeMessage(%s) = %+v, want a malformed event", msg, e)
		}
	}
}

// withD copies got's unexported presence flag into want, the rest being
// compared.
func withD(want, got bridge.Event) bridge.Event {
	g := got
	g.Kind, g.Type, g.ID, g.T, g.D, g.Message = want.Kind, want.Type, want.ID, want.T, want.D, want.Message
	return g
}

func TestDecodeFrame(t *testing.T) {
	text, _ := rtvi.Frame{Text: &rtvi.TextFrame{Text: "hi"}}.Marshal()
	if e := bridge.DecodeFrame(text); e.Kind != bridge.KindFrame || e.Frame.Text.Text != "hi" {
		t.Errorf("text frame: %+v", e)
	}
	if e := bridge.DecodeFrame(rtvi.MessageFrameBytes([]byte(`{"type": "bot-started-speaking"}`))); e.Kind != bridge.KindStartedSpeaking {
		t.Errorf("message frame: %+v", e)
	}
	if e := bridge.DecodeFrame([]byte{0x22, 0x05}); e.Kind != bridge.KindMalformed || !errors.Is(e.Err, rtvi.ErrMalformed) {
		t.Errorf("truncated frame: %+v", e)
	}
}

// TestRecorder: turn assembly, token sums and signals, table-driven.
func TestRecorder(t *testing.T) {
	start, stop := bridge.Event{Kind: bridge.KindStartedSpeaking}, bridge.Event{Kind: bridge.KindStoppedSpeaking}
	text := func(s string) bridge.Event { return bridge.Event{Kind: bridge.KindTTSText, Text: s} }
	type turn struct {
		text    string
		stopped bool
	}
	for _, tc := range []struct {
		name   string
		events []bridge.Event
		turns  []turn
	}{
		{"glued as sent, stripped", []bridge.Event{start, text(" Hello"), text(" there."), text(" "), stop}, []turn{{"Hello there.", true}}},
		{"empty turn", []bridge.Event{start, stop}, []turn{{bridge.Interrupted, true}}},
		{"whitespace only", []bridge.Event{start, text(" \u3000\n"), stop}, []turn{{bridge.Interrupted, true}}},
		{"restarted", []bridge.Event{start, text("a"), start, text("b"), stop}, []turn{{"a", false}, {"b", true}}},
		{"text outside a turn dropped", []bridge.Event{text("lost"), start, text("kept"), stop, text("lost"), stop}, []turn{{"kept", true}}},
		{"open at the end", []bridge.Event{start, text("cut")}, []turn{{"cut", false}}},
		{"stop without start", []bridge.Event{stop}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &bridge.Recorder{}
			for _, e := range tc.events {
				r.Handle(e)
			}
			r.Finish(time.Now())
			var got []turn
			for _, tr := range r.Turns() {
				got = append(got, turn{tr.Text, tr.Stopped})
			}
			if !reflect.DeepEqual(got, tc.turns) {
				t.Errorf("turns = %v, want %v", got, tc.turns)
			}
		})
	}

	r := &bridge.Recorder{}
	agent := &bridge.Recorder{Agent: true}
	for _, e := range []bridge.Event{
		{Kind: bridge.KindMetrics, Tokens: []bridge.Usage{{Calls: 1, Prompt: 3, Completion: 1}, {Calls: 1, Prompt: 4}}},
		{Kind: bridge.KindMetrics},
		{Kind: bridge.KindFinalResponse, Text: "f1"},
		{Kind: bridge.KindExit, Text: "first"},
		{Kind: bridge.KindExit, Text: "second"},
		{Kind: bridge.KindActionApplied, Action: &bridge.ActionApplied{Name: "toggle_data"}},
	} {
		r.Handle(e)
		agent.Handle(e)
	}
	if u := r.Usage(); u != (bridge.Usage{Calls: 2, Prompt: 7, Completion: 1}) {
		t.Errorf("usage = %+v", u)
	}
	if _, ok := r.Exit(); ok || r.FinalResponses() != nil {
		t.Errorf("a user-side recorder kept the agent's signals")
	}
	if text, ok := agent.Exit(); !ok || text != "first" || !reflect.DeepEqual(agent.FinalResponses(), []string{"f1"}) {
		t.Errorf("agent signals: %q %v %v", text, ok, agent.FinalResponses())
	}
	if a := agent.Actions(); len(a) != 1 || a[0].Name != "toggle_data" {
		t.Errorf("actions = %v", a)
	}
}

// TestHistoryJSON: llm_context.json as NeMo's runner writes it
// (json.dump(eval(context), indent=2), read off CPython 3.11).
func TestHistoryJSON(t *testing.T) {
	for _, tc := range []struct {
		context any
		want    string
	}{
		{"[{'role': 'user', 'content': 'caf\\xe9 \\U0001F600', 'n': [1, 2.5, -0.0, 1e+16, None, True, {}, []], 'z': {'b': 1, 'a': (2,)}}]",
			"[\n  {\n    \"role\": \"user\",\n    \"content\": \"caf\\u00e9 \\ud83d\\ude00\",\n    \"n\": [\n      1,\n      2.5,\n      -0.0,\n      1e+16,\n      null,\n      true,\n      {},\n      []\n    ],\n    \"z\": {\n      \"b\": 1,\n      \"a\": [\n        2\n      ]\n    }\n  }\n]"},
		// A str literal holding JSON is json.loads'ed.
		{`'[{"role": "user", "content": "hi"}]'`, "[\n  {\n    \"role\": \"user\",\n    \"content\": \"hi\"\n  }\n]"},
		// One that is not JSON stays a str.
		{`'not json'`, `"not json"`},
		{nil, "[]"},
	} {
		h := &bridge.History{Reply: map[string]any{}}
		if tc.context != nil {
			h.Reply["context"] = tc.context
		}
		got, err := h.JSON(0)
		if err != nil || string(got) != tc.want {
			t.Errorf("JSON(%v) = %s, %v\nwant %s", tc.context, got, err, tc.want)
		}
	}
	for _, bad := range []any{[]any{}, "inf", "[1", "b'x'"} {
		h := &bridge.History{Reply: map[string]any{"context": bad}}
		if _, err := h.JSON(0); err == nil {
			t.Errorf("JSON(%v) succeeded", bad)
		}
	}
	if js, err := (&bridge.History{}).JSON(0); err != nil || string(js) != "[]" {
		t.Errorf("zero History = %s, %v", js, err)
	}
}

// TestContextRoundTrip: what a Go bot's get_context_history writes (rtvi's
// Python-literal writer), ParseLiteral reads back as the transcript.
func TestContextRoundTrip(t *testing.T) {
	msgs := []any{
		chatMsg{Role: "system", Content: "It's \"quoted\" \\ \n\t\x00\x7f é 😀 \u2028"},
		map[string]any{"role": "tool", "content": []any{1, 2.5, -1e-7, 1e22, true, false, nil, "", map[string]any{}}},
		map[string]any{"big": json.Number("123456789012345678901234567890"), "neg": -5, "f32": float32(0.1)},
	}
	conv := &conversation{msgs: msgs}
	d := rtvi.NewDispatcher(rtvi.Config{Conversation: conv})
	reply, err := d.Handle(context.Background(), []byte(`{"label": "rtvi-ai", "type": "client-message", "id": "h", "data": {"t": "get_context_history"}}`))
	if err != nil {
		t.Fatal(err)
	}
	e := bridge.DecodeMessage(reply)
	d2, _ := e.D.(map[string]any)
	h := &bridge.History{Reply: d2}
	got, err := h.Value()
	if err != nil {
		t.Fatalf("Value: %v (%s)", err, reply)
	}
	// The same transcript through JSON, numbers as the literal gives them.
	want := []any{
		map[string]any{"role": "system", "content": "It's \"quoted\" \\ \n\t\x00\x7f é 😀 \u2028"},
		map[string]any{"role": "tool", "content": []any{json.Number("1"), 2.5, -1e-7, 1e22, true, false, nil, "", map[string]any{}}},
		map[string]any{"big": json.Number("123456789012345678901234567890"), "neg": json.Number("-5"), "f32": 0.1},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("round trip:\n got %#v\nwant %#v", got, want)
	}
}
