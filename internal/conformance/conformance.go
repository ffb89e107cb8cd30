// Package conformance finds, for tests, the data the repository carries to
// prove that it computes what the Python original computes.
//
// # Vectors
//
// The conformance vectors (DB hashes, diffs, gold replays, CPython value
// semantics, tool schemas, the NeMo domains' call scripts) live in this
// package's testdata directory, internal/conformance/testdata, laid out as
// the generator writes them:
//
//	hash_vectors.jsonl  hash_vectors_exotic.jsonl  diff_vectors.jsonl  db_hashes.json
//	gold_replay_{airline,retail,telecom}.train.jsonl
//	pyvalue_vectors.jsonl  tool_schemas_tau2.jsonl  nemo/…
//
// Setting the environment variable SCHEMATOOLS_CONFORMANCE_DIR to a
// directory with exactly that layout (same file names, same subfolders)
// runs every conformance test against it instead — for instance against
// vectors regenerated from a newer NeMo. [Dir] and [Path] resolve it.
//
// # Counts come from the files
//
// A conformance test checks every record of a vector file and takes its
// counts (scripts, calls, matches) from the file, so a larger regenerated
// set passes as the in-repo one does. The only number it holds a file to is
// a floor: [RequireRecords] fails when a file has fewer records than the
// in-repo set, as listed in testdata/counts.json ([CountsFile]), which a
// test keeps equal to the in-repo files. scripts/check-larger-vectors.sh
// (run by .ci/run) passes a doubled copy of the NeMo vectors, and one with a
// changed hash, through SCHEMATOOLS_CONFORMANCE_DIR.
//
// # Benchmark data
//
// The data the vectors were produced from is vendored under examples/, each
// part with its NOTICE: the tau2-bench domains in domains/tau2/tau2data
// ([Tau2Dir]; the same files are embedded by package tau2data) and the NeMo
// domain fixtures in domains/nemo/nemodata ([NemoDataDir]).
//
// # Never a skip
//
// A conformance test does not skip. When a file or directory is missing the
// test fails, naming the path it looked for.
package conformance

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// EnvVar names the environment variable that replaces the in-repo vectors.
const EnvVar = "SCHEMATOOLS_CONFORMANCE_DIR"

// Dir returns the directory of the conformance vectors: $SCHEMATOOLS_CONFORMANCE_DIR
// when set, else internal/conformance/testdata in the module. The test
// fails when it is not a directory.
func Dir(t testing.TB) string {
	t.Helper()
	if d := os.Getenv(EnvVar); d != "" {
		return requireDir(t, d, EnvVar+" names")
	}
	return requireDir(t, filepath.Join(ModuleRoot(t), "internal", "conformance", "testdata"), "the in-repo conformance vectors are")
}

// Path returns the path of elem under [Dir]; the test fails when nothing
// exists there.
func Path(t testing.TB, elem ...string) string {
	t.Helper()
	return requireExists(t, filepath.Join(append([]string{Dir(t)}, elem...)...))
}

// Tau2Dir returns the tau2 data directory, domains/tau2/tau2data, which
// holds airline/, retail/ and telecom/ (the root that state.LoadDB takes).
// With elem, it returns the path of elem under it. The test fails when the
// path does not exist.
func Tau2Dir(t testing.TB, elem ...string) string {
	t.Helper()
	return requireExists(t, filepath.Join(append([]string{ModuleRoot(t), "domains", "tau2", "tau2data"}, elem...)...))
}

// NemoDataDir returns the NeMo domain fixtures directory,
// domains/nemo/nemodata, or the path of elem under it. The test fails when the
// path does not exist.
func NemoDataDir(t testing.TB, elem ...string) string {
	t.Helper()
	return requireExists(t, filepath.Join(append([]string{ModuleRoot(t), "domains", "nemo", "nemodata"}, elem...)...))
}

// ModuleRoot returns the directory holding the core module's go.mod
// (module github.com/voiceeval/schematools), found from the working
// directory up (a test runs in its package's directory; a nested module's
// go.mod, cmd's for one, is passed by).
func ModuleRoot(t testing.TB) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatalf("conformance: working directory: %v", err)
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		if data, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil && isCoreModule(data) {
			return dir
		}
		if filepath.Dir(dir) == dir {
			t.Fatalf("conformance: no go.mod in %s or above", wd)
		}
	}
}

// isCoreModule says whether a go.mod file is the core module's.
func isCoreModule(gomod []byte) bool {
	for line := range strings.Lines(string(gomod)) {
		if f := strings.Fields(line); len(f) == 2 && f[0] == "module" {
			return strings.Trim(f[1], `"`) == "github.com/voiceeval/schematools"
		}
	}
	return false
}

func requireDir(t testing.TB, dir, what string) string {
	t.Helper()
	info, err := os.Stat(dir)
	if err != nil {
		t.Fatalf("conformance: %s %s, which is missing: %v", what, dir, err)
	}
	if !info.IsDir() {
		t.Fatalf("conformance: %s %s, which is not a directory", what, dir)
	}
	return dir
}

func requireExists(t testing.TB, p string) string {
	t.Helper()
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("conformance: missing %s: %v", p, err)
	}
	return p
}
