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
	"github.com/voiceeval/schematools/tool"
)

// providers are the three adapters, each with its stand-in dialect.
var providers = []string{"openai", "anthropic", "gemini"}

// standIn serves turns in-process in one dialect and returns the stand-in
// and the base URL its adapter takes.
func standIn(t *testing.T, dialect string, turns ...agenttest.Turn) (*agenttest.Server, string) {
	t.Helper()
	s := agenttest.New(turns...)
	s.Dialect = dialect
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	if dialect == "openai" {
		return s, srv.URL + "/v1"
	}
	return s, srv.URL
}

func call(name, args string) agenttest.Turn {
	return agenttest.Turn{Calls: []tool.ModelCall{{ID: "c1", Name: name, Arguments: args}}}
}

func noEnv(string) string { return "" }

// keys gives a key for each provider's default variable only: the
// Anthropic and Gemini SDKs refuse to send a request without one.
func keys(name string) string {
	for _, v := range keyEnv {
		if name == v {
			return "k-" + name
		}
	}
	return ""
}

// testdata is the repository's cmd/calltest/testdata, seen from here.
var testdata = "testdata"

// repo gives args with the repository's suite and tools, as the defaults
// name them from the repository root; a later -suite overrides.
func repo(args ...string) []string {
	return append([]string{"-tools", filepath.Join(testdata, "tools.json"), "-suite", filepath.Join(testdata, "suite")}, args...)
}

// oneTest copies one test of the repository's suite to a directory of its own.
func oneTest(t *testing.T, name string) string {
	t.Helper()
	dir := t.TempDir()
	data, err := os.ReadFile(filepath.Join(testdata, "suite", name))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, name), data, 0o600))
	return dir
}

// The repository's suite, two runs per test, against scripted answers that
// pass and fail, on each provider; one worker, so the runs take the
// script's turns in order.
func TestSuiteAgainstStandIn(t *testing.T) {
	for _, p := range providers {
		t.Run(p, func(t *testing.T) {
			s, url := standIn(t, p,
				call("book_table", `{"party_size": 6, "time": "20:00"}`),
				call("book_table", `{"party_size": "6", "time": "8pm"}`),
				call("cancel_order", `{"order_id": "ORD-001", "reason": "took too long"}`),
				call("cancel_order", `{"order_id": "ORD-001", "reason": "took too long"}`),
				agenttest.Turn{Text: "We open at ten on Sundays."},
				call("transfer_to_human_agents", `{"summary": "opening hours"}`),
			)
			var out bytes.Buffer
			code, err := run(context.Background(), repo("-provider", p, "-llm-url", url, "-llm-model", "m1", "-repeat", "2", "-workers", "1", "-k", "2", "-retries", "0", "-system", "You book tables."), &out, io.Discard, keys)
			require.NoError(t, err)
			assert.Equal(t, 1, code)
			assert.Equal(t, "model m1 on "+p+" at "+url+", 2 run(s) per test\n"+
				"books a table for six                    1/2 passed  pass^2 0.00  95% CI [0.09, 0.91]\n"+
				"    1 run(s): call 0 to book_table: \"8pm\" (string) does not match /^20:00$/\n"+
				"cancels with the reason given            2/2 passed  pass^2 1.00  95% CI [0.34, 1.00]\n"+
				"does not transfer a simple question      1/2 passed  pass^2 0.00  95% CI [0.09, 0.91]\n"+
				"    1 run(s): transfer_to_human_agents must not be called, but call 0 is to it\n",
				out.String())

			reqs := s.Requests()
			require.Len(t, reqs, 6)
			for _, r := range reqs {
				assert.Equal(t, p, r.Dialect)
				assert.Equal(t, "m1", r.Model)
				if p == "gemini" {
					assert.Len(t, r.Tools, 1, "one tool of three function declarations")
				} else {
					assert.Len(t, r.Tools, 3)
				}
				for _, name := range []string{"book_table", "cancel_order", "transfer_to_human_agents"} {
					assert.Contains(t, string(r.Body), `"`+name+`"`)
				}
				assert.Contains(t, string(r.Body), "You book tables.")
			}
			if p != "openai" {
				return
			}
			// books_for_six: system, user, assistant, user.
			roles := []string{}
			for _, m := range reqs[0].Messages {
				roles = append(roles, m.Role)
			}
			assert.Equal(t, []string{"system", "user", "assistant", "user"}, roles)
		})
	}
}

