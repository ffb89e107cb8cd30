package harness

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/voiceeval/schematools/agent/agenttest"
	"github.com/voiceeval/schematools/domains"
	"github.com/voiceeval/schematools/domains/nemo/scenarios"
	"github.com/voiceeval/schematools/domains/tau2/telecom"
	"github.com/voiceeval/schematools/replay"
	"github.com/voiceeval/schematools/rtvi"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

// dataRoot lays out the evaluation data root once per test binary.
func dataRoot(t testing.TB) string {
	t.Helper()
	root := t.TempDir()
	if err := domains.WriteDataRoot(root); err != nil {
		t.Fatal(err)
	}
	return root
}

// goldCalls are the task's gold actions of one requestor ("assistant" for
// the agent, "user"), named as the model sees the tools.
func goldCalls(t *testing.T, domain, id string, user bool) []tool.ModelCall {
	t.Helper()
	d, err := domains.Find(domain)
	if err != nil {
		t.Fatal(err)
	}
	data, err := fs.ReadFile(d.Files, "tasks.json")
	if err != nil {
		t.Fatal(err)
	}
	tasks, err := replay.DecodeTasks(data)
	if err != nil {
		t.Fatal(err)
	}
	tools, err := d.Replay(replay.Env{Domain: domain, Agent: state.New(), User: state.New()})
	if err != nil {
		t.Fatal(err)
	}
	for _, task := range tasks {
		if task.ID != id {
			continue
		}
		var out []tool.ModelCall
		for _, a := range task.EvaluationCriteria.Actions {
			isUser := a.Requestor != nil && *a.Requestor == "user"
			if isUser != user {
				continue
			}
			args, _ := json.Marshal(a.Arguments)
			if a.Arguments == nil {
				args = []byte("{}")
			}
			out = append(out, tool.ModelCall{Name: tools[a.Name].Name(), Arguments: string(args)})
		}
		return out
	}
	t.Fatalf("%s has no task %q", domain, id)
	return nil
}

func scenario(t testing.TB, name string) *Scenario {
	t.Helper()
	sc, err := scenarios.Get(name)
	if err != nil {
		t.Fatal(err)
	}
	out := fromShipped(sc)
	return &out
}

func testOptions() SessionOptions {
	o := DefaultSessionOptions()
	o.KickoffDelay = -1
	o.ExitSettle = 50 * time.Millisecond
	o.MaxDuration = 5 * time.Second
	o.MaxTurns = 20
	o.Bridge.RequestTimeout = 5 * time.Second
	o.Bridge.HandshakeTimeout = 2 * time.Second
	return o
}

func runCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// userScript answers every agent turn with text.
func userScript() []agenttest.Turn {
	return []agenttest.Turn{{Text: "Yes, please go ahead."}}
}

func newUser(t testing.TB, root string) *testBot {
	b := newTestBot(t, root, userScript()...)
	b.model.Loop = true
	return b
}

// withWrites returns a task of domain whose gold has at least one write
// (one with more than one action is taken as such).
func TestSingleSideGoldScoresSuccessful(t *testing.T) {
	root := dataRoot(t)
	for _, tc := range []struct{ name, domain, id string }{
		{"tau2_airline__7", "tau2_airline", "7"},
		{"tau2_retail__1", "tau2_retail", "1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sc := scenario(t, tc.name)
			gold := goldCalls(t, tc.domain, tc.id, false)
			ag := newTestBot(t, root, agenttest.GoldTurns(gold, "EndConversationTool")...)
			us := newUser(t, root)
			res, err := RunScenario(runCtx(t), sc, ag.URL, us.URL, testOptions())
			if err != nil {
				t.Fatalf("%v (%+v)", err, res)
			}
			m := res.Result.Metrics
			if m.IsSuccessful != true || !m.DBStateMatch || !m.CleanExit {
				t.Fatalf("successful %v db %v exit %v stop %s syncerr %v", m.IsSuccessful, m.DBStateMatch, m.CleanExit, m.StopReason, res.SyncErrors)
			}
		})
	}
}

