// Command calltest runs a suite of ElevenLabs-format tool-call tests
// against a scripted fake agent and prints a readable report, several runs
// per test. A real harness would put a model behind a calltest.Agent
// function instead of the script.
//
//	go run ./examples/calltest [suite-dir]
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/voiceeval/schematools/calltest"
)

func main() {
	dir := filepath.Join("examples", "calltest", "testdata", "suite")
	if len(os.Args) > 1 {
		dir = os.Args[1]
	}
	failed, err := run(os.Stdout, dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "calltest:", err)
		os.Exit(2)
	}
	if failed > 0 {
		os.Exit(1)
	}
}

// runs is how many times each test runs.
const runs = 6

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

// run checks every test file in dir and reports; it returns how many tests
// did not pass every run.
func run(w io.Writer, dir string) (int, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return 0, err
	}
	slices.Sort(files)
	agent := scriptedAgent()
	failed := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return 0, err
		}
		test, err := calltest.LoadElevenLabs(data)
		if err != nil {
			return 0, fmt.Errorf("%s: %w", filepath.Base(f), err)
		}
		// One worker: the script hands out its steps in turn.
		rep, err := calltest.Repeat(context.Background(), agent, test, runs, 1, nil)
		if err != nil {
			return 0, err
		}
		lo, hi := rep.Wilson(1.96)
		fmt.Fprintf(w, "%-40s %d/%d passed  pass^3 %.2f  95%% CI [%.2f, %.2f]\n",
			test.Name, rep.Passed, rep.Runs, rep.PassHatK(3), lo, hi)
		for _, runs := range rep.Failures {
			first := rep.Results[runs[0]]
			reasons := first.ConditionResult().Rationale.Messages
			fmt.Fprintf(w, "    %d run(s): %s\n", len(runs), strings.Join(reasons, "; "))
		}
		if rep.Passed < rep.Runs {
			failed++
		}
	}
	return failed, nil
}
