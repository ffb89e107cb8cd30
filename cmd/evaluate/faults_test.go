package main

import (
	"bufio"
	"bytes"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/voiceeval/schematools/agent/agenttest"
	"github.com/voiceeval/schematools/domains"
)

// faultyBot serves a WebSocket "bot" that breaks as named: "close" closes
// each connection at once, "garbage" answers with frames that do not
// decode.
func faultyBot(t *testing.T, how string) string {
	t.Helper()
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		defer c.CloseNow()
		switch how {
		case "close":
			c.Close(websocket.StatusInternalError, "crashed") //nolint:errcheck // the fault
		case "garbage":
			for {
				if _, _, err := c.Read(r.Context()); err != nil {
					return
				}
				if err := c.Write(r.Context(), websocket.MessageBinary, []byte{0xff, 0xff, 0xff, 0x01}); err != nil {
					return
				}
			}
		}
	}))
	t.Cleanup(s.Close)
	return "ws" + strings.TrimPrefix(s.URL, "http")
}

// goodBots serves n in-process bot pairs that talk but never end a call.
func goodBots(t *testing.T, n int) (agents, users []string) {
	t.Helper()
	root := t.TempDir()
	if err := domains.WriteDataRoot(root); err != nil {
		t.Fatal(err)
	}
	logger := slog.New(slog.DiscardHandler)
	for range n {
		for _, list := range []*[]string{&agents, &users} {
			b, err := serveBot(&agenttest.Model{Fallback: userFallback}, 0, root, logger)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(b.close)
			*list = append(*list, b.url)
		}
	}
	return agents, users
}

// metricsOf reads every scenario's metrics.json of a run directory.
func metricsOf(t *testing.T, dir string, names []string) map[string]map[string]any {
	t.Helper()
	out := map[string]map[string]any{}
	for _, n := range names {
		out[n] = readMetrics(t, dir, n)
	}
	return out
}

// A pool with broken pairs — an agent that crashes on connect, one that
// sends frames that cannot be read — fails each scenario that landed on
// them, with the reason in its metrics.json, while the run goes on and
// finishes; -resume then runs only those again.
func TestBrokenBotsFailTheirScenariosAndTheRunGoesOn(t *testing.T) {
	names := []string{"tau2_retail__0", "tau2_retail__1", "tau2_retail__2", "tau2_retail__3", "tau2_retail__4", "tau2_retail__5"}
	goodA, goodU := goodBots(t, 2)
	agents := []string{faultyBot(t, "close"), faultyBot(t, "garbage"), goodA[0]}
	users := []string{goodU[0], goodU[1], goodU[1]}
	var stdout, stderr bytes.Buffer
	args := []string{"-scenarios", strings.Join(names, ","), "-out", t.TempDir(), "-timeout", "500ms", "-kickoff-delay", "1ms",
		"-agent-url", strings.Join(agents, ","), "-user-url", strings.Join(users, ","), "-parallel", "3"}
	if code := run(args, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: the run must finish\n%s", code, stderr.String())
	}
	dir, _, _ := strings.Cut(stdout.String(), ":")
	ms := metricsOf(t, dir, names)
	failedBy := 0
	for _, n := range names {
		m := ms[n]
		if m["is_successful"] != false {
			t.Errorf("%s: is_successful %v", n, m["is_successful"])
		}
		e, _ := m["harness_error"].(string)
		switch {
		case e == "":
			if m["stop_reason"] != "[TIMEOUT]" {
				t.Errorf("%s: a good pair's run stopped on %v", n, m["stop_reason"])
			}
		case strings.Contains(e, "agent bot"):
			failedBy++
		default:
			t.Errorf("%s: harness_error %q names no bot", n, e)
		}
	}
	if failedBy == 0 {
		t.Fatalf("no scenario landed on a broken pair:\n%s", stderr.String())
	}
	if got := resultLines(t, dir); len(got) != len(names) {
		t.Fatalf("%d results lines, want %d", len(got), len(names))
	}
	if _, err := os.Stat(filepath.Join(dir, "all_summary.txt")); err != nil {
		t.Error(err)
	}

	// Resume on good bots runs the failed scenarios only.
	stdout.Reset()
	stderr.Reset()
	args = []string{"-scenarios", strings.Join(names, ","), "-resume", dir, "-timeout", "500ms", "-kickoff-delay", "1ms",
		"-agent-url", goodA[1], "-user-url", goodU[1]}
	if code := run(args, &stdout, &stderr); code != 0 {
		t.Fatalf("resume: exit %d\n%s", code, stderr.String())
	}
	if want := "to run"; !strings.Contains(stderr.String(), want) {
		t.Fatalf("resume said %q", stderr.String())
	}
	if ran := strings.Count(stderr.String(), "] tau2_retail__"); ran != failedBy {
		t.Errorf("resume ran %q, want the %d failed scenarios", stderr.String(), failedBy)
	}
	for n, m := range metricsOf(t, dir, names) {
		if m["harness_error"] != nil {
			t.Errorf("%s: still failed after resume: %v", n, m["harness_error"])
		}
	}
}

// kill -9 in the middle of a run, then -resume: results.jsonl holds what
// an uninterrupted run's holds.
func TestKilledRunResumes(t *testing.T) {
	t.Parallel() // its evaluate processes overlap the waiting tests
	bin := evaluateBinary(t)
	args := []string{"-domain", "tau2_airline", "-parallel", "2"}
	out := t.TempDir()
	cmd := exec.Command(bin, append(args, "-out", out)...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var runDir string
	deadline := time.Now().Add(2 * time.Minute)
	for {
		if time.Now().After(deadline) {
			cmd.Process.Kill() //nolint:errcheck // the test gives up
			t.Fatal("no results.jsonl lines within 2 minutes")
		}
		dirs, _ := filepath.Glob(filepath.Join(out, "eval_*"))
		if len(dirs) == 1 {
			runDir = dirs[0]
			if n := countLines(filepath.Join(runDir, "results.jsonl")); n >= 10 {
				break
			}
		}
		time.Sleep(5 * time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait() //nolint:errcheck // killed
	killedAt := countLines(filepath.Join(runDir, "results.jsonl"))
	if killedAt >= 50 {
		t.Fatalf("the run finished (%d lines) before the kill", killedAt)
	}
	res := exec.Command(bin, append(args, "-resume", runDir)...)
	var stderr bytes.Buffer
	res.Stderr = &stderr
	if err := res.Run(); err != nil {
		t.Fatalf("resume: %v\n%s", err, stderr.String())
	}
	full := evaluateRun(t, append(args, "-out", t.TempDir())...)
	got, want := resultLines(t, runDir), resultLines(t, full)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("after kill -9 at %d lines and -resume, results.jsonl differs from an uninterrupted run's", killedAt)
	}
	t.Logf("killed after %d of %d results; %s", killedAt, len(want), strings.SplitN(stderr.String(), "\n", 2)[0])
}

// countLines counts a file's complete lines (0 when it is missing).
func countLines(path string) int {
	f, err := os.Open(path)
	if err != nil {
		return 0
	}
	defer f.Close()
	n := 0
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<26)
	for sc.Scan() {
		n++
	}
	return n
}