func TestBrokenVariants(t *testing.T) {
	root := dataRoot(t)
	sc := scenario(t, "tau2_airline__7")
	gold := goldCalls(t, "tau2_airline", "7", false)
	if len(gold) < 2 {
		t.Fatalf("task 7 has %d gold actions", len(gold))
	}
	// Drop the last write (the tools that change the DB are not Get*,
	// Search*, Find*, List*, Calculate or Think).
	dropped := append([]tool.ModelCall(nil), gold...)
	for i := len(dropped) - 1; i >= 0; i-- {
		n := dropped[i].Name
		if !strings.HasPrefix(n, "Get") && !strings.HasPrefix(n, "Search") && !strings.HasPrefix(n, "Find") && !strings.HasPrefix(n, "List") && !strings.HasPrefix(n, "Calculate") && !strings.HasPrefix(n, "Think") {
			dropped = append(dropped[:i], dropped[i+1:]...)
			break
		}
	}
	if len(dropped) == len(gold) {
		t.Fatalf("task 7's gold has no write: %v", gold)
	}
	for _, tc := range []struct {
		name   string
		script []agenttest.Turn
		turns  int
		check  func(t *testing.T, m *Metrics)
	}{
		{"write dropped", agenttest.GoldTurns(dropped, "EndConversationTool"), 4, func(t *testing.T, m *Metrics) {
			if m.DBStateMatch || m.IsSuccessful != false || !m.CleanExit {
				t.Errorf("db %v successful %v exit %v", m.DBStateMatch, m.IsSuccessful, m.CleanExit)
			}
		}},
		{"no end call", agenttest.GoldTurns(gold, ""), 4, func(t *testing.T, m *Metrics) {
			if !m.DBStateMatch || m.CleanExit || m.IsSuccessful != false {
				t.Errorf("db %v successful %v exit %v", m.DBStateMatch, m.IsSuccessful, m.CleanExit)
			}
		}},
		// Hello, the user's answer, the agent's second turn: two LLM calls.
		{"stalled agent", []agenttest.Turn{{Text: "One moment."}}, 3, func(t *testing.T, m *Metrics) {
			if !m.InsufficientAgentTurns || m.IsSuccessful != false {
				t.Errorf("insufficient %v successful %v (calls %d)", m.InsufficientAgentTurns, m.IsSuccessful, m.TokenUsage.Agent.NCalls)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ag := newTestBot(t, root, tc.script...)
			us := newUser(t, root)
			o := testOptions()
			o.MaxTurns = tc.turns
			res, err := RunScenario(runCtx(t), sc, ag.URL, us.URL, o)
			if err != nil {
				t.Fatal(err)
			}
			tc.check(t, res.Result.Metrics)
		})
	}
}

func TestFaultsFailTheScenario(t *testing.T) {
	root := dataRoot(t)
	sc := scenario(t, "tau2_airline__7")
	gold := goldCalls(t, "tau2_airline", "7", false)
	on := func(typ string) func(msg []byte) bool {
		return func(msg []byte) bool { return strings.Contains(string(msg), typ) }
	}
	hang := make(chan struct{})
	t.Cleanup(func() { close(hang) })
	for _, tc := range []struct {
		name   string
		status scenarioStatus
		want   string
		set    func(ag, us *testBot)
		opts   func(o *SessionOptions)
		// greet makes the agent speak a turn before its gold calls, so
		// the user bot gets text to answer.
		greet bool
	}{
		{"init refused", statusAborted, "no db", func(ag, _ *testBot) {
			ag.hook = func(ws *websocket.Conn, msg []byte) bool {
				if !on("apply_initialization")(msg) {
					return false
				}
				f, _ := rtvi.DecodeFrame(msg)
				var m struct{ ID string }
				_ = json.Unmarshal([]byte(f.Message.Data), &m)
				ag.write(context.Background(), rtvi.MessageFrameBytes([]byte(`{"label": "rtvi-ai", "type": "server-response", "id": "`+m.ID+`", "data": {"t": "apply_initialization", "d": {"success": false, "errors": ["no db"]}}}`)))
				return true
			}
		}, nil, false},
		{"init unanswered", statusAborted, "Timeout", func(_, us *testBot) {
			us.hook = func(_ *websocket.Conn, msg []byte) bool { return on("apply_initialization")(msg) }
		}, nil, false},
		{"agent crashes mid-run", statusFailed, "agent bot closed the connection", func(ag, _ *testBot) {
			ag.hook = func(ws *websocket.Conn, msg []byte) bool {
				if on("send-text")(msg) {
					ws.CloseNow()
					return true
				}
				return false
			}
		}, nil, false},
		{"user closes the socket", statusFailed, "user bot closed the connection", func(_, us *testBot) {
			us.hook = func(ws *websocket.Conn, msg []byte) bool {
				if on("send-text")(msg) {
					_ = ws.Close(websocket.StatusNormalClosure, "bye")
					return true
				}
				return false
			}
		}, nil, true},
		{"malformed frame", statusFailed, "cannot be read", func(ag, _ *testBot) {
			ag.hook = func(_ *websocket.Conn, msg []byte) bool {
				if on("send-text")(msg) {
					ag.write(context.Background(), []byte{0xff, 0x01, 0x02})
				}
				return false
			}
		}, nil, false},
		{"malformed message", statusFailed, "cannot be read", func(ag, _ *testBot) {
			ag.hook = func(_ *websocket.Conn, msg []byte) bool {
				if on("send-text")(msg) {
					ag.write(context.Background(), rtvi.MessageFrameBytes([]byte(`{"label": "rtvi-ai", "type": "bot-tts-text", "data": [1]}`)))
				}
				return false
			}
		}, nil, false},
		{"never answers the pull", statusFailed, "get_context_history", func(ag, _ *testBot) {
			ag.hook = func(_ *websocket.Conn, msg []byte) bool { return on("get_context_history")(msg) }
		}, nil, false},
		{"user never answers the summary", statusFailed, "user bot: get_scenario_summary", func(_, us *testBot) {
			us.hook = func(_ *websocket.Conn, msg []byte) bool { return on("get_scenario_summary")(msg) }
		}, nil, false},
		{"hangs mid-run", statusFailed, "agent bot: get_context_history", func(ag, _ *testBot) {
			ag.hook = func(_ *websocket.Conn, msg []byte) bool {
				if on("send-text")(msg) {
					<-hang // the bot's read loop stops: nothing more is answered
				}
				return false
			}
		}, func(o *SessionOptions) { o.MaxDuration = 200 * time.Millisecond }, false},
		{"hangs at the handshake", statusFailed, "agent bot", func(ag, _ *testBot) {
			ag.hook = func(_ *websocket.Conn, msg []byte) bool { return on("client-ready")(msg) }
		}, nil, false},
		// A bot that reports its turn failed, or refuses a request of the
		// run, ends the scenario at once (the duration bound is an hour).
		// Failed before: the error was ignored and the run waited out its
		// duration, then scored [TIMEOUT].
		{"agent reports an error", statusFailed, "agent bot reported an error: the bot's turn failed: model: 500", func(ag, _ *testBot) {
			ag.hook = func(_ *websocket.Conn, msg []byte) bool {
				if on("send-text")(msg) {
					ag.write(context.Background(), rtvi.MessageFrameBytes([]byte(`{"label": "rtvi-ai", "type": "error", "data": {"error": "the bot's turn failed: model: 500", "fatal": false}}`)))
					return true
				}
				return false
			}
		}, func(o *SessionOptions) { o.MaxDuration = time.Hour }, false},
		{"user refuses a relayed turn", statusFailed, "user bot refused send_text_", func(_, us *testBot) {
			us.hook = func(_ *websocket.Conn, msg []byte) bool {
				if on("send-text")(msg) {
					f, _ := rtvi.DecodeFrame(msg)
					var m struct{ ID string }
					_ = json.Unmarshal([]byte(f.Message.Data), &m)
					us.write(context.Background(), rtvi.MessageFrameBytes([]byte(`{"label": "rtvi-ai", "type": "error-response", "id": "`+m.ID+`", "data": {"error": "scenario 9 is in progress on another connection"}}`)))
					return true
				}
				return false
			}
		}, func(o *SessionOptions) { o.MaxDuration = time.Hour }, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			script := agenttest.GoldTurns(gold, "EndConversationTool")
			if tc.greet {
				script = append([]agenttest.Turn{{Text: "How can I help you?"}}, script...)
			}
			ag := newTestBot(t, root, script...)
			us := newUser(t, root)
			tc.set(ag, us)
			o := testOptions()
			// Long enough for apply_initialization to load a DB under -race
			// on a loaded machine; the pull faults wait it out.
			o.Bridge.RequestTimeout, o.Bridge.HandshakeTimeout = 3*time.Second, time.Second
			if tc.opts != nil {
				tc.opts(&o)
			}
			res, err := RunScenario(runCtx(t), sc, ag.URL, us.URL, o)
			if err == nil || res == nil || res.status != tc.status || !strings.Contains(res.Reason, tc.want) {
				t.Fatalf("err %v, result %+v", err, res)
			}
			want := ErrBotFailed
			if tc.status == statusAborted {
				want = ErrAborted
			}
			if !errors.Is(err, want) {
				t.Fatalf("error %v does not wrap %v", err, want)
			}
			if res.Result != nil || (tc.status == statusAborted && res.Run != nil) {
				t.Fatalf("result %+v", res)
			}
			// Written as failed, with the reason in its metrics.
			run, err := failedRun(sc, res)
			if err != nil {
				t.Fatal(err)
			}
			scored, err := Score(context.Background(), run, o.Score)
			if err != nil {
				t.Fatal(err)
			}
			if m := scored.Metrics; m.IsSuccessful != false || !strings.Contains(m.HarnessError, tc.want) {
				t.Fatalf("metrics: successful %v harness_error %q", m.IsSuccessful, m.HarnessError)
			}
			// The stop reason says how: our own for a bot's failure during
			// the run, the bridge's when the run had stopped first.
			wantStop := map[string]string{
				"agent reports an error": stopReasonBotError, "user refuses a relayed turn": stopReasonBotError,
				"agent crashes mid-run": stopReasonBotFailed, "user closes the socket": stopReasonBotFailed,
				"malformed frame": stopReasonBotFailed, "malformed message": stopReasonBotFailed,
				"hangs mid-run": stopReasonTimeout, "init refused": stopReasonAborted, "init unanswered": stopReasonAborted,
			}[tc.name]
			if wantStop != "" && scored.Metrics.StopReason != wantStop {
				t.Fatalf("stop reason %s, want %s", scored.Metrics.StopReason, wantStop)
			}
		})
	}
}

