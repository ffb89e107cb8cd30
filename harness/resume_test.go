package harness

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestParseResultsTornAndDuplicate(t *testing.T) {
	t.Chdir(t.TempDir())
	dir := fullRun(t)
	whole, err := os.ReadFile(filepath.Join(dir, fileResults))
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(whole, []byte{'\n'})
	first, second := lines[0], lines[1]
	tests := []struct {
		name    string
		text    []byte
		n       int
		torn    bool
		wantErr bool
	}{
		{"whole", whole, 4, false, false},
		{"empty", nil, 0, false, false},
		{"torn last line", append(append([]byte{}, first...), second[:len(second)/2]...), 1, true, false},
		{"torn only line", first[:10], 0, true, false},
		{"duplicate line", append(append(append([]byte{}, first...), second...), first...), 3, false, false},
		{"blank lines", append(append([]byte("\n"), first...), '\n'), 1, false, false},
		{"corrupt middle line", append(append([]byte("{not json\n"), first...), second...), 0, false, true},
		{"not an object", []byte("[1]\n"), 0, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := parseResults(tt.text)
			if tt.wantErr {
				if err == nil {
					t.Fatal("no error")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(f.Lines) != tt.n || f.Torn != tt.torn {
				t.Errorf("%d lines, torn %v; want %d, %v", len(f.Lines), f.Torn, tt.n, tt.torn)
			}
		})
	}
	f, _ := parseResults(append(append(append([]byte{}, first...), second...), first...))
	if got := len(f.Latest()); got != 2 {
		t.Errorf("Latest has %d scenarios, want 2", got)
	}
}

// TestResumeAfterKill interrupts the fixed run after two scenarios — a
// torn line appended, a temporary directory and an unfinished scenario
// directory left — resumes it, runs what is missing, and compares every
// run-level file and results.jsonl with an uninterrupted run's.
func TestResumeAfterKill(t *testing.T) {
	t.Chdir(t.TempDir())
	want := tree(t, fullRun(t))
	if err := os.Rename(filepath.Join("eval_results"), "uninterrupted"); err != nil {
		t.Fatal(err)
	}

	w, err := newRunWriter("eval_results", fixtureTimestamp, fixtureQueue)
	if err != nil {
		t.Fatal(err)
	}
	writeFixture(t, w, fixtureQueue[0], fixtureQueue[3])
	// The kill: half a line, a half-built temporary directory, and the
	// directory of a scenario that was being written by hand (in flight).
	third := fixtureOutput(t, w, fixtureQueue[1])
	l, _ := newResultLine(third.Result, 0)
	b, _ := l.MarshalJSON()
	w.mu.Lock()
	_, _ = w.results.Write(b[:len(b)/3])
	w.mu.Unlock()
	_ = w.Close()
	if err := os.MkdirAll(filepath.Join(w.Dir(), ".tmp-"+fixtureQueue[2]+"-123", dirBotLogsAgent), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(w.Dir(), fixtureQueue[1]), 0o755); err != nil {
		t.Fatal(err)
	}

	r, st, err := resumeRunWriter(w.Dir(), fixtureQueue, defaultMinAgentTurns)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if !st.TornLine {
		t.Error("torn line not reported")
	}
	if !slices.Equal(st.Done, []string{fixtureQueue[0], fixtureQueue[3]}) || !slices.Equal(st.ToRun, []string{fixtureQueue[1], fixtureQueue[2]}) {
		t.Fatalf("done %v, to run %v", st.Done, st.ToRun)
	}
	if !slices.Equal(st.MovedAside, []string{fixtureQueue[1]}) || !strings.Contains(st.Reasons[fixtureQueue[1]], "in-flight") {
		t.Errorf("moved aside %v, reasons %v", st.MovedAside, st.Reasons)
	}
	for _, n := range st.ToRun {
		if err := r.WriteScenario(fixtureOutput(t, r, n)); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.Finish(finishOptions{MinAgentTurns: defaultMinAgentTurns}); err != nil {
		t.Fatal(err)
	}
	got := tree(t, r.Dir())
	for name, b := range want {
		if !bytes.Equal(got[name], b) {
			t.Errorf("%s differs from the uninterrupted run's", name)
		}
	}
	if _, err := os.Stat(filepath.Join(r.Dir(), fixtureQueue[1]+".killed.1", "__KILLED__")); err != nil {
		t.Errorf("in-flight directory not moved aside with its marker: %v", err)
	}
	for name := range got {
		if strings.HasPrefix(name, ".tmp-") {
			t.Errorf("temporary %s left", name)
		}
	}

	// A second resume finds everything done, except the stalled scenario,
	// which NeMo's rule runs again.
	r2, st2, err := resumeRunWriter(r.Dir(), fixtureQueue, defaultMinAgentTurns)
	if err != nil {
		t.Fatal(err)
	}
	defer r2.Close()
	if !slices.Equal(st2.ToRun, []string{"eva_airline__1_1_4"}) || !strings.Contains(st2.Reasons["eva_airline__1_1_4"], "1 agent LLM response(s) < 3 ([TIMEOUT])") {
		t.Errorf("second resume: to run %v, reasons %v", st2.ToRun, st2.Reasons)
	}
	if !slices.Equal(st2.MovedAside, []string{"eva_airline__1_1_4"}) {
		t.Errorf("second resume moved aside %v", st2.MovedAside)
	}
}

func TestResumeRefuses(t *testing.T) {
	if _, _, err := resumeRunWriter(filepath.Join(t.TempDir(), "nope"), fixtureQueue, 0); err == nil {
		t.Error("missing directory accepted")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, fileResults), []byte("garbage\n{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := resumeRunWriter(dir, fixtureQueue, 0); err == nil || !strings.Contains(err.Error(), "results.jsonl:1") {
		t.Errorf("corrupt results.jsonl: %v", err)
	}
}

func TestRunArgs(t *testing.T) {
	dir := t.TempDir()
	inv := invocation{StartedAt: "2026-01-01T12:00:00", Argv: []string{"run_evaluation.py", "--domain", "eva_airline"},
		ParsedArgs: dict("domain", "eva_airline", "judge_api_key", "secret", "min_agent_turns", 3), ScenarioNames: fixtureQueue[1:3]}
	if err := writeRunArgs(dir, inv, false); err != nil {
		t.Fatal(err)
	}
	inv.StartedAt = "2026-01-01T13:00:00"
	if err := writeRunArgs(dir, inv, true); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(filepath.Join(dir, fileRunArgs))
	golden(t, fileRunArgs, b)
	if bytes.Contains(b, []byte("secret")) {
		t.Error("judge_api_key not redacted")
	}
}
