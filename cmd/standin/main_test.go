package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestRunRefusesABadScript(t *testing.T) {
	p := filepath.Join(t.TempDir(), "turns.json")
	assert.NoError(t, os.WriteFile(p, []byte(`{"not": "a list"}`), 0o644))
	assert.Error(t, run([]string{"-script", p}, os.Stdout))
	assert.Error(t, run([]string{"-script", filepath.Join(t.TempDir(), "missing.json")}, os.Stdout))
	assert.Error(t, run([]string{"-addr", "256.0.0.1:1"}, os.Stdout))
	assert.Error(t, run([]string{"-dialect", "cohere"}, os.Stdout))
}

func TestRunRefusesBadTaskFlags(t *testing.T) {
	for _, args := range [][]string{
		{"-domain", "tau2_airline"},
		{"-task", "0"},
		{"-batch-reads"},
		{"-domain", "tau2_airline", "-task", "no-such-task"},
		{"-domain", "coffee", "-task", "0"},
		{"-domain", "tau2_airline", "-task", "0", "-script", "x.json"},
	} {
		assert.Error(t, run(args, os.Stdout), "%v", args)
	}
}

// A script file's turns are the file's, field by field: a turn that
// gives only its text has no calls and no usage. Failed before: the file
// was decoded into the demo script's slice, so the first turn kept the
// demo's tool calls and its usage 120/30.
func TestScriptIsTheFilesOwn(t *testing.T) {
	path := filepath.Join(t.TempDir(), "script.json")
	if err := os.WriteFile(path, []byte(`[{"text": "only text"}]`), 0o644); err != nil {
		t.Fatal(err)
	}
	turns, err := loadScript(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(turns) != 1 || turns[0].Text != "only text" || turns[0].Calls != nil || turns[0].Usage != nil {
		t.Fatalf("turns = %+v", turns)
	}
}
