// Command calltest runs a suite of ElevenLabs-format tool-call tests
// (by default the repository's, examples/calltest/testdata) against any
// OpenAI-compatible Chat Completions model, on the official SDK: each test
// -repeat times, one model call per run on the test's history with the
// suite's tools, nothing executed, and a report with the pass count,
// pass^k and the 95 % Wilson interval per test. llm checks are decided by
// a judge model (-judge-url, -judge-model; the same server and key by
// default) with calltest.JudgePrompt; without one they are Unknown.
//
//	cd provider/openai
//	OPENAI_API_KEY=… go run ./cmd/calltest -llm-url https://api.openai.com/v1 -llm-model gpt-4.1-mini -repeat 8
//
// It lives in the provider/openai module because the core module
// (examples/calltest, which runs the suite against a scripted agent) does
// not depend on the SDK. The exit status is 0 when every run of every test
// passed, 1 when one did not, 2 on a usage or suite error.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"

	"github.com/voiceeval/schematools/calltest"
	"github.com/voiceeval/schematools/provider/openai"
	"github.com/voiceeval/schematools/tool"
)

func main() {
	code, err := run(context.Background(), os.Args[1:], os.Stdout, os.Stderr, os.Getenv)
	if err != nil {
		fmt.Fprintln(os.Stderr, "calltest:", err)
	}
	os.Exit(code)
}

// config is what the flags say.
type config struct {
	llmURL, llmModel, llmKeyEnv       string
	judgeURL, judgeModel, judgeKeyEnv string
	suite, tools, system              string
	repeat, workers, k, retries       int
}

// errUsage marks a usage error (exit status 2, after the flags' usage).
var errUsage = errors.New("usage")

func parse(args []string, stderr io.Writer) (config, error) {
	var c config
	fs := flag.NewFlagSet("calltest", flag.ContinueOnError)
	fs.SetOutput(stderr)
	root := filepath.Join("..", "..", "examples", "calltest", "testdata")
	fs.StringVar(&c.llmURL, "llm-url", "", "base URL of the OpenAI-compatible API under test (e.g. https://api.openai.com/v1); required")
	fs.StringVar(&c.llmModel, "llm-model", "", "model under test; required")
	fs.StringVar(&c.llmKeyEnv, "llm-key-env", "OPENAI_API_KEY", "environment variable holding the API key")
	fs.StringVar(&c.judgeURL, "judge-url", "", "base URL of the judge's API (default: -llm-url)")
	fs.StringVar(&c.judgeModel, "judge-model", "", "judge model for llm checks (none: llm checks are Unknown)")
	fs.StringVar(&c.judgeKeyEnv, "judge-key-env", "", "environment variable holding the judge's key (default: -llm-key-env)")
	fs.StringVar(&c.suite, "suite", filepath.Join(root, "suite"), "directory of ElevenLabs test files (*.json)")
	fs.StringVar(&c.tools, "tools", filepath.Join(root, "tools.json"), "the tools offered to the model (calltest.LoadTools)")
	fs.StringVar(&c.system, "system", "", "system prompt of the agent under test")
	fs.IntVar(&c.repeat, "repeat", 5, "runs per test")
	fs.IntVar(&c.workers, "workers", 4, "runs at once per test")
	fs.IntVar(&c.k, "k", 3, "the k of pass^k")
	fs.IntVar(&c.retries, "retries", openai.DefaultMaxRetries, "retries of a failed request (the SDK's)")
	if err := fs.Parse(args); err != nil {
		return c, errUsage
	}
	switch {
	case fs.NArg() > 0:
		return c, fmt.Errorf("%w: unexpected arguments %q", errUsage, fs.Args())
	case c.llmURL == "" || c.llmModel == "":
		return c, fmt.Errorf("%w: -llm-url and -llm-model are required", errUsage)
	case c.repeat < 1 || c.workers < 1 || c.k < 1:
		return c, fmt.Errorf("%w: -repeat, -workers and -k must be at least 1", errUsage)
	}
	if c.judgeURL == "" {
		c.judgeURL = c.llmURL
	}
	if c.judgeKeyEnv == "" {
		c.judgeKeyEnv = c.llmKeyEnv
	}
	return c, nil
}

// run runs the suite as args say and returns the exit status.
func run(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) (int, error) {
	c, err := parse(args, stderr)
	if err != nil {
		return 2, err
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt)
	defer stop()

	data, err := os.ReadFile(c.tools)
	if err != nil {
		return 2, err
	}
	tools, err := calltest.LoadTools(data)
	if err != nil {
		return 2, err
	}
	set, err := tool.NewSet(tools...)
	if err != nil {
		return 2, err
	}
	tests, err := calltest.LoadSuite(c.suite, tools...)
	if err != nil {
		return 2, err
	}
	model := openai.New(c.llmModel, openai.WithBaseURL(c.llmURL), openai.WithAPIKey(key(getenv, c.llmKeyEnv)), openai.WithMaxRetries(c.retries))
	opts := &calltest.Options{Tools: tools}
	if c.judgeModel != "" {
		judge := openai.New(c.judgeModel, openai.WithBaseURL(c.judgeURL), openai.WithAPIKey(key(getenv, c.judgeKeyEnv)), openai.WithMaxRetries(c.retries))
		opts.Judge = calltest.ModelJudge(judge, nil)
	}
	fmt.Fprintf(stdout, "model %s at %s, %d run(s) per test\n", c.llmModel, c.llmURL, c.repeat)
	agent := calltest.ModelAgent(model, set, &calltest.ModelOptions{System: c.system})
	notPassed, err := calltest.RunSuite(ctx, stdout, agent, tests, calltest.SuiteOptions{
		Runs: c.repeat, Workers: c.workers, K: c.k, Options: opts,
	})
	if err != nil {
		return 2, err
	}
	if notPassed > 0 {
		return 1, nil
	}
	return 0, nil
}

// key reads the API key from the named variable. An empty key is sent as
// it is: local servers (vLLM, Ollama, the stand-in) need none.
func key(getenv func(string) string, name string) string {
	if name == "" {
		return ""
	}
	return getenv(name)
}
