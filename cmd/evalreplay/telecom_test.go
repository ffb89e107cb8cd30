package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/internal/conformance"
)

// The telecom lines carry both sides' hashes, equal to the reference's,
// and the output does not depend on the day it runs: -today pins the clock
// (its default is the reference date).
func TestReplayTelecomMatchesTheReference(t *testing.T) {
	t.Parallel()
	data := conformance.Tau2Dir(t)
	want := referenceLines(t, "tau2_telecom")
	code, stdout, stderr := runCLI("replay", "-domain", "tau2_telecom", "-data", data, "-json")
	require.Equal(t, 0, code, stderr)
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	require.Len(t, lines, 114)
	matched := 0
	for _, text := range lines {
		var l replayLine
		require.NoError(t, json.Unmarshal([]byte(text), &l))
		ref, ok := want[l.TaskID]
		if !ok {
			continue
		}
		matched++
		require.NotEmpty(t, ref.FinalUserDBHash)
		assert.Equal(t, ref.hashes(), l.hashes(), "both sides of %s", l.TaskID)
		assert.Empty(t, l.Errors)
	}
	assert.Equal(t, len(want), matched, "every reference task was replayed")

	code, pinned, _ := runCLI("replay", "-domain", "tau2_telecom", "-data", data, "-json", "-today", "2025-02-25")
	require.Equal(t, 0, code)
	assert.Equal(t, stdout, pinned, "the default is the reference date")
	code, other, _ := runCLI("replay", "-domain", "tau2_telecom", "-data", data, "-json", "-today", "2026-11-30")
	require.Equal(t, 0, code)
	assert.NotEqual(t, stdout, other, "the date reaches the date-dependent tasks")
}

func TestReplayTelecomPredicates(t *testing.T) {
	t.Parallel()
	data := conformance.Tau2Dir(t)
	code, stdout, stderr := runCLI("replay", "-domain", "tau2_telecom", "-data", data, "-split", "train", "-json", "-predicates")
	require.Equal(t, 0, code, stderr)
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	require.Len(t, lines, 74)
	for _, text := range lines {
		var l struct {
			TaskID     string `json:"task_id"`
			Assertions []struct {
				FuncName string `json:"func_name"`
				Passed   bool   `json:"passed"`
			} `json:"assertions"`
		}
		require.NoError(t, json.Unmarshal([]byte(text), &l))
		for _, a := range l.Assertions {
			assert.True(t, a.Passed, "%s: %s", l.TaskID, a.FuncName)
		}
	}
	code, table, _ := runCLI("replay", "-domain", "tau2_telecom", "-data", data, "-split", "train", "-predicates")
	require.Equal(t, 0, code)
	assert.Contains(t, table, "2/2 passed")
}