// A silent agent runs into the duration bound: scored, not failed.
func TestDurationBound(t *testing.T) {
	root := dataRoot(t)
	ag := newTestBot(t, root)
	ag.silent = true
	us := newUser(t, root)
	o := testOptions()
	o.MaxDuration = 200 * time.Millisecond
	res, err := RunScenario(runCtx(t), scenario(t, "tau2_airline__7"), ag.URL, us.URL, o)
	if err != nil {
		t.Fatal(err)
	}
	if m := res.Result.Metrics; m.StopReason != stopReasonTimeout || m.CleanExit || m.IsSuccessful != false {
		t.Fatalf("stop %s exit %v successful %v", m.StopReason, m.CleanExit, m.IsSuccessful)
	}
}

// Scenarios run one after the other on the same bots leave nothing behind:
// each is prepared from scratch and scored on its own.
func TestScenariosInSequence(t *testing.T) {
	root := dataRoot(t)
	var script []agenttest.Turn
	cases := []struct{ name, domain, id string }{
		{"tau2_airline__7", "tau2_airline", "7"},
		{"tau2_retail__1", "tau2_retail", "1"},
		{"tau2_airline__11", "tau2_airline", "11"},
	}
	for _, c := range cases {
		script = append(script, agenttest.GoldTurns(goldCalls(t, c.domain, c.id, false), "EndConversationTool")...)
	}
	ag := newTestBot(t, root, script...)
	us := newUser(t, root)
	for _, c := range cases {
		res, err := RunScenario(runCtx(t), scenario(t, c.name), ag.URL, us.URL, testOptions())
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if m := res.Result.Metrics; m.IsSuccessful != true {
			t.Fatalf("%s: db %v exit %v", c.name, m.DBStateMatch, m.CleanExit)
		}
	}
}

