package dbhash_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/dbhash"
	"github.com/voiceeval/schematools/internal/conformance"
	"github.com/voiceeval/schematools/internal/pyjson"
)

type diffVector struct {
	Name          string `json:"name"`
	ExpectedJSON  string `json:"expected_json"`
	ActualJSON    string `json:"actual_json"`
	DiffCanonical string `json:"diff_canonical"`
	DiffPython    string `json:"diff_python_json"`
	HashExpected  string `json:"hash_expected"`
	HashActual    string `json:"hash_actual"`
}

func TestDiffVectors(t *testing.T) {
	t.Parallel()
	vectors := readJSONL[diffVector](t, conformance.Path(t, "diff_vectors.jsonl"))
	require.NotEmpty(t, vectors)
	for _, v := range vectors {
		t.Run(v.Name, func(t *testing.T) {
			e, err := dbhash.Decode([]byte(v.ExpectedJSON))
			require.NoError(t, err)
			a, err := dbhash.Decode([]byte(v.ActualJSON))
			require.NoError(t, err)
			d := dbhash.Compare(e.(map[string]any), a.(map[string]any))
			got, err := pyjson.Marshal(d.Tree(), pyjson.Compact)
			require.NoError(t, err)
			if string(got) != v.DiffCanonical {
				t.Fatalf("diff differs from Python's: %s", firstDiff(v.DiffCanonical, string(got)))
			}
			marshalled, err := json.Marshal(d)
			require.NoError(t, err)
			assert.JSONEq(t, v.DiffPython, string(marshalled))
			assert.Equal(t, v.DiffCanonical == `{"tables_added":[],"tables_modified":{},"tables_removed":[]}`, d.Empty())

			he, err := dbhash.HashJSON([]byte(v.ExpectedJSON))
			require.NoError(t, err)
			ha, err := dbhash.HashJSON([]byte(v.ActualJSON))
			require.NoError(t, err)
			assert.Equal(t, v.HashExpected, he)
			assert.Equal(t, v.HashActual, ha)
		})
	}
}
