package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// A hostile bot fails only its own scenario: one evaluate process per
// attack, over two scenarios, the bot misbehaving in the first. Each
// attack ends its scenario with a reason naming the cause (or is scored,
// where the harness copes: lone surrogates) within
// -timeout + 10 s; the second scenario is scored normally; report.html
// and all_metrics.json are written; every file is valid UTF-8; and the
// process's peak RSS stays under 256 MiB. Failed before: a turn streamed
// forever, action messages streamed, and indent bombs took the process
// past 4 GiB; 100,000 turns cost minutes of CPU and ended "no
// get_context_history answer"; malformed pull answers waited out their
// 15 s and said timeout; token sums wrapped round; lone surrogates were
// written as raw bytes.
//
// The attacks run one at a time, away from the package's parallel tests:
// the RSS and time figures are the process's own, and a sibling's CPU
// would sway them. The stall after the handshake, which only waits, is
// TestStallingBotFailsOnlyItsScenario.
func TestHostileBotFailsOnlyItsScenario(t *testing.T) {
	bin := evaluateBinary(t)
	for _, tc := range []hostileAttack{
		{"50 MB message", "over the read limit"},
		{"200 MB message", "over the read limit"},
		{"2^63-byte frame header", "agent bot"},
		{"nesting bomb in the context", "nested 10000 deep, past 900"},
		{"nesting bomb in the summary", "deep, past 900 (MaxDepth"},
		{"indent bomb in the context", "llm_context.json (FileBytes"},
		{"indent bomb in the summary", "its files (FileBytes"},
		{"one endless turn", "the turn budget"},
		{"100,000 turns", "held-bytes budget"},
		{"streamed action messages", "held-bytes budget"},
		{"token overflow", "token counts sum past 9223372036854775807"},
		{"lone surrogates", ""},
		{"malformed pull answer", "cannot be read"},
		{"text message as the pull answer", "a text WebSocket message"},
		{"bad length prefix", "malformed frame"},
	} {
		t.Run(tc.attack, func(t *testing.T) { attackRun(t, bin, tc) })
	}
}

// A bot that stalls after the handshake fails only its own scenario, as
// the attacks above do (each of their checks holds), at its duration
// bound and grace. Its run only waits (its CPU is ~0.1 s, its RSS the
// idle process's), so it runs beside the other parallel tests.
func TestStallingBotFailsOnlyItsScenario(t *testing.T) {
	t.Parallel()
	attackRun(t, evaluateBinary(t), hostileAttack{"stalls after the handshake", "ran past its duration bound and grace"})
}

// hostileAttack is an attack of newHostileBot and what it causes.
type hostileAttack struct {
	attack string
	want   string // in the first scenario's harness_error; "" when it is scored
}

// attackRun runs evaluate on two scenarios against a bot that plays the
// attack in the first, and checks what TestHostileBotFailsOnlyItsScenario
// says.
func attackRun(t *testing.T, bin string, tc hostileAttack) {
	const timeout = 10 * time.Second
	names := []string{"tau2_retail__0", "tau2_retail__1"}
	bot := newHostileBot(t, tc.attack)
	out := t.TempDir()
	cmd := exec.Command(bin, "-scenarios", strings.Join(names, ","), "-out", out, "-agent-url", bot.agentURL, "-user-url", bot.userURL,
		"-timeout", timeout.String(), "-kickoff-delay", "1ms", "-exit-settle", "1ms")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		t.Fatalf("evaluate: %v\n%s", err, stderr.String())
	}
	took := time.Since(start)
	// The process's own figure (VmHWM): a child's rusage counts the
	// test process it was forked from.
	_, rssText, ok := strings.Cut(stderr.String(), "evaluate: peak RSS ")
	rssMiB, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(rssText), " MiB"))
	if !ok || err != nil {
		t.Fatalf("no peak RSS in the output:\n%s", stderr.String())
	}
	t.Logf("%v, peak RSS %d MiB, CPU %v", took.Round(time.Millisecond), rssMiB, cmd.ProcessState.UserTime()+cmd.ProcessState.SystemTime())
	if rssMiB >= 256 {
		t.Errorf("peak RSS %d MiB, past 256 MiB", rssMiB)
	}
	if limit := timeout + 10*time.Second + 5*time.Second; took > limit {
		t.Errorf("the run took %v, past -timeout + 10 s for the attacked scenario and 5 s for the other", took)
	}
	dir, _, _ := strings.Cut(stdout.String(), ":")
	first, second := readMetrics(t, dir, names[0]), readMetrics(t, dir, names[1])
	herr, _ := first["harness_error"].(string)
	switch {
	case tc.want == "" && herr != "":
		t.Errorf("the attacked scenario failed: %s", herr)
	case tc.want != "" && !strings.Contains(herr, tc.want):
		t.Errorf("harness_error %q, want the cause %q (stop reason %v)", herr, tc.want, first["stop_reason"])
	}
	if tc.want == "" && first["stop_reason"] != "[EXIT]" {
		t.Errorf("stop reason %v, want [EXIT]", first["stop_reason"])
	}
	if second["harness_error"] != nil || second["stop_reason"] != "[EXIT]" {
		t.Errorf("the next scenario: stop reason %v, harness_error %v", second["stop_reason"], second["harness_error"])
	}
	err = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err == nil && !utf8.Valid(b) {
			t.Errorf("%s is not valid UTF-8", p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"report.html", "all_metrics.json"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
}
