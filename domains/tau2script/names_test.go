package tau2script

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/domains/nemo/scenarios"
)

// Each tau2 task names exactly one shipped scenario, and each shipped tau2
// scenario is one task's.
func TestScenarioSuffixNamesEveryShippedScenario(t *testing.T) {
	names, err := scenarios.Names()
	require.NoError(t, err)
	for _, domain := range []string{"tau2_airline", "tau2_retail", "tau2_telecom"} {
		d, err := Load(domain)
		require.NoError(t, err)
		shipped := map[string]bool{}
		for _, n := range names {
			if s, ok := strings.CutPrefix(n, domain+"__"); ok {
				shipped[s] = true
			}
		}
		seen := map[string]bool{}
		for _, task := range d.Tasks {
			s := ScenarioSuffix(task.ID)
			assert.True(t, shipped[s], "%s: task %q gives %q, no shipped scenario", domain, task.ID, s)
			assert.False(t, seen[s], "%s: %q twice", domain, s)
			seen[s] = true
			got, err := d.TaskByScenario(s)
			require.NoError(t, err)
			assert.Equal(t, task.ID, got.ID)
		}
		assert.Equal(t, len(shipped), len(seen), "%s: shipped scenarios without a task", domain)
	}
}

func TestScenarioSuffix(t *testing.T) {
	for in, want := range map[string]string{
		"7": "7",
		"[mobile_data_issue]data_usage_exceeded|user_abroad_roaming_enabled_off[PERSONA:Easy]": "mobile_data_issue__data_usage_exceeded__user_abroad_roaming_enabled_off__easy",
		"[mms_issue]airplane_mode_on[PERSONA:None]":                                            "mms_issue__airplane_mode_on",
		"[broken":        "[broken",
		"[a]b[PERSONA:x": "[a]b[PERSONA:x",
		"[a]b":           "[a]b",
	} {
		assert.Equal(t, want, ScenarioSuffix(in), in)
	}
}
