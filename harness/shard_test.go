package harness

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Each shard gets every domain's runs of every trial in even shares, and
// every run goes to exactly one shard.
func TestShardAssignmentBalancesDomains(t *testing.T) {
	var names []string
	for i := range 30 {
		names = append(names, fmt.Sprintf("a__%d", i))
	}
	for i := range 7 {
		names = append(names, fmt.Sprintf("b__%d", i))
	}
	const trials, shards = 3, 4
	got := shardAssignment(names, trials, shards)
	if len(got) != len(names)*trials {
		t.Fatalf("%d runs assigned, want %d", len(got), len(names)*trials)
	}
	for t0 := 1; t0 <= trials; t0++ {
		for _, dom := range []string{"a", "b"} {
			count := make([]int, shards)
			total := 0
			for _, n := range names {
				if prefix(n) == dom {
					count[got[trialJob{name: n, trial: t0}]]++
					total++
				}
			}
			for s, c := range count {
				if c < total/shards || c > total/shards+1 {
					t.Errorf("trial %d, domain %s: shard %d has %d of %d runs", t0, dom, s, c, total)
				}
			}
		}
	}
	// A scenario's trials go to different shards.
	if got[trialJob{"a__0", 1}] == got[trialJob{"a__0", 2}] {
		t.Error("a__0's trials 1 and 2 are on one shard")
	}
}

// writeShard lays out a finished shard of a one-trial evaluation of
// names: shard.json, and a results line and directory per run it owns.
func writeShard(t *testing.T, dir string, s shardFile, skip string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	js := fmt.Sprintf(`{"shard": %d, "shards": %d, "trials": %d, "min_agent_turns": 0, "scenarios": ["%s"]}`,
		s.Shard, s.Shards, s.Trials, strings.Join(s.Scenarios, `", "`))
	if err := os.WriteFile(filepath.Join(dir, fileShard), []byte(js), 0o644); err != nil {
		t.Fatal(err)
	}
	owner := shardAssignment(s.Scenarios, 1, s.Shards)
	var lines strings.Builder
	for _, n := range s.Scenarios {
		if owner[trialJob{name: n, trial: 1}] != s.Shard || n == skip {
			continue
		}
		if err := os.MkdirAll(filepath.Join(dir, n), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, n, fileMetrics), []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&lines, `{"scenario":%q,"domain":%q,"metrics":{"is_successful":true,"total_turns":4}}`+"\n", n, prefix(n))
	}
	if err := os.WriteFile(filepath.Join(dir, fileResults), []byte(lines.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Merge refuses, naming it, a missing shard, a shard of another
// evaluation, a shard given twice and a shard not finished; it writes
// nothing then. Finished shards merge into one run of every scenario.
func TestMergeRefuses(t *testing.T) {
	names := []string{"d__1", "d__2", "d__3", "d__4", "d__5"}
	other := []string{"d__1", "d__2", "d__3", "d__4", "d__6"}
	root := t.TempDir()
	shard := func(name string, i, n int, queue []string, skip string) string {
		dir := filepath.Join(root, name)
		writeShard(t, dir, shardFile{Shard: i, Shards: n, Trials: 1, Scenarios: queue}, skip)
		return dir
	}
	s0, s1, s2 := shard("s0", 0, 3, names, ""), shard("s1", 1, 3, names, ""), shard("s2", 2, 3, names, "")
	foreign := shard("foreign", 2, 3, other, "")
	unfinished := shard("unfinished", 2, 3, names, "d__3")
	noDir := shard("nodir", 2, 3, names, "")
	owner := shardAssignment(names, 1, 3)
	for _, n := range names {
		if owner[trialJob{name: n, trial: 1}] == 2 {
			if err := os.RemoveAll(filepath.Join(noDir, n)); err != nil {
				t.Fatal(err)
			}
			break
		}
	}
	notShard := t.TempDir()
	for _, c := range []struct {
		name string
		dirs []string
		want string
	}{
		{"missing", []string{s0, s2}, "shard(s) 1 of 3 missing"},
		{"foreign", []string{s0, s1, foreign}, foreign + " is a shard of another evaluation"},
		{"twice", []string{s0, s1, s1}, "are both shard 1 of 3"},
		{"unfinished", []string{s0, s1, unfinished}, "shard 2 of 3 (" + unfinished + ") is not finished: 1 run(s) without a result"},
		{"not a shard", []string{notShard}, notShard + " is not a shard directory"},
		{"a result without its directory", []string{s0, s1, noDir}, "has a result but no directory"},
		{"none", nil, "no shard directory"},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "merged")
			err := Merge(out, c.dirs...)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Merge: %v, want %q", err, c.want)
			}
			if _, err := os.Stat(out); err == nil {
				t.Error("a refused merge wrote", out)
			}
		})
	}
	out := filepath.Join(t.TempDir(), "merged")
	if err := Merge(out, s2, s0, s1); err != nil {
		t.Fatal(err)
	}
	tr, err := ReadTrials(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Scenarios) != len(names) || tr.Overall.Successes != len(names) {
		t.Errorf("merged: %d scenarios, %d passed", len(tr.Scenarios), tr.Overall.Successes)
	}
	for i, s := range tr.Scenarios {
		if s.Name != names[i] {
			t.Errorf("merged results in %v order, want the queue's", tr.Scenarios)
			break
		}
	}
	if err := Merge(out, s0, s1, s2); err == nil || !strings.Contains(err.Error(), "is not empty") {
		t.Errorf("merge into a written run: %v", err)
	}
}
