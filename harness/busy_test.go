package harness_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/voiceeval/schematools/agent"
	"github.com/voiceeval/schematools/agent/agenttest"
	"github.com/voiceeval/schematools/harness"
	"github.com/voiceeval/schematools/rtvi/bridge"
	"github.com/voiceeval/schematools/rtvi/rtviws"
	"github.com/voiceeval/schematools/tool"
)

// poolPair serves one bot pair over rtviws servers with timeouts; its
// agent notes "buy milk" and ends the call. ran gets each scenario the
// pair is prepared for, in order.
type poolPair struct {
	harness.BotPair
	mu  sync.Mutex
	ran []string
}

func newPoolPair(t *testing.T, agentTimeouts, userTimeouts rtviws.Timeouts) *poolPair {
	t.Helper()
	agentModel := &agenttest.Model{Fallback: agent.Response{Text: "Goodbye.", FinishReason: "stop"}}
	userModel := &agenttest.Model{Fallback: agent.Response{Text: "Please note: buy milk.", FinishReason: "stop"}}
	p := &poolPair{}
	for _, b := range []struct {
		model    agent.Model
		timeouts rtviws.Timeouts
		url      *string
	}{{agentModel, agentTimeouts, &p.AgentURL}, {userModel, userTimeouts, &p.UserURL}} {
		url, stop, err := serveBotTimeouts(b.model, b.timeouts)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(stop)
		*b.url = url
	}
	p.Prepare = func(_ context.Context, sc *harness.Scenario, _ int) error {
		p.mu.Lock()
		p.ran = append(p.ran, sc.Name)
		p.mu.Unlock()
		agentModel.Arm([]agenttest.Turn{
			{Calls: []tool.ModelCall{{ID: "c1", Name: "add_note", Arguments: `{"text": "buy milk"}`}}},
			{Text: "Noted. Goodbye!", Calls: []tool.ModelCall{{ID: "c2", Name: "EndConversationTool", Arguments: `{}`}}},
		}, false)
		return nil
	}
	return p
}

func (p *poolPair) runs() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.ran)
}

