package harness

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/voiceeval/schematools/rtvi/bridge"
)

// defaultExitSettle is how long the bridge lets the bots finish after the
// agent's <exit> (bridge.py exit_settle_delay).
const defaultExitSettle = 500 * time.Millisecond

// stopReasonTurnLimit is the stop reason of a text run stopped by
// SessionOptions.MaxTurns. NeMo has no such bound; like its duration bound
// it is not a clean exit.
const stopReasonTurnLimit = "[TURN_LIMIT]"

// ErrAborted is wrapped by the error of a scenario whose preparation failed
// (apply_initialization refused or unanswered): NeMo aborts it unscored.
var ErrAborted = errors.New("harness: scenario aborted before the run")

// ErrBotFailed is wrapped by the error of a scenario a bot failed: it
// closed its connection, sent what cannot be read, never answered a
// handshake or a pull, or was found not to have reset.
var ErrBotFailed = errors.New("harness: a bot failed the scenario")

// scenarioStatus is how a scenario run ended, as a failed run's
// metrics say ("<status>: <reason>").
type scenarioStatus string

// The statuses of a ScenarioResult.
const (
	statusScored  scenarioStatus = "scored"
	statusAborted scenarioStatus = "aborted"
	statusFailed  scenarioStatus = "failed"
)

// SessionOptions configure RunScenario. The zero value is NeMo's bridge and
// runner defaults without a judge, minus the turn gate (set
// Score.MinAgentTurns, or start from DefaultSessionOptions).
type SessionOptions struct {
	// Bridge configures every connection (timeouts, HTTP client); its
	// OnEvent is the harness's own and is ignored.
	Bridge bridge.Options
	// KickoffDelay is the wait between the run handshake and the agent's
	// "Hello"; 0 means 1 s (NeMo's), negative none.
	KickoffDelay time.Duration
	// ExitSettle is the wait after the agent's <exit> before the pull; 0
	// means NeMo's 0.5 s, negative none.
	ExitSettle time.Duration
	// MaxTurns stops the run after this many completed turns (both bots
	// counted); 0 means no bound.
	MaxTurns int
	// MaxDuration bounds the run's wall clock; 0 means the scenario's
	// max_duration seconds. A text run can scale it down. It bounds the
	// whole scenario too: from the first connection to the last pull,
	// RunScenario takes at most MaxDuration + 8 s of grace.
	MaxDuration time.Duration
	// Budgets bound what the bots can make the harness read, hold and
	// write (zero fields: DefaultBudgets).
	Budgets Budgets
	// Shadow turns the cross-side sync on (tau2 telecom); nil is off.
	Shadow *Reference
	// Verify turns the summary verification on (VerifySummaries: a
	// scored run's summaries replayed from their actions with the
	// domain's reference, the verdict written as summary_verified); nil
	// is off, as in NeMo.
	Verify *Reference
	// NoResetCheck turns off the check that a pulled context holds no
	// more user messages than the bridge sent in the run (for a bot that
	// splits one send-text into several messages).
	NoResetCheck bool
	// ScenarioDirectory is the run's <run>/<scenario> directory, written
	// as metrics scenario_directory (Evaluate sets it); "" leaves it
	// empty.
	ScenarioDirectory string
	// Score are the runner's scoring flags.
	Score Options
}

// scenarioGrace is what a scenario may take beyond its duration bound:
// its preparation, the pulls after a conversation stopped at the bound,
// and the closes. NeMo bounds each wait on its own, so a stalled bot can
// cost minutes more; RunScenario bounds the whole, and cuts whatever is
// in progress when the time is up.
const scenarioGrace = 8 * time.Second

// errScenarioTime is the cause of a scenario's context that ran out.
var errScenarioTime = errors.New("the scenario ran past its duration bound and grace")

// DefaultSessionOptions are NeMo's defaults: run_evaluation.py's scoring
// flags without a judge, the bridge's timings.
func DefaultSessionOptions() SessionOptions {
	return SessionOptions{Score: defaultOptions()}
}

