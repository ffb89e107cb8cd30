package rtviws

import (
	"encoding/json"
	"fmt"
	"sync"
	"time"
)

// The bot has one shared state and one conversation, so it runs one
// scenario at a time, and a scenario has one owner: the connection that
// prepares it, then the one that runs it. NeMo's bridge prepares a
// scenario on one connection (client-ready, reset, update_system_prompt,
// apply_initialization, close) and runs it on the next (client-ready,
// send-text "Hello", audio, get_context_history, get_scenario_summary,
// close); nothing on the wire ties the two together but their order. So:
//
//   - An idle bot is claimed by the first reset, update_system_prompt or
//     apply_initialization; that connection owns the scenario until it
//     closes. A second harness's preparing messages, conversation and
//     summary requests are refused meanwhile (an error-response naming the
//     scenario in progress; an RTVI error event for text frames, which have
//     no id) and never reach the scenario.
//   - When the owner closes after update_system_prompt, before any
//     conversation or summary, the scenario is prepared and awaits its run:
//     the first connection whose client-ready came after the preparation's
//     last message, and that has not itself asked for a new scenario, claims
//     it with its first conversation or summary message. New scenarios are
//     refused until that run connection closes, or until RunWait passes
//     with no run.
//   - Otherwise the owner's close ends the scenario and the bot is idle
//     again. An idle bot answers anyone's conversation (one connection at a
//     time, never while a scenario is being claimed) and summary requests.
type scenarioOwner struct {
	mu    sync.Mutex
	phase phase
	owner *conn
	seq   int    // the number of the scenario in progress (or last)
	tick  uint64 // counts client-readys and preparing messages
	mark  uint64 // tick of the owner's last preparing message
	// What the owner has done since the scenario's update_system_prompt.
	prepared, ran, pulled bool
	deadline              time.Time     // when an awaiting scenario is given up
	changed               chan struct{} // closed at every change of owner, then replaced
	runWait               time.Duration
	grace                 time.Duration // how long a refused request waits for a closing owner
	domain                func() string // the scenario's tool domain
	now                   func() time.Time

	// work is held for reading by work done while idle, and for writing
	// while an idle bot is claimed, so that no idle work straddles the
	// start of a scenario. It is never held across a network write.
	work sync.RWMutex
}

type phase int

const (
	idle        phase = iota // no scenario: anyone may start one
	owned                    // a connection owns the scenario
	awaitingRun              // prepared; its prepare connection closed; no run yet
)

// kind classifies what a frame asks of the scenario.
type kind int

const (
	kindOther   kind = iota // not the scenario's: the handshake's answer, malformed input, unknown messages
	kindReady               // client-ready
	kindPrepare             // reset, update_system_prompt, apply_initialization
	kindRun                 // conversation (send-text, text, transcription) and apply_sync_delta
	kindRead                // get_context_history, get_scenario_summary
)

// request is what admit needs to know of a frame.
type request struct {
	kind kind
	t    string // the client-message's t, or the message type
	id   string // the message's id ("" for frames without one)
}

// verdict is admit's answer.
type verdict int

const (
	allow     verdict = iota // handle it now
	allowIdle                // handle it as idle work (work held for reading, frames buffered)
	refuse                   // answer with the reason, do nothing else
)

func newScenarioOwner(runWait time.Duration, domain func() string) *scenarioOwner {
	return &scenarioOwner{runWait: runWait, grace: 2 * time.Second, domain: domain, now: time.Now, changed: make(chan struct{})}
}

// classify reads what an RTVI message asks for. Anything it cannot read is
// kindOther: the dispatcher answers it (an error event, an error-response).
func classify(raw []byte) request {
	var m struct {
		Label string          `json:"label"`
		Type  string          `json:"type"`
		ID    json.RawMessage `json:"id"`
		Data  json.RawMessage `json:"data"`
	}
	if json.Unmarshal(raw, &m) != nil || m.Label != "rtvi-ai" {
		return request{}
	}
	var id string
	if json.Unmarshal(m.ID, &id) != nil {
		return request{}
	}
	switch m.Type {
	case "client-ready":
		return request{kind: kindReady, t: m.Type, id: id}
	case "send-text":
		return request{kind: kindRun, t: m.Type, id: id}
	case "client-message":
	default:
		return request{}
	}
	var data struct {
		T string `json:"t"`
	}
	if json.Unmarshal(m.Data, &data) != nil {
		return request{}
	}
	r := request{t: data.T, id: id}
	switch data.T {
	case "reset", "update_system_prompt", "apply_initialization":
		r.kind = kindPrepare
	case "apply_sync_delta":
		r.kind = kindRun
	case "get_context_history", "get_scenario_summary":
		r.kind = kindRead
	}
	return r
}

