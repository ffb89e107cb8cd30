package bridge

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/voiceeval/schematools/internal/pyjson"
	"github.com/voiceeval/schematools/internal/rtviwire"
)

// Interrupted is the transcript of a turn in which the bot said nothing.
const Interrupted = "[INTERRUPTED]"

// Turn is one turn of a bot's transcript.
type Turn struct {
	// Text is the turn's bot-tts-text texts joined as sent, stripped of
	// surrounding whitespace (Python's str.strip), or [Interrupted] when
	// that leaves nothing.
	Text string
	// Start and End are the times of the events that opened and closed it.
	Start, End time.Time
	// Stopped says a bot-stopped-speaking closed the turn. The bridge's
	// list of turns (metrics.json "turns") holds only these; a turn closed
	// by the next bot-started-speaking or by the end of the scenario is
	// in its conversation log (segments) only.
	Stopped bool
}

// Usage is a side's token usage: one call per tokens entry of a metrics
// event, and the sums of their counts, as NeMo's bridge counts them; and
// what it does not count, so that usage a bot did not report is not read
// as zero tokens. Each of an [Event]'s Tokens is the Usage of one call.
type Usage struct {
	Calls, Prompt, Completion int64
	// Unreported counts the model responses beyond the tokens entries:
	// bot-llm-stopped events, one per response whatever its outcome,
	// less Calls (0 when fewer). pipecat sends no tokens entry for a
	// response its server reported no usage for, so Calls + Unreported
	// is the number of model calls. It is 0 when every response was
	// reported, and for a bot that sends no bot-llm events.
	Unreported int64
	// Partial counts the tokens entries without prompt_tokens or
	// completion_tokens (absent or null), which Prompt and Completion
	// count as 0.
	Partial int64
}

// Recorder is NeMo's bridge's monitor of one bot: it assembles the turns
// of the transcript, sums the token usage, and keeps the action-applied
// records and, for the agent, the exit and final-response texts. Its
// Handle is an [Options.OnEvent]; it is safe for concurrent use, and each
// event costs time linear in its size.
//
// What it holds is bounded: past MaxTurnBytes of text in one turn, or
// MaxHeldBytes in all (turns, final responses, action records), or token
// sums past the int64 range, it stops recording and Err says why (an error
// wrapping ErrBudget); NeMo's bridge holds whatever comes.
type Recorder struct {
	// Agent says the bot is the agent: only the agent's <exit> and
	// <final_response> texts count, as the bridge reads them only from it.
	Agent bool
	// MaxTurnBytes bounds one turn's text; 0 means 1 MiB.
	MaxTurnBytes int64
	// MaxHeldBytes bounds what the recorder holds; 0 means 16 MiB.
	MaxHeldBytes int64

	mu        sync.Mutex
	turns     []Turn
	open      bool
	start     time.Time
	acc       strings.Builder
	usage     Usage
	responses int64 // bot-llm-stopped events
	exited    bool
	exitText  string
	finals    []string
	actions   []ActionApplied
	held      int64 // bytes of turns, finals and actions (their texts, plus recordCost each)
	err       error // why recording stopped
}

// The Recorder's default bounds.
const (
	defaultMaxTurnBytes = 1 << 20
	defaultMaxHeldBytes = 16 << 20
)

// recordCost is what a record counts beyond its texts: what one costs
// through a harness's copies of it (the recorder, the run, metrics.json
// and results.jsonl, the report), measured at about 1 KiB a turn in all.
const recordCost = 512

