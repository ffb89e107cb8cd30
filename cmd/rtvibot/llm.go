package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"

	"github.com/voiceeval/schematools/agent"
	"github.com/voiceeval/schematools/domains"
	"github.com/voiceeval/schematools/provider/anthropic"
	"github.com/voiceeval/schematools/provider/gemini"
	"github.com/voiceeval/schematools/provider/openai"
	"github.com/voiceeval/schematools/registry"
	"github.com/voiceeval/schematools/rtvi"
	"github.com/voiceeval/schematools/rtvi/rtviws"
	"github.com/voiceeval/schematools/state"
)

// The -llm-provider values: the adapter the LLM brain's model goes
// through.
const (
	providerOpenAI    = "openai"
	providerAnthropic = "anthropic"
	providerGemini    = "gemini"
)

// parse reads the command's flags. -llm-url chooses the LLM brain; -gold
// the gold one; neither, the scripted one.
func parse(args []string, stderr io.Writer) (flags, error) {
	var f flags
	fs := newFlagSet(&f, stderr)
	if err := fs.Parse(args); err != nil {
		return f, err
	}
	keyEnvSet := false
	fs.Visit(func(fl *flag.Flag) { keyEnvSet = keyEnvSet || fl.Name == "llm-key-env" })
	if !keyEnvSet {
		f.keyEnv = defaultKeyEnv[f.provider]
	}
	switch {
	case f.timeouts.Write <= 0 || f.timeouts.RunWait <= 0 || f.timeouts.Idle < 0:
		return f, errors.New("-write-timeout and -run-wait must be positive, -idle-timeout positive or 0")
	case f.gold && f.task == "":
		return f, errors.New("-gold needs -task: the bridge never tells a bot its task")
	case f.task != "" && !f.gold:
		return f, errors.New("-task selects the task of -gold; add -gold")
	case f.url == "":
		return f, nil // the gold or scripted brain: the -llm flags are not read
	case f.gold || f.demo:
		return f, errors.New("-gold and -demo are the scripted bot's; the LLM brain (-llm-url) takes neither")
	case f.model == "":
		return f, errors.New("-llm-model must not be empty")
	case defaultKeyEnv[f.provider] == "":
		return f, fmt.Errorf("-llm-provider is openai, anthropic or gemini, not %q", f.provider)
	case f.llmTimeout <= 0:
		return f, fmt.Errorf("-llm-timeout must be positive, not %v", f.llmTimeout)
	case f.llmMaxTokens < 0:
		return f, fmt.Errorf("-llm-max-tokens must be positive, or 0 to send none, not %d", f.llmMaxTokens)
	case f.toolSteps < 0:
		return f, fmt.Errorf("-llm-tool-steps must be positive, or 0 for no bound, not %d", f.toolSteps)
	}
	return f, nil
}

// defaultKeyEnv is each provider's API key variable.
var defaultKeyEnv = map[string]string{
	providerOpenAI:    "OPENAI_API_KEY",
	providerAnthropic: "ANTHROPIC_API_KEY",
	providerGemini:    "GEMINI_API_KEY",
}

// apiKey is the key the variable f.keyEnv holds; unset or empty, "EMPTY",
// as NeMo's vLLM configs send.
func apiKey(f flags) string {
	if k := os.Getenv(f.keyEnv); k != "" {
		return k
	}
	return "EMPTY"
}

// newModel returns an OpenAI-compatible model as f says: its server, key,
// request timeout and max tokens.
func newModel(f flags) *openai.Model {
	return openai.New(f.model, &openai.Options{BaseURL: f.url, APIKey: apiKey(f),
		Timeout: f.llmTimeout, MaxTokens: f.llmMaxTokens})
}

// llmModel returns the LLM brain's model on the -llm-provider adapter.
func llmModel(ctx context.Context, f flags) (agent.Model, error) {
	switch f.provider {
	case providerAnthropic:
		return anthropic.New(f.model, &anthropic.Options{BaseURL: f.url, APIKey: apiKey(f),
			Timeout: f.llmTimeout, MaxTokens: f.llmMaxTokens}), nil
	case providerGemini:
		return gemini.New(ctx, f.model, &gemini.Options{BaseURL: f.url, APIKey: apiKey(f),
			Timeout: f.llmTimeout, MaxTokens: f.llmMaxTokens})
	}
	return newModel(f), nil
}

// newBot returns the LLM bot's server, its db_path values relative to
// dataRoot, on model.
func newBot(dataRoot string, model agent.Model, timeouts rtviws.Timeouts, logger *slog.Logger) (*rtviws.Server, *rtviws.AgentBrain, error) {
	reg := &registry.Tools{Logger: logger}
	if err := domains.Register(reg); err != nil {
		return nil, nil, err
	}
	brain := &rtviws.AgentBrain{Model: model, Logger: logger}
	srv, err := rtviws.New(rtviws.Config{
		Dispatcher: brain.Wire(rtvi.Config{
			State:    state.New(),
			Tools:    reg,
			DataRoot: dataRoot,
			// Each DB file decoded once, shared copy-on-write, with its key
			// order: tool results keep the data file's order, as NeMo's.
			Sources: &state.SourceCache{},
			About:   map[string]any{"library": "schematools-rtvibot-llm"},
			Logger:  logger,
		}),
		Brain:    brain,
		Timeouts: timeouts,
		Logger:   logger,
	})
	return srv, brain, err
}

// serveLLM serves the LLM bot on f's settings until ctx ends.
func serveLLM(ctx context.Context, f flags, stdout io.Writer, logger *slog.Logger) error {
	model, err := llmModel(ctx, f)
	if err != nil {
		return err
	}
	srv, brain, err := newBot(f.data, model, f.timeouts, logger)
	if err != nil {
		return err
	}
	brain.ToolSteps = f.toolSteps
	return serve(ctx, srv, srv.CloseConnections, f.addr, stdout, "with "+f.model+" at "+f.url, logger)
}
