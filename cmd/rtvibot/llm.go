package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"

	"github.com/voiceeval/schematools/agent"
	"github.com/voiceeval/schematools/cmd/internal/llmflags"
	"github.com/voiceeval/schematools/domains"
	"github.com/voiceeval/schematools/registry"
	"github.com/voiceeval/schematools/rtvi"
	"github.com/voiceeval/schematools/rtvi/rtviws"
	"github.com/voiceeval/schematools/state"
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
		f.keyEnv = llmflags.KeyEnv(f.provider)
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
	case f.llmTimeout <= 0:
		return f, fmt.Errorf("-llm-timeout must be positive, not %v", f.llmTimeout)
	case f.llmMaxTokens < 0:
		return f, fmt.Errorf("-llm-max-tokens must be positive, or 0 to send none, not %d", f.llmMaxTokens)
	case f.toolSteps < 0:
		return f, fmt.Errorf("-llm-tool-steps must be positive, or 0 for no bound, not %d", f.toolSteps)
	}
	if err := llmflags.CheckProvider("-llm-provider", f.provider); err != nil {
		return f, err
	}
	return f, nil
}

// llmModel returns the LLM brain's model on the -llm-provider adapter
// (cmd/internal/llmflags): its server, key, request timeout and max
// tokens.
func llmModel(ctx context.Context, f flags) (agent.Model, error) {
	return llmflags.New(ctx, llmflags.Settings{Provider: f.provider, URL: f.url, Model: f.model, APIKey: llmflags.APIKey(f.keyEnv),
		Timeout: f.llmTimeout, MaxTokens: f.llmMaxTokens})
}

// newBot returns the LLM bot's server, its db_path values relative to
// dataRoot, on model; remote serves clients that name the bot by any Host
// (rtviws.Config.AllowRemote).
func newBot(dataRoot string, model agent.Model, timeouts rtviws.Timeouts, remote bool, logger *slog.Logger) (*rtviws.Server, *rtviws.AgentBrain, error) {
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
		Brain:       brain,
		Timeouts:    timeouts,
		Logger:      logger,
		AllowRemote: remote,
	})
	return srv, brain, err
}

// serveLLM serves the LLM bot on f's settings until ctx ends.
func serveLLM(ctx context.Context, f flags, stdout io.Writer, logger *slog.Logger) error {
	model, err := llmModel(ctx, f)
	if err != nil {
		return err
	}
	srv, brain, err := newBot(f.data, model, f.timeouts, f.remote, logger)
	if err != nil {
		return err
	}
	brain.ToolSteps = f.toolSteps
	return serve(ctx, srv, srv.CloseConnections, f.addr, f.remote, stdout, "with "+f.model+" at "+f.url, logger)
}
