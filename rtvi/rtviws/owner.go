package rtviws

import (
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/voiceeval/schematools/internal/rtviwire"
)

// The bot has one shared state and one conversation, so it runs one
// scenario at a time, and a scenario has one owner at a time: the
// connection that prepares it, then the one connection that runs it.
// NeMo's bridge prepares a scenario on one connection (client-ready,
// reset, update_system_prompt, apply_initialization, for telecom an
// apply_sync_delta, close) and runs it on the next (client-ready,
// send-text "Hello", conversation, get_context_history,
// get_scenario_summary, close); nothing on the wire ties the two together
// but their order. The rules, the strongest that order allows:
//
//   - An idle bot is claimed by the first preparing message (reset,
//     update_system_prompt, apply_initialization): that connection
//     prepares the scenario. Its reads (get_context_history,
//     get_scenario_summary) and sync deltas are answered and leave it the
//     preparer; its conversation makes it the scenario's run as well (a
//     harness that prepares and runs on one connection).
//   - When the preparer closes after update_system_prompt or
//     apply_initialization without conversing, the scenario is reserved for
//     exactly one run connection: the first whose client-ready came after
//     the preparer's last message and that never sent a preparing message
//     while this scenario was in progress. It claims the scenario with its
//     first conversation, read or sync delta, and owns it until it closes;
//     then the bot is idle.
//   - Everyone else's scenario messages are refused with an error naming
//     the scenario in progress (an error-response, or an RTVI error event
//     for text frames, which have no id), and never reach the dispatcher
//     or the brain. Conversation and sync deltas on an idle bot are refused
//     too: no scenario is theirs. Reads on an idle bot are answered (they
//     change nothing).
//   - A preparing message that finds the bot busy waits before it is
//     refused: Grace for a scenario being run (its owner may be closing),
//     and for a reserved scenario until the reservation ends. A reservation
//     lapses RunWait after its preparer closed if by then no candidate run
//     connection is open (a harness that prepared and stopped); an open
//     candidate — a run connection waiting for its first text, as NeMo's
//     user-simulator side does — holds it. So NeMo's bridge arriving after
//     an aborted preparation is answered within RunWait (10 s by default,
//     inside the 15 s it waits for apply_initialization), never refused,
//     and a harness's run never gets another harness's scenario without an
//     error unless it connects more than RunWait after its own preparation
//     closed.
type scenarioOwner struct {
	mu    sync.Mutex
	phase phase
	owner *conn
	// running: the owner runs the scenario (it conversed, or claimed a
	// reserved scenario); false: it prepares it.
	running bool
	// prepared: update_system_prompt or apply_initialization came since
	// the claim; the preparer's close then reserves the scenario.
	prepared bool
	seq      int    // the number of the scenario in progress (or last)
	tick     uint64 // counts client-readys and the preparer's messages
	mark     uint64 // tick of the preparer's last message
	deadline time.Time
	open     map[*conn]bool // the open connections (run candidates among them)
	changed  chan struct{}  // closed at every change that can admit a waiting request, then replaced
	runWait  time.Duration
	grace    time.Duration
	domain   func() string // the scenario's tool domain
	now      func() time.Time
}

type phase int

const (
	idle     phase = iota // no scenario: the next preparing message claims the bot
	owned                 // a connection prepares or runs the scenario
	reserved              // prepared, its preparer closed: waits for its run connection
)

// kind classifies what a frame asks of the scenario.
type kind int

const (
	kindOther   kind = iota // not the scenario's: the handshake's answer, malformed input, unknown messages
	kindReady               // client-ready
	kindPrepare             // reset, update_system_prompt, apply_initialization
	kindTalk                // conversation: send-text, text frames, transcriptions
	kindSync                // apply_sync_delta
	kindRead                // get_context_history, get_scenario_summary
)

// request is what admit needs to know of a frame.
type request struct {
	kind kind
	t    string // the client-message's t, or the message type
	id   string // the message's id ("" for frames without one)
}

