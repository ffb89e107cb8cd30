package main

import (
	"bytes"
	"context"
	"io"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/agent/agenttest"
)

// standIn serves turns in-process and returns the stand-in and its base URL.
func standIn(t *testing.T, turns ...agenttest.Turn) (*agenttest.Server, string) {
	t.Helper()
	s := agenttest.New(turns...)
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	return s, srv.URL + "/v1"
}

func call(name, args string) agenttest.Turn {
	return agenttest.Turn{Calls: []agenttest.Call{{ID: "c1", Name: name, Arguments: args}}}
}

func noEnv(string) string { return "" }

// testdata is the repository's examples/calltest/testdata, seen from here.
var testdata = filepath.Join("..", "..", "..", "..", "examples", "calltest", "testdata")

// repo gives args with the repository's suite and tools, as the defaults
// name them from provider/openai; a later -suite overrides.
func repo(args ...string) []string {
	return append([]string{"-tools", filepath.Join(testdata, "tools.json"), "-suite", filepath.Join(testdata, "suite")}, args...)
}

// The repository's suite, two runs per test, against scripted answers that
// pass and fail; one worker, so the runs take the script's turns in order.
func TestSuiteAgainstStandIn(t *testing.T) {
	s, url := standIn(t,
		call("book_table", `{"party_size": 6, "time": "20:00"}`),
		call("book_table", `{"party_size": "6", "time": "8pm"}`),
		call("cancel_order", `{"order_id": "ORD-001", "reason": "took too long"}`),
		call("cancel_order", `{"order_id": "ORD-001", "reason": "took too long"}`),
		agenttest.Turn{Text: "We open at ten on Sundays."},
		call("transfer_to_human_agents", `{"summary": "opening hours"}`),
	)
	var out bytes.Buffer
	code, err := run(context.Background(), repo("-llm-url", url, "-llm-model", "m1", "-repeat", "2", "-workers", "1", "-k", "2", "-system", "You book tables."), &out, io.Discard, noEnv)
	require.NoError(t, err)
	assert.Equal(t, 1, code)
	assert.Equal(t, "model m1 at "+url+", 2 run(s) per test\n"+
		"books a table for six                    1/2 passed  pass^2 0.00  95% CI [0.09, 0.91]\n"+
		"    1 run(s): call 0 to book_table: \"8pm\" (string) does not match /^20:00$/\n"+
		"cancels with the reason given            2/2 passed  pass^2 1.00  95% CI [0.34, 1.00]\n"+
		"does not transfer a simple question      1/2 passed  pass^2 0.00  95% CI [0.09, 0.91]\n"+
		"    1 run(s): transfer_to_human_agents must not be called, but call 0 is to it\n",
		out.String())

	reqs := s.Requests()
	require.Len(t, reqs, 6)
	for _, r := range reqs {
		assert.Equal(t, "m1", r.Model)
		assert.Len(t, r.Tools, 3)
		assert.Equal(t, "system", r.Messages[0].Role)
		assert.Equal(t, "You book tables.", r.Messages[0].Text())
	}
	// books_for_six: system, user, assistant, user.
	roles := []string{}
	for _, m := range reqs[0].Messages {
		roles = append(roles, m.Role)
	}
	assert.Equal(t, []string{"system", "user", "assistant", "user"}, roles)
}

// Every run passing exits 0.
func TestSuiteAllPass(t *testing.T) {
	_, url := standIn(t,
		call("book_table", `{"party_size": 6, "time": "20:00"}`),
		call("cancel_order", `{"order_id": "ORD-001", "reason": "took too long"}`),
		agenttest.Turn{Text: "Ten."},
	)
	var out bytes.Buffer
	code, err := run(context.Background(), repo("-llm-url", url, "-llm-model", "m", "-repeat", "1", "-workers", "1"), &out, io.Discard, noEnv)
	require.NoError(t, err)
	assert.Equal(t, 0, code, out.String())
}

