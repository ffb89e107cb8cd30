package main

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/internal/conformance"
	"github.com/voiceeval/schematools/internal/jsonlines"
)

// Every eva_airline gold path (eva_airline_gold_paths.jsonl, produced by
// the Python original), given to calls as it stands in the file, ends at
// the scenario's expected DB hash.
func TestCallsReplaysTheEvaGoldPaths(t *testing.T) {
	f, err := os.Open(conformance.Path(t, "nemo", "eva_airline_gold_paths.jsonl"))
	require.NoError(t, err)
	defer f.Close()
	sc := jsonlines.NewScanner(f)
	replayed := 0
	for sc.Scan() {
		var g struct {
			ScenarioID  string            `json:"scenario_id"`
			Found       bool              `json:"found"`
			Calls       []json.RawMessage `json:"calls"`
			FinalDBHash string            `json:"final_db_hash"`
		}
		require.NoError(t, json.Unmarshal(sc.Line(), &g))
		if !g.Found || len(g.Calls) == 0 {
			continue
		}
		script := writeScript(t, string(sc.Line()))
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

// scenarios prints every eva_airline scenario's initial and expected DB
// hashes; the 33 public ones equal eva_airline_scenarios.jsonl's.
func TestScenariosPrintsTheHashes(t *testing.T) {
	code, stdout, stderr := runCLI("scenarios", "-domain", "eva_airline")
	require.Equal(t, 0, code, stderr)
	got := map[string]scenarioLine{}
	for _, l := range strings.Split(strings.TrimSpace(stdout), "\n") {
		var s scenarioLine
		require.NoError(t, json.Unmarshal([]byte(l), &s))
		got[s.ScenarioID] = s
	}
	require.Len(t, got, 50)
	f, err := os.Open(conformance.Path(t, "nemo", "eva_airline_scenarios.jsonl"))
	require.NoError(t, err)
	defer f.Close()
	sc := jsonlines.NewScanner(f)
	n := 0
	for sc.Scan() {
		var want scenarioLine
		require.NoError(t, json.Unmarshal(sc.Line(), &want))
		assert.Equal(t, want, got[want.ScenarioID], want.ScenarioID)
		n++
	}
	conformance.RequireRecords(t, n, "nemo", "eva_airline_scenarios.jsonl")

	code, _, stderr = runCLI("scenarios", "-domain", "tau2_airline")
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "share one DB")
}
