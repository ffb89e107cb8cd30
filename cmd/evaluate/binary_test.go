package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// binDir holds the command built for the tests that run it as a process;
// TestMain removes it.
var binDir string

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir) //nolint:errcheck // a temporary directory
	}
	os.Exit(code)
}

// builtEvaluate builds this command once, for every test that runs it as
// a process (the binary is read-only to them).
var builtEvaluate = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "evaluate-test-")
	if err != nil {
		return "", err
	}
	binDir = dir
	bin := filepath.Join(dir, "evaluate")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build: %v\n%s", err, out)
	}
	return bin, nil
})

// evaluateBinary is the command built by builtEvaluate.
func evaluateBinary(t *testing.T) string {
	t.Helper()
	bin, err := builtEvaluate()
	if err != nil {
		t.Fatal(err)
	}
	return bin
}
