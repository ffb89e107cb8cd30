// Command rtvibot is examples/rtvibot with an LLM: the same WebSocket bot
// server (rtvi/rtviws), every domain of domains, and as its
// brain agent.Loop (rtviws.AgentBrain) on an OpenAI-compatible Chat
// Completions server through the official SDK (provider/openai). It lives
// in provider/openai's module so the core module stays free of the SDK.
//
//	go run ./cmd/rtvibot -llm-url http://127.0.0.1:8000/v1 -llm-model NAME
//	go run ./cmd/rtvibot -llm-url ... -addr 127.0.0.1:8766   # the user simulator's port
//
// The same binary serves the agent or the user-simulator role: the prompt
// and tools come from update_system_prompt, as NeMo's bot_server.py. Each
// send-text, text frame or transcription is one user turn; each model
// call is one metrics event with the model's usage; the assistant's text
// is spoken (bot-started-speaking, bot-tts-text, bot-stopped-speaking) and
// sent as a text frame; EndConversationTool's <exit> goes out once its
// result is in the context. The key is read from $OPENAI_API_KEY (or the
// variable -llm-key-env names); unset, it is "EMPTY", as NeMo's vLLM
// configs send. -llm-timeout bounds each request attempt (60 s);
// -llm-max-tokens, when not 0, is sent as max_completion_tokens.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/voiceeval/schematools/domains"
	"github.com/voiceeval/schematools/provider/openai"
	"github.com/voiceeval/schematools/registry"
	"github.com/voiceeval/schematools/rtvi"
	"github.com/voiceeval/schematools/rtvi/rtviws"
	"github.com/voiceeval/schematools/state"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "rtvibot:", err)
		os.Exit(1)
	}
}

// flags are the command's settings.
type flags struct {
	addr, data, url, model, keyEnv string
	verbose                        bool
	timeouts                       rtviws.Timeouts
	llmTimeout                     time.Duration
	llmMaxTokens                   int
	toolSteps                      int
}

func parse(args []string, stderr io.Writer) (flags, error) {
	var f flags
	fs := flag.NewFlagSet("rtvibot", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&f.addr, "addr", "127.0.0.1:8765", "loopback address to listen on")
	fs.StringVar(&f.data, "data", "", "data root for db_path (default: a temporary directory holding every domain's data as NeMo names it)")
	fs.StringVar(&f.url, "llm-url", "", "base URL of the OpenAI-compatible server, e.g. http://127.0.0.1:8000/v1 (required)")
	fs.StringVar(&f.model, "llm-model", "standin", "model name sent with each request")
	fs.StringVar(&f.keyEnv, "llm-key-env", "OPENAI_API_KEY", "environment variable holding the API key (unset: \"EMPTY\")")
	fs.DurationVar(&f.llmTimeout, "llm-timeout", openai.DefaultTimeout, "bound of each model request attempt")
	fs.IntVar(&f.llmMaxTokens, "llm-max-tokens", 0, "max_completion_tokens of each model request; 0: none sent")
	fs.IntVar(&f.toolSteps, "llm-tool-steps", 0, "model calls of a turn that may call tools; the next forbid them (tool_choice \"none\"), so a model calling tool after tool ends its turn in words; 0: no bound, as pipecat")
	fs.BoolVar(&f.verbose, "v", false, "log the bot's warnings")
	fs.DurationVar(&f.timeouts.Write, "write-timeout", rtviws.DefaultTimeouts().Write, "longest write of one frame")
	fs.DurationVar(&f.timeouts.Idle, "idle-timeout", rtviws.DefaultTimeouts().Idle, "close a connection that sends nothing for this long; 0: never")
	fs.DurationVar(&f.timeouts.RunWait, "run-wait", rtviws.DefaultTimeouts().RunWait, "how long a prepared scenario waits for its run connection")
	if err := fs.Parse(args); err != nil {
		return f, err
	}
	switch {
	case f.url == "":
		return f, errors.New("-llm-url is required (e.g. http://127.0.0.1:8000/v1)")
	case f.model == "":
		return f, errors.New("-llm-model must not be empty")
	case f.timeouts.Write <= 0 || f.timeouts.RunWait <= 0 || f.timeouts.Idle < 0:
		return f, errors.New("-write-timeout and -run-wait must be positive, -idle-timeout positive or 0")
	case f.llmTimeout <= 0:
		return f, fmt.Errorf("-llm-timeout must be positive, not %v", f.llmTimeout)
	case f.llmMaxTokens < 0:
		return f, fmt.Errorf("-llm-max-tokens must be positive, or 0 to send none, not %d", f.llmMaxTokens)
	case f.toolSteps < 0:
		return f, fmt.Errorf("-llm-tool-steps must be positive, or 0 for no bound, not %d", f.toolSteps)
	}
	return f, nil
}

// newModel returns the bot's model as f says: its server, key, request
// timeout and max tokens.
func newModel(f flags) *openai.Model {
	return openai.New(f.model, openai.WithBaseURL(f.url), openai.WithAPIKeyFromEnv(f.keyEnv),
		openai.WithTimeout(f.llmTimeout), openai.WithMaxTokens(f.llmMaxTokens))
}

// newBot returns the LLM bot's server, its db_path values relative to
// dataRoot, on model.
func newBot(dataRoot string, model *openai.Model, timeouts rtviws.Timeouts, logger *slog.Logger) (*rtviws.Server, *rtviws.AgentBrain, error) {
	reg := &registry.Tools{Logger: logger}
	if err := domains.Register(reg); err != nil {
		return nil, nil, err
	}
	brain := rtviws.NewAgentBrain(model, logger)
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

func run(args []string, stdout, stderr io.Writer) error {
	f, err := parse(args, stderr)
	if err != nil {
		return err
	}
	level := slog.LevelError
	if f.verbose {
		level = slog.LevelDebug
	}
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
	if f.data == "" {
		dir, err := os.MkdirTemp("", "rtvibot-data-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		if err := domains.WriteDataRoot(dir); err != nil {
			return err
		}
		f.data = dir
	}
	srv, brain, err := newBot(f.data, newModel(f), f.timeouts, logger)
	if err != nil {
		return err
	}
	brain.ToolSteps = f.toolSteps
	ln, err := rtviws.ListenLoopback(f.addr)
	if err != nil {
		return err
	}
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 5 * time.Second}
	hs.RegisterOnShutdown(srv.CloseConnections)
	go hs.Serve(ln) //nolint:errcheck // ends with Shutdown or Close
	defer func() {
		srv.CloseConnections()
		hs.Close()
	}()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	fmt.Fprintln(stdout, "rtvibot listening on", "ws://"+ln.Addr().String(), "with", f.model, "at", f.url)
	<-ctx.Done()
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return hs.Shutdown(shutdown)
}
