package bridge

import (
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/voiceeval/schematools/internal/pyjson"
)

// Interrupted is the transcript of a turn in which the bot said nothing.
const Interrupted = "[INTERRUPTED]"

// typeBotLLMStopped is the event that ends each LLM response of a pipecat
// bot, whatever the response's outcome.
const typeBotLLMStopped = "bot-llm-stopped"

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
// as zero tokens.
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
// Handle is an [Options.OnEvent]; it is safe for concurrent use.
type Recorder struct {
	// Agent says the bot is the agent: only the agent's <exit> and
	// <final_response> texts count, as the bridge reads them only from it.
	Agent bool

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
}

// Handle records one event:
//
//   - bot-started-speaking closes the turn in progress, if any, and opens
//     a new one;
//   - bot-tts-text appends its text, when not empty, to the turn in
//     progress (text outside a turn is dropped, as the bridge drops it);
//   - bot-stopped-speaking closes the turn in progress (Stopped);
//   - metrics adds each tokens entry to the usage;
//   - bot-llm-stopped counts a model response (see Usage.Unreported);
//   - action-applied is kept; for the agent, the first <exit> ends the
//     scenario (Exit) and every <final_response> is kept.
func (r *Recorder) Handle(e Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	switch e.Kind {
	case KindStartedSpeaking:
		r.close(e.At, false)
		r.open, r.start = true, e.At
		r.acc.Reset()
	case KindTTSText:
		if r.open && e.Text != "" {
			r.acc.WriteString(e.Text)
		}
	case KindStoppedSpeaking:
		r.close(e.At, true)
	case KindMetrics:
		for _, t := range e.Tokens {
			r.usage.Calls++
			r.usage.Prompt += t.PromptTokens
			r.usage.Completion += t.CompletionTokens
			if t.NoPrompt || t.NoCompletion {
				r.usage.Partial++
			}
		}
	case KindOther:
		if e.Type == typeBotLLMStopped {
			r.responses++
		}
	case KindActionApplied:
		r.actions = append(r.actions, *e.Action)
	case KindExit:
		if r.Agent && !r.exited {
			r.exited, r.exitText = true, e.Text
		}
	case KindFinalResponse:
		if r.Agent {
			r.finals = append(r.finals, e.Text)
		}
	}
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
	r.turns = append(r.turns, Turn{Text: text, Start: r.start, End: at, Stopped: stopped})
	r.open = false
	r.acc.Reset()
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