// Every run passing exits 0.
func TestSuiteAllPass(t *testing.T) {
	for _, p := range providers {
		t.Run(p, func(t *testing.T) {
			_, url := standIn(t, p,
				call("book_table", `{"party_size": 6, "time": "20:00"}`),
				call("cancel_order", `{"order_id": "ORD-001", "reason": "took too long"}`),
				agenttest.Turn{Text: "Ten."},
			)
			var out bytes.Buffer
			code, err := run(context.Background(), repo("-provider", p, "-llm-url", url, "-llm-model", "m", "-repeat", "1", "-workers", "1"), &out, io.Discard, keys)
			require.NoError(t, err)
			assert.Equal(t, 0, code, out.String())
		})
	}
}

// An HTTP 500 (no retries) is an error of its run, reported as such,
// never a pass.
func TestModelErrors(t *testing.T) {
	for _, p := range providers {
		t.Run(p, func(t *testing.T) {
			good := call("cancel_order", `{"order_id": "ORD-001", "reason": "took too long"}`)
			failing := good
			failing.Fault.Fail = []int{500}
			_, url := standIn(t, p, good, failing)
			var out bytes.Buffer
			code, err := run(context.Background(), repo("-provider", p, "-llm-url", url, "-llm-model", "m", "-repeat", "3", "-workers", "1", "-retries", "0", "-suite", oneTest(t, "cancel_reason.json")), &out, io.Discard, keys)
			require.NoError(t, err)
			assert.Equal(t, 1, code)
			// Run 1 passes; run 2 gets the 500 and is not retried; run 3
			// gets the answer of the turn the 500 came before.
			assert.Contains(t, out.String(), "cancels with the reason given            2/3 passed")
			assert.Contains(t, out.String(), "1 error(s)")
			assert.Contains(t, out.String(), "500")
		})
	}
}

// A stream cut before its finish is an error of the run. (A text long
// enough to come in several chunks in every dialect: Gemini sends a call
// whole, in one chunk.)
func TestCutStream(t *testing.T) {
	for _, p := range providers {
		t.Run(p, func(t *testing.T) {
			cut := agenttest.Turn{Text: "I will cancel order ORD-001 for you right away.", Fault: agenttest.Fault{CutAfter: 2}}
			_, url := standIn(t, p, cut)
			var out bytes.Buffer
			code, err := run(context.Background(), repo("-provider", p, "-llm-url", url, "-llm-model", "m", "-repeat", "1", "-retries", "0", "-suite", oneTest(t, "cancel_reason.json")), &out, io.Discard, keys)
			require.NoError(t, err)
			assert.Equal(t, 1, code)
			assert.Contains(t, out.String(), "0/1 passed")
			assert.Contains(t, out.String(), "1 error(s)")
			assert.Contains(t, out.String(), "agent error: calltest: model:")
		})
	}
}