// Handle records one event:
//
//   - bot-started-speaking closes the turn in progress, if any, and opens
//     a new one;
//   - bot-tts-text appends its text, when not empty, to the turn in
//     progress (text outside a turn is dropped, as the bridge drops it);
//   - bot-stopped-speaking closes the turn in progress (Stopped);
//   - metrics adds each tokens entry to the usage, as one call;
//   - bot-llm-stopped counts a model response (see Usage.Unreported);
//   - action-applied is kept; for the agent, the first <exit> ends the
//     scenario (Exit) and every <final_response> is kept.
func (r *Recorder) Handle(e Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.err != nil {
		return
	}
	switch e.Kind {
	case KindStartedSpeaking:
		r.close(e.At, false)
		r.open, r.start = true, e.At
		r.acc.Reset()
	case KindTTSText:
		if r.open && e.Text != "" {
			if limit := positiveOr(r.MaxTurnBytes, defaultMaxTurnBytes); int64(r.acc.Len()+len(e.Text)) > limit {
				r.fail(fmt.Errorf("%w: a turn's text past %d bytes (the turn budget)", ErrBudget, limit))
				return
			}
			r.acc.WriteString(e.Text)
		}
	case KindStoppedSpeaking:
		r.close(e.At, true)
	case KindMetrics:
		for _, t := range e.Tokens {
			p, okP := addInt64(r.usage.Prompt, t.Prompt)
			c, okC := addInt64(r.usage.Completion, t.Completion)
			if !okP || !okC {
				r.fail(fmt.Errorf("%w: token counts sum past %d, which this harness refuses (Python's int would sum them exactly)", ErrBudget, int64(math.MaxInt64)))
				return
			}
			r.usage.Calls++
			r.usage.Prompt, r.usage.Completion = p, c
			if t.Partial > 0 {
				r.usage.Partial++
			}
		}
	case KindOther:
		if e.Type == rtviwire.TypeBotLLMStopped {
			r.responses++
		}
	case KindActionApplied:
		if r.hold(int64(len(e.Message))) {
			r.actions = append(r.actions, *e.Action)
		}
	case KindExit:
		if r.Agent && !r.exited {
			r.exited, r.exitText = true, e.Text
		}
	case KindFinalResponse:
		if r.Agent && r.hold(int64(len(e.Text))) {
			r.finals = append(r.finals, e.Text)
		}
	}
}

// hold counts n bytes more held (and a record's cost), and reports
// whether they fit.
func (r *Recorder) hold(n int64) bool {
	limit := positiveOr(r.MaxHeldBytes, defaultMaxHeldBytes)
	if r.held+n+recordCost > limit {
		r.fail(fmt.Errorf("%w: what it holds of the scenario (turns, final responses, action records) past %d bytes (the held-bytes budget)", ErrBudget, limit))
		return false
	}
	r.held += n + recordCost
	return true
}

// fail stops the recording (the first reason stays).
func (r *Recorder) fail(err error) {
	if r.err == nil {
		r.err = err
	}
	r.open = false
	r.acc.Reset()
}

// Err returns why the recorder stopped recording (an error wrapping
// ErrBudget), or nil.
func (r *Recorder) Err() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.err
}

func positiveOr(v, d int64) int64 {
	if v > 0 {
		return v
	}
	return d
}

// addInt64 is a + b, and false when it leaves the int64 range.
func addInt64(a, b int64) (int64, bool) {
	s := a + b
	if (b > 0 && s < a) || (b < 0 && s > a) {
		return 0, false
	}
	return s, true
}

// Finish closes the turn in progress, as the bridge does when the
// scenario ends.
func (r *Recorder) Finish(at time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.close(at, false)
}

func (r *Recorder) close(at time.Time, stopped bool) {
	if !r.open {
		return
	}
	text := pyjson.Strip(r.acc.String())
	if text == "" {
		text = Interrupted
	}
	r.open = false
	r.acc.Reset()
	if r.hold(int64(len(text))) {
		r.turns = append(r.turns, Turn{Text: text, Start: r.start, End: at, Stopped: stopped})
	}
}

// LastTurn returns the last turn closed, and false when none was: what a
// harness relays after a bot-stopped-speaking, in constant time (Turns
// copies them all).
func (r *Recorder) LastTurn() (Turn, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.turns) == 0 {
		return Turn{}, false
	}
	return r.turns[len(r.turns)-1], true
}

// Turns returns the turns closed so far, in order.
func (r *Recorder) Turns() []Turn {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.turns)
}

// Usage returns the token usage so far.
func (r *Recorder) Usage() Usage {
	r.mu.Lock()
	defer r.mu.Unlock()
	u := r.usage
	u.Unreported = max(r.responses-u.Calls, 0)
	return u
}

// Exit returns the text of the agent's first <exit> message and whether
// one came: the scenario's clean exit.
func (r *Recorder) Exit() (string, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.exitText, r.exited
}

// FinalResponses returns the agent's <final_response> texts, in order.
func (r *Recorder) FinalResponses() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.finals)
}

// Actions returns the action-applied records, in order.
func (r *Recorder) Actions() []ActionApplied {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.actions)
}