// holdBusy keeps the bot at url busy, as another harness running a
// scenario on it does: a connection that prepared a scenario and stays
// open, until the test ends.
func holdBusy(t *testing.T, url string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := bridge.Dial(ctx, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	// The bot is this connection's from the moment it admits the
	// message; the answer says it did.
	if err := c.ApplyInitialization(ctx, bridge.Init{Side: "agent", Domain: notesDomain,
		SharedStateInit: map[string]any{"db": map[string]any{"notes": map[string]any{}}}}); err != nil {
		t.Fatal(err)
	}
}

// poolTimeouts: a busy bot refuses soon (its grace), and a user bot left
// prepared by a refused attempt takes the next scenario soon (its
// reservation lapses).
var poolTimeouts = rtviws.Timeouts{Grace: 20 * time.Millisecond, RunWait: 100 * time.Millisecond}

func poolOptions(out string, pairs ...*poolPair) (harness.EvaluateOptions, *bytes.Buffer) {
	o := harness.EvaluateOptions{OutputDir: out, Session: harness.DefaultSessionOptions()}
	for _, p := range pairs {
		o.Bots = append(o.Bots, p.BotPair)
	}
	o.Session.KickoffDelay, o.Session.ExitSettle = -1, 50*time.Millisecond
	o.Session.Score.MinAgentTurns = 0
	progress := &bytes.Buffer{}
	o.Progress = progress
	return o, progress
}

// progressLines are the lines Evaluate wrote to its Progress (its
// writes are serialised, and done when it returns).
func progressLines(b *bytes.Buffer) []string {
	return strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
}

// A pool of two pairs whose first agent bot is busy with another
// connection's scenario throughout: every run it is given is refused
// (the progress says "busy, retried"), goes back to the queue and runs
// on the free pair, where every scenario succeeds; nothing is written
// twice and the counts are the queue's.
func TestBusyBotIsRetriedOnAnotherPair(t *testing.T) {
	busy := newPoolPair(t, poolTimeouts, poolTimeouts)
	free := newPoolPair(t, rtviws.Timeouts{}, rtviws.Timeouts{})
	holdBusy(t, busy.AgentURL)
	// The free pair starts its first run only once the busy one took a
	// run: the busy pair is refused at least once, however the workers
	// are scheduled.
	tried := make(chan struct{})
	var once sync.Once
	busyPrepare, freePrepare := busy.Prepare, free.Prepare
	busy.Prepare = func(ctx context.Context, sc *harness.Scenario, trial int) error {
		once.Do(func() { close(tried) })
		return busyPrepare(ctx, sc, trial)
	}
	free.Prepare = func(ctx context.Context, sc *harness.Scenario, trial int) error {
		select {
		case <-tried:
		case <-ctx.Done():
			return ctx.Err()
		}
		return freePrepare(ctx, sc, trial)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	queue := []*harness.Scenario{notesScenario(t, "notes__1"), notesScenario(t, "notes__2"), notesScenario(t, "notes__3")}
	o, progress := poolOptions(t.TempDir(), busy, free)
	ev, err := harness.Evaluate(ctx, queue, o)
	if err != nil {
		t.Fatal(err)
	}
	if ev.NotSuccessful != 0 || ev.Scenarios != 3 {
		t.Errorf("Evaluation %+v, want 3 scenarios, all successful\n%s", *ev, strings.Join(progressLines(progress), "\n"))
	}
	ran := free.runs()
	slices.Sort(ran)
	if want := []string{"notes__1", "notes__2", "notes__3"}; !slices.Equal(ran, want) {
		t.Errorf("the free pair ran %v, want each scenario once: %v", ran, want)
	}
	refused := busy.runs()
	if len(refused) == 0 {
		t.Fatal("the busy pair was given no run")
	}
	// Each refusal is one progress line; each finished run one [i/n] line.
	retried := regexp.MustCompile(`^(notes__\d) busy, retried: agent bot ` + regexp.QuoteMeta(busy.AgentURL) +
		` refused it \(1 of 5, \d+\.\d\ds\): scenario 1 \(\w+\) is in progress on another connection$`)
	finished := regexp.MustCompile(`^\[(\d)/3\] notes__\d pass \d+\.\d\ds$`)
	var gotRefused []string
	n := 0
	for _, l := range progressLines(progress) {
		if m := retried.FindStringSubmatch(l); m != nil {
			gotRefused = append(gotRefused, m[1])
			continue
		}
		if m := finished.FindStringSubmatch(l); m != nil && m[1] == string(rune('1'+n)) {
			n++
			continue
		}
		t.Errorf("progress line %q", l)
	}
	if !slices.Equal(gotRefused, refused) || n != 3 {
		t.Errorf("progress: refusals %v (the busy pair was given %v), %d finished lines", gotRefused, refused, n)
	}
	b, err := os.ReadFile(filepath.Join(ev.Dir, "results.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if c := bytes.Count(b, []byte("\n")); c != 3 {
		t.Errorf("results.jsonl has %d lines, want 3", c)
	}
	for _, sc := range queue {
		var m map[string]any
		if readJSON(t, filepath.Join(ev.Dir, sc.Name, "metrics.json"), &m); m["is_successful"] != true || m["harness_error"] != nil {
			t.Errorf("%s: successful %v, harness_error %v", sc.Name, m["is_successful"], m["harness_error"])
		}
	}
}

// When every bot of the pool stays busy, a run is refused busyAttempts
// (5) times, on every pair, and then written as failed, with a
// harness_error that counts the refusals by bot; the evaluation ends.
func TestAllBotsBusyFailsAfterTheBound(t *testing.T) {
	pairs := []*poolPair{newPoolPair(t, poolTimeouts, poolTimeouts), newPoolPair(t, poolTimeouts, poolTimeouts)}
	for _, p := range pairs {
		holdBusy(t, p.AgentURL)
	}
	// Well above the bound: five refusals of about 0.1 s each and 3 s of
	// backoff.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	o, progress := poolOptions(t.TempDir(), pairs...)
	ev, err := harness.Evaluate(ctx, []*harness.Scenario{notesScenario(t, "notes__1")}, o)
	if err != nil {
		t.Fatal(err)
	}
	if ev.NotSuccessful != 1 {
		t.Errorf("NotSuccessful %d, want 1", ev.NotSuccessful)
	}
	a, b := len(pairs[0].runs()), len(pairs[1].runs())
	if a+b != 5 || a == 0 || b == 0 {
		t.Errorf("attempts %d and %d, want 5 over both pairs", a, b)
	}
	var m map[string]any
	readJSON(t, filepath.Join(ev.Dir, "notes__1", "metrics.json"), &m)
	he, _ := m["harness_error"].(string)
	// The bots in the order of their first refusal, with their counts.
	lines := progressLines(progress)
	by := func(p *poolPair, n int) string { return "agent bot " + p.AgentURL + " (" + string(rune('0'+n)) + ")" }
	first, second := by(pairs[0], a), by(pairs[1], b)
	if !strings.HasPrefix(lines[0], "notes__1 busy, retried: agent bot "+pairs[0].AgentURL+" ") {
		first, second = second, first
	}
	want := regexp.MustCompile(`^aborted: refused as busy 5 times, by ` + regexp.QuoteMeta(first+" and "+second) +
		`; the last: \[APPLY INIT\] agent bot returned an error: scenario 1 \(\w+\) is in progress on another connection; this bot runs one scenario at a time \(apply_initialization refused\)$`)
	if !want.MatchString(he) || m["is_successful"] != false || m["stop_reason"] != "[ABORTED]" {
		t.Errorf("metrics: harness_error %q\nwant %s\nsuccessful %v, stop %v", he, want, m["is_successful"], m["stop_reason"])
	}
	retried := 0
	for _, l := range lines[:len(lines)-1] {
		if strings.HasPrefix(l, "notes__1 busy, retried: agent bot ") {
			retried++
		}
	}
	if retried != 4 || len(lines) != 5 || !strings.HasPrefix(lines[4], "[1/1] notes__1 fail (aborted: refused as busy 5 times") {
		t.Errorf("progress:\n%s", strings.Join(lines, "\n"))
	}
}
