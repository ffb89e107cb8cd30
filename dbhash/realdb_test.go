package dbhash_test

import (
	"encoding/json"
	"os"
	"path"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/dbhash"
	"github.com/voiceeval/schematools/internal/conformance"
	"github.com/voiceeval/schematools/state"
)

// realDB is one entry of conformance/db_hashes.json.
type realDB struct {
	Name           string  `json:"name"`
	Hash           string  `json:"nemo_get_dict_hash"`
	CanonicalBytes int     `json:"nemo_canonical_bytes"`
	PythonSeconds  float64 `json:"nemo_hash_seconds_median"`
	Files          []struct {
		Path string `json:"path"`
	} `json:"files"`
}

func realDBs(t testing.TB) []realDB {
	t.Helper()
	data, err := os.ReadFile(conformance.Path(t, "db_hashes.json"))
	require.NoError(t, err)
	var doc struct {
		DBs []realDB `json:"dbs"`
	}
	require.NoError(t, json.Unmarshal(data, &doc))
	require.NotEmpty(t, doc.DBs)
	return doc.DBs
}

// loadRealDB loads a conformance DB the way the Python original does: a
// sharded directory for the airline, a single file otherwise. The file paths
// in db_hashes.json start with "tau2/", the data vendored in
// domains/tau2/tau2data.
func loadRealDB(t testing.TB, db realDB) map[string]any {
	t.Helper()
	first, ok := strings.CutPrefix(db.Files[0].Path, "tau2/")
	if !ok {
		t.Fatalf("db_hashes.json: %s: file %s is not under tau2/", db.Name, db.Files[0].Path)
	}
	var rel string
	if len(db.Files) > 1 {
		rel = path.Dir(first)
	} else {
		rel = strings.TrimSuffix(first, ".json")
	}
	v, err := state.LoadDB(conformance.Tau2Dir(t), rel)
	require.NoError(t, err)
	return v
}

func TestRealDBHashes(t *testing.T) {
	t.Parallel()
	for _, db := range realDBs(t) {
		t.Run(db.Name, func(t *testing.T) {
			v := loadRealDB(t, db)
			canonical, err := dbhash.Canonical(v)
			require.NoError(t, err)
			assert.Len(t, canonical, db.CanonicalBytes)
			got, err := dbhash.Hash(v)
			require.NoError(t, err)
			assert.Equal(t, db.Hash, got)
		})
	}
}

func benchmarkRealDB(b *testing.B, name string) {
	for _, db := range realDBs(b) {
		if db.Name != name {
			continue
		}
		v := loadRealDB(b, db)
		canonical, err := dbhash.Canonical(v)
		require.NoError(b, err)
		b.SetBytes(int64(len(canonical)))
		b.ReportAllocs()
		b.ResetTimer()
		for b.Loop() {
			h, err := dbhash.Hash(v)
			if err != nil || h != db.Hash {
				b.Fatalf("hash %s, %v", h, err)
			}
		}
		b.ReportMetric(db.PythonSeconds*1e9/(float64(b.Elapsed().Nanoseconds())/float64(b.N)), "x_faster_than_recorded_python")
		return
	}
	b.Fatalf("no DB %s", name)
}

// BenchmarkHashAirline hashes the tau2 airline DB (3 MB canonical).
func BenchmarkHashAirline(b *testing.B) { benchmarkRealDB(b, "tau2_airline") }

// BenchmarkHashRetail hashes the tau2 retail DB (1.2 MB canonical).
func BenchmarkHashRetail(b *testing.B) { benchmarkRealDB(b, "tau2_retail") }