// admit decides whether c's request may go on. A claim of an idle bot
// waits for idle work in progress to end; a request that finds the
// scenario owned by another connection waits (at most grace, 2 s) for a
// change of owner before it is refused: a harness's next connection can
// arrive before the bot has seen its last one close.
func (o *scenarioOwner) admit(c *conn, r request) (verdict, string) {
	for try := 0; ; try++ {
		v, why, wait := o.decide(c, r, false)
		if wait != nil && try == 0 {
			select {
			case <-wait:
			case <-time.After(o.grace):
			}
			continue
		}
		if v != allow || r.kind != kindPrepare || why != "claim" {
			return v, why
		}
		// Claim an idle bot: first let idle work end.
		o.work.Lock()
		v, why, _ = o.decide(c, r, true)
		o.work.Unlock()
		return v, why
	}
}

// decide is admit's rule (see scenarioOwner). An idle bot asked to prepare
// answers (allow, "claim") unless claim is set, when it is claimed. wait,
// when set, is a change worth waiting for before deciding.
func (o *scenarioOwner) decide(c *conn, r request, claim bool) (v verdict, why string, wait <-chan struct{}) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.phase == awaitingRun && !o.now().Before(o.deadline) {
		o.setOwner(idle, nil) // the run never came
	}
	switch r.kind {
	case kindOther:
		return allow, "", nil
	case kindReady:
		o.tick++
		c.ready = o.tick
		return allow, "", nil
	}
	switch o.phase {
	case idle:
		switch r.kind {
		case kindPrepare:
			if !claim {
				return allow, "claim", nil
			}
			o.seq++
			o.setOwner(owned, c)
			o.prepared, o.ran, o.pulled = false, false, false
			o.note(r)
			return allow, "", nil
		case kindRun:
			return allowIdle, "", nil
		}
		return allow, "", nil
	case owned:
		if o.owner == c {
			o.note(r)
			return allow, "", nil
		}
		if r.kind == kindPrepare {
			c.refusedIn = o.seq
		}
		// The owner may be closing: its peer's close can arrive before
		// the bot has seen it (the next scenario's prepare after a run,
		// the run connection after a prepare). Wait for a change once.
		wait = o.changed
		return refuse, fmt.Sprintf("%s is in progress on another connection; this bot runs one scenario at a time (%s refused)", o.name(), r.t), wait
	default: // awaitingRun
		if r.kind == kindPrepare {
			c.refusedIn = o.seq
			return refuse, fmt.Sprintf("%s is prepared and waits for its run connection; this bot runs one scenario at a time (%s refused)", o.name(), r.t), nil
		}
		if !o.candidate(c) {
			return refuse, fmt.Sprintf("%s is prepared and waits for its run connection: a connection whose client-ready came after the preparation (%s refused)", o.name(), r.t), nil
		}
		o.setOwner(owned, c)
		o.note(r)
		return allow, "", nil
	}
}

// candidate reports whether c may claim the run of the prepared scenario.
func (o *scenarioOwner) candidate(c *conn) bool { return c.ready > o.mark && c.refusedIn != o.seq }

// note records what the owner did.
func (o *scenarioOwner) note(r request) {
	switch {
	case r.kind == kindPrepare:
		o.tick++
		o.mark = o.tick
		if r.t == "update_system_prompt" {
			o.prepared, o.ran, o.pulled = true, false, false
		}
	case r.kind == kindRun:
		o.ran = true
	case r.t == "get_scenario_summary":
		o.pulled = true
	}
}

// release is c's close. The owner's close ends its scenario, unless it
// only prepared it: then the scenario awaits its run.
func (o *scenarioOwner) release(c *conn) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.owner != c {
		return
	}
	if o.prepared && !o.ran && !o.pulled {
		o.deadline = o.now().Add(o.runWait)
		o.setOwner(awaitingRun, nil)
		return
	}
	o.setOwner(idle, nil)
}

func (o *scenarioOwner) setOwner(p phase, c *conn) {
	o.phase, o.owner = p, c
	close(o.changed)
	o.changed = make(chan struct{})
}

// current returns the connection that owns the scenario, if any.
func (o *scenarioOwner) current() *conn {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.owner
}

// isIdle reports whether no scenario is in progress (for idle work, which
// holds work for reading).
func (o *scenarioOwner) isIdle() bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.phase == awaitingRun && !o.now().Before(o.deadline) {
		o.setOwner(idle, nil)
	}
	return o.phase == idle
}

// name names the scenario in progress: "scenario 3 (tau2_retail)".
func (o *scenarioOwner) name() string {
	if d := o.domain(); d != "" {
		return fmt.Sprintf("scenario %d (%s)", o.seq, d)
	}
	return fmt.Sprintf("scenario %d", o.seq)
}