// An llm check decided by a judge on its own stand-in, on each provider:
// pass, fail, and an answer that is not a verdict (Unknown, so the run
// does not pass).
func TestJudgeAgainstStandIn(t *testing.T) {
	for _, p := range providers {
		t.Run(p, func(t *testing.T) {
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
			_, url := standIn(t, p, c, c, c)
			judge, judgeURL := standIn(t, p,
				agenttest.Turn{Text: `{"verdict": "pass", "reason": "it is the user's reason"}`},
				agenttest.Turn{Text: `{"verdict": "fail", "reason": "not the user's words"}`},
				agenttest.Turn{Text: `I think it passes.`},
			)
			var out bytes.Buffer
			code, err := run(context.Background(), repo("-provider", p, "-llm-url", url, "-llm-model", "m", "-judge-url", judgeURL, "-judge-model", "j", "-repeat", "3", "-workers", "1", "-suite", dir), &out, io.Discard, keys)
			require.NoError(t, err)
			assert.Equal(t, 1, code)
			s := out.String()
			assert.Contains(t, s, "gives the user's reason                  1/3 passed")
			assert.Contains(t, s, "judge: not the user's words")
			assert.Contains(t, s, "calltest: not a verdict")
			reqs := judge.Requests()
			require.Len(t, reqs, 3)
			assert.Equal(t, p, reqs[0].Dialect)
			assert.Equal(t, "j", reqs[0].Model)
			assert.Empty(t, reqs[0].Tools)
			assert.Contains(t, string(reqs[0].Body), "This prompt is schematools")
		})
	}
}

// The judge on another provider than the model under test.
func TestJudgeOnOtherProvider(t *testing.T) {
	_, url := standIn(t, "openai", call("cancel_order", `{"order_id": "ORD-001", "reason": "took too long"}`))
	judge, judgeURL := standIn(t, "anthropic", agenttest.Turn{Text: `{"verdict": "pass", "reason": "ok"}`})
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
	var out bytes.Buffer
	code, err := run(context.Background(), repo("-llm-url", url, "-llm-model", "m", "-judge-provider", "anthropic", "-judge-url", judgeURL, "-judge-model", "j", "-repeat", "1", "-suite", dir), &out, io.Discard, keys)
	require.NoError(t, err)
	assert.Equal(t, 0, code, out.String())
	require.Len(t, judge.Requests(), 1)
	assert.Equal(t, "anthropic", judge.Requests()[0].Dialect)
}

// The key is read from the provider's variable unless -llm-key-env names
// another; the judge on the same provider shares it.
func TestKeyEnv(t *testing.T) {
	for _, tc := range []struct {
		args                []string
		llmKey, judgeKeyEnv string
	}{
		{[]string{"-llm-model", "m"}, "OPENAI_API_KEY", "OPENAI_API_KEY"},
		{[]string{"-provider", "anthropic", "-llm-model", "m"}, "ANTHROPIC_API_KEY", "ANTHROPIC_API_KEY"},
		{[]string{"-provider", "gemini", "-llm-model", "m"}, "GEMINI_API_KEY", "GEMINI_API_KEY"},
		{[]string{"-provider", "gemini", "-llm-model", "m", "-llm-key-env", "K"}, "K", "K"},
		{[]string{"-llm-model", "m", "-judge-provider", "gemini"}, "OPENAI_API_KEY", "GEMINI_API_KEY"},
	} {
		c, err := parse(tc.args, io.Discard)
		require.NoError(t, err, tc.args)
		assert.Equal(t, tc.llmKey, c.llm.keyEnv, tc.args)
		assert.Equal(t, tc.judgeKeyEnv, c.judge.keyEnv, tc.args)
	}
}

func TestUsage(t *testing.T) {
	// No -llm-model is the scripted agent (TestNoModelIsTheScriptedAgent):
	// its usage errors are a bad -repeat and more than one argument.
	for _, args := range [][]string{
		{"-repeat", "-1"},
		{"-llm-url", "http://x", "a", "b"},
		{"-llm-url", "http://x", "-llm-model", "m", "-repeat", "-1"},
		{"-llm-url", "http://x", "-llm-model", "m", "extra"},
		{"-llm-model", "m", "-provider", "mistral"},
		{"-llm-model", "m", "-judge-provider", "mistral"},
		{"-nope"},
	} {
		code, err := run(context.Background(), args, &bytes.Buffer{}, io.Discard, noEnv)
		assert.Equal(t, 2, code, args)
		assert.ErrorIs(t, err, errUsage, args)
	}
}
