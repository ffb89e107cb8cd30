package bridge_test

import (
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/voiceeval/schematools/rtvi/bridge"
)

func TestRecorderBudgets(t *testing.T) {
	at := time.Unix(0, 0)
	for _, tc := range []struct {
		name   string
		rec    *bridge.Recorder
		events []bridge.Event
		want   string // in Err; "" for none
	}{
		{"a turn within its bound", &bridge.Recorder{MaxTurnBytes: 10}, []bridge.Event{
			{Kind: bridge.KindStartedSpeaking, At: at}, {Kind: bridge.KindTTSText, Text: "0123456789"}, {Kind: bridge.KindStoppedSpeaking, At: at},
		}, ""},
		{"a turn past its bound", &bridge.Recorder{MaxTurnBytes: 10}, []bridge.Event{
			{Kind: bridge.KindStartedSpeaking, At: at}, {Kind: bridge.KindTTSText, Text: "0123456789"}, {Kind: bridge.KindTTSText, Text: "!"},
		}, "a turn's text past 10 bytes"},
		{"turns past the held bytes", &bridge.Recorder{MaxHeldBytes: 1000}, repeatTurns(20, "some words"), "past 1000 bytes (the held-bytes budget)"},
		{"action records past the held bytes", &bridge.Recorder{MaxHeldBytes: 1000}, repeatEvents(20, bridge.Event{Kind: bridge.KindActionApplied, Message: strings.Repeat("a", 100), Action: &bridge.ActionApplied{}}), "held-bytes budget"},
		{"final responses past the held bytes", &bridge.Recorder{Agent: true, MaxHeldBytes: 1000}, repeatEvents(20, bridge.Event{Kind: bridge.KindFinalResponse, Text: strings.Repeat("f", 100)}), "held-bytes budget"},
		{"token sums past int64", &bridge.Recorder{}, []bridge.Event{
			{Kind: bridge.KindMetrics, Tokens: []bridge.Usage{{Calls: 1, Prompt: math.MaxInt64}}},
			{Kind: bridge.KindMetrics, Tokens: []bridge.Usage{{Calls: 1, Prompt: 1}}},
		}, "token counts sum past 9223372036854775807"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := tc.rec
			for _, e := range tc.events {
				rec.Handle(e)
			}
			err := rec.Err()
			if tc.want == "" {
				if err != nil {
					t.Fatalf("Err = %v", err)
				}
				return
			}
			if !errors.Is(err, bridge.ErrBudget) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Err = %v, want %q", err, tc.want)
			}
		})
	}
}

// The last turn is read in constant time, whatever came before.
func TestRecorderLastTurn(t *testing.T) {
	var rec bridge.Recorder
	if _, ok := rec.LastTurn(); ok {
		t.Fatal("a turn before any")
	}
	for _, e := range repeatTurns(3, "hi") {
		rec.Handle(e)
	}
	rec.Handle(bridge.Event{Kind: bridge.KindStartedSpeaking})
	rec.Handle(bridge.Event{Kind: bridge.KindTTSText, Text: " last "})
	rec.Handle(bridge.Event{Kind: bridge.KindStoppedSpeaking})
	if tu, ok := rec.LastTurn(); !ok || tu.Text != "last" || !tu.Stopped {
		t.Fatalf("LastTurn = %+v, %v", tu, ok)
	}
}

// 100,000 turns cost time linear in their number.
func BenchmarkRecorderTurns(b *testing.B) {
	events := repeatTurns(100000, "a turn of a few words")
	b.ReportAllocs()
	for b.Loop() {
		var rec bridge.Recorder
		for _, e := range events {
			rec.Handle(e)
			if e.Kind == bridge.KindStoppedSpeaking {
				rec.LastTurn()
			}
		}
	}
}

func repeatTurns(n int, text string) []bridge.Event {
	var out []bridge.Event
	for range n {
		out = append(out, bridge.Event{Kind: bridge.KindStartedSpeaking}, bridge.Event{Kind: bridge.KindTTSText, Text: text}, bridge.Event{Kind: bridge.KindStoppedSpeaking})
	}
	return out
}

func repeatEvents(n int, e bridge.Event) []bridge.Event {
	out := make([]bridge.Event, n)
	for i := range out {
		out[i] = e
	}
	return out
}
