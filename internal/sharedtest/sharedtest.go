// Package sharedtest finds the project's shared, read-only data (the tau2
// DBs and tasks, the conformance vectors produced by the Python original)
// for tests. The data is read in place and never copied into the module.
//
// The directory is $SCHEMATOOLS_SHARED when set, otherwise "../shared"
// beside the module root. When it is missing, tests that need it are
// skipped — except when the CI environment variable is set, where they fail,
// so a CI run can never pass by silently testing less.
package sharedtest

import (
	"os"
	"path/filepath"
	"testing"
)

// EnvVar names the environment variable that overrides the shared
// directory.
const EnvVar = "SCHEMATOOLS_SHARED"

// Dir returns the shared data directory, or ends the test (skip locally,
// fail under CI) when it cannot be found.
func Dir(t testing.TB) string {
	t.Helper()
	dir, err := find()
	if err != nil {
		missing(t, err.Error())
	}
	return dir
}

// Path returns the path of elem under the shared directory and checks that
// it exists, ending the test as [Dir] does when it does not.
func Path(t testing.TB, elem ...string) string {
	t.Helper()
	p := filepath.Join(append([]string{Dir(t)}, elem...)...)
	if _, err := os.Stat(p); err != nil {
		missing(t, err.Error())
	}
	return p
}

func missing(t testing.TB, why string) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatalf("shared test data is required under CI but missing: %s (set %s or place it at ../shared beside the module root)", why, EnvVar)
	}
	t.Skipf("shared test data not found: %s (set %s)", why, EnvVar)
}

type notFoundError string

func (e notFoundError) Error() string { return string(e) }

func find() (string, error) {
	if d := os.Getenv(EnvVar); d != "" {
		if info, err := os.Stat(d); err != nil || !info.IsDir() {
			return "", notFoundError(EnvVar + "=" + d + " is not a directory")
		}
		return d, nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			shared := filepath.Join(filepath.Dir(dir), "shared")
			if info, err := os.Stat(shared); err == nil && info.IsDir() {
				return shared, nil
			}
			return "", notFoundError(shared + " does not exist")
		}
		if filepath.Dir(dir) == dir {
			return "", notFoundError("no go.mod above " + wd)
		}
	}
}
