package conformance

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCountsMatchTheInRepoFiles keeps the manifest true: it lists every
// in-repo JSON-lines vector file with its number of non-empty lines.
func TestCountsMatchTheInRepoFiles(t *testing.T) {
	t.Setenv(EnvVar, "")
	root := Dir(t)
	want := InRepoCounts(t)
	seen := map[string]bool{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".jsonl") {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		n := 0
		for line := range bytes.Lines(data) {
			if len(bytes.TrimSpace(line)) > 0 {
				n++
			}
		}
		seen[rel] = true
		if want[rel] != n {
			t.Errorf("%s: %d records, %s says %d", rel, n, CountsFile, want[rel])
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for rel := range want {
		if !seen[rel] {
			t.Errorf("%s lists %s, which is not in the in-repo vectors", CountsFile, rel)
		}
	}
}

func TestRequireRecords(t *testing.T) {
	for _, c := range []struct {
		got     int
		elem    []string
		wantMsg string
	}{
		{132, []string{"nemo", "eva_airline_calls.jsonl"}, ""},
		{200, []string{"nemo", "eva_airline_calls.jsonl"}, ""},
		{131, []string{"nemo", "eva_airline_calls.jsonl"}, "fewer than the 132"},
		{0, []string{"not_in_the_manifest.jsonl"}, "fewer than the 1"},
		{1, []string{"not_in_the_manifest.jsonl"}, ""},
	} {
		msg := fatal(t, func(tb testing.TB) { RequireRecords(tb, c.got, c.elem...) })
		if c.wantMsg == "" && msg != "" || !strings.Contains(msg, c.wantMsg) {
			t.Errorf("RequireRecords(%d, %v): %q, want %q", c.got, c.elem, msg, c.wantMsg)
		}
	}
}
