package conformance

import (
	"encoding/json"
	"os"
	"path"
	"path/filepath"
	"testing"
)

// CountsFile names the manifest, in the in-repo vectors directory, of how
// many records (non-empty lines) each in-repo JSON-lines vector file holds.
const CountsFile = "counts.json"

// MinRecords returns the fewest records a test may accept from the vector
// file named by elem (a path under [Dir], such as "nemo", "eva_airline_calls.jsonl"):
// the in-repo count from [CountsFile], or 1 for a file the manifest does not
// list. The floor is always read from the in-repo manifest, so a larger
// regenerated set passed through SCHEMATOOLS_CONFORMANCE_DIR passes, while an
// empty, truncated or smaller one fails.
func MinRecords(t testing.TB, elem ...string) int {
	t.Helper()
	counts := InRepoCounts(t)
	if n, ok := counts[path.Join(elem...)]; ok {
		return n
	}
	return 1
}

// RequireRecords fails the test unless got, the number of records a test
// read from the vector file named by elem, is at least [MinRecords]. Tests
// take every other count (calls, scripts, matches) from the file itself.
func RequireRecords(t testing.TB, got int, elem ...string) {
	t.Helper()
	if floor := MinRecords(t, elem...); got < floor {
		t.Fatalf("conformance: %s holds %d records, fewer than the %d of the in-repo set (%s); is the file truncated?",
			filepath.Join(append([]string{Dir(t)}, elem...)...), got, floor, CountsFile)
	}
}

// InRepoCounts reads [CountsFile] from the in-repo vectors directory:
// file path (slash-separated, under the directory) → records.
func InRepoCounts(t testing.TB) map[string]int {
	t.Helper()
	p := filepath.Join(ModuleRoot(t), "internal", "conformance", "testdata", CountsFile)
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatalf("conformance: the record-count manifest: %v", err)
	}
	var counts map[string]int
	if err := json.Unmarshal(data, &counts); err != nil {
		t.Fatalf("conformance: %s: %v", p, err)
	}
	return counts
}
