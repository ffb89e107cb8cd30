package harness

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/voiceeval/schematools/agent/agenttest"
	"github.com/voiceeval/schematools/internal/rtviwire"
	"github.com/voiceeval/schematools/rtvi/bridge"
	"github.com/voiceeval/schematools/tool"
)

// clockStep is one step of a replyClock script: a relay (the harness's
// send-text) or an event of the bot, at a time in ms from the start.
type clockStep struct {
	at      int
	relay   string // relay this text (kickoff when it is rtviwire.Kickoff)
	kind    bridge.Kind
	typ     string // KindOther's message type
	text    string // bot-tts-text's text, bot-llm-text's data.text
	stopped string // the text of the turn a bot-stopped-speaking closed
}

// TestReplyClock: what replyClock takes for a bot's answer to a relayed
// text, on synthetic event times (no real clock is read).
func TestReplyClock(t *testing.T) {
	type want struct {
		latencies []Latency
		relayed   int
		llm       [2]float64 // llm_started_ms, llm_text_ms of the last reply; -1 for null
	}
	const hi = "Hi, how can I help?"
	speak := func(at int) clockStep { return clockStep{at: at, kind: bridge.KindStartedSpeaking} }
	stop := func(at int, text string) clockStep {
		return clockStep{at: at, kind: bridge.KindStoppedSpeaking, stopped: text}
	}
	other := func(at int, typ, text string) clockStep {
		return clockStep{at: at, kind: bridge.KindOther, typ: typ, text: text}
	}
	for _, tc := range []struct {
		name  string
		steps []clockStep
		want  want
	}{
		{"answered", []clockStep{{relay: "I need help."}, other(10, rtviwire.TypeBotLLMStarted, ""), other(20, rtviwire.TypeBotLLMText, "Hi"),
			speak(30), {at: 31, kind: bridge.KindTTSText, text: hi}, stop(40, hi)},
			want{[]Latency{{"I need help.", hi, 30}}, 1, [2]float64{10, 20}}},
		{"no answer is no sample", []clockStep{{relay: "Hello?"}},
			want{nil, 1, [2]float64{-1, -1}}},
		{"an event read before the send is not the answer", []clockStep{{at: 10, relay: "Hello?"}, speak(5), stop(12, "late")},
			want{nil, 1, [2]float64{-1, -1}}},
		{"a second relay restarts the wait", []clockStep{{relay: "one"}, {at: 10, relay: "two"}, speak(25), stop(30, "answer")},
			want{[]Latency{{"two", "answer", 15}}, 2, [2]float64{-1, -1}}},
		{"the kickoff is no sample", []clockStep{{relay: rtviwire.Kickoff}, speak(5), stop(6, hi)},
			want{nil, 0, [2]float64{-1, -1}}},
		{"the first turn closed after the speech is the reply", []clockStep{{relay: "q"}, speak(5), stop(6, "first"), speak(7), stop(8, "second")},
			want{[]Latency{{"q", "first", 5}}, 1, [2]float64{-1, -1}}},
		{"spoken text without bot-started-speaking", []clockStep{{relay: "q"}, {at: 12, kind: bridge.KindTTSText, text: "yes"}},
			want{[]Latency{{"q", "", 12}}, 1, [2]float64{-1, -1}}},
		{"empty texts are no speech and no LLM text", []clockStep{{relay: "q"}, {at: 3, kind: bridge.KindTTSText}, other(4, rtviwire.TypeBotLLMText, ""),
			other(6, rtviwire.TypeBotLLMText, "ok"), speak(9), stop(10, "ok")},
			want{[]Latency{{"q", "ok", 9}}, 1, [2]float64{-1, 6}}},
		{"two answered relays", []clockStep{{relay: rtviwire.Kickoff}, speak(4), stop(5, hi), {at: 10, relay: "a"}, speak(17), stop(18, "b"), {at: 20, relay: "c"}, speak(21), stop(22, "d")},
			want{[]Latency{{"a", "b", 7}, {"c", "d", 1}}, 2, [2]float64{-1, -1}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base := time.Now()
			c := newReplyClock()
			for _, s := range tc.steps {
				at := base.Add(time.Duration(s.at) * time.Millisecond)
				if s.relay != "" {
					c.relayed(s.relay, at, s.relay == rtviwire.Kickoff)
					continue
				}
				e := bridge.Event{Kind: s.kind, At: at, Type: s.typ}
				if s.kind == bridge.KindTTSText {
					e.Text = s.text
				}
				if s.kind == bridge.KindOther {
					b, _ := json.Marshal(map[string]any{"label": "rtvi-ai", "type": s.typ, "data": map[string]any{"text": s.text}})
					e.Message = string(b)
				}
				c.observe(e, s.stopped, s.kind == bridge.KindStoppedSpeaking)
			}
			got := c.latencies()
			if fmt.Sprint(got) != fmt.Sprint(tc.want.latencies) {
				t.Errorf("latencies %v, want %v", got, tc.want.latencies)
			}
			d := decodeDetail(t, &latencyDetail{agent: c, user: newReplyClock()})
			if d.Agent.Relayed != tc.want.relayed || len(d.Agent.Replies) != len(tc.want.latencies) {
				t.Fatalf("detail: %d relayed, %d replies; want %d, %d", d.Agent.Relayed, len(d.Agent.Replies), tc.want.relayed, len(tc.want.latencies))
			}
			for i, r := range d.Agent.Replies {
				l := tc.want.latencies[i]
				if r.UserTranscript != l.UserTranscript || r.AgentTranscript != l.AgentTranscript || r.FirstSpeechMs != l.LatencyMs {
					t.Errorf("detail reply %d: %+v, want %+v", i, r, l)
				}
			}
			if n := len(d.Agent.Replies); n > 0 {
				r := d.Agent.Replies[n-1]
				for i, p := range []*float64{r.LLMStartedMs, r.LLMTextMs} {
					if w := tc.want.llm[i]; (p == nil) != (w < 0) || p != nil && *p != w {
						t.Errorf("detail LLM figure %d: %v, want %v (-1: null)", i, p, w)
					}
				}
			}
			if isKickoff := tc.steps[0].relay == rtviwire.Kickoff; (d.Kickoff != nil) != isKickoff {
				t.Errorf("detail kickoff %+v", d.Kickoff)
			}
		})
	}
}

