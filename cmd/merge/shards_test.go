package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// buildCommands builds cmd/evaluate and cmd/merge into a temporary
// directory and returns their paths.
func buildCommands(t *testing.T) (evaluate, merge string) {
	t.Helper()
	dir := t.TempDir()
	cmd := exec.Command("go", "build", "-o", dir+string(filepath.Separator), "../evaluate", ".")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return filepath.Join(dir, "evaluate"), filepath.Join(dir, "merge")
}

// results is a run's verdicts: "trial scenario is_successful
// total_turns failed-signals" per results.jsonl line, sorted.
func results(t *testing.T, run string, trials int) []string {
	t.Helper()
	var out []string
	for trial := 1; trial <= trials; trial++ {
		f, err := os.Open(filepath.Join(run, fmt.Sprintf("trial_%d", trial), "results.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<26)
		for sc.Scan() {
			var l struct {
				Scenario string
				Trial    int
				Metrics  struct {
					IsSuccessful     any `json:"is_successful"`
					TotalTurns       int `json:"total_turns"`
					SuccessBreakdown struct {
						Failed []string
					} `json:"success_breakdown"`
				}
			}
			if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
				t.Fatal(err)
			}
			out = append(out, fmt.Sprintf("%d %s %v %d %v", l.Trial, l.Scenario, l.Metrics.IsSuccessful, l.Metrics.TotalTurns, l.Metrics.SuccessBreakdown.Failed))
		}
		f.Close()
	}
	slices.Sort(out)
	return out
}

// timed matches a summary line that holds a time: turns per minute, a
// duration, a latency figure ("Mean: 0.4ms").
var timed = regexp.MustCompile(`(?i)turns/min|duration|\d\s?ms\b|\d\s?s\b`)

// summary is a run-level text file without the lines that hold times
// (turns per minute, durations, latencies), which differ run to run.
func summary(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var keep []string
	for l := range strings.Lines(string(b)) {
		if timed.MatchString(l) {
			continue
		}
		keep = append(keep, l)
	}
	return strings.Join(keep, "")
}

// files lists a run directory's files, relative, run_args.json aside.
func files(t *testing.T, run string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(run, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(run, p)
		if rel != "run_args.json" {
			out = append(out, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}

// The gold set with -trials 2 as one process and as four shard processes
// at once, one of them killed mid-run and restarted (it resumes its
// directory), then merged: the same files, verdicts, counts and summary
// figures as the one process's run (times aside).
func TestShardsMergeToTheUnshardedRun(t *testing.T) {
	evaluate, merge := buildCommands(t)
	common := []string{"-domain", "all-gold", "-trials", "2", "-parallel", "2"}

	oneOut := t.TempDir()
	out, err := exec.Command(evaluate, append(common, "-out", oneOut)...).Output()
	if err != nil {
		t.Fatalf("unsharded: %v\n%s", err, exitText(err))
	}
	one, _, _ := strings.Cut(string(out), ":")

	root := t.TempDir()
	const shards = 4
	start := func(i int) *exec.Cmd {
		c := exec.Command(evaluate, append(common, "-shards", fmt.Sprint(shards), "-out", root)...)
		c.Env = append(os.Environ(), fmt.Sprintf("JOB_COMPLETION_INDEX=%d", i))
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		return c
	}
	cmds := make([]*exec.Cmd, shards)
	for i := range shards {
		cmds[i] = start(i)
	}
	// Kill shard 1 once some of its runs are written, then run it again.
	killedAfter := 0
	results1 := filepath.Join(root, "shard-1-of-4", "trial_1", "results.jsonl")
	for deadline := time.Now().Add(2 * time.Minute); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		b, _ := os.ReadFile(results1)
		if killedAfter = bytes.Count(b, []byte("\n")); killedAfter >= 5 {
			break
		}
	}
	if killedAfter < 5 {
		t.Fatalf("shard 1 wrote %d results in 2 minutes", killedAfter)
	}
	if err := cmds[1].Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = cmds[1].Wait()
	cmds[1] = start(1)
	for i, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Fatalf("shard %d: %v", i, err)
		}
	}
	b, _ := os.ReadFile(results1)
	t.Logf("shard 1 killed after %d results of trial 1, resumed to %d", killedAfter, bytes.Count(b, []byte("\n")))

	mout, err := exec.Command(merge, root).Output()
	if err != nil {
		t.Fatalf("merge: %v\n%s", err, exitText(err))
	}
	merged := filepath.Join(root, "merged")
	t.Logf("%s", mout)

	if got, want := files(t, merged), files(t, one); !slices.Equal(got, want) {
		t.Errorf("merged run has %d files, the unsharded %d", len(got), len(want))
	}
	got, want := results(t, merged, 2), results(t, one, 2)
	if !slices.Equal(got, want) {
		t.Errorf("verdicts differ: merged %d lines, unsharded %d", len(got), len(want))
	}
	for _, f := range []string{"trials_summary.txt", "trial_1/all_summary.txt", "trial_2/all_summary.txt", "trials.json"} {
		if g, w := summary(t, filepath.Join(merged, f)), summary(t, filepath.Join(one, f)); g != w {
			t.Errorf("%s differs between the merged and the unsharded run:\n%s", f, lineDiff(w, g))
		}
	}
	if !strings.Contains(string(mout), fmt.Sprintf("%d shards, %d scenarios, 2 trial(s), %d of %d runs passed", shards, len(want)/2, len(want), len(want))) {
		t.Errorf("merge printed %q", mout)
	}
}

// lineDiff shows the lines of want and got that differ (at most 10).
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var out []string
	for i := 0; i < max(len(w), len(g)) && len(out) < 10; i++ {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			out = append(out, fmt.Sprintf("line %d: unsharded %q, merged %q", i+1, a, b))
		}
	}
	return strings.Join(out, "\n")
}

func exitText(err error) string {
	if ee, ok := err.(*exec.ExitError); ok {
		return string(ee.Stderr)
	}
	return ""
}
