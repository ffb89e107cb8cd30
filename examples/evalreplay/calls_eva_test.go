package main

import (
	"bufio"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/internal/conformance"
)

// Every eva_airline gold path (eva_airline_gold_paths.jsonl, produced by
// the Python original), given to calls as it stands in the file, ends at
// the scenario's expected DB hash.
func TestCallsReplaysTheEvaGoldPaths(t *testing.T) {
	f, err := os.Open(conformance.Path(t, "nemo", "eva_airline_gold_paths.jsonl"))
	require.NoError(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 1<<20), 16<<20)
	replayed := 0
	for sc.Scan() {
		var g struct {
			ScenarioID  string            `json:"scenario_id"`
			Found       bool              `json:"found"`
			Calls       []json.RawMessage `json:"calls"`
			FinalDBHash string            `json:"final_db_hash"`
		}
		require.NoError(t, json.Unmarshal(sc.Bytes(), &g))
		if !g.Found || len(g.Calls) == 0 {
			continue
		}
		script := writeScript(t, sc.Text())
		code, stdout, stderr := runCLI("calls", "-domain", "eva_airline", "-scenario", g.ScenarioID, "-script", script)
		require.Equal(t, 0, code, "%s: %s", g.ScenarioID, stderr)
		lines := strings.Split(strings.TrimSpace(stdout), "\n")
		require.Len(t, lines, len(g.Calls), g.ScenarioID)
		var last callLine
		require.NoError(t, json.Unmarshal([]byte(lines[len(lines)-1]), &last))
		assert.Equal(t, g.FinalDBHash, last.DBHash, g.ScenarioID)
		assert.Contains(t, stderr, "final_db_hash "+g.FinalDBHash, g.ScenarioID)
		replayed++
	}
	require.NoError(t, sc.Err())
	t.Logf("%d gold paths replayed", replayed)
	assert.Greater(t, replayed, 20)
}
