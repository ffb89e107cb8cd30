package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/voiceeval/schematools/harness"
)

// The budget flags: their defaults are the harness's, a value not
// positive is refused, and a run records them in run_args.json; a raised
// budget lets through what the default refuses.
func TestBudgetFlags(t *testing.T) {
	base := []string{"-scenarios", "tau2_retail__0", "-out", t.TempDir()}
	f, err := parse(base, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if f.budgets != harness.DefaultBudgets() {
		t.Errorf("defaults %+v, want %+v", f.budgets, harness.DefaultBudgets())
	}
	for _, flag := range []string{"-max-turn-bytes", "-max-stream-bytes", "-max-held-bytes", "-max-file-bytes", "-max-depth"} {
		for _, v := range []string{"0", "-1"} {
			var stderr bytes.Buffer
			if code := run(append(base, flag, v), io.Discard, &stderr); code != 2 {
				t.Errorf("%s %s: exit %d, want 2", flag, v, code)
			}
		}
	}
	f, err = parse(append(base, "-max-depth", "950", "-max-held-bytes", "1048576"), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if f.budgets.Depth != 950 || f.budgets.HeldBytes != 1<<20 {
		t.Errorf("budgets %+v", f.budgets)
	}

	// A nest 10,000 deep passes the default depth budget; with
	// -max-depth 20000 the harness takes it (the decoder's own bound,
	// 10,000, then says no, naming that cause instead).
	bot := newHostileBot(t, "nesting bomb in the summary")
	dir := evaluateRun(t, "-scenarios", "tau2_retail__0", "-out", t.TempDir(), "-agent-url", bot.agentURL, "-user-url", bot.userURL,
		"-kickoff-delay", "1ms", "-exit-settle", "1ms", "-max-depth", "20000")
	m := readMetrics(t, dir, "tau2_retail__0")
	if herr, _ := m["harness_error"].(string); strings.Contains(herr, "MaxDepth") {
		t.Errorf("-max-depth 20000 still refused the nest: %s", herr)
	}
	b, err := os.ReadFile(filepath.Join(dir, "run_args.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"max_depth": 20000`) {
		t.Errorf("run_args.json lacks max_depth:\n%s", b)
	}
}