// An HTTP 500 (no retries) is an error of its run, reported as such,
// never a pass.
func TestModelErrors(t *testing.T) {
	dir := t.TempDir()
	suite := filepath.Join(testdata, "suite", "cancel_reason.json")
	data, err := os.ReadFile(suite)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "cancel_reason.json"), data, 0o600))

	good := call("cancel_order", `{"order_id": "ORD-001", "reason": "took too long"}`)
	failing := good
	failing.Fault.Fail = []int{500}
	_, url := standIn(t, good, failing)
	var out bytes.Buffer
	code, err := run(context.Background(), repo("-llm-url", url, "-llm-model", "m", "-repeat", "3", "-workers", "1", "-retries", "0", "-suite", dir), &out, io.Discard, noEnv)
	require.NoError(t, err)
	assert.Equal(t, 1, code)
	// Run 1 passes; run 2 gets the 500 and is not retried; run 3 gets the
	// answer of the turn the 500 came before.
	assert.Contains(t, out.String(), "cancels with the reason given            2/3 passed")
	assert.Contains(t, out.String(), "1 error(s)")
	assert.Contains(t, out.String(), "500")
}

// A stream cut before its finish is an error of the run.
func TestCutStream(t *testing.T) {
	dir := t.TempDir()
	suite := filepath.Join(testdata, "suite", "cancel_reason.json")
	data, err := os.ReadFile(suite)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "cancel_reason.json"), data, 0o600))

	cut := call("cancel_order", `{"order_id": "ORD-001", "reason": "took too long"}`)
	cut.Fault.CutAfter = 2
	_, url := standIn(t, cut)
	var out bytes.Buffer
	code, err := run(context.Background(), repo("-llm-url", url, "-llm-model", "m", "-repeat", "1", "-retries", "0", "-suite", dir), &out, io.Discard, noEnv)
	require.NoError(t, err)
	assert.Equal(t, 1, code)
	assert.Contains(t, out.String(), "0/1 passed")
	assert.Contains(t, out.String(), "1 error(s)")
	assert.Contains(t, out.String(), "agent error: calltest: model:")
}

// An llm check decided by a judge on its own stand-in: pass, fail, and an
// answer that is not a verdict (Unknown, so the run does not pass).
func TestJudgeAgainstStandIn(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "reason.json"), []byte(`{
  "type": "tool",
  "name": "gives the user's reason",
  "chat_history": [{"role": "user", "message": "Please cancel order ORD-001, it took too long."}],
  "tool_call_parameters": {
    "referenced_tool": {"id": "cancel_order", "type": "webhook"},
    "parameters": [{"path": "reason", "eval": {"type": "llm", "description": "the reason the user gave for cancelling"}}]
  }
}`), 0o600))
	c := call("cancel_order", `{"order_id": "ORD-001", "reason": "took too long"}`)
	_, url := standIn(t, c, c, c)
	judge, judgeURL := standIn(t,
		agenttest.Turn{Text: `{"verdict": "pass", "reason": "it is the user's reason"}`},
		agenttest.Turn{Text: `{"verdict": "fail", "reason": "not the user's words"}`},
		agenttest.Turn{Text: `I think it passes.`},
	)
	var out bytes.Buffer
	code, err := run(context.Background(), repo("-llm-url", url, "-llm-model", "m", "-judge-url", judgeURL, "-judge-model", "j", "-repeat", "3", "-workers", "1", "-suite", dir), &out, io.Discard, noEnv)
	require.NoError(t, err)
	assert.Equal(t, 1, code)
	s := out.String()
	assert.Contains(t, s, "gives the user's reason                  1/3 passed")
	assert.Contains(t, s, "judge: not the user's words")
	assert.Contains(t, s, "calltest: not a verdict")
	reqs := judge.Requests()
	require.Len(t, reqs, 3)
	assert.Equal(t, "j", reqs[0].Model)
	assert.Empty(t, reqs[0].Tools)
	assert.Contains(t, reqs[0].Messages[0].Text(), "This prompt is schematools' own")
}

func TestUsage(t *testing.T) {
	for _, args := range [][]string{
		{},
		{"-llm-url", "http://x"},
		{"-llm-url", "http://x", "-llm-model", "m", "-repeat", "0"},
		{"-llm-url", "http://x", "-llm-model", "m", "extra"},
		{"-nope"},
	} {
		code, err := run(context.Background(), args, &bytes.Buffer{}, io.Discard, noEnv)
		assert.Equal(t, 2, code, args)
		assert.ErrorIs(t, err, errUsage, args)
	}
}
