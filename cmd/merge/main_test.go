package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// shard writes a finished shard directory of a one-trial evaluation of
// queue under root, as cmd/evaluate -shard I/N leaves it.
func shard(t *testing.T, root string, i, n int, queue []string, lines string) string {
	t.Helper()
	dir := filepath.Join(root, "shard-"+itoa(i)+"-of-"+itoa(n))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	js := `{"shard": ` + itoa(i) + `, "shards": ` + itoa(n) + `, "trials": 1, "min_agent_turns": 0, "scenarios": ["` + strings.Join(queue, `", "`) + `"]}`
	if err := os.WriteFile(filepath.Join(dir, "shard.json"), []byte(js), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "results.jsonl"), []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, n := range queue {
		if strings.Contains(lines, `"scenario":"`+n+`"`) {
			if err := os.MkdirAll(filepath.Join(dir, n), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, n, "metrics.json"), []byte("{}"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	return dir
}

func itoa(i int) string { return string(rune('0' + i)) }

// The command's exits: 0 and the figures for a whole set of shards, 1
// naming a missing or a foreign shard, 2 on a usage error.
func TestMergeCommand(t *testing.T) {
	queue := []string{"d__1", "d__2"}
	line := func(n string) string {
		return `{"scenario":"` + n + `","domain":"d","metrics":{"is_successful":true,"total_turns":4}}` + "\n"
	}
	for _, c := range []struct {
		name string
		prep func(root string) []string // the arguments
		code int
		want string
	}{
		{"whole", func(root string) []string {
			shard(t, root, 0, 2, queue, line("d__1"))
			shard(t, root, 1, 2, queue, line("d__2"))
			return []string{root}
		}, 0, "merged: 2 shards, 2 scenarios, 1 trial(s), 2 of 2 runs passed"},
		{"missing", func(root string) []string {
			shard(t, root, 0, 2, queue, line("d__1"))
			return []string{root}
		}, 1, "shard(s) 1 of 2 missing"},
		{"foreign", func(root string) []string {
			shard(t, root, 0, 2, queue, line("d__1"))
			shard(t, root, 1, 2, []string{"d__1", "d__3"}, line("d__3"))
			return []string{root}
		}, 1, "shard-1-of-2 is a shard of another evaluation"},
		{"no shards", func(root string) []string { return []string{root} }, 1, "holds no shard-I-of-N directory"},
		{"shard dirs without -out", func(root string) []string {
			return []string{shard(t, root, 0, 2, queue, line("d__1")), shard(t, root, 1, 2, queue, line("d__2"))}
		}, 2, "give -out"},
		{"no arguments", func(string) []string { return nil }, 2, "usage: merge"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(c.prep(t.TempDir()), &stdout, &stderr)
			if code != c.code || !strings.Contains(stdout.String()+stderr.String(), c.want) {
				t.Fatalf("exit %d, want %d with %q:\n%s%s", code, c.code, c.want, stdout.String(), stderr.String())
			}
		})
	}
}