func TestBotThatDidNotResetFails(t *testing.T) {
	root := dataRoot(t)
	sc := scenario(t, "tau2_airline__7")
	gold := goldCalls(t, "tau2_airline", "7", false)
	script := agenttest.GoldTurns(gold, "EndConversationTool")
	ag := newTestBot(t, root, append(script, script...)...)
	ag.noReset = true
	us := newUser(t, root)
	if _, err := RunScenario(runCtx(t), sc, ag.URL, us.URL, testOptions()); err != nil {
		t.Fatalf("first scenario: %v", err)
	}
	res, err := RunScenario(runCtx(t), sc, ag.URL, us.URL, testOptions())
	if !errors.Is(err, errNotReset) || res.status != statusFailed {
		t.Fatalf("second scenario: %v (%+v)", err, res)
	}
}

// telecomShadow is the bridge's shadow-DB config for tau2 telecom.
func telecomShadow(t *testing.T) *Reference {
	t.Helper()
	d, err := domains.Find("tau2_telecom")
	if err != nil {
		t.Fatal(err)
	}
	agentDB, err := state.LoadSourceFS(d.Files, d.DB)
	if err != nil {
		t.Fatal(err)
	}
	userDB, err := state.LoadSourceFS(d.Files, d.UserDB)
	if err != nil {
		t.Fatal(err)
	}
	return &Reference{Hooks: telecom.Hooks(), Tools: telecom.Tools, AgentDB: agentDB, UserDB: userDB}
}

