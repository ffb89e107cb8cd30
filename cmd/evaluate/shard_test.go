package main

import (
	"fmt"
	"strings"
	"testing"
)

// The shard comes from -shard I/N, or from -shards N with a batch
// engine's index; anything else is refused with the reason.
func TestResolveShard(t *testing.T) {
	for _, c := range []struct {
		name         string
		shard        string
		shards       int
		env          map[string]string
		index, count int
		err          string
	}{
		{"unsharded", "", 0, nil, 0, 0, ""},
		{"one shard", "", 1, nil, 0, 0, ""},
		{"flag", "2/4", 0, nil, 2, 4, ""},
		{"flag and shards agree", "0/4", 4, nil, 0, 4, ""},
		{"kubernetes", "", 4, map[string]string{"JOB_COMPLETION_INDEX": "3"}, 3, 4, ""},
		{"slurm", "", 4, map[string]string{"SLURM_ARRAY_TASK_ID": "5", "SLURM_ARRAY_TASK_MIN": "4"}, 1, 4, ""},
		{"slurm from 0", "", 4, map[string]string{"SLURM_ARRAY_TASK_ID": "2"}, 2, 4, ""},
		{"kubernetes first", "", 4, map[string]string{"JOB_COMPLETION_INDEX": "0", "SLURM_ARRAY_TASK_ID": "2"}, 0, 4, ""},
		{"no index", "", 4, nil, 0, 0, "none is set"},
		{"index too large", "", 4, map[string]string{"JOB_COMPLETION_INDEX": "4"}, 0, 0, "JOB_COMPLETION_INDEX=4 is not a shard index"},
		{"index not a number", "", 4, map[string]string{"JOB_COMPLETION_INDEX": "x"}, 0, 0, "is not a shard index"},
		{"flag out of range", "4/4", 0, nil, 0, 0, "want I/N"},
		{"flag malformed", "2", 0, nil, 0, 0, "want I/N"},
		{"flag and shards disagree", "1/4", 3, nil, 0, 0, "disagree"},
		{"negative", "", -1, nil, 0, 0, "must not be negative"},
	} {
		t.Run(c.name, func(t *testing.T) {
			i, n, err := resolveShard(c.shard, c.shards, func(k string) string { return c.env[k] })
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("err %v, want %q", err, c.err)
				}
				return
			}
			if err != nil || i != c.index || n != c.count {
				t.Fatalf("= %d, %d, %v; want %d, %d", i, n, err, c.index, c.count)
			}
		})
	}
}

// A shard directory holds its evaluation: running another queue in it is
// refused, naming it.
func TestShardRefusesAnotherEvaluation(t *testing.T) {
	out := t.TempDir()
	evaluateRun(t, "-scenarios", "tau2_airline__7,tau2_airline__8", "-shard", "0/2", "-out", out)
	f, err := parse([]string{"-scenarios", "tau2_airline__7", "-shard", "0/2", "-out", out}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var stdout, stderr strings.Builder
	err = evaluate(t.Context(), f, &stdout, &stderr)
	if err == nil || !strings.Contains(err.Error(), "shard-0-of-2 holds shard 0 of 2 of another evaluation") {
		t.Fatalf("another queue in a shard's directory: %v", err)
	}
}

// Shards sharing a pool of bots start at their own pairs: shard i takes
// pairs i×parallel on, wrapping around.
func TestShardsTakeTheirOwnPairs(t *testing.T) {
	var as, us []string
	for i := range 8 {
		as = append(as, fmt.Sprintf("ws://a%d", i))
		us = append(us, fmt.Sprintf("ws://u%d", i))
	}
	for _, c := range []struct {
		shard string
		want  []string
	}{
		{"0/4", []string{"ws://a0", "ws://a1"}},
		{"1/4", []string{"ws://a2", "ws://a3"}},
		{"3/4", []string{"ws://a6", "ws://a7"}},
		{"5/6", []string{"ws://a2", "ws://a3"}}, // 10 mod 8: the pool is smaller than the shards need
	} {
		f, err := parse([]string{"-domain", "tau2_airline", "-out", t.TempDir(), "-parallel", "2", "-shard", c.shard,
			"-agent-url", strings.Join(as, ","), "-user-url", strings.Join(us, ",")}, nil)
		if err != nil {
			t.Fatal(err)
		}
		pairs, _, err := startPairs(t.Context(), f, false)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, p := range pairs {
			got = append(got, p.agentURL)
		}
		if strings.Join(got, " ") != strings.Join(c.want, " ") {
			t.Errorf("shard %s: pairs %v, want %v", c.shard, got, c.want)
		}
	}
}

// With -resolve, a pool is a name: its URL pairs fill -parallel slots,
// repeated, whatever the shard (the harness gives each pair and shard its
// own addresses), and run_args records it.
func TestResolvePairsFillParallel(t *testing.T) {
	f, err := parse([]string{"-domain", "tau2_airline", "-out", t.TempDir(), "-parallel", "3", "-shard", "1/4", "-resolve",
		"-agent-url", "ws://agent-bots:8765", "-user-url", "ws://user-bots:8766"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	pairs, _, err := startPairs(t.Context(), f, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(pairs) != 3 {
		t.Fatalf("%d pairs, want 3", len(pairs))
	}
	for _, p := range pairs {
		if p.agentURL != "ws://agent-bots:8765" || p.userURL != "ws://user-bots:8766" {
			t.Errorf("pair %s %s", p.agentURL, p.userURL)
		}
	}
	args := invocation(f)
	if last := args[len(args)-1]; last.Name != "resolve" || last.Value != true {
		t.Errorf("run_args ends with %+v, want resolve: true", last)
	}
}
