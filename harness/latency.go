package harness

import (
	"time"

	"github.com/voiceeval/schematools/internal/pyvalue"
	"github.com/voiceeval/schematools/internal/rtviwire"
	"github.com/voiceeval/schematools/rtvi/bridge"
)

// fileLatencyDetail is this harness's addition: each side's response
// times in a text run (latencyDetailJSON), written when the run measured
// them. metrics.json keeps NeMo's keys; its latencies are the agent's.
const fileLatencyDetail = "latency_detail.json"

// replyTiming is one text the harness relayed to a bot (send-text) and
// how long the bot took to answer it, each time from the send: to its
// first speech (bot-started-speaking or a bot-tts-text with text), its
// first bot-llm-started and its first bot-llm-text with text; a negative
// duration is an event that did not come before the next relay.
type replyTiming struct {
	sent    time.Time
	kickoff bool   // the harness's "Hello", not a turn of the other bot
	relayed string // the text relayed
	// reply is the text of the first turn the bot closed after it began
	// to speak (NeMo fills agent_transcript so); "" until then.
	reply                     string
	speech, llmStarted, llmTx time.Duration
}

// replyClock times one bot's answers to what the harness relays to it,
// on the run loop (not safe for concurrent use). Event times are the
// connection's read times (bridge.Event.At) and the send time is taken
// before the send-text is written, both on the monotonic clock; an event
// read before the latest relay's send is not its answer. Only the latest
// relay is timed: a second relay before the bot spoke restarts the wait,
// as NeMo's bridge measures from the user's last audio.
type replyClock struct {
	timings []replyTiming
	// lastSpoke is the index of the latest timing whose bot spoke, -1
	// before any; the next turn the bot closes is its reply.
	lastSpoke int
}

func newReplyClock() *replyClock { return &replyClock{lastSpoke: -1} }

// relayed starts timing a text relayed at sent.
func (c *replyClock) relayed(text string, sent time.Time, kickoff bool) {
	c.timings = append(c.timings, replyTiming{sent: sent, kickoff: kickoff, relayed: text, speech: -1, llmStarted: -1, llmTx: -1})
}

// observe reads one event of the bot; turn is the text of the turn a
// bot-stopped-speaking closed (hasTurn).
func (c *replyClock) observe(e bridge.Event, turn string, hasTurn bool) {
	if e.Kind == bridge.KindStoppedSpeaking && hasTurn && c.lastSpoke >= 0 {
		if t := &c.timings[c.lastSpoke]; t.reply == "" {
			t.reply = turn
		}
	}
	if len(c.timings) == 0 {
		return
	}
	t := &c.timings[len(c.timings)-1]
	if e.At.Before(t.sent) {
		return
	}
	d := e.At.Sub(t.sent)
	switch {
	case e.Kind == bridge.KindStartedSpeaking, e.Kind == bridge.KindTTSText && e.Text != "":
		if t.speech < 0 {
			t.speech = d
			c.lastSpoke = len(c.timings) - 1
		}
	case e.Kind == bridge.KindOther && e.Type == rtviwire.TypeBotLLMStarted:
		if t.llmStarted < 0 {
			t.llmStarted = d
		}
	case e.Kind == bridge.KindOther && e.Type == rtviwire.TypeBotLLMText:
		if t.llmTx < 0 && llmText(e.Message) != "" {
			t.llmTx = d
		}
	}
}

// llmText is a bot-llm-text message's data.text ("" when it has none).
func llmText(msg string) string {
	v, err := pyvalue.Loads([]byte(msg))
	if err != nil {
		return ""
	}
	data, _ := dictGet(v, "data")
	text, ok := dictGet(data, "text")
	if !ok || text == nil {
		return ""
	}
	return pyvalue.Str(text)
}

// ms is d in milliseconds, as NeMo's latency_ms (a float).
func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// latencies are the relayed turns the bot answered in speech, as NeMo's
// "latencies" (the kickoff is none: NeMo measures from the user's speech,
// and the kickoff is not the user's); for the agent, relayed is the user's
// transcript and reply the agent's.
func (c *replyClock) latencies() []Latency {
	var out []Latency
	for _, t := range c.timings {
		if !t.kickoff && t.speech >= 0 {
			out = append(out, Latency{UserTranscript: t.relayed, AgentTranscript: t.reply, LatencyMs: ms(t.speech)})
		}
	}
	return out
}

// latencyDetail is what latency_detail.json holds: both sides' timings.
type latencyDetail struct {
	agent, user *replyClock
}

// latencyDetailJSON returns latency_detail.json: json.dump(indent=2) of
//
//	{"agent": {"relayed": n, "replies": [...]}, "user": {...}, "kickoff": reply|null}
//
// where relayed counts the other bot's turns relayed to this one and each
// reply is {"user_transcript", "agent_transcript", "first_speech_ms",
// "llm_started_ms", "llm_text_ms"} (the last two null when the bot sent
// no such event before the next relay). The agent's replies are metrics
// latencies, in order (first_speech_ms is latency_ms); the user's are the
// user bot's answers to the agent's turns; kickoff is the agent's answer
// to the harness's "Hello" (null when it did not speak).
func latencyDetailJSON(d *latencyDetail) ([]byte, error) {
	opt := func(x time.Duration) any {
		if x < 0 {
			return nil
		}
		return ms(x)
	}
	entry := func(t replyTiming, agent bool) pyvalue.Dict {
		user, ag := t.reply, t.relayed
		if agent {
			user, ag = t.relayed, t.reply
		}
		return pyvalue.Dict{{Key: "user_transcript", Value: user}, {Key: "agent_transcript", Value: ag},
			{Key: "first_speech_ms", Value: ms(t.speech)}, {Key: "llm_started_ms", Value: opt(t.llmStarted)}, {Key: "llm_text_ms", Value: opt(t.llmTx)}}
	}
	var kickoff any
	side := func(c *replyClock, agent bool) pyvalue.Dict {
		relayed, replies := 0, []any{}
		for _, t := range c.timings {
			switch {
			case t.kickoff:
				if t.speech >= 0 {
					kickoff = entry(t, true)
				}
			case t.speech >= 0:
				relayed++
				replies = append(replies, entry(t, agent))
			default:
				relayed++
			}
		}
		return pyvalue.Dict{{Key: "relayed", Value: relayed}, {Key: "replies", Value: replies}}
	}
	a, u := side(d.agent, true), side(d.user, false)
	return dumpIndent(pyvalue.Dict{{Key: "agent", Value: a}, {Key: "user", Value: u}, {Key: "kickoff", Value: kickoff}}, 2)
}