// The telecom task's agent refuels data on the agent side (action-applied
// from the agent: the user's mobile_data_usage_exceeded is cleared by the
// sync) and the user toggles roaming with a phone tool (action-applied from
// the user); the assertions read both DBs.
func TestTelecomDualSide(t *testing.T) {
	root := dataRoot(t)
	const name = "tau2_telecom__mobile_data_issue__data_usage_exceeded__user_abroad_roaming_enabled_off__easy"
	const id = "[mobile_data_issue]data_usage_exceeded|user_abroad_roaming_enabled_off[PERSONA:Easy]"
	sc := scenario(t, name)
	agentGold, userGold := goldCalls(t, "tau2_telecom", id, false), goldCalls(t, "tau2_telecom", id, true)
	if len(agentGold) == 0 || len(userGold) == 0 {
		t.Fatalf("gold: agent %v user %v", agentGold, userGold)
	}
	for _, tc := range []struct {
		name   string
		shadow bool
		pass   bool
		// slowDelta makes the user bot answer apply_sync_delta late, so
		// that, unwaited, its answer would be taken for the pull's.
		slowDelta bool
	}{
		{"synced", true, true, false},
		{"late delta answer", true, true, true},
		// Without the bridge's sync the user's phone never learns of the
		// refuel: its mobile data stays off and an assertion fails.
		{"no sync", false, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			agentScript := append([]agenttest.Turn{{Text: "How can I help you today?"}}, agenttest.GoldTurns(agentGold, "EndConversationTool")...)
			ag := newTestBot(t, root, agentScript...)
			// The user's first answer performs its gold actions on the phone.
			us := newTestBot(t, root, agenttest.GoldTurns(userGold, "")...)
			us.model.Loop = true
			if tc.slowDelta {
				us.hook = func(_ *websocket.Conn, msg []byte) bool {
					if strings.Contains(string(msg), "apply_sync_delta") {
						time.Sleep(150 * time.Millisecond)
					}
					return false
				}
			}
			o := testOptions()
			o.Score.Predicates = opts().Predicates
			if tc.shadow {
				o.Shadow = telecomShadow(t)
			}
			res, err := RunScenario(runCtx(t), sc, ag.URL, us.URL, o)
			if err != nil {
				t.Fatal(err)
			}
			m := res.Result.Metrics
			if !m.CleanExit || m.DBStateAssertionPassRate == nil {
				t.Fatalf("exit %v rate %v", m.CleanExit, m.DBStateAssertionPassRate)
			}
			if got := *m.DBStateAssertionPassRate == 1; got != tc.pass || (m.IsSuccessful == true) != tc.pass {
				t.Fatalf("pass rate %v successful %v (verdicts %v, sync errors %v)", *m.DBStateAssertionPassRate, m.IsSuccessful, m.dbStateAssertionVerdicts, res.SyncErrors)
			}
			if len(res.SyncErrors) > 0 {
				t.Fatalf("sync errors: %v", res.SyncErrors)
			}
			var userCtx []any
			if err := json.Unmarshal(res.Run.User.Context, &userCtx); err != nil || len(userCtx) < 2 {
				t.Fatalf("user context %s (%v)", res.Run.User.Context, err)
			}
			if !tc.pass && !strings.Contains(fmt.Sprint(m.dbStateAssertionVerdicts[0]), "{func_name assert_mobile_data_status} {side user} {passed false}") {
				t.Fatalf("unexpected failure: %v", m.dbStateAssertionVerdicts)
			}
			if !tc.shadow {
				return
			}
			// The initial sync (data over the limit), then one sync per
			// action-applied, from each side.
			sources := map[string]int{}
			for _, s := range res.Syncs {
				sources[s.Source+"/"+s.Action]++
			}
			want := map[string]int{"/": 1, "agent/" + agentGold[0].Name: 1, "user/" + userGold[0].Name: 1}
			if fmt.Sprint(sources) != fmt.Sprint(want) {
				t.Fatalf("syncs %v, want %v (%+v)", sources, want, res.Syncs)
			}
			// The user toggles roaming first (its first answer), then the
			// agent refuels: that sync clears the user's exceeded flag.
			last := res.Syncs[len(res.Syncs)-1]
			if len(res.Syncs[0].UserDelta) == 0 || last.Source != "agent" || last.UserDelta["surroundings.mobile_data_usage_exceeded"] != false {
				t.Fatalf("the initial sync and the refuel's change the user side: %+v", res.Syncs)
			}
		})
	}
}

