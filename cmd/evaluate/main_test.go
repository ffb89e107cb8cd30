package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var testScenarios = []string{"tau2_airline__7", "tau2_airline__1", "tau2_retail__0", "tau2_retail__1"}

// evaluateRun runs the command and returns its run directory.
func evaluateRun(t testing.TB, args ...string) string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if code := run(args, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
	dir, _, ok := strings.Cut(stdout.String(), ":")
	if !ok {
		t.Fatalf("no run directory in %q", stdout.String())
	}
	return dir
}

// readMetrics reads a scenario's metrics.json in a run directory.
func readMetrics(t testing.TB, dir, scenario string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, scenario, "metrics.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// resultLines returns results.jsonl's lines by scenario: the name, whether
// successful, and the signals, without the times.
func resultLines(t *testing.T, dir string) []string {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, "results.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var l map[string]any
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatal(err)
		}
		m, _ := l["metrics"].(map[string]any)
		if m == nil {
			m = l
		}
		b, _ := json.Marshal([]any{m["scenario"], m["is_successful"], m["is_action_match"], m["db_state_match"], m["clean_exit"], m["stop_reason"]})
		out = append(out, string(b))
	}
	return out
}

func TestGoldScenariosSucceed(t *testing.T) {
	dir := evaluateRun(t, "-scenarios", strings.Join(testScenarios, ","), "-out", t.TempDir(), "-parallel", "2")
	for _, n := range testScenarios {
		if m := readMetrics(t, dir, n); m["is_successful"] != true {
			t.Errorf("%s: is_successful %v", n, m["is_successful"])
		}
	}
	if got := resultLines(t, dir); len(got) != len(testScenarios) {
		t.Errorf("%d results lines, want %d: %v", len(got), len(testScenarios), got)
	}
	if _, err := os.Stat(filepath.Join(dir, "report.html")); err != nil {
		t.Error(err)
	}
}

// A run whose results.jsonl holds part of the queue is finished by -resume
// and then holds what an uninterrupted run holds.
func TestResumeFinishesTheRest(t *testing.T) {
	all := strings.Join(testScenarios, ",")
	full := evaluateRun(t, "-scenarios", all, "-out", t.TempDir())
	part := evaluateRun(t, "-scenarios", strings.Join(testScenarios[:2], ","), "-out", t.TempDir())
	var stdout, stderr bytes.Buffer
	if code := run([]string{"-scenarios", all, "-resume", part}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr.String())
	}
	if !strings.Contains(stderr.String(), "resume: 2 done, 2 to run") {
		t.Errorf("resume ran more than the rest:\n%s", stderr.String())
	}
	for _, n := range testScenarios[:2] {
		if strings.Contains(stderr.String(), n) {
			t.Errorf("%s ran again:\n%s", n, stderr.String())
		}
	}
	got, want := resultLines(t, part), resultLines(t, full)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("resumed results.jsonl\n%s\nuninterrupted\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{},
		{"-scenarios", "tau2_retail__0"},
		{"-scenarios", "tau2_retail__0", "-out", "x", "-resume", "y"},
		{"-scenarios", "tau2_retail__0", "-out", "x", "-agent-url", "ws://127.0.0.1:1"},
		{"-scenarios", "tau2_retail__0", "-out", "x", "-parallel", "0"},
		{"-scenarios", "tau2_retail__0", "-out", "x", "-resolve"},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(args, &stdout, &stderr); code != 2 {
			t.Errorf("%q: exit %d, want 2", args, code)
		}
	}
	var stdout, stderr bytes.Buffer
	for _, name := range []string{"eva_airline__1_1_5", "restaurant__burger_classic"} {
		stdout.Reset()
		stderr.Reset()
		if code := run([]string{"-scenarios", name, "-out", t.TempDir()}, &stdout, &stderr); code != 1 || !strings.Contains(stderr.String(), "no gold stand-in") {
			t.Errorf("in-process %s: exit %d, %s", name, code, stderr.String())
		}
	}
}

// BenchmarkGoldSweep runs every scenario with a gold stand-in (-domain
// all-gold: 278 tau2 scenarios and the eva_airline ones with a gold path)
// on the in-process bots (run once: -benchtime 1x).
func BenchmarkGoldSweep(b *testing.B) {
	for b.Loop() {
		start := time.Now()
		var stdout, stderr bytes.Buffer
		if code := run([]string{"-domain", "all-gold", "-parallel", "4", "-out", b.TempDir()}, &stdout, &stderr); code != 0 {
			b.Fatalf("exit %d\n%s", code, stderr.String())
		}
		n := strings.Count(stderr.String(), "\n")
		b.ReportMetric(float64(n)/time.Since(start).Seconds(), "scenarios/s")
		b.Log(strings.TrimSpace(stdout.String()))
	}
}

// BenchmarkGoldSweepTrials is BenchmarkGoldSweep with -trials 3: every
// scenario three times, each a fresh start, and the trial statistics
// (issue #38's target: 40 scenario runs/s on 2 cores).
func BenchmarkGoldSweepTrials(b *testing.B) {
	for b.Loop() {
		start := time.Now()
		var stdout, stderr bytes.Buffer
		if code := run([]string{"-domain", "all-gold", "-parallel", "4", "-trials", "3", "-out", b.TempDir()}, &stdout, &stderr); code != 0 {
			b.Fatalf("exit %d\n%s", code, stderr.String())
		}
		n := strings.Count(stderr.String(), "\n")
		b.ReportMetric(float64(n)/time.Since(start).Seconds(), "runs/s")
		b.Log(strings.TrimSpace(stdout.String()))
	}
}

// run_args.json records each invocation, the resumed one pointing at the
// one before it.
func TestRunArgs(t *testing.T) {
	dir := evaluateRun(t, "-scenarios", "tau2_airline__7", "-out", t.TempDir())
	var stdout, stderr bytes.Buffer
	if code := run([]string{"-scenarios", "tau2_airline__7", "-resume", dir}, &stdout, &stderr); code != 0 {
		t.Fatalf("resume: exit %d\n%s", code, stderr.String())
	}
	b, err := os.ReadFile(filepath.Join(dir, "run_args.json"))
	if err != nil {
		t.Fatal(err)
	}
	var ra struct {
		Invocations []struct {
			Argv       []string       `json:"argv"`
			ParsedArgs map[string]any `json:"parsed_args"`
			Count      int            `json:"resolved_scenario_count"`
			Names      []string       `json:"resolved_scenario_names"`
			Resumed    *int           `json:"resumed_from_invocation"`
		} `json:"invocations"`
	}
	if err := json.Unmarshal(b, &ra); err != nil {
		t.Fatal(err)
	}
	if len(ra.Invocations) != 2 {
		t.Fatalf("%d invocations:\n%s", len(ra.Invocations), b)
	}
	first, second := ra.Invocations[0], ra.Invocations[1]
	if first.Argv[0] != "evaluate" || first.Argv[1] != "-scenarios" || first.Count != 1 || first.Names[0] != "tau2_airline__7" || first.Resumed != nil {
		t.Errorf("first invocation %+v", first)
	}
	if first.ParsedArgs["parallel"] != 1.0 || first.ParsedArgs["min_agent_turns"] != 3.0 || first.ParsedArgs["resume"] != "" {
		t.Errorf("parsed args %v", first.ParsedArgs)
	}
	if second.Resumed == nil || *second.Resumed != 0 || second.ParsedArgs["resume"] != dir {
		t.Errorf("resumed invocation %+v", second)
	}
}
