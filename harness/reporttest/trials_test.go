package reporttest

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/voiceeval/schematools/agent"
	"github.com/voiceeval/schematools/agent/agenttest"
	"github.com/voiceeval/schematools/dbhash"
	"github.com/voiceeval/schematools/harness"
	"github.com/voiceeval/schematools/registry"
	"github.com/voiceeval/schematools/rtvi"
	"github.com/voiceeval/schematools/rtvi/rtviws"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

// The notes domain of harness's examples: a DB {"notes": {id: text}}
// and add_note.
var notesDB = tool.DB{
	NotLoaded: tool.Failure("db_not_initialized", "the notes DB is not loaded"),
	Recorder:  tool.Recorder{ActionTypes: []string{"add_note"}},
}

type addNoteParams struct {
	Text string `json:"text" jsonschema_description:"The note." validate:"min=1"`
}

// serveBot serves an RTVI bot on model with add_note over a loopback
// WebSocket.
func serveBot(t *testing.T, model agent.Model) string {
	t.Helper()
	logger := slog.New(slog.DiscardHandler)
	reg := &registry.Tools{Logger: logger}
	err := errors.Join(registry.RegisterHarness(reg), reg.Register("notes", "add_note", registry.Plain(func(d registry.Deps) (tool.Tool, error) {
		return tool.New("add_note", "Add a note.", func(ctx context.Context, st *state.Shared, p addNoteParams) (any, error) {
			return notesDB.Write(ctx, st, []string{"notes"}, func(db map[string]any) (any, state.Action, error) {
				notes, _ := db["notes"].(map[string]any)
				id := fmt.Sprintf("N%d", len(notes)+1)
				notes[id] = p.Text
				return map[string]any{"id": id, "echo": p.Text}, state.NewAction("add_note", map[string]any{"text": p.Text}, map[string]any{"id": id}), nil
			})
		}, &tool.Options{State: d.State})
	})))
	if err != nil {
		t.Fatal(err)
	}
	brain := &rtviws.AgentBrain{Model: model, Logger: logger}
	srv, err := rtviws.New(rtviws.Config{Dispatcher: brain.Wire(rtvi.Config{State: state.New(), Tools: reg, Logger: logger}), Brain: brain, Logger: logger})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := rtviws.ListenLoopback("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 5 * time.Second}
	go hs.Serve(ln) //nolint:errcheck // ends with Close
	t.Cleanup(func() { srv.CloseConnections(); hs.Close() })
	return "ws://" + ln.Addr().String()
}

// hostileNote is what the agent notes in a failing run: markup a report
// must show as text.
const hostileNote = `buy <img src=x onerror="window.__alerted=1"> bread`

// trialRun evaluates notes__1 (passes trials 1 and 3, fails 2: flaky),
// notes__2 (passes every trial) and notes__3 (fails every trial) over 3
// trials with scripted in-process bots, and returns the run directory.
func trialRun(t *testing.T) string {
	t.Helper()
	fails := map[string]bool{"notes__1#2": true, "notes__3#1": true, "notes__3#2": true, "notes__3#3": true}
	agentModel := &agenttest.Model{Fallback: agent.Response{Text: "Goodbye.", FinishReason: "stop"}}
	userModel := &agenttest.Model{Fallback: agent.Response{Text: "Please note: buy milk.", FinishReason: "stop"}}
	bots := harness.BotPair{AgentURL: serveBot(t, agentModel), UserURL: serveBot(t, userModel),
		Prepare: func(_ context.Context, sc *harness.Scenario, trial int) error {
			note := "buy milk"
			if fails[fmt.Sprintf("%s#%d", sc.Name, trial)] {
				note = hostileNote
			}
			agentModel.Arm([]agenttest.Turn{
				{Calls: []tool.ModelCall{{ID: "c1", Name: "add_note", Arguments: fmt.Sprintf(`{"text": %q}`, note)}}},
				{Text: "Noted. Goodbye!", Calls: []tool.ModelCall{{ID: "c2", Name: "EndConversationTool", Arguments: `{}`}}},
			}, false)
			return nil
		}}
	want, err := dbhash.Hash(map[string]any{"notes": map[string]any{"N1": "buy milk"}})
	if err != nil {
		t.Fatal(err)
	}
	var queue []*harness.Scenario
	for _, name := range []string{"notes__1", "notes__2", "notes__3"} {
		queue = append(queue, &harness.Scenario{
			Name: name, Domain: "notes", SuccessSignals: []string{"db_state_match"}, ExpectedDBHash: want,
			MaxDuration: 30, AgentPrompt: "You keep the user's notes.", UserPrompt: "Ask the agent to note: buy milk.",
			AgentTools: `{"add_note": {}, "EndConversationTool": {}}`, UserTools: `{}`,
			SharedStateInitAgent: map[string]any{"db": map[string]any{"notes": map[string]any{}}},
		})
	}
	o := harness.EvaluateOptions{OutputDir: t.TempDir(), Bots: []harness.BotPair{bots}, Session: harness.DefaultSessionOptions(), Trials: 3}
	o.Session.KickoffDelay, o.Session.ExitSettle = -1, 50*time.Millisecond
	o.Session.Score.MinAgentTurns = 0
	prices, err := harness.ParsePrices([]byte(`{"agent-m": {"input": 2, "output": 8}, "user-m": {"input": 1, "output": 4}}`))
	if err != nil {
		t.Fatal(err)
	}
	o.Session.Score.Prices, o.Session.Score.AgentModel, o.Session.Score.UserModel = prices, "agent-m", "user-m"
	ev, err := harness.Evaluate(context.Background(), queue, o)
	if err != nil {
		t.Fatal(err)
	}
	if ev.Trials != 3 || ev.NotSuccessful != 4 {
		t.Fatalf("evaluation %+v, want 3 trials and 4 failed runs", *ev)
	}
	return ev.Dir
}

// The report of a run of several trials and a trial's report, in
// Chromium: the statistics, the failed-only filter leaves the flaky and
// the failed scenarios with their trajectories (tool calls, results,
// hostile text as text) and hides the passing one; flaky-only leaves the
// flaky one; a trial mark leads to that trial's section, its trajectory
// open.
func TestTrialReportInChromium(t *testing.T) {
	dir := trialRun(t)
	b := newBrowser(t)
	top := "file://" + filepath.Join(dir, "report.html")
	b.do(chromedp.Navigate(top), chromedp.WaitVisible(chromedp.CSS("#stats")))

	stats := b.text("#stats tbody")
	cost := b.text("#cost tbody")
	row := func(name string) string { return `#trial-scenarios tr[data-scenario="` + name + `"]` }
	sec := func(name string) string { return `section[data-scenario="` + name + `"]` }
	if !b.visible(row("notes__2")) || !b.visible(row("notes__1")) {
		t.Error("the scenario table does not show every scenario before filtering")
	}
	if b.visible(sec("notes__3") + " li.call") {
		t.Error("a trajectory is open before it is asked for")
	}
	b.do(chromedp.Click(chromedp.CSS("#failed-only")))
	failedOnly := map[string]bool{
		"passing row": b.visible(row("notes__2")), "flaky row": b.visible(row("notes__1")), "failed row": b.visible(row("notes__3")),
		"flaky section": b.visible(sec("notes__1")), "failed section": b.visible(sec("notes__3")),
	}
	// Open the failing scenarios' trajectories.
	for _, name := range []string{"notes__1", "notes__3"} {
		b.do(chromedp.Click(chromedp.CSS(sec(name) + " details.trajectory > summary")))
	}
	callsVisible := b.visible(sec("notes__3")+" li.call") && b.visible(sec("notes__1")+" li.call")
	trajectory := b.text(sec("notes__3") + " details.trajectory")
	b.screenshot("harness-trials-report.png")
	b.do(chromedp.Click(chromedp.CSS("#flaky-only")))
	flakyOnly := map[string]bool{"flaky section": b.visible(sec("notes__1")), "failed section": b.visible(sec("notes__3")), "passing row": b.visible(row("notes__2"))}

	// notes__1's trial 2 mark: that trial's report, at notes__1, its
	// trajectory opened.
	b.do(chromedp.Click(chromedp.CSS(row("notes__1")+` a[title="trial 2: fail"]`)), chromedp.WaitVisible(chromedp.CSS("#domains")))
	landed := b.location()
	landedCalls := b.visible(sec("notes__1") + " li.call")

	// trial_1's own report: failed-only hides notes__1 and notes__2 (both
	// passed trial 1) and leaves notes__3, whose trajectory shows its calls.
	b.do(chromedp.Navigate("file://"+filepath.Join(dir, "trial_1", "report.html")), chromedp.WaitVisible(chromedp.CSS("#domains")))
	b.do(chromedp.Click(chromedp.CSS("#failed-only")), chromedp.Click(chromedp.CSS(sec("notes__3")+" details.trajectory > summary")))
	trialOnly := map[string]bool{"notes__1": b.visible(sec("notes__1")), "notes__2": b.visible(sec("notes__2")), "notes__3": b.visible(sec("notes__3"))}
	trialCost := b.text("#cost tbody")
	trialCalls := b.text(sec("notes__3") + " details.trajectory")
	b.screenshot("harness-trial-report.png")
	alerted := b.eval(`typeof window.__alerted !== "undefined"`)
	if problems := b.close(); len(problems) > 0 {
		t.Errorf("console errors or exceptions: %v", problems)
	}

	// The cost: each trial's and their sum on the top report, the run's
	// and its domain's on a trial's (agent-m and user-m, priced).
	for _, want := range []string{"All trials\t9\t", "trial 1\t3\t", "trial 3\t3\t", "agent-m"} {
		if !strings.Contains(cost, want) {
			t.Errorf("the trials report's cost table lacks %q:\n%s", want, cost)
		}
	}
	for _, want := range []string{"Run\t3\t", "notes\t3\t", "agent-m", "user-m"} {
		if !strings.Contains(trialCost, want) {
			t.Errorf("trial_1's cost table lacks %q:\n%s", want, trialCost)
		}
	}
	for _, want := range []string{"Overall\t3\t9\t5\t0.556 [", "notes\t3\t9\t5\t", "33.3%"} {
		if !strings.Contains(stats, want) {
			t.Errorf("statistics lack %q:\n%s", want, stats)
		}
	}
	for what, want := range map[string]bool{"passing row": false, "flaky row": true, "failed row": true, "flaky section": true, "failed section": true} {
		if failedOnly[what] != want {
			t.Errorf("failed-only: %s visible %v, want %v", what, failedOnly[what], want)
		}
	}
	if !callsVisible {
		t.Error("the failing scenarios' tool calls are not visible")
	}
	// the note as the arguments' JSON text holds it
	hostileJSON := strings.ReplaceAll(hostileNote, `"`, `\"`)
	for _, want := range []string{"add_note", hostileJSON, `"echo"`, "EndConversationTool", "Noted. Goodbye!"} {
		if !strings.Contains(trajectory, want) {
			t.Errorf("notes__3's trajectory lacks %q:\n%s", want, trajectory)
		}
	}
	for what, want := range map[string]bool{"flaky section": true, "failed section": false, "passing row": false} {
		if flakyOnly[what] != want {
			t.Errorf("flaky-only: %s visible %v, want %v", what, flakyOnly[what], want)
		}
	}
	if !strings.HasSuffix(landed, "/trial_2/report.html#notes__1") || !landedCalls {
		t.Errorf("the trial 2 mark led to %s, tool calls visible %v", landed, landedCalls)
	}
	for name, want := range map[string]bool{"notes__1": false, "notes__2": false, "notes__3": true} {
		if trialOnly[name] != want {
			t.Errorf("trial_1 failed-only: %s visible %v, want %v", name, trialOnly[name], want)
		}
	}
	if !strings.Contains(trialCalls, "add_note") || !strings.Contains(trialCalls, hostileJSON) {
		t.Errorf("trial_1's notes__3 trajectory: %q", trialCalls)
	}
	if alerted {
		t.Error("a bot's markup ran in the report")
	}
}