// A bot that answers the handshake and then nothing costs its scenario at
// most MaxDuration + ScenarioGrace, not the sum of every wait's own bound
// (handshakes, 15 s per initialisation, pulls): the scenario fails with
// that reason. Failed before: apply_initialization alone waited its 15 s
// per bot.
func TestStallingBotIsBoundedByTheScenario(t *testing.T) {
	root := dataRoot(t)
	ag := newTestBot(t, root)
	ag.hook = func(_ *websocket.Conn, msg []byte) bool { return !strings.Contains(string(msg), "client-ready") }
	us := newUser(t, root)
	o := testOptions()
	o.MaxDuration = time.Second
	o.Bridge.RequestTimeout = time.Minute
	start := time.Now()
	res, err := RunScenario(runCtx(t), scenario(t, "tau2_airline__7"), ag.URL, us.URL, o)
	took := time.Since(start)
	if !errors.Is(err, ErrBotFailed) || res.status != statusFailed || !strings.Contains(res.Reason, "ran past its duration bound and grace (1s + 8s)") {
		t.Fatalf("err %v, result %+v", err, res)
	}
	if limit := o.MaxDuration + scenarioGrace + 2*time.Second; took > limit {
		t.Fatalf("took %v, past %v", took, limit)
	}
}

// The turn limit holds within a burst: an agent that speaks 50 turns at
// once gets 20 relayed at most (MaxTurns 20), and the run stops at the
// limit. Failed before: the limit was checked once per batch of events,
// so the whole burst was relayed.
func TestTurnLimitHoldsWithinABurst(t *testing.T) {
	root := dataRoot(t)
	ag, us := newTestBot(t, root), newUser(t, root)
	ag.hook = func(ws *websocket.Conn, msg []byte) bool {
		if !strings.Contains(string(msg), "send-text") {
			return false
		}

		for range 50 {
			for _, m := range []string{`{"label": "rtvi-ai", "type": "bot-started-speaking"}`, `{"label": "rtvi-ai", "type": "bot-tts-text", "data": {"text": "Mm."}}`, `{"label": "rtvi-ai", "type": "bot-stopped-speaking"}`} {
				_ = ws.Write(context.Background(), websocket.MessageBinary, rtvi.MessageFrameBytes([]byte(m)))
			}
		}

		return true
	}
	var relayed atomic.Int32
	us.hook = func(_ *websocket.Conn, msg []byte) bool {
		if strings.Contains(string(msg), "send-text") {
			relayed.Add(1)
			return true
		}
		return false
	}
	o := testOptions() // MaxTurns 20
	res, err := RunScenario(runCtx(t), scenario(t, "tau2_airline__7"), ag.URL, us.URL, o)
	if err != nil {
		t.Fatal(err)
	}
	if res.Run.StopReason != stopReasonTurnLimit || relayed.Load() > int32(o.MaxTurns) {
		t.Fatalf("stop reason %s, %d turns relayed (limit %d)", res.Run.StopReason, relayed.Load(), o.MaxTurns)
	}
}
