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
	"time"

	"github.com/voiceeval/schematools/agent"
	"github.com/voiceeval/schematools/calltest"
	"github.com/voiceeval/schematools/provider/anthropic"
	"github.com/voiceeval/schematools/provider/gemini"
	"github.com/voiceeval/schematools/provider/openai"
	"github.com/voiceeval/schematools/tool"
)

// keyEnv is each provider's default key variable; its keys are the
// providers -provider and -judge-provider accept.
var keyEnv = map[string]string{
	"openai":    "OPENAI_API_KEY",
	"anthropic": "ANTHROPIC_API_KEY",
	"gemini":    "GEMINI_API_KEY",
}

// endpoint is one model's provider, base URL, model name and key variable.
type endpoint struct {
	provider, url, model, keyEnv string
}

// config is what the flags say.
type config struct {
	llm, judge                  endpoint
	suite, tools, system        string
	repeat, workers, k, retries int
	scripted                    bool          // no -llm-model: the scripted agent
	timeout                     time.Duration // each request attempt's bound, model and judge
	maxTokens                   int           // the model's output bound; 0: the adapter's default
}

// errUsage marks a usage error (exit status 2, after the flags' usage).
var errUsage = errors.New("usage")

func parse(args []string, stderr io.Writer) (config, error) {
	var c config
	fs := flag.NewFlagSet("calltest", flag.ContinueOnError)
	fs.SetOutput(stderr)
	root := filepath.Join("cmd", "calltest", "testdata")
	fs.StringVar(&c.llm.provider, "provider", "openai", "adapter of the model under test: openai, anthropic or gemini")
	fs.StringVar(&c.llm.url, "llm-url", "", "base URL of the provider's API (e.g. http://127.0.0.1:8000/v1 for an OpenAI-compatible server; default: the provider's public endpoint)")
	fs.StringVar(&c.llm.model, "llm-model", "", "model under test (none: the scripted agent, which plays the repository's suite)")
	fs.StringVar(&c.llm.keyEnv, "llm-key-env", "", "environment variable holding the API key (default: OPENAI_API_KEY, ANTHROPIC_API_KEY or GEMINI_API_KEY after -provider)")
	fs.StringVar(&c.judge.provider, "judge-provider", "", "adapter of the judge (default: -provider)")
	fs.StringVar(&c.judge.url, "judge-url", "", "base URL of the judge's API (default: -llm-url on the same provider, else the judge provider's public endpoint)")
	fs.StringVar(&c.judge.model, "judge-model", "", "judge model for llm checks (none: llm checks are Unknown)")
	fs.StringVar(&c.judge.keyEnv, "judge-key-env", "", "environment variable holding the judge's key (default: -llm-key-env on the same provider, else the judge provider's)")
	fs.StringVar(&c.suite, "suite", filepath.Join(root, "suite"), "directory of ElevenLabs test files (*.json)")
	fs.StringVar(&c.tools, "tools", filepath.Join(root, "tools.json"), "the tools offered to the model (calltest.LoadTools)")
	fs.StringVar(&c.system, "system", "", "system prompt of the agent under test")
	fs.IntVar(&c.repeat, "repeat", 0, "runs per test (default: 5 with -llm-model, 6 with the scripted agent)")
	fs.IntVar(&c.workers, "workers", 4, "runs at once per test")
	fs.IntVar(&c.k, "k", 0, "the k of pass^k, at most -repeat (default: min(3, -repeat))")
	fs.IntVar(&c.retries, "retries", 2, "retries of a failed request (the SDK's)")
	fs.DurationVar(&c.timeout, "llm-timeout", 60*time.Second, "bound of each request attempt, the model's and the judge's")
	fs.IntVar(&c.maxTokens, "llm-max-tokens", 0, "output bound of the model under test (openai: max_completion_tokens, gemini: maxOutputTokens, anthropic: max_tokens); 0: none sent (anthropic: its 4096)")
	if err := fs.Parse(args); err != nil {
		return c, errUsage
	}
	if c.judge.provider == "" {
		c.judge.provider = c.llm.provider
	}
	if c.llm.model == "" {
		// The scripted agent: the suite directory may be the one argument,
		// as this command has always taken it.
		c.scripted = true
		if c.repeat == 0 {
			c.repeat = 6
		}
		switch {
		case fs.NArg() > 1:
			return c, fmt.Errorf("%w: unexpected arguments %q", errUsage, fs.Args()[1:])
		case fs.NArg() == 1:
			c.suite = fs.Arg(0)
		}
		if c.repeat < 1 {
			return c, fmt.Errorf("%w: -repeat must be at least 1", errUsage)
		}
		return c, nil
	}
	if c.repeat == 0 {
		c.repeat = 5
	}
	switch {
	case fs.NArg() > 0:
		return c, fmt.Errorf("%w: unexpected arguments %q", errUsage, fs.Args())
	case keyEnv[c.llm.provider] == "":
		return c, fmt.Errorf("%w: -provider %q is not openai, anthropic or gemini", errUsage, c.llm.provider)
	case keyEnv[c.judge.provider] == "":
		return c, fmt.Errorf("%w: -judge-provider %q is not openai, anthropic or gemini", errUsage, c.judge.provider)
	case c.repeat < 1 || c.workers < 1 || c.k < 0:
		return c, fmt.Errorf("%w: -repeat and -workers must be at least 1, -k at least 1 (0: min(3, -repeat))", errUsage)
	case c.k > c.repeat:
		return c, fmt.Errorf("%w: -k %d is more than -repeat %d: pass^k needs k runs of each test", errUsage, c.k, c.repeat)
	case c.timeout <= 0:
		return c, fmt.Errorf("%w: -llm-timeout must be positive, not %v", errUsage, c.timeout)
	case c.maxTokens < 0:
		return c, fmt.Errorf("%w: -llm-max-tokens must be positive, or 0 to send none, not %d", errUsage, c.maxTokens)
	}
	if c.llm.keyEnv == "" {
		c.llm.keyEnv = keyEnv[c.llm.provider]
	}
	if c.judge.provider == c.llm.provider {
		if c.judge.url == "" {
			c.judge.url = c.llm.url
		}
		if c.judge.keyEnv == "" {
			c.judge.keyEnv = c.llm.keyEnv
		}
	} else if c.judge.keyEnv == "" {
		c.judge.keyEnv = keyEnv[c.judge.provider]
	}
	return c, nil
}

