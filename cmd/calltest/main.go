// Command calltest runs a suite of ElevenLabs-format tool-call tests and
// prints a readable report: each test several times (-repeat), with the
// pass count, pass^k (k = min(3, -repeat) unless -k says) and the 95 %
// Wilson interval per test. The agent under test is a scripted fake agent
// (no -llm-model), or a model on one of the three adapters — -provider
// openai (any OpenAI-compatible Chat Completions API), anthropic (the
// Messages API) or gemini — on each one's official SDK: one model call per
// run on the test's history with the suite's tools, nothing executed. llm
// checks are decided by a judge model (-judge-model; by default on the
// same provider, server and key, else -judge-provider, -judge-url,
// -judge-key-env) with calltest's judge prompt; without one they are
// Unknown.
//
//	go run ./cmd/calltest [-repeat N] [suite-dir]        # the scripted agent, the repository's suite
//	OPENAI_API_KEY=… go run ./cmd/calltest -provider openai -llm-model gpt-4.1-mini -repeat 8
//	ANTHROPIC_API_KEY=… go run ./cmd/calltest -provider anthropic -llm-model claude-sonnet-4-5
//	GEMINI_API_KEY=… go run ./cmd/calltest -provider gemini -llm-model gemini-2.5-flash
//
// The suite is -suite (cmd/calltest/testdata/suite from the repository
// root) with the tools of -tools. -llm-url is the provider's base URL (for
// openai, e.g. http://127.0.0.1:8000/v1 for vLLM); empty is the provider's
// public endpoint. The key is read from -llm-key-env, by default
// OPENAI_API_KEY, ANTHROPIC_API_KEY or GEMINI_API_KEY after the provider.
// -llm-timeout bounds each request attempt (60 s), -llm-max-tokens the
// output of the model under test (0: none sent; Anthropic's required
// max_tokens is then its adapter's 4096). The exit status is 0 when every
// run of every test passed, 1 when one did not, 2 on a usage or suite
// error.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/voiceeval/schematools/calltest"
)

func main() {
	code, err := run(context.Background(), os.Args[1:], os.Stdout, os.Stderr, os.Getenv)
	if err != nil {
		fmt.Fprintln(os.Stderr, "calltest:", err)
	}
	os.Exit(code)
}

// script is the fake agent: by the last user message, the steps it takes
// in turn (so a test sees flaky behaviour when they differ).
var script = map[string][]calltest.Step{
	"Six of us, tonight at eight.": {
		{Calls: []calltest.Call{{Name: "book_table", Arguments: map[string]any{"party_size": 6, "time": "20:00"}}}},
		{Calls: []calltest.Call{{Name: "book_table", Arguments: map[string]any{"party_size": "6", "time": "8pm"}}}},
	},
	"What time do you open on Sundays?": {
		{Text: "We open at ten on Sundays."},
	},
	"Please cancel order ORD-001, it took too long.": {
		{Calls: []calltest.Call{{Name: "cancel_order", Arguments: map[string]any{"order_id": "ORD-001", "reason": "took too long"}}}},
		{Calls: []calltest.Call{{Name: "cancel_order", Arguments: map[string]any{"order_id": "ORD-001", "reason": "changed my mind"}}}},
		{Calls: []calltest.Call{{Name: "cancel_order", Arguments: map[string]any{"order_id": "ORD-001", "reason": "took too long"}}}},
	},
}

// scriptedAgent answers from the script, cycling through its steps.
func scriptedAgent() calltest.Agent {
	turn := map[string]int{}
	return func(_ context.Context, history []calltest.Turn) (calltest.Step, error) {
		last := history[len(history)-1].Message
		steps, ok := script[last]
		if !ok {
			return calltest.Step{}, fmt.Errorf("no scripted answer to %q", last)
		}
		s := steps[turn[last]%len(steps)]
		turn[last]++
		return s, nil
	}
}

// runScripted checks every test file in dir against the scripted agent, runs
// times each, and reports; it returns how many tests did not pass every
// run. The tests are checked against the suite's tools (tools.json next to
// dir), as they are offered to a model.
func runScripted(w io.Writer, dir string, runs int) (int, error) {
	data, err := os.ReadFile(filepath.Join(dir, "..", "tools.json"))
	if err != nil {
		return 0, err
	}
	tools, err := calltest.LoadTools(data)
	if err != nil {
		return 0, err
	}
	tests, err := calltest.LoadSuite(dir, tools...)
	if err != nil {
		return 0, err
	}
	// One worker: the script hands out its steps in turn.
	return calltest.RunSuite(context.Background(), w, scriptedAgent(), tests, calltest.SuiteOptions{
		Runs: runs, Workers: 1, Options: &calltest.Options{Tools: tools}, // K: min(3, runs)
	})
}
