package harness

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/voiceeval/schematools/rtvi"
)

// TestMain serves the benchmark's bots when the benchmark starts this
// test binary as their process, so that the benchmark's CPU is the
// harness's alone.
func TestMain(m *testing.M) {
	if os.Getenv("HARNESS_BENCH_BOTS") == "1" {
		serveBenchBots()
		return
	}
	os.Exit(m.Run())
}

// benchTurns is how many turns the benchmark's agent speaks.
const benchTurns = 100000

// 100,000 turns cost the harness time linear in their number: the agent
// speaks them in one burst after the kickoff, then exits; the harness
// records each, relays each to the user, pulls and scores the run
// (budgets raised to hold them all). cpu-s/op is the harness's CPU: the
// bots run in a process of their own. Before, every turn copied the list
// of the turns so far: 10,000 turns took 2.0 s, 40,000 took 48 s.
func BenchmarkHundredThousandTurns(b *testing.B) {
	bots := exec.Command(os.Args[0])
	bots.Env = append(os.Environ(), "HARNESS_BENCH_BOTS=1")
	stdin, err := bots.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	stdout, err := bots.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := bots.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() { stdin.Close(); bots.Wait() }() //nolint:errcheck // the bots end with their stdin
	var agentURL, userURL string
	if _, err := fmt.Fscan(bufio.NewReader(stdout), &agentURL, &userURL); err != nil {
		b.Fatal(err)
	}
	sc := scenario(b, "tau2_airline__7")
	o := testOptions()
	o.Budgets = Budgets{HeldBytes: 1 << 30, StreamBytes: 1 << 30}
	o.MaxTurns, o.MaxDuration = 0, time.Minute
	var cpu time.Duration
	for b.Loop() {
		before := cpuTime()
		res, err := RunScenario(context.Background(), sc, agentURL, userURL, o)
		cpu += cpuTime() - before
		if err != nil {
			b.Fatal(err)
		}
		if n := len(res.Run.Turns); n != benchTurns || res.Run.StopReason != stopReasonExit {
			b.Fatalf("%d turns, stop reason %s", n, res.Run.StopReason)
		}
	}
	b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s/op")
}

// serveBenchBots serves the benchmark's agent and user bots, prints their
// URLs, and serves until its stdin closes.
func serveBenchBots() {
	frames := make([][]byte, 0, 3*benchTurns+2)
	for range benchTurns {
		frames = append(frames,
			rtvi.MessageFrameBytes([]byte(`{"label": "rtvi-ai", "type": "bot-started-speaking"}`)),
			rtvi.MessageFrameBytes([]byte(`{"label": "rtvi-ai", "type": "bot-tts-text", "data": {"text": "Mm."}}`)),
			rtvi.MessageFrameBytes([]byte(`{"label": "rtvi-ai", "type": "bot-stopped-speaking"}`)))
	}
	frames = append(frames,
		rtvi.MessageFrameBytes([]byte(`{"label": "rtvi-ai", "type": "metrics", "data": {"tokens": [{"prompt_tokens": 1, "completion_tokens": 1}, {"prompt_tokens": 1, "completion_tokens": 1}, {"prompt_tokens": 1, "completion_tokens": 1}]}}`)),
		rtvi.MessageFrameBytes([]byte(`{"label": "rtvi-ai", "type": "server-message", "data": {"text": "<exit>The task is finished.</exit>"}}`)))
	agent := httptest.NewServer(benchBot(frames))
	user := httptest.NewServer(benchBot(nil))
	fmt.Println("ws"+strings.TrimPrefix(agent.URL, "http"), "ws"+strings.TrimPrefix(user.URL, "http"))
	_, _ = bufio.NewReader(os.Stdin).ReadString(0)
	agent.Close()
	user.Close()
}

// benchBot answers the bridge's messages; on send-text it sends kickoff's
// frames (none: it says nothing).
func benchBot(kickoff [][]byte) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ws, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		defer ws.CloseNow()
		ctx := r.Context()
		reply := func(msg string) { _ = ws.Write(ctx, websocket.MessageBinary, rtvi.MessageFrameBytes([]byte(msg))) }
		for {
			_, data, err := ws.Read(ctx)
			if err != nil {
				return
			}
			f, err := rtvi.DecodeFrame(data)
			if err != nil || f.Message == nil {
				continue
			}
			var m struct {
				Type, ID string
				Data     struct{ T string }
			}
			if json.Unmarshal([]byte(f.Message.Data), &m) != nil {
				continue
			}
			answer := func(d string) {
				reply(`{"label": "rtvi-ai", "type": "server-response", "id": "` + m.ID + `", "data": {"t": "` + m.Data.T + `", "d": ` + d + `}}`)
			}
			switch {
			case m.Type == "client-ready":
				reply(`{"label": "rtvi-ai", "type": "bot-ready", "id": "` + m.ID + `", "data": {"version": "1.1.0"}}`)
			case m.Type == "send-text":
				for _, fr := range kickoff {
					_ = ws.Write(ctx, websocket.MessageBinary, fr)
				}
			case m.Data.T == "apply_initialization":
				answer(`{"success": true, "errors": []}`)
			case m.Data.T == "get_context_history":
				answer(`{"context": "[]"}`)
			case m.Data.T == "get_scenario_summary":
				answer(`{"actions": [], "db_hash": null}`)
			case m.Data.T != "":
				answer(`true`)
			}
		}
	})
}

// cpuTime is the process's user and system CPU so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