// ScenarioResult is one scenario run.
type ScenarioResult struct {
	Scenario string
	// Reason says why a scenario was aborted or failed ("" when scored);
	// RunScenario's error says which (nil: scored; wrapping ErrAborted:
	// aborted before the run; otherwise failed).
	Reason string
	status scenarioStatus
	// Run is what the bridge pulled and counted (nil when aborted).
	Run *Run
	// Result is the scoring (nil unless the scenario was scored).
	Result *Result
	// Syncs are the cross-side syncs run (the initial one first), and
	// SyncErrors those that could not run; NeMo logs them and goes on.
	Syncs      []SyncRecord
	SyncErrors []string
}

// SyncRecord is one cross-side sync: the action replayed on the shadow
// DBs ("" for the initial sync), the side that reported it, and the deltas
// pushed with apply_sync_delta (empty ones are not sent).
type SyncRecord struct {
	Source, Action        string
	AgentDelta, UserDelta map[string]any
}

// RunScenario prepares the two bots for sc, runs the text conversation
// between them and scores it, as NeMo's bridge and runner do for one
// scenario:
//
//   - prepare: connect to both (client-ready → bot-ready), reset both (user,
//     then agent), update_system_prompt to the user then the agent,
//     apply_initialization to the agent then the user (a failure aborts the
//     scenario unscored, an error wrapping ErrAborted), the shadow DBs and the initial sync
//     deltas when o.Shadow is set, disconnect;
//   - run: fresh connections; KickoffDelay in, the agent gets send-text
//     "Hello"; every turn one bot completes (bot-started-speaking …
//     bot-stopped-speaking) is sent to the other as send-text, in the order
//     the events came, and timed to that bot's first speech (the agent's
//     answers to the user are Run.Latencies); every action-applied is replayed on the shadow DBs and
//     the deltas pushed with apply_sync_delta, before any later turn of that
//     bot is relayed; the run stops ExitSettle after the agent's <exit>
//     ("[EXIT]"; turns completed in the settle are recorded, not relayed:
//     in NeMo's 0.5 s no bot hears, thinks and answers), at MaxTurns
//     ("[TURN_LIMIT]"), or at the duration bound ("[TIMEOUT]");
//   - pull: once every apply_sync_delta sent in the run was answered (at most
//     the request timeout; NeMo does not wait, and a late delta answer is
//     taken for the pull's, which matches by type), get_context_history then
//     get_scenario_summary from the agent and the user (include_db when sc
//     has db_state_assertions), each context
//     checked to hold no user message the bridge did not send this run (a
//     bot that kept a previous scenario's conversation); then Score.
//
// The run carries o.ScenarioDirectory and its times (LogStartTime when
// RunScenario began, EndTime after the pulls), so the result is the one to
// write: it is scored once, a judge called once.
//
// A bot that reports an error during the run (an RTVI error event: its
// turn or its model failed, or it refused text) or refuses one of the
// run's requests (an error-response) ends the run at once with
// "[BOT_ERROR]"; the harness still pulls both sides, so the failed
// scenario keeps its contexts and summaries. A bot that closes its
// connection or sends a frame or message that cannot be read ends it with
// "[BOT_FAILED]"; one that does not answer the handshake or a pull
// fails it too. Each fails the scenario with an error wrapping ErrBotFailed,
// and its Run keeps the turns, usage and durations so far (Evaluate
// writes it as a failed scenario). The
// returned error is nil only for a scored scenario; the result is never nil.
func RunScenario(ctx context.Context, sc *Scenario, agentURL, userURL string, o SessionOptions) (*ScenarioResult, error) {
	res := &ScenarioResult{Scenario: sc.Name}
	start := time.Now()
	o.Budgets = o.Budgets.withDefaults()
	if o.MaxDuration <= 0 {
		o.MaxDuration = time.Duration(sc.MaxDuration) * time.Second
	}
	parent := ctx
	ctx, cancel := context.WithDeadlineCause(ctx, start.Add(o.MaxDuration+scenarioGrace), errScenarioTime)
	defer cancel()
	fail := func(status scenarioStatus, sentinel error, err error) (*ScenarioResult, error) {
		if parent.Err() != nil && errors.Is(err, parent.Err()) {
			res.status, res.Reason = statusFailed, err.Error()
			return res, err
		}
		if ctx.Err() != nil && context.Cause(ctx) == errScenarioTime {
			err = fmt.Errorf("%w (%v + %v): %w", errScenarioTime, o.MaxDuration, scenarioGrace, err)
		}
		res.status, res.Reason = status, err.Error()
		return res, fmt.Errorf("%w: %s: %w", sentinel, sc.Name, err)
	}
	sh, err := prepare(ctx, sc, agentURL, userURL, o, res)
	if err != nil {
		if errors.Is(err, bridge.ErrInitAborted) {
			return fail(statusAborted, ErrAborted, markBusy(err))
		}
		return fail(statusFailed, ErrBotFailed, err)
	}
	run, err := runConversation(ctx, sc, agentURL, userURL, o, sh, res)
	res.Run = run
	if run != nil {
		run.ScenarioDirectory = o.ScenarioDirectory
		run.LogStartTime, run.EndTime = pyISOFormat(start), pyISOFormat(time.Now())
	}
	if err != nil {
		return fail(statusFailed, ErrBotFailed, err)
	}
	run.Verification = VerifySummaries(ctx, o.Verify, sc, run, res.Syncs)
	scored, err := Score(ctx, run, o.Score)
	if err != nil {
		return fail(statusFailed, ErrBotFailed, fmt.Errorf("scoring: %w", err))
	}
	res.status, res.Result = statusScored, scored
	return res, nil
}

// dial connects to one bot with the session's options, budgets and
// handler.
func dial(ctx context.Context, url, side string, o SessionOptions, on func(bridge.Event)) (*bridge.Conn, error) {
	bo := o.Bridge
	bo.OnEvent = on
	bo.MaxStreamBytes, bo.MaxDepth = o.Budgets.StreamBytes, o.Budgets.Depth
	c, err := bridge.Dial(ctx, url, &bo)
	if err != nil {
		return nil, fmt.Errorf("%s bot: %w", side, err)
	}
	return c, nil
}

// prepare is bridge.py prepare_for_scenario; it returns the shadow state
// (nil when the sync is off).
func prepare(ctx context.Context, sc *Scenario, agentURL, userURL string, o SessionOptions, res *ScenarioResult) (*shadow, error) {
	user, err := dial(ctx, userURL, "user", o, nil)
	if err != nil {
		return nil, err
	}
	defer closeConn(ctx, user)
	agent, err := dial(ctx, agentURL, "agent", o, nil)
	if err != nil {
		return nil, err
	}
	defer closeConn(ctx, agent)
	steps := []struct {
		side string
		f    func() error
	}{
		{"user", func() error { return user.Reset(ctx) }},
		{"agent", func() error { return agent.Reset(ctx) }},
		{"user", func() error {
			return user.UpdateSystemPrompt(ctx, bridge.Prompt{Prompt: sc.UserPrompt, Tools: sc.UserTools, ToolDomain: sc.Domain})
		}},
		{"agent", func() error {
			return agent.UpdateSystemPrompt(ctx, bridge.Prompt{Prompt: sc.AgentPrompt, Tools: sc.AgentTools, ToolDomain: sc.Domain})
		}},
		{"agent", func() error {
			return agent.ApplyInitialization(ctx, bridge.Init{Side: "agent", Domain: sc.Domain, SharedStateInit: orEmpty(sc.SharedStateInitAgent), Actions: sideActions(sc, "agent")})
		}},
		{"user", func() error {
			return user.ApplyInitialization(ctx, bridge.Init{Side: "user", Domain: sc.Domain, SharedStateInit: orEmpty(sc.SharedStateInitUser), Actions: sideActions(sc, "user")})
		}},
	}
	for _, s := range steps {
		if err := s.f(); err != nil {
			if errors.Is(err, bridge.ErrInitAborted) {
				return nil, err
			}
			return nil, fmt.Errorf("%s bot: %w", s.side, err)
		}
	}
	sh, err := newShadow(o.Shadow, sc)
	if err != nil {
		res.SyncErrors = append(res.SyncErrors, "setup: "+err.Error())
		return nil, nil
	}
	if sh == nil {
		return nil, nil
	}
	ad, ud, err := sh.sync()
	if err != nil {
		res.SyncErrors = append(res.SyncErrors, "initial sync: "+err.Error())
		return sh, nil
	}
	res.Syncs = append(res.Syncs, SyncRecord{AgentDelta: ad, UserDelta: ud})
	if err := pushDeltas(ctx, sc.Domain, agent, user, ad, ud, nil, nil); err != nil {
		return nil, err
	}
	return sh, nil
}

