package harness

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/voiceeval/schematools/agent/agenttest"
	"github.com/voiceeval/schematools/rtvi"
)

// answerWith makes b answer its messages of type typ (a client message's
// t, or send-text) with the reply reply(id) builds, in place of handling
// them.
func answerWith(b *testBot, typ string, reply func(id string) string) {
	b.hook = func(_ *websocket.Conn, msg []byte) bool {
		if !strings.Contains(string(msg), typ) {
			return false
		}
		f, _ := rtvi.DecodeFrame(msg)
		var m struct{ ID string }
		_ = json.Unmarshal([]byte(f.Message.Data), &m)
		b.write(context.Background(), rtvi.MessageFrameBytes([]byte(reply(m.ID))))
		return true
	}
}

func errorResponse(text string) func(id string) string {
	return func(id string) string {
		b, _ := json.Marshal(map[string]any{"label": "rtvi-ai", "type": "error-response", "id": id, "data": map[string]any{"error": text}})
		return string(b)
	}
}

// The refusals rtviws sends (owner.go).
const (
	busyRunning  = "scenario 4 (tau2_airline) is in progress on another connection; this bot runs one scenario at a time (apply_initialization refused)"
	busyReserved = "scenario 2 is prepared and waits for its run connection; this bot runs one scenario at a time (apply_initialization refused)"
)

// A busy refusal is an error-response to a preparation that ends with the
// busy text: Evaluate retries the run (busyAttempts runs in all, on the
// one pair here) and then writes it as failed with the refusals counted.
// Any other refusal — another error text, the busy text in another form or
// after the conversation started — fails the scenario at once, as before.
func TestBusyRefusalIsRecognised(t *testing.T) {
	root := dataRoot(t)
	const name = "tau2_airline__7"
	for _, tc := range []struct {
		name string
		set  func(ag, us *testBot)
		// attempts are the runs made; error is the harness_error (a
		// regexp, %A and %U the bots' URLs), stop the stop reason.
		attempts    int
		error, stop string
	}{
		{"agent busy with a running scenario", func(ag, _ *testBot) {
			answerWith(ag, "apply_initialization", errorResponse(busyRunning))
		}, 5, `^aborted: refused as busy 5 times, by agent bot %A \(5\); the last: \[APPLY INIT\] agent bot returned an error: ` + regexp.QuoteMeta(busyRunning) + `$`, stopReasonAborted},
		{"user busy with a reserved scenario", func(_, us *testBot) {
			answerWith(us, "apply_initialization", errorResponse(busyReserved))
		}, 5, `^aborted: refused as busy 5 times, by user bot %U \(5\); the last: \[APPLY INIT\] user bot returned an error: ` + regexp.QuoteMeta(busyReserved) + `$`, stopReasonAborted},
		{"another error-response", func(ag, _ *testBot) {
			answerWith(ag, "apply_initialization", errorResponse("RuntimeError: the database is locked"))
		}, 1, `^aborted: \[APPLY INIT\] agent bot returned an error: RuntimeError: the database is locked$`, stopReasonAborted},
		{"the busy text without the refused message", func(ag, _ *testBot) {
			answerWith(ag, "apply_initialization", errorResponse("scenario 4 is in progress on another connection"))
		}, 1, `^aborted: \[APPLY INIT\] agent bot returned an error: scenario 4 is in progress on another connection$`, stopReasonAborted},
		{"the busy text as a reported failure", func(ag, _ *testBot) {
			answerWith(ag, "apply_initialization", func(id string) string {
				b, _ := json.Marshal(map[string]any{"label": "rtvi-ai", "type": "server-response", "id": id,
					"data": map[string]any{"t": "apply_initialization", "d": map[string]any{"success": false, "errors": []string{busyRunning}}}})
				return string(b)
			})
		}, 1, `^aborted: \[APPLY INIT\] agent bot reported failure on \d+ action\(s\): \['scenario 4`, stopReasonAborted},
		{"the busy text after the conversation started", func(ag, _ *testBot) {
			answerWith(ag, "send-text", errorResponse(strings.Replace(busyRunning, "apply_initialization", "send-text", 1)))
		}, 1, `^failed: agent bot refused send_text_\S+: scenario 4 \(tau2_airline\) is in progress`, stopReasonBotError},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ag := newTestBot(t, root, agenttest.GoldTurns(goldCalls(t, "tau2_airline", "7", false), "EndConversationTool")...)
			us := newUser(t, root)
			tc.set(ag, us)
			var attempts atomic.Int32
			o := EvaluateOptions{OutputDir: t.TempDir(), Session: testOptions(), Progress: &strings.Builder{},
				Bots: []BotPair{{AgentURL: ag.URL, UserURL: us.URL, Prepare: func(context.Context, *Scenario, int) error {
					attempts.Add(1)
					return nil
				}}}}
			ev, err := Evaluate(runCtx(t), []*Scenario{scenario(t, name)}, o)
			if err != nil {
				t.Fatal(err)
			}
			if n := int(attempts.Load()); n != tc.attempts || ev.NotSuccessful != 1 {
				t.Errorf("%d runs (want %d), %d not successful", n, tc.attempts, ev.NotSuccessful)
			}
			b, err := os.ReadFile(filepath.Join(ev.Dir, name, "metrics.json"))
			if err != nil {
				t.Fatal(err)
			}
			var m struct {
				HarnessError string `json:"harness_error"`
				StopReason   string `json:"stop_reason"`
				IsSuccessful any    `json:"is_successful"`
			}
			if err := json.Unmarshal(b, &m); err != nil {
				t.Fatal(err)
			}
			want := regexp.MustCompile(strings.NewReplacer("%A", regexp.QuoteMeta(ag.URL), "%U", regexp.QuoteMeta(us.URL)).Replace(tc.error))
			if !want.MatchString(m.HarnessError) || m.StopReason != tc.stop || m.IsSuccessful != false {
				t.Errorf("harness_error %q\nwant %s\nstop %s (want %s), successful %v", m.HarnessError, want, m.StopReason, tc.stop, m.IsSuccessful)
			}
			// One progress line per refusal, then the finished run's.
			// (Evaluate serialises its Progress writes; they are done.)
			lines := strings.Split(strings.TrimSuffix(o.Progress.(*strings.Builder).String(), "\n"), "\n")
			for i, l := range lines {
				retried := strings.HasPrefix(l, name+" busy, retried: ")
				if retried != (i < len(lines)-1) {
					t.Errorf("progress line %d: %q", i, l)
				}
			}
			if len(lines) != tc.attempts || !strings.HasPrefix(lines[len(lines)-1], "[1/1] "+name+" fail (") {
				t.Errorf("progress:\n%s", strings.Join(lines, "\n"))
			}
		})
	}
}

