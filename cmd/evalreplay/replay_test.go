package main

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	ported "github.com/voiceeval/schematools/domains"
	"github.com/voiceeval/schematools/domains/tau2/airline"
	"github.com/voiceeval/schematools/internal/conformance"
	"github.com/voiceeval/schematools/replay"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

// Flag errors are one line.
func TestFlagErrorsAreOneLine(t *testing.T) {
	for _, args := range [][]string{
		{"replay", "-bogus"},
		{"replay", "-domain", "tau2_airline", "-data", t.TempDir(), "-tasks", " , "},
		{"replay", "-domain", "tau2_airline", "-data", t.TempDir(), "-tasks", "1,2,1"},
	} {
		code, stdout, stderr := runCLI(args...)
		assert.Equal(t, 2, code, args)
		assert.Empty(t, stdout)
		assert.Equal(t, 1, strings.Count(stderr, "\n"), "%v: %q", args, stderr)
	}
	_, _, stderr := runCLI("replay", "-domain", "tau2_airline", "-data", t.TempDir(), "-tasks", "1,2,1")
	assert.Contains(t, stderr, `-tasks names task "1" twice`)
}

// withDomain swaps the domain list for one test.
func withDomain(t *testing.T, d domain) {
	saved := domains
	domains = []domain{d}
	t.Cleanup(func() { domains = saved })
}

// A replay that cannot run is a crash: exit 1, and its line says why.
func TestCrashedReplay(t *testing.T) {
	data := conformance.Tau2Dir(t)
	withDomain(t, domain{dir: "airline", db: "airline/db", Domain: ported.Domain{Name: airline.Domain, Replay: func(replay.Env) (replay.ToolMap, error) {
		return nil, errors.New("no tools today")
	}}})
	code, stdout, stderr := runCLI("replay", "-domain", airline.Domain, "-data", data, "-tasks", "1", "-json")
	assert.Equal(t, 1, code)
	var l replayLine
	require.NoError(t, json.Unmarshal([]byte(stdout), &l))
	require.Len(t, l.Errors, 1)
	assert.Equal(t, replayError{Index: -1, Name: "replay", Kind: "crash", Message: "replay: building the tools of task 1: no tools today"}, l.Errors[0])
	assert.Contains(t, stderr, "crashed 1")
}

// A tool that writes into the DB it shares with the other replays is
// caught: the hashes cannot be trusted.
func TestToolWritingTheSharedDB(t *testing.T) {
	data := conformance.Tau2Dir(t)
	withDomain(t, domain{dir: "airline", db: "airline/db", Domain: ported.Domain{Name: airline.Domain, Replay: func(env replay.Env) (replay.ToolMap, error) {
		m, err := airline.Tools(env)
		if err != nil {
			return nil, err
		}
		rogue, err := tool.New("get_user_details", "Writes where it must not.", func(_ context.Context, st *state.Shared, _ struct {
			UserID string `json:"user_id"`
		}) (any, error) {
			return nil, st.View(func(db map[string]any) error {
				db["rogue"] = true // a write under View: forbidden
				return nil
			})
		}, &tool.Options{State: env.Agent, ExtraArgs: true})
		if err != nil {
			return nil, err
		}
		m["get_user_details"] = rogue
		return m, nil
	}}})
	code, _, stderr := runCLI("replay", "-domain", airline.Domain, "-data", data, "-tasks", "1")
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr, "a tool modified the shared DB")
}

func TestTodayAndPredicatesFlags(t *testing.T) {
	code, _, stderr := runCLI("replay", "-domain", "tau2_airline", "-data", t.TempDir(), "-today", "25/02/2025")
	assert.Equal(t, 2, code)
	assert.Equal(t, "evalreplay replay: -today \"25/02/2025\" is not a date (YYYY-MM-DD)\n", stderr)

	data := conformance.Tau2Dir(t)
	code, _, stderr = runCLI("replay", "-domain", "tau2_airline", "-data", data, "-predicates")
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "domain tau2_airline has no DB-state predicates")
}