// closeConn closes c with the closing handshake, or at once when the
// scenario's time is up (a bot that does not answer the close must not
// hold it longer).
func closeConn(ctx context.Context, c *bridge.Conn) {
	done := make(chan struct{})
	go func() {
		c.Close() //nolint:errcheck // the scenario is over either way
		close(done)
	}()
	select {
	case <-done:
	case <-ctx.Done():
		c.CloseNow()
		<-done
	}
}

// pushDeltas sends the non-empty deltas with apply_sync_delta, counting
// them in the trackers (nil: not counted).
func pushDeltas(ctx context.Context, domain string, agent, user *bridge.Conn, ad, ud map[string]any, at, ut *deltaTracker) error {
	if len(ad) > 0 {
		if at != nil {
			at.sent.Add(1)
		}
		if err := agent.ApplySyncDelta(ctx, "agent", domain, ad); err != nil {
			return fmt.Errorf("agent bot: apply_sync_delta: %w", err)
		}
	}
	if len(ud) > 0 {
		if ut != nil {
			ut.sent.Add(1)
		}
		if err := user.ApplySyncDelta(ctx, "user", domain, ud); err != nil {
			return fmt.Errorf("user bot: apply_sync_delta: %w", err)
		}
	}
	return nil
}

func orEmpty(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}

// sideActions are the initialisation actions of one side, as the scenario
// holds them ({side, func_name, arguments}, the fields in that order).
func sideActions(sc *Scenario, side string) []Action {
	out := []Action{}
	for _, a := range sc.InitializationActions {
		if a.Side == side {
			if a.Arguments == nil {
				a.Arguments = map[string]any{}
			}
			out = append(out, a)
		}
	}
	return out
}

// sideEvent is one event of one bot, queued for the run loop.
type sideEvent struct {
	agent bool
	e     bridge.Event
	// turn is the text of the turn a bot-stopped-speaking closed, taken
	// when it came (the recorder may hold later turns by the time the run
	// loop reads the event).
	turn    string
	hasTurn bool
	// err is why the side's recorder stopped, once it has: a budget
	// passed; the run loop ends the scenario with it.
	err error
}

// eventQueue is the run loop's queue: a connection's reader never blocks
// on the run loop, and what waits in it is bounded (HeldBytes): past the
// bound, events are dropped and the scenario fails.
type eventQueue struct {
	mu       sync.Mutex
	items    []sideEvent
	spare    []sideEvent // the last batch drained, whose buffer the next one reuses
	bytes    int64       // held by items
	limit    int64
	overflow error
	signal   chan struct{}
}

func newEventQueue(limit int64) *eventQueue {
	return &eventQueue{signal: make(chan struct{}, 1), limit: limit}
}

// eventCost is what an event holds, as the queue counts it: its texts and
// a fixed part for the rest.
func eventCost(ev sideEvent) int64 {
	return int64(len(ev.e.Message)+len(ev.e.Text)+len(ev.turn)) + 256
}

func (q *eventQueue) push(ev sideEvent) {
	q.mu.Lock()
	cost := eventCost(ev)
	switch {
	case q.overflow != nil:
	case q.bytes+cost > q.limit:
		side := "user"
		if ev.agent {
			side = "agent"
		}
		q.overflow = fmt.Errorf("%s bot: %w: its events waiting for the run loop passed %d bytes (the held-bytes budget)", side, bridge.ErrBudget, q.limit)
		q.items, q.bytes = nil, 0
	default:
		q.items = append(q.items, ev)
		q.bytes += cost
	}
	q.mu.Unlock()
	select {
	case q.signal <- struct{}{}:
	default:
	}
}

// drain returns the events queued, in order. The slice is the caller's
// until its next drain, whose buffer it then becomes: a burst of events
// does not regrow the queue each time.
func (q *eventQueue) drain() []sideEvent {
	q.mu.Lock()
	defer q.mu.Unlock()
	clear(q.spare)
	out := q.items
	q.items, q.spare, q.bytes = q.spare[:0], out, 0
	return out
}

// err is why the queue stopped taking events, if it did.
func (q *eventQueue) err() error {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.overflow
}