// A run waiting out its backoff when the evaluation's context ends runs
// at once and fails with the context's error, as every other run does:
// nothing waits for a bot that is busy.
func TestBusyRetryStopsWithTheContext(t *testing.T) {
	root := dataRoot(t)
	ag := newTestBot(t, root)
	answerWith(ag, "apply_initialization", errorResponse(busyRunning))
	us := newUser(t, root)
	ctx, cancel := context.WithCancel(runCtx(t))
	var attempts atomic.Int32
	o := EvaluateOptions{OutputDir: t.TempDir(), Session: testOptions(),
		// The first refusal's line ends the evaluation's context.
		Progress: writerFunc(func(p []byte) (int, error) {
			if strings.Contains(string(p), "busy, retried") {
				cancel()
			}
			return len(p), nil
		}),
		Bots: []BotPair{{AgentURL: ag.URL, UserURL: us.URL, Prepare: func(context.Context, *Scenario, int) error {
			attempts.Add(1)
			return nil
		}}}}
	_, err := Evaluate(ctx, []*Scenario{scenario(t, "tau2_airline__7")}, o)
	if !errors.Is(err, context.Canceled) || attempts.Load() != 2 {
		t.Fatalf("Evaluate: %v after %d runs, want the context's error after 2", err, attempts.Load())
	}
}

// The backoff doubles from 200 ms and stays at 2 s.
func TestBusyBackoff(t *testing.T) {
	var got []time.Duration
	for n := 1; n <= 7; n++ {
		got = append(got, busyBackoff(n))
	}
	ms := time.Millisecond
	want := []time.Duration{200 * ms, 400 * ms, 800 * ms, 1600 * ms, 2000 * ms, 2000 * ms, 2000 * ms}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("backoffs %v, want %v", got, want)
		}
	}
}

type writerFunc func(p []byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }
