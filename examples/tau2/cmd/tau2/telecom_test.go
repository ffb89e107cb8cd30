package main

import (
	"bufio"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/internal/sharedtest"
)

// referenceUserHashes reads the Python reference's user-side hashes of the
// telecom train tasks.
func referenceUserHashes(t *testing.T) map[string]string {
	t.Helper()
	f, err := os.Open(sharedtest.Path(t, "conformance", "gold_replay_telecom.train.jsonl"))
	require.NoError(t, err)
	defer f.Close()
	out := map[string]string{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var line struct {
			TaskID   string `json:"task_id"`
			Initial  string `json:"initial_user_db_hash"`
			PostInit string `json:"post_init_user_db_hash"`
			Final    string `json:"final_user_db_hash"`
		}
		require.NoError(t, json.Unmarshal(sc.Bytes(), &line))
		out[line.TaskID] = line.Initial + " " + line.PostInit + " " + line.Final
	}
	require.NoError(t, sc.Err())
	return out
}

// The telecom lines carry both sides' hashes, equal to the reference's,
// and the output does not depend on the day it runs: -today pins the clock
// (its default is the reference date).
func TestReplayTelecomMatchesTheReference(t *testing.T) {
	data := sharedtest.Path(t, "tau2")
	agent, user := referenceHashes(t, "tau2_telecom"), referenceUserHashes(t)
	code, stdout, stderr := runCLI("replay", "-domain", "tau2_telecom", "-data", data, "-json")
	require.Equal(t, 0, code, stderr)
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	require.Len(t, lines, 114)
	matched := 0
	for _, text := range lines {
		var l replayLine
		require.NoError(t, json.Unmarshal([]byte(text), &l))
		want, ok := agent[l.TaskID]
		if !ok {
			continue
		}
		matched++
		assert.Equal(t, want, l.InitialDBHash+" "+l.PostInitDBHash+" "+l.FinalDBHash, "agent side of %s", l.TaskID)
		assert.Equal(t, user[l.TaskID], l.InitialUserDBHash+" "+l.PostInitUserDBHash+" "+l.FinalUserDBHash, "user side of %s", l.TaskID)
		assert.Empty(t, l.Errors)
	}
	assert.Equal(t, 74, matched)

	code, pinned, _ := runCLI("replay", "-domain", "tau2_telecom", "-data", data, "-json", "-today", "2025-02-25")
	require.Equal(t, 0, code)
	assert.Equal(t, stdout, pinned, "the default is the reference date")
	code, other, _ := runCLI("replay", "-domain", "tau2_telecom", "-data", data, "-json", "-today", "2026-11-30")
	require.Equal(t, 0, code)
	assert.NotEqual(t, stdout, other, "the date reaches the date-dependent tasks")
}

func TestReplayTelecomPredicates(t *testing.T) {
	data := sharedtest.Path(t, "tau2")
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
