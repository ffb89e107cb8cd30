package main

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/domains/nemo/evaairline"
	"github.com/voiceeval/schematools/internal/conformance"
	"github.com/voiceeval/schematools/internal/jsonlines"
)

// An eva_airline scenario set up as NeMo's bridge sets it up: the 16 tools
// in the scenario's order, then the scenario's DB, by db_path under the
// bot's data root or inline. The bot's summary then hashes the scenario's
// initial DB exactly as the Python original does.
func TestEvaScenarioByDBPathAndInline(t *testing.T) {
	t.Parallel() // a set-up waits out the other's RunWait
	ctx := testContext(t)
	url := startBot(t)
	f, err := os.Open(conformance.Path(t, "nemo", "eva_airline_scenarios.jsonl"))
	require.NoError(t, err)
	defer f.Close()
	sc := jsonlines.NewScanner(f)
	require.True(t, sc.Scan())
	var s struct {
		ScenarioID    string `json:"scenario_id"`
		InitialDBHash string `json:"initial_db_hash"`
	}
	require.NoError(t, json.Unmarshal(sc.Line(), &s))
	spec := "{"
	for i, n := range evaairline.ToolNames() {
		if i > 0 {
			spec += ", "
		}
		spec += `"` + n + `": {}`
	}
	spec += "}"
	fixture, err := os.ReadFile(conformance.NemoDataDir(t, "eva_airline", s.ScenarioID+".json"))
	require.NoError(t, err)

	for name, init := range map[string]string{
		"db_path": `{"db_path": "eva_airline/` + s.ScenarioID + `.json"}`,
		"inline":  `{"db": ` + string(fixture) + `}`,
	} {
		t.Run(name, func(t *testing.T) {
			h, err := dialHarness(ctx, url)
			require.NoError(t, err)
			defer h.close()
			_, err = h.ready(ctx)
			require.NoError(t, err)
			for _, step := range []struct {
				t string
				d map[string]any
			}{
				{"update_system_prompt", map[string]any{"prompt": "You are an airline agent.", "tools": spec, "tool_domain": evaairline.Domain}},
				{"apply_initialization", map[string]any{"domain": evaairline.Domain, "shared_state_init": init, "actions": []any{}}},
			} {
				m, err := h.request(ctx, step.t, step.d)
				require.NoError(t, err)
				require.Equal(t, "server-response", m["type"], "%s: %v", step.t, m)
				if d, ok := m["data"].(map[string]any)["d"].(map[string]any); ok {
					require.NotEqual(t, false, d["success"], "%s: %v", step.t, m)
				} else {
					require.Equal(t, true, m["data"].(map[string]any)["d"], "%s: %v", step.t, m)
				}
			}
			m, err := h.request(ctx, "get_scenario_summary", map[string]any{"include_db": false})
			require.NoError(t, err)
			summary := m["data"].(map[string]any)["d"].(map[string]any)
			assert.Equal(t, s.InitialDBHash, summary["db_hash"], "scenario %s", s.ScenarioID)
		})
	}
}
