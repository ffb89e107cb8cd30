package harness

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/voiceeval/schematools/internal/rtviwire"
	"github.com/voiceeval/schematools/rtvi/bridge"
)

// runConversation is the run and pull phases: bridge.py run_scenario with
// its two websocket threads, in text.
func runConversation(ctx context.Context, sc *Scenario, agentURL, userURL string, o SessionOptions, sh *shadow, res *ScenarioResult) (*Run, error) {
	wallStart := time.Now()
	q := newEventQueue(o.Budgets.HeldBytes)
	b := o.Budgets
	agentRec := &bridge.Recorder{Agent: true, MaxTurnBytes: b.TurnBytes, MaxHeldBytes: b.HeldBytes}
	userRec := &bridge.Recorder{MaxTurnBytes: b.TurnBytes, MaxHeldBytes: b.HeldBytes}
	var agentDeltas, userDeltas deltaTracker
	var agentCalls, userCalls callLog
	on := func(isAgent bool, rec *bridge.Recorder, dt *deltaTracker, calls *callLog) func(bridge.Event) {
		return func(e bridge.Event) {
			rec.Handle(e)
			if rec.Err() == nil {
				calls.observe(e)
			}
			dt.observe(e)
			ev := sideEvent{agent: isAgent, e: e, err: rec.Err()}
			if e.Kind == bridge.KindStoppedSpeaking {
				if t, ok := rec.LastTurn(); ok {
					ev.turn, ev.hasTurn = t.Text, true
				}
			}
			q.push(ev)
		}
	}
	onAgent, onUser := on(true, agentRec, &agentDeltas, &agentCalls), on(false, userRec, &userDeltas, &userCalls)

	user, err := dial(ctx, userURL, "user", o, onUser)
	if err != nil {
		return nil, err
	}
	defer closeConn(ctx, user)
	agent, err := dial(ctx, agentURL, "agent", o, onAgent)
	if err != nil {
		return nil, err
	}
	defer closeConn(ctx, agent)

	start := time.Now()
	// The conversation's own bound, as NeMo's (the scenario's context
	// bounds the whole: preparation, conversation, pulls).
	deadline := time.NewTimer(o.MaxDuration)
	defer deadline.Stop()
	kickDelay := o.KickoffDelay
	if kickDelay == 0 {
		kickDelay = time.Second // NeMo's wait before the kickoff
	}
	kick := time.NewTimer(max(kickDelay, 0))
	defer kick.Stop()
	settle := o.ExitSettle
	if settle == 0 {
		settle = defaultExitSettle
	}

	// Each bot's answers to what the harness relays to it, timed on the
	// run loop.
	agentClock, userClock := newReplyClock(), newReplyClock()
	var (
		sentToAgent, sentToUser int // user messages the bridge put in each context
		turns                   int
		stopReason              = stopReasonTimeout
		exitTimer               <-chan time.Time
		runErr                  error
	)
	side := func(isAgent bool) string {
		if isAgent {
			return "agent"
		}
		return "user"
	}
	handle := func(ev sideEvent) error {
		if ev.err != nil {
			return fmt.Errorf("%s bot: %w", side(ev.agent), ev.err)
		}
		e := ev.e
		if ev.agent {
			agentClock.observe(e, ev.turn, ev.hasTurn)
		} else {
			userClock.observe(e, ev.turn, ev.hasTurn)
		}
		switch e.Kind {
		case bridge.KindMalformed:
			return fmt.Errorf("%s bot sent what cannot be read: %w", side(ev.agent), e.Err)
		case bridge.KindError:
			// A turn that failed (pipecat's ErrorFrame, rtviws' failed
			// turn) or text the bot refused: the scenario ends now, not at
			// its duration bound.
			return &botError{side: side(ev.agent), text: e.Error}
		case bridge.KindErrorResponse:
			// The bot refused a request of the run: the kickoff, a relayed
			// turn, a sync delta.
			return &botError{side: side(ev.agent), text: e.Error, request: e.ID}
		case bridge.KindActionApplied:
			if sh == nil || e.Action == nil {
				return nil
			}
			ad, ud, err := sh.replay(ctx, e.Action.Name, e.Action.Arguments)
			if err != nil {
				res.SyncErrors = append(res.SyncErrors, fmt.Sprintf("%s-side %v: %v", side(ev.agent), e.Action.Name, err))
				return nil
			}
			name, _ := e.Action.Name.(string)
			res.Syncs = append(res.Syncs, SyncRecord{Source: side(ev.agent), Action: name, AgentDelta: ad, UserDelta: ud})
			return pushDeltas(ctx, sc.Domain, agent, user, ad, ud, &agentDeltas, &userDeltas)
		case bridge.KindExit:
			if ev.agent && exitTimer == nil {
				stopReason = stopReasonExit
				exitTimer = time.After(max(settle, 0))
			}
		case bridge.KindStoppedSpeaking:
			if !ev.hasTurn {
				return nil
			}
			if exitTimer != nil {
				// The agent has hung up. In NeMo the settle is shorter than
				// a bot takes to hear, think and speak, so nothing said now
				// reaches the other side's context; a text bot answers at
				// once, so nothing is relayed.
				return nil
			}
			text := ev.turn
			turns++
			if text != bridge.Interrupted {
				sent := time.Now()
				if ev.agent {
					if err := user.SendText(ctx, text); err != nil {
						return fmt.Errorf("user bot: send-text: %w", err)
					}
					sentToUser++
					userClock.relayed(text, sent, false)
				} else {
					if err := agent.SendText(ctx, text); err != nil {
						return fmt.Errorf("agent bot: send-text: %w", err)
					}
					sentToAgent++
					agentClock.relayed(text, sent, false)
				}
			}
		}
		return nil
	}

loop:
	for {
		select {
		case <-ctx.Done():
			runErr = ctx.Err()
			break loop
		case <-kick.C:
			sent := time.Now()
			if err := agent.SendText(ctx, rtviwire.Kickoff); err != nil {
				runErr = fmt.Errorf("agent bot: kickoff: %w", err)
				break loop
			}
			sentToAgent++
			agentClock.relayed(rtviwire.Kickoff, sent, true)
		case <-q.signal:
			if err := q.err(); err != nil {
				runErr = err
				break loop
			}
			for _, ev := range q.drain() {
				if err := handle(ev); err != nil {
					runErr = err
					break loop
				}
				// Within a burst too: no turn past the limit is relayed.
				if o.MaxTurns > 0 && turns >= o.MaxTurns && exitTimer == nil {
					stopReason = stopReasonTurnLimit
					break loop
				}
			}
		case <-exitTimer:
			break loop
		case <-deadline.C:
			break loop
		case <-agent.Done():
			runErr = fmt.Errorf("agent bot closed the connection: %w", agent.Err())
			break loop
		case <-user.Done():
			runErr = fmt.Errorf("user bot closed the connection: %w", user.Err())
			break loop
		}
	}
	end := time.Now()
	agentRec.Finish(end)
	userRec.Finish(end)
	run := &Run{StopReason: stopReason, DurationSeconds: end.Sub(start).Seconds()}
	fillScenario(run, sc)
	// What happened is kept whichever way the run ended: turns, usage, the
	// agent's final responses, the runner's wall time.
	record := func() {
		run.Agent.Tokens, run.User.Tokens = tokensOfUsage(agentRec.Usage()), tokensOfUsage(userRec.Usage())
		run.calls = &runCalls{agent: agentCalls.list(), user: userCalls.list()}
		run.FinalResponses = agentRec.FinalResponses()
		agentTurns, userTurns := agentRec.Turns(), userRec.Turns()
		run.Turns = mergeTurns(agentTurns, userTurns)
		run.Segments = segments(start, agentTurns, userTurns)
		run.Latencies = agentClock.latencies()
		run.latency = &latencyDetail{agent: agentClock, user: userClock}
		run.ScenarioDuration = time.Since(wallStart).Seconds()
	}
	var be *botError
	switch {
	case runErr == nil:
	case errors.As(runErr, &be):
		// The bot is there and said what went wrong: pull what it has, as
		// after any other end, so the failed scenario keeps its context
		// and summary; a pull that fails now adds nothing.
		run.StopReason = stopReasonBotError
		for _, w := range []struct {
			side string
			c    *bridge.Conn
			s    *Side
		}{{"agent", agent, &run.Agent}, {"user", user, &run.User}} {
			if got, err := pull(ctx, w.c, w.side, len(sc.DBStateAssertions) > 0, -1, o.Budgets); err == nil {
				*w.s = got
			}
		}
		record()
		return run, runErr
	default:
		if ctx.Err() == nil {
			run.StopReason = stopReasonBotFailed
		}
		record()
		return run, runErr
	}

	includeDB := len(sc.DBStateAssertions) > 0
	if o.NoResetCheck {
		sentToAgent, sentToUser = -1, -1
	}
	limit := o.Bridge.RequestTimeout
	if limit <= 0 {
		limit = 15 * time.Second // bridge's default RequestTimeout
	}
	for _, w := range []struct {
		side string
		dt   *deltaTracker
		c    *bridge.Conn
	}{{"agent", &agentDeltas, agent}, {"user", &userDeltas, user}} {
		if !w.dt.settle(ctx, limit, w.c.Done()) {
			res.SyncErrors = append(res.SyncErrors, fmt.Sprintf("%s bot: %d of %d apply_sync_delta answered before the pull", w.side, w.dt.answered.Load(), w.dt.sent.Load()))
		}
	}
	var err2 error
	if run.Agent, err2 = pull(ctx, agent, "agent", includeDB, sentToAgent, o.Budgets); err2 != nil {
		record()
		return run, err2
	}
	if run.User, err2 = pull(ctx, user, "user", includeDB, sentToUser, o.Budgets); err2 != nil {
		record()
		return run, err2
	}
	// A malformed frame, or more events than the budget, that arrived
	// while pulling still fails the run.
	if err := q.err(); err != nil {
		record()
		return run, err
	}
	for _, ev := range q.drain() {
		if ev.e.Kind == bridge.KindMalformed {
			record()
			return run, fmt.Errorf("%s bot sent what cannot be read: %w", side(ev.agent), ev.e.Err)
		}
	}
	record()
	return run, nil
}