// verdict is decide's answer.
type verdict int

const (
	allow  verdict = iota // handle it now
	refuse                // answer with the reason, do nothing else
	hold                  // wait for a change (or the deadline), then decide again
)

// admission is admit's answer: whether the frame goes on, why not, and
// the number of the scenario it belongs to.
type admission struct {
	ok       bool
	why      string
	scenario int
}

func newScenarioOwner(runWait time.Duration, domain func() string) *scenarioOwner {
	return &scenarioOwner{runWait: runWait, grace: 2 * time.Second, domain: domain, now: time.Now,
		changed: make(chan struct{}), open: map[*conn]bool{}}
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
	if json.Unmarshal(raw, &m) != nil || m.Label != rtviwire.Label {
		return request{}
	}
	var id string
	if json.Unmarshal(m.ID, &id) != nil {
		return request{}
	}
	switch m.Type {
	case rtviwire.TypeClientReady:
		return request{kind: kindReady, t: m.Type, id: id}
	case rtviwire.TypeSendText:
		return request{kind: kindTalk, t: m.Type, id: id}
	case rtviwire.TypeClientMessage:
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
	case rtviwire.Reset, rtviwire.UpdateSystemPrompt, rtviwire.ApplyInitialization:
		r.kind = kindPrepare
	case rtviwire.ApplySyncDelta:
		r.kind = kindSync
	case rtviwire.GetContextHistory, rtviwire.GetScenarioSummary:
		r.kind = kindRead
	}
	return r
}

// connect registers an open connection (a possible run connection).
func (o *scenarioOwner) connect(c *conn) {
	o.mu.Lock()
	o.open[c] = true
	o.mu.Unlock()
}

// admit decides whether c's request may go on (see scenarioOwner). A
// request that must wait does so here, on c's read loop: c's later frames
// wait behind it, as they would behind a slow answer.
func (o *scenarioOwner) admit(c *conn, r request) admission {
	var since, until time.Time // when the request was first held; when it is refused
	for {
		o.mu.Lock()
		v, why, wake := o.decide(c, r)
		seq, changed := o.seq, o.changed
		if v == hold {
			// Grace from the first hold; for a reserved scenario, until its
			// reservation ends (plus grace), whichever is later.
			if since.IsZero() {
				since = o.now()
			}
			until = later(until, since.Add(o.grace))
			if o.phase == reserved {
				until = later(until, o.deadline.Add(o.grace))
			}
		}
		o.mu.Unlock()
		switch v {
		case allow:
			return admission{ok: true, scenario: seq}
		case refuse:
			return admission{why: why, scenario: seq}
		}
		now := o.now()
		if !now.Before(until) {
			return admission{why: why, scenario: seq}
		}
		wait := until.Sub(now)
		if !wake.IsZero() && wake.Sub(now) < wait {
			wait = max(wake.Sub(now), time.Millisecond)
		}
		timer := time.NewTimer(wait)
		select {
		case <-changed:
		case <-timer.C:
		}
		timer.Stop()
	}
}

// decide is admit's rule, with o.mu held. wake, when set, is a time at
// which a held request should decide again (a reservation's deadline).
func (o *scenarioOwner) decide(c *conn, r request) (v verdict, why string, wake time.Time) {
	o.lapse()
	switch r.kind {
	case kindOther:
		return allow, "", wake
	case kindReady:
		o.tick++
		c.ready = o.tick
		return allow, "", wake
	}
	switch o.phase {
	case idle:
		switch r.kind {
		case kindPrepare:
			o.claim(c)
			return allow, "", wake
		case kindTalk, kindSync:
			return refuse, o.noScenario(r), wake
		}
		return allow, "", wake
	case owned:
		if o.owner == c {
			o.note(c, r)
			return allow, "", wake
		}
		if r.kind == kindPrepare {
			c.triedIn = o.seq
		}
		// The owner may be closing: its peer's close can arrive after the
		// next connection's first message (the next scenario's preparation
		// after a run, the run connection after a preparation).
		return hold, fmt.Sprintf("%s is in progress on another connection; %s (%s refused)", o.name(), rtviwire.BusyRefusal, r.t), wake
	default: // reserved
		if r.kind == kindPrepare {
			c.triedIn = o.seq
			return hold, fmt.Sprintf("%s is prepared and waits for its run connection; %s (%s refused)", o.name(), rtviwire.BusyRefusal, r.t), o.deadline
		}
		if !o.candidate(c) {
			return refuse, fmt.Sprintf("%s is prepared and waits for its run connection: a connection whose client-ready came after the preparation and that never tried to prepare a scenario of its own (%s refused)", o.name(), r.t), wake
		}
		o.setOwner(owned, c)
		o.running = true
		return allow, "", wake
	}
}

// claim makes c the preparer of a new scenario.
func (o *scenarioOwner) claim(c *conn) {
	o.seq++
	o.setOwner(owned, c)
	o.running, o.prepared = false, false
	o.tick++
	o.mark = o.tick
}

// note records what the owner did. A running owner's preparing message
// starts a new scenario (a harness running scenarios one after another on
// one connection); the preparer's messages move the mark a run
// connection's client-ready must come after, and its conversation makes
// it the run.
func (o *scenarioOwner) note(c *conn, r request) {
	if o.running {
		if r.kind == kindPrepare {
			o.claim(c)
			o.note(c, r)
		}
		return
	}
	o.tick++
	o.mark = o.tick
	switch {
	case r.kind == kindPrepare && r.t != "reset":
		o.prepared = true
	case r.kind == kindTalk:
		o.running = true
	}
}

// candidate reports whether c may claim the reserved scenario's run.
func (o *scenarioOwner) candidate(c *conn) bool { return c.ready > o.mark && c.triedIn != o.seq }

// lapse gives up a reserved scenario whose deadline passed while no
// candidate run connection is open.
func (o *scenarioOwner) lapse() {
	if o.phase != reserved || o.now().Before(o.deadline) {
		return
	}
	for c := range o.open {
		if o.candidate(c) {
			return
		}
	}
	o.setOwner(idle, nil)
}

// release is c's close. The preparer's close reserves the scenario for its
// run, once prepared; any other owner's close ends the scenario.
func (o *scenarioOwner) release(c *conn) {
	o.mu.Lock()
	defer o.mu.Unlock()
	delete(o.open, c)
	switch {
	case o.owner != c:
		o.signal() // a candidate may have gone: a held request decides again
	case !o.running && o.prepared:
		o.deadline = o.now().Add(o.runWait)
		o.setOwner(reserved, nil)
	default:
		o.setOwner(idle, nil)
	}
}

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

func (o *scenarioOwner) setOwner(p phase, c *conn) {
	o.phase, o.owner = p, c
	o.signal()
}

func (o *scenarioOwner) signal() {
	close(o.changed)
	o.changed = make(chan struct{})
}

// current returns the connection that owns the scenario, if any.
func (o *scenarioOwner) current() *conn {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.owner
}

// name names the scenario in progress: "scenario 3 (tau2_retail)".
func (o *scenarioOwner) name() string {
	if d := o.domain(); d != "" {
		return fmt.Sprintf("scenario %d (%s)", o.seq, d)
	}
	return fmt.Sprintf("scenario %d", o.seq)
}

// noScenario is the refusal of conversation or a sync delta on an idle
// bot.
func (o *scenarioOwner) noScenario(r request) string {
	last := "none has been prepared"
	if o.seq > 0 {
		last = fmt.Sprintf("the last, %s, has ended", o.name())
	}
	return fmt.Sprintf("no scenario is in progress on this bot (%s); prepare one with reset, update_system_prompt and apply_initialization first (%s refused)", last, r.t)
}
