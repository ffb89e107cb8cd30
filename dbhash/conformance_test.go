package dbhash_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/dbhash"
	"github.com/voiceeval/schematools/internal/conformance"
)

// hashVector is one line of conformance/hash_vectors*.jsonl.
type hashVector struct {
	Name       string `json:"name"`
	Kind       string `json:"kind"`
	InputJSON  string `json:"input_json"`
	Hash       string `json:"hash"`
	Serialized string `json:"serialized"`
	Error      string `json:"error"`
}

func readJSONL[T any](t *testing.T, path string) []T {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	var out []T
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
	for sc.Scan() {
		var v T
		require.NoError(t, json.Unmarshal(sc.Bytes(), &v))
		out = append(out, v)
	}
	require.NoError(t, sc.Err())
	return out
}

// firstDiff describes where two byte strings part, with context.
func firstDiff(want, got string) string {
	i := 0
	for i < len(want) && i < len(got) && want[i] == got[i] {
		i++
	}
	lo := max(0, i-40)
	return fmt.Sprintf("first difference at byte %d:\n want …%q…\n  got …%q…", i, want[lo:min(len(want), i+40)], got[lo:min(len(got), i+40)])
}

func checkVector(t *testing.T, v hashVector) {
	t.Helper()
	decoded, err := dbhash.Decode([]byte(v.InputJSON))
	require.NoError(t, err)
	canonical, err := dbhash.Canonical(decoded)
	require.NoError(t, err)
	if string(canonical) != v.Serialized {
		t.Fatalf("canonical text differs from Python's: %s", firstDiff(v.Serialized, string(canonical)))
	}
	got, err := dbhash.HashJSON([]byte(v.InputJSON))
	require.NoError(t, err)
	assert.Equal(t, v.Hash, got)
}

func TestHashVectors(t *testing.T) {
	t.Parallel()
	vectors := readJSONL[hashVector](t, conformance.Path(t, "hash_vectors.jsonl"))
	require.NotEmpty(t, vectors)
	for _, v := range vectors {
		t.Run(v.Name, func(t *testing.T) { checkVector(t, v) })
	}
}

// The exotic inputs (NaN, ±Infinity, 1e400, lone surrogates) are accepted
// and hashed exactly as Python hashes them.
func TestHashVectorsExotic(t *testing.T) {
	t.Parallel()
	vectors := readJSONL[hashVector](t, conformance.Path(t, "hash_vectors_exotic.jsonl"))
	require.NotEmpty(t, vectors)
	for _, v := range vectors {
		t.Run(v.Name, func(t *testing.T) { checkVector(t, v) })
	}
}
