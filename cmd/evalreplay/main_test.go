package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/internal/conformance"
)

func runCLI(args ...string) (code int, stdout, stderr string) {
	var out, errs bytes.Buffer
	code = run(args, &out, &errs)
	return code, out.String(), errs.String()
}

func TestUsageErrors(t *testing.T) {
	data := t.TempDir()
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no command", nil, "usage: evalreplay"},
		{"unknown command", []string{"frobnicate"}, `unknown command "frobnicate"`},
		{"no domain", []string{"replay", "-data", data}, "-domain is required"},
		{"no data: the embedded copy", []string{"replay", "-domain", "tau2_airline", "-split", "nope"}, `no split "nope"`},
		{"unknown domain", []string{"replay", "-domain", "tau2_space", "-data", data}, `unknown domain "tau2_space" (known: tau2_airline, tau2_retail, tau2_telecom)`},
		{"data not a directory", []string{"replay", "-domain", "tau2_airline", "-data", filepath.Join(data, "nope")}, "is not a directory"},
		{"no tasks file", []string{"replay", "-domain", "tau2_airline", "-data", data}, "tasks.json"},
		{"bad flag", []string{"replay", "-bogus"}, "flag provided but not defined: -bogus"},
		{"bad workers", []string{"replay", "-domain", "tau2_airline", "-data", data, "-workers", "0"}, "-workers must be at least 1"},
		{"stray argument", []string{"replay", "-domain", "tau2_airline", "-data", data, "extra"}, "unexpected arguments: extra"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := runCLI(tt.args...)
			assert.Equal(t, 2, code)
			assert.Contains(t, stderr, tt.want)
		})
	}
}

func TestHelp(t *testing.T) {
	code, stdout, _ := runCLI("help")
	assert.Equal(t, 0, code)
	assert.Contains(t, stdout, "replay")
	code, stdout, _ = runCLI("replay", "-h")
	assert.Equal(t, 0, code)
	assert.Contains(t, stdout, "-split")
}

// referenceLines reads the Python reference's replay of a domain's train
// split: per task, the hashes a replay line carries (the file uses the same
// keys).
func referenceLines(t *testing.T, domain string) map[string]replayLine {
	t.Helper()
	f, err := os.Open(conformance.Path(t, "gold_replay_"+strings.TrimPrefix(domain, "tau2_")+".train.jsonl"))
	require.NoError(t, err)
	defer f.Close()
	out := map[string]replayLine{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var line replayLine
		require.NoError(t, json.Unmarshal(sc.Bytes(), &line))
		out[line.TaskID] = line
	}
	require.NoError(t, sc.Err())
	return out
}

// hashes are a line's DB hashes, both sides, in one comparable string.
func (l replayLine) hashes() string {
	return strings.Join([]string{l.InitialDBHash, l.PostInitDBHash, l.FinalDBHash,
		l.InitialUserDBHash, l.PostInitUserDBHash, l.FinalUserDBHash}, " ")
}

// The replay CLI prints one line per task of the base split, and every
// train-split line carries the Python reference's hashes.
func TestReplayAirlineMatchesTheReference(t *testing.T) {
	t.Parallel()
	requireReplayMatches(t, "tau2_airline", 50, "tasks 50, actions 142, errors 0,")
}

// The same for retail: 114 tasks, whose 18 domain errors (a product, users
// and orders that do not exist, two refused exchanges) are part of the
// reference's replay, not failures.
func TestReplayRetailMatchesTheReference(t *testing.T) {
	t.Parallel()
	requireReplayMatches(t, "tau2_retail", 114, "tasks 114, actions 550, errors 18,")
}

// requireReplayMatches runs the replay of a domain's base split with
// -json, on the embedded data, and requires one line per task, in the
// documented key order, the reference's hashes on every train-split line,
// and summary on stderr.
func requireReplayMatches(t *testing.T, domain string, tasks int, summary string) {
	t.Helper()
	want := referenceLines(t, domain)
	code, stdout, stderr := runCLI("replay", "-domain", domain, "-json")
	require.Equal(t, 0, code, stderr)
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	require.Len(t, lines, tasks)
	matched := 0
	for _, text := range lines {
		var l replayLine
		require.NoError(t, json.Unmarshal([]byte(text), &l))
		assert.Equal(t, domain, l.Domain)
		assert.NotNil(t, l.Errors)
		if ref, ok := want[l.TaskID]; ok {
			assert.Equal(t, ref.hashes(), l.hashes(), "task %s", l.TaskID)
			matched++
		}
	}
	assert.Equal(t, len(want), matched, "every train task was replayed")
	assert.Contains(t, stderr, summary)

	// Keys come in the documented order.
	assert.True(t, strings.HasPrefix(lines[0], `{"domain":"`+domain+`","task_id":`), lines[0])
	assert.Contains(t, lines[0], `"final_db_hash":"`)
}

