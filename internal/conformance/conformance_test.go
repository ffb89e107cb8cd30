package conformance

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// recorder is a testing.TB whose Fatalf records the message and ends the
// goroutine, as the real one does.
type recorder struct {
	testing.TB
	msg string
}

func (r *recorder) Helper() {}

func (r *recorder) Fatalf(format string, args ...any) {
	r.msg = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

// fatal runs f with a recorder and returns the message it failed with ("" if
// it did not).
func fatal(t *testing.T, f func(tb testing.TB)) string {
	r := &recorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		f(r)
	}()
	<-done
	return r.msg
}

func TestDirInRepo(t *testing.T) {
	t.Setenv(EnvVar, "")
	dir := Dir(t)
	if want := filepath.Join("internal", "conformance", "testdata"); !strings.HasSuffix(dir, want) {
		t.Fatalf("Dir = %s, want it to end in %s", dir, want)
	}
	for _, name := range []string{"hash_vectors.jsonl", "hash_vectors_exotic.jsonl", "diff_vectors.jsonl",
		"db_hashes.json", "gold_replay_airline.train.jsonl", "gold_replay_retail.train.jsonl",
		"gold_replay_telecom.train.jsonl", "pyvalue_vectors.jsonl", "tool_schemas_tau2.jsonl",
		"nemo/README.md", "NOTICE"} {
		Path(t, filepath.FromSlash(name))
	}
	Tau2Dir(t, "airline", "db", "flights.json")
	Tau2Dir(t, "telecom", "user_db.json")
	NemoDataDir(t, "eva_airline", "NOTICE.md")
}

func TestDirFromEnv(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(EnvVar, dir)
	if got := Dir(t); got != dir {
		t.Fatalf("Dir = %s, want %s", got, dir)
	}
	if err := os.WriteFile(filepath.Join(dir, "hash_vectors.jsonl"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if got, want := Path(t, "hash_vectors.jsonl"), filepath.Join(dir, "hash_vectors.jsonl"); got != want {
		t.Fatalf("Path = %s, want %s", got, want)
	}
}

func TestMissingFails(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "nope")
	t.Setenv(EnvVar, missing)
	if msg := fatal(t, func(tb testing.TB) { Dir(tb) }); !strings.Contains(msg, missing) || !strings.Contains(msg, EnvVar) {
		t.Errorf("Dir with %s=%s failed with %q, want the variable and the path", EnvVar, missing, msg)
	}
	t.Setenv(EnvVar, dir)
	want := filepath.Join(dir, "diff_vectors.jsonl")
	if msg := fatal(t, func(tb testing.TB) { Path(tb, "diff_vectors.jsonl") }); !strings.Contains(msg, want) {
		t.Errorf("Path of a missing file failed with %q, want the path %s", msg, want)
	}
	if msg := fatal(t, func(tb testing.TB) { Tau2Dir(tb, "no-such-domain") }); !strings.Contains(msg, filepath.Join("tau2data", "no-such-domain")) {
		t.Errorf("Tau2Dir of a missing path failed with %q, want the path", msg)
	}
}