// botError is a bot's report that it failed (an RTVI error event) or its
// refusal of one of the run's requests (an error-response).
type botError struct {
	side, text, request string
}

func (e *botError) Error() string {
	if e.request != "" {
		return fmt.Sprintf("%s bot refused %s: %s", e.side, e.request, e.text)
	}
	return fmt.Sprintf("%s bot reported an error: %s", e.side, e.text)
}

// pull is the bridge's get_context_history then get_scenario_summary on one
// bot; a bot that does not answer either fails the scenario, as does an
// answer whose files would pass the FileBytes budget. sent < 0 skips the
// reset check.
func pull(ctx context.Context, c *bridge.Conn, side string, includeDB bool, sent int, b Budgets) (Side, error) {
	var s Side
	h, err := c.GetContextHistory(ctx)
	if err != nil {
		return s, fmt.Errorf("%s bot: get_context_history: %w", side, err)
	}
	if sent >= 0 {
		if err := checkFresh(h, sent); err != nil {
			return s, fmt.Errorf("%s bot: %w", side, err)
		}
	}
	if s.Context, err = h.JSON(b.FileBytes); err != nil {
		return s, fmt.Errorf("%s bot: context: llm_context.json (FileBytes %d): %w", side, b.FileBytes, err)
	}
	sum, err := c.GetScenarioSummary(ctx, includeDB)
	if err != nil {
		return s, fmt.Errorf("%s bot: get_scenario_summary: %w", side, err)
	}
	// pulled_summary.json and final_agent_response.json hold it indented.
	if _, err := indentedLen(sum.Reply, 2, b.FileBytes); err != nil {
		return s, fmt.Errorf("%s bot: get_scenario_summary: its files (FileBytes %d): %w", side, b.FileBytes, err)
	}
	s.Summary = &Summary{Actions: sum.Actions, DBHash: sum.DBHash}
	if db, ok := sum.DB.(map[string]any); ok {
		s.Summary.DB = db
	}
	return s, nil
}