// requestLimits bound one model's requests: retries, each attempt's
// timeout, and its output tokens (0: the adapter's default).
type requestLimits struct {
	retries   int
	timeout   time.Duration
	maxTokens int
}

// newModel makes e's model on its adapter, the key read with getenv.
func newModel(ctx context.Context, e endpoint, l requestLimits, getenv func(string) string) (agent.Model, error) {
	key := getenv(e.keyEnv) // an empty key is passed on: OpenAI-compatible local servers need none (the Anthropic and Gemini SDKs refuse it)
	// 0 or less is none, as the flags have always meant; in the adapters'
	// Options, none is negative and 0 the default.
	retries, timeout := l.retries, l.timeout
	if retries <= 0 {
		retries = -1
	}
	if timeout <= 0 {
		timeout = -1
	}
	switch e.provider {
	case "anthropic":
		return anthropic.New(e.model, &anthropic.Options{BaseURL: e.url, APIKey: key, MaxRetries: retries, Timeout: timeout, MaxTokens: l.maxTokens}), nil
	case "gemini":
		return gemini.New(ctx, e.model, &gemini.Options{BaseURL: e.url, APIKey: key, MaxRetries: retries, Timeout: timeout, MaxTokens: l.maxTokens})
	default:
		return openai.New(e.model, &openai.Options{BaseURL: e.url, APIKey: key, MaxRetries: retries, Timeout: timeout, MaxTokens: l.maxTokens}), nil
	}
}

// run runs the suite as args say and returns the exit status.
func run(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) (int, error) {
	c, err := parse(args, stderr)
	if err != nil {
		return 2, err
	}
	if c.scripted {
		notPassed, err := runScripted(stdout, c.suite, c.repeat)
		if err != nil {
			return 2, err
		}
		if notPassed > 0 {
			return 1, nil
		}
		return 0, nil
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
	model, err := newModel(ctx, c.llm, requestLimits{c.retries, c.timeout, c.maxTokens}, getenv)
	if err != nil {
		return 2, err
	}
	opts := &calltest.Options{Tools: tools}
	if c.judge.model != "" {
		// The judge keeps its adapter's output bound: -llm-max-tokens is
		// the model under test's.
		judge, err := newModel(ctx, c.judge, requestLimits{retries: c.retries, timeout: c.timeout}, getenv)
		if err != nil {
			return 2, err
		}
		opts.Judge = calltest.ModelJudge(judge, nil)
	}
	at := c.llm.url
	if at == "" {
		at = "its public endpoint"
	}
	fmt.Fprintf(stdout, "model %s on %s at %s, %d run(s) per test\n", c.llm.model, c.llm.provider, at, c.repeat)
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
