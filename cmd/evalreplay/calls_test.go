package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/dbhash"
	"github.com/voiceeval/schematools/domains/coffee"
)

func writeScript(t *testing.T, lines ...string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "calls.jsonl")
	require.NoError(t, os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644))
	return p
}

// A coffee session replayed from its call script: one line per call with
// the delivered result and the hash after it; the hash changes only with
// the write.
func TestCallsReplaysAScript(t *testing.T) {
	script := writeScript(t,
		`{"tool": "get_menu", "arguments": {}}`,
		`{"name": "place_order", "arguments": {"customer": "Ada", "items": [{"item_id": "latte", "size": "large", "quantity": 2}]}}`,
		`{"calls": [{"tool": "order_status", "arguments": {"order_id": "ORD-001"}}, {"tool": "place_order", "arguments": {"customer": 7}}]}`,
	)
	code, stdout, stderr := runCLI("calls", "-domain", "coffee", "-script", script)
	require.Equal(t, 0, code, stderr)
	var lines []callLine
	for _, l := range strings.Split(strings.TrimSpace(stdout), "\n") {
		var c callLine
		require.NoError(t, json.Unmarshal([]byte(l), &c))
		lines = append(lines, c)
	}
	require.Len(t, lines, 4)
	initial, err := dbhash.Hash(coffee.DB())
	require.NoError(t, err)
	assert.Equal(t, initial, lines[0].DBHash, "a read changes nothing")
	assert.NotEqual(t, initial, lines[1].DBHash, "the order is in the DB")
	assert.Equal(t, lines[1].DBHash, lines[3].DBHash, "a refused call changes nothing")
	assert.Equal(t, "validation_error", lines[3].Result.(map[string]any)["error_type"])
	assert.Contains(t, stderr, "4 calls, final_db_hash "+lines[3].DBHash)
}

func TestCallsUsageErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"calls"}, "-domain is required"},
		{[]string{"calls", "-domain", "tau2_space"}, `unknown domain "tau2_space"`},
		{[]string{"calls", "-domain", "coffee", "-scenario", "x", "-script", "/nonexistent"}, "nonexistent"},
		{[]string{"calls", "-domain", "coffee", "-scenario", "x", "-script", writeScript(t, `{"tool": "get_menu"}`)}, "no scenario to name"},
		{[]string{"calls", "-domain", "coffee", "-script", writeScript(t, `{"arguments": {}}`)}, `needs "tool"`},
		{[]string{"calls", "-domain", "coffee", "-script", writeScript(t, `{"tool": "nope"}`)}, "nope"},
	} {
		code, _, stderr := runCLI(c.args...)
		assert.Equal(t, 2, code, c.args)
		assert.Contains(t, stderr, c.want, c.args)
	}
}