// errNotReset is wrapped by the error of a bot whose context holds user
// messages the bridge did not send in this run: it kept a previous
// scenario's conversation. NeMo's bridge does not check; it would score a
// contaminated context.
var errNotReset = errors.New("context holds messages from before this run (the bot did not reset)")

// checkFresh checks that a pulled context holds at most the user messages
// the bridge sent this run (the kickoff and the relayed turns).
func checkFresh(h *bridge.History, sent int) error {
	v, err := h.Value()
	if err != nil {
		return fmt.Errorf("context: %w", err)
	}
	msgs, ok := v.([]any)
	if !ok {
		return fmt.Errorf("context: %w: not a list", bridge.ErrUnexpectedReply)
	}
	users := 0
	for _, m := range msgs {
		if d, ok := m.(map[string]any); ok && d["role"] == "user" {
			users++
		}
	}
	if users > sent {
		return fmt.Errorf("%w: %d user messages, %d sent", errNotReset, users, sent)
	}
	return nil
}

// mergeTurns is the metrics "turns" list: the turns a bot-stopped-speaking
// closed, both sides, in the order they ended.
func mergeTurns(agent, user []bridge.Turn) []Turn {
	type tt struct {
		t    bridge.Turn
		role string
	}
	var all []tt
	for _, t := range agent {
		if t.Stopped {
			all = append(all, tt{t, "agent"})
		}
	}
	for _, t := range user {
		if t.Stopped {
			all = append(all, tt{t, "user"})
		}
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].t.End.Before(all[j].t.End) })
	out := make([]Turn, len(all))
	for i, t := range all {
		out[i] = Turn{Timestamp: t.t.End.Format("2006-01-02T15:04:05.000000"), Role: t.role, Text: t.t.Text}
	}
	return out
}

// segments are the bridge's finalised segments (conversation_log.txt and
// its segLST): every turn either bot closed, however it was closed, in
// seconds from the run's start (_finalize_speaker_turn,
// _get_relative_time), sorted by start as _build_conversation_log sorts
// them.
func segments(start time.Time, agent, user []bridge.Turn) []Segment {
	out := make([]Segment, 0, len(agent)+len(user))
	for _, side := range []struct {
		name  string
		turns []bridge.Turn
	}{{"agent", agent}, {"user", user}} {
		for _, t := range side.turns {
			out = append(out, Segment{Start: t.Start.Sub(start).Seconds(), End: t.End.Sub(start).Seconds(), Speaker: side.name, Text: t.Text})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Start < out[j].Start })
	return out
}

// fillScenario sets what scoring reads of sc: the scenario without its
// setup.
func fillScenario(r *Run, sc *Scenario) {
	r.Scenario = *sc
	r.Scenario.MaxDuration, r.Scenario.AgentPrompt, r.Scenario.UserPrompt = 0, "", ""
	r.Scenario.AgentTools, r.Scenario.UserTools = "", ""
	r.Scenario.SharedStateInitAgent, r.Scenario.SharedStateInitUser, r.Scenario.InitializationActions = nil, nil, nil
}