func TestReplaySelection(t *testing.T) {
	data := conformance.Tau2Dir(t)
	code, stdout, stderr := runCLI("replay", "-domain", "tau2_airline", "-data", data, "-split", "train", "-tasks", "3, 1", "-workers", "1")
	require.Equal(t, 0, code, stderr)
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	require.Len(t, lines, 3, "a header and two rows")
	assert.True(t, strings.HasPrefix(lines[0], "TASK"))
	assert.True(t, strings.HasPrefix(lines[1], "1 "), "task-file order: %q", lines[1])
	assert.True(t, strings.HasPrefix(lines[2], "3 "), lines[2])

	code, _, stderr = runCLI("replay", "-domain", "tau2_airline", "-data", data, "-split", "nope")
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, `no split "nope"`)
	code, _, stderr = runCLI("replay", "-domain", "tau2_airline", "-data", data, "-tasks", "999")
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, `no task "999" in tasks.json`)
	code, _, stderr = runCLI("replay", "-domain", "tau2_airline", "-data", data, "-split", "test", "-tasks", "1")
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, `task "1" is not in split "test"`)
}

// Without -data the CLI replays the embedded copy of the tau2 data; with
// -data it reads the directory. Both print the same lines, for every task
// of every domain.
func TestEmbeddedDataEqualsTheDirectory(t *testing.T) {
	t.Parallel()
	data := conformance.Tau2Dir(t)
	for domain, tasks := range map[string]int{"tau2_airline": 50, "tau2_retail": 114, "tau2_telecom": 114} {
		t.Run(domain, func(t *testing.T) {
			t.Parallel()
			code, embedded, stderr := runCLI("replay", "-domain", domain, "-split", "all", "-json")
			require.Equal(t, 0, code, stderr)
			code, fromDir, stderr := runCLI("replay", "-domain", domain, "-data", data, "-split", "all", "-json")
			require.Equal(t, 0, code, stderr)
			assert.Len(t, strings.Split(strings.TrimSpace(embedded), "\n"), tasks)
			assert.Equal(t, fromDir, embedded)
		})
	}
}

// -domain all replays every domain in one process: its lines are those of
// the domains replayed one by one, in domain order, and every train-split
// line carries the Python reference's hashes.
func TestReplayAllDomains(t *testing.T) {
	t.Parallel()
	code, all, stderr := runCLI("replay", "-domain", "all", "-split", "all", "-json")
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stderr, "tasks 278,")
	var want strings.Builder
	for _, d := range []string{"tau2_airline", "tau2_retail", "tau2_telecom"} {
		code, one, stderr := runCLI("replay", "-domain", d, "-split", "all", "-json")
		require.Equal(t, 0, code, stderr)
		want.WriteString(one)
	}
	require.Equal(t, want.String(), all)

	matched := 0
	refs := map[string]map[string]replayLine{}
	for _, text := range strings.Split(strings.TrimSpace(all), "\n") {
		var l replayLine
		require.NoError(t, json.Unmarshal([]byte(text), &l))
		if refs[l.Domain] == nil {
			refs[l.Domain] = referenceLines(t, l.Domain)
		}
		if ref, ok := refs[l.Domain][l.TaskID]; ok {
			assert.Equal(t, ref.hashes(), l.hashes(), "%s task %s", l.Domain, l.TaskID)
			matched++
		}
	}
	total := 0
	for _, r := range refs {
		total += len(r)
	}
	assert.Equal(t, total, matched, "every train task of every domain was replayed")
	assert.Len(t, refs, 3)
}

func TestReplayAllDomainsFlags(t *testing.T) {
	code, _, stderr := runCLI("replay", "-domain", "all", "-tasks", "1")
	assert.Equal(t, 2, code)
	assert.Equal(t, "evalreplay replay: -tasks names the tasks of one domain: give one -domain\n", stderr)

	// -predicates evaluates the domains that have predicates, and only those.
	code, stdout, stderr := runCLI("replay", "-domain", "all", "-split", "base", "-predicates", "-json")
	require.Equal(t, 0, code, stderr)
	asserted := map[string]bool{}
	for _, text := range strings.Split(strings.TrimSpace(stdout), "\n") {
		var l replayLine
		require.NoError(t, json.Unmarshal([]byte(text), &l))
		asserted[l.Domain] = asserted[l.Domain] || l.Assertions != nil
	}
	assert.Equal(t, map[string]bool{"tau2_airline": false, "tau2_retail": false, "tau2_telecom": true}, asserted)

	// A domain whose data is missing names itself.
	code, _, stderr = runCLI("replay", "-domain", "all", "-data", t.TempDir())
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "evalreplay replay: tau2_airline: ")
}