// detailReply is one reply of latency_detail.json.
type detailReply struct {
	UserTranscript  string   `json:"user_transcript"`
	AgentTranscript string   `json:"agent_transcript"`
	FirstSpeechMs   float64  `json:"first_speech_ms"`
	LLMStartedMs    *float64 `json:"llm_started_ms"`
	LLMTextMs       *float64 `json:"llm_text_ms"`
}

type detailSide struct {
	Relayed int           `json:"relayed"`
	Replies []detailReply `json:"replies"`
}

type detailFile struct {
	Agent, User detailSide
	Kickoff     *detailReply
}

func decodeDetail(t *testing.T, d *latencyDetail) detailFile {
	t.Helper()
	b, err := latencyDetailJSON(d)
	if err != nil {
		t.Fatal(err)
	}
	return decodeDetailText(t, b)
}

func decodeDetailText(t *testing.T, b []byte) detailFile {
	t.Helper()
	var f detailFile
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatalf("%s: %v\n%s", fileLatencyDetail, err, b)
	}
	return f
}

// TestLatenciesMeasured runs a scenario between the in-process test bots
// and checks the latencies a text run measures, and the files written
// from them: metrics latency_stats and latencies (one sample per relayed
// user turn the agent answered, each positive and at least the bot's
// delay), all_latencies.csv, all_summary.txt and latency_detail.json.
// Only counts, signs, order and lower bounds are checked, never a
// duration's value.
func TestLatenciesMeasured(t *testing.T) {
	root := dataRoot(t)
	const name = "tau2_retail__1"
	const userSays = "Yes, please go ahead."
	for _, tc := range []struct {
		name                  string
		agentDelay, userDelay time.Duration
	}{
		{"prompt bots", 0, 0},
		{"slow agent", 50 * time.Millisecond, 0},
		{"slow user", 0, 50 * time.Millisecond},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ag := newTestBot(t, root,
				agenttest.Turn{Text: "Hello, how can I help?"},
				agenttest.Turn{Text: "Let me look into that."},
				agenttest.Turn{Text: "Anything else?"},
				agenttest.Turn{Text: "Goodbye.", Calls: []tool.ModelCall{{ID: "end", Name: "EndConversationTool", Arguments: "{}"}}},
				agenttest.Turn{Text: "Goodbye."})
			ag.delay = tc.agentDelay
			us := newUser(t, root)
			us.delay = tc.userDelay
			sc := scenario(t, name)
			res, err := RunScenario(runCtx(t), sc, ag.URL, us.URL, testOptions())
			if err != nil {
				t.Fatalf("%v (%+v)", err, res)
			}
			run, m := res.Run, res.Result.Metrics
			if m.StopReason != stopReasonExit {
				t.Fatalf("stop reason %s", m.StopReason)
			}
			// Every user turn was relayed to the agent (the agent's
			// goodbye came after its <exit>, so the user did not answer
			// it); those the agent answered are followed by an agent turn.
			want := 0
			for i, tu := range run.Turns {
				if tu.Role != "user" {
					continue
				}
				for _, later := range run.Turns[i+1:] {
					if later.Role == "agent" {
						want++
						break
					}
				}
			}
			if want != 3 {
				t.Fatalf("%d answered user turns, want 3 (turns %+v)", want, run.Turns)
			}
			if m.LatencyStats.Count != want || len(m.Latencies) != want {
				t.Fatalf("latency_stats count %d, %d latencies; want %d", m.LatencyStats.Count, len(m.Latencies), want)
			}
			floor := float64(tc.agentDelay) / float64(time.Millisecond)
			for i, l := range m.Latencies {
				if l.LatencyMs <= 0 || l.LatencyMs < floor {
					t.Errorf("latency %d: %v ms, want > 0 and >= %v", i, l.LatencyMs, floor)
				}
				if l.UserTranscript != userSays || l.AgentTranscript == "" {
					t.Errorf("latency %d: %+v", i, l)
				}
			}
			s := m.LatencyStats
			if !(s.MinMs > 0 && s.MinMs <= s.P50Ms && s.P50Ms <= s.P95Ms && s.P95Ms <= s.MaxMs && s.MinMs <= s.MeanMs && s.MeanMs <= s.MaxMs) {
				t.Errorf("latency_stats %+v", s)
			}

			w, err := newRunWriter(t.TempDir(), fixtureTimestamp, []string{name})
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			if err := w.WriteScenario(&scenarioOutput{Run: run, Result: res.Result}); err != nil {
				t.Fatal(err)
			}
			if err := w.Finish(finishOptions{MinAgentTurns: defaultMinAgentTurns}); err != nil {
				t.Fatal(err)
			}
			files := tree(t, w.Dir())
			csv := strings.Split(strings.TrimSuffix(string(files[fileAllLatencies]), "\n"), "\n")
			if len(csv) != want+1 {
				t.Errorf("%s has %d rows, want %d:\n%s", fileAllLatencies, len(csv)-1, want, files[fileAllLatencies])
			}
			for _, row := range csv[1:] {
				if !strings.HasPrefix(row, `"`+name+`","`+userSays+`","`) {
					t.Errorf("%s row %q", fileAllLatencies, row)
				}
			}
			summary := string(files[fileAllSummary])
			for _, s := range []string{fmt.Sprintf("  Latency Measurements: %d\n    Mean: ", want), fmt.Sprintf("  Total Measurements: %d\n", want)} {
				if !strings.Contains(summary, s) {
					t.Errorf("%s lacks %q:\n%s", fileAllSummary, s, summary)
				}
			}
			if !strings.Contains(string(files[fileReport]), `<table id="latency">`) {
				t.Errorf("%s has no latency table", fileReport)
			}

			d := decodeDetailText(t, files[name+"/"+fileLatencyDetail])
			if d.Agent.Relayed != want || len(d.Agent.Replies) != want {
				t.Errorf("detail agent: %d relayed, %d replies; want %d", d.Agent.Relayed, len(d.Agent.Replies), want)
			}
			for i, r := range d.Agent.Replies {
				if i < len(m.Latencies) && r.FirstSpeechMs != m.Latencies[i].LatencyMs {
					t.Errorf("detail agent reply %d: first_speech_ms %v, metrics latency_ms %v", i, r.FirstSpeechMs, m.Latencies[i].LatencyMs)
				}
				// The test bot reports its model response before it speaks.
				if r.LLMStartedMs == nil || *r.LLMStartedMs <= 0 || *r.LLMStartedMs > r.FirstSpeechMs {
					t.Errorf("detail agent reply %d: llm_started_ms %v, first_speech_ms %v", i, r.LLMStartedMs, r.FirstSpeechMs)
				}
			}
			// The user answered each agent turn relayed to it: the
			// greeting and the two turns before the goodbye.
			if d.User.Relayed != want || len(d.User.Replies) != want {
				t.Errorf("detail user: %d relayed, %d replies; want %d", d.User.Relayed, len(d.User.Replies), want)
			}
			userFloor := float64(tc.userDelay) / float64(time.Millisecond)
			for i, r := range d.User.Replies {
				if r.FirstSpeechMs <= 0 || r.FirstSpeechMs < userFloor || r.UserTranscript != userSays || r.AgentTranscript == "" {
					t.Errorf("detail user reply %d: %+v, want first_speech_ms > 0 and >= %v", i, r, userFloor)
				}
			}
			if k := d.Kickoff; k == nil || k.FirstSpeechMs <= 0 || k.FirstSpeechMs < floor || k.UserTranscript != rtviwire.Kickoff {
				t.Errorf("detail kickoff %+v", k)
			}
			if _, err := os.Stat(filepath.Join(w.Dir(), name, fileMetrics)); err != nil {
				t.Error(err)
			}
		})
	}
}
