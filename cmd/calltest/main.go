// Command calltest runs a suite of ElevenLabs-format tool-call tests
// against a scripted fake agent and prints a readable report, several runs
// per test (-repeat, 6 by default) with pass^k, k = min(3, -repeat), and a
// Wilson interval.
//
//	go run ./cmd/calltest [-repeat N] [suite-dir]
//
// The same suite runs against a model on the OpenAI, Anthropic or Gemini
// adapter, on the official SDKs, from the provider/providertest module
// (which the core module does not depend on):
//
//	cd provider/providertest && go run ./cmd/calltest -provider openai|anthropic|gemini -llm-model NAME [-llm-url URL]
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/voiceeval/schematools/calltest"
)

func main() {
	repeat := flag.Int("repeat", 6, "runs per test")
	flag.Parse()
	dir := filepath.Join("cmd", "calltest", "testdata", "suite")
	if flag.NArg() > 0 {
		dir = flag.Arg(0)
	}
	failed, err := run(os.Stdout, dir, *repeat)
	if err != nil {
		fmt.Fprintln(os.Stderr, "calltest:", err)
		os.Exit(2)
	}
	if failed > 0 {
		os.Exit(1)
	}
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

// run checks every test file in dir against the scripted agent, runs
// times each, and reports; it returns how many tests did not pass every
// run. The tests are checked against the suite's tools (tools.json next to
// dir), as provider/providertest/cmd/calltest offers them to a model.
func run(w io.Writer, dir string, runs int) (int, error) {
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
