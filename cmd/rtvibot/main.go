// Command rtvibot is a Go voice bot that an evaluation harness drives over
// RTVI, the way NVIDIA NeMo's evaluation bridge drives its Python bots:
// pipecat protobuf frames over a WebSocket, the six client messages of a
// scenario's lifecycle, tool calls that announce their actions, and a
// summary whose DB hash matches gold replay. Its brain is chosen by flags:
//
//	go run ./cmd/rtvibot -demo             # scripted: start the bot, drive one scenario, print it, exit
//	go run ./cmd/rtvibot                   # scripted: serve on ws://127.0.0.1:8765 until interrupted
//	go run ./cmd/rtvibot -gold -task 0     # gold: a perfect agent, plays task 0 of the scenario's tau2 domain
//	go run ./cmd/rtvibot -llm-url http://127.0.0.1:8000/v1 -llm-model NAME   # LLM: agent.Loop on a model
//	go run ./cmd/rtvibot -llm-provider anthropic -llm-url URL -llm-model NAME
//
// Its serving is library code, rtvi/rtviws.
//
// The scripted brain has no LLM: it runs "/call <tool> <json arguments>"
// commands, or with -gold plays the gold actions of the -task on a
// scenario's first user message. It emits the server events of a pipecat
// bot (speaking, TTS text, one token-usage metrics event per response).
//
// The LLM brain (-llm-url) is agent.Loop (rtviws.AgentBrain) on an
// OpenAI-compatible Chat Completions server (provider/openai, the default),
// Anthropic's Messages API (-llm-provider anthropic) or Gemini
// (-llm-provider gemini), through the official SDKs. The same binary
// serves the agent or the user-simulator role: the prompt and tools come
// from update_system_prompt, as NeMo's bot_server.py. Each send-text, text
// frame or transcription is one user turn; each model call is one metrics
// event with the model's usage; the assistant's text is spoken and sent as
// a text frame; EndConversationTool's <exit> goes out once its result is in
// the context. The key is read from the variable -llm-key-env names
// (OPENAI_API_KEY, ANTHROPIC_API_KEY or GEMINI_API_KEY by default); unset,
// it is "EMPTY", as NeMo's vLLM configs send. -llm-timeout bounds each
// request attempt (60 s); -llm-max-tokens, when not 0, is sent as the
// request's max tokens.
//
// Either way it serves every domain of domains (coffee, tau2_airline,
// tau2_retail, tau2_telecom, eva_airline, customer_service, waitlist,
// restaurant and the default domain's basic and harness tools), and
// listens on the loopback interface only, unless -remote: then -addr may
// be any address (0.0.0.0:8765 in a pod of deploy/kubernetes's bot
// pools) and requests are served whatever their Host — the bot has no
// authentication, so only on a network you trust. db_path values are relative to
// -data, which by default is a temporary directory laid out as NeMo names
// them: coffee/db.json, tau2_airline/db.json (its shards in
// tau2_airline/db/), tau2_retail/db.json, tau2_telecom/db.json,
// eva_airline/<scenario>.json.
//
// It runs one scenario at a time: the connection that prepares a scenario,
// then the one that runs it, own it, and any other connection's scenario
// messages and text are refused with an error naming the scenario in
// progress (rtvi/rtviws has the rules); a prepared scenario whose run
// never comes is given up -run-wait after its preparation closed. Each
// connection's writes have a deadline (-write-timeout) and its reads an
// idle timeout (-idle-timeout): a peer that stops reading or goes silent
// loses its own connection, and no one else waits for it. SIGINT and
// SIGTERM end it cleanly, removing the default data directory.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/voiceeval/schematools/cmd/internal/llmflags"
	"github.com/voiceeval/schematools/rtvi/rtviws"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "rtvibot:", err)
		os.Exit(1)
	}
}

// flags are the command's settings.
type flags struct {
	addr, data   string
	remote       bool
	verbose      bool
	timeouts     rtviws.Timeouts
	gold, demo   bool   // the scripted brain's
	task         string // with gold
	provider     string // the LLM brain's, with url
	url, model   string
	keyEnv       string
	llmTimeout   time.Duration
	llmMaxTokens int
	toolSteps    int
}

func newFlagSet(f *flags, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("rtvibot", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&f.addr, "addr", "127.0.0.1:8765", "loopback address to listen on (any address with -remote)")
	fs.BoolVar(&f.remote, "remote", false, "serve harnesses on other machines: -addr may be any address (e.g. 0.0.0.0:8765) and requests are served whatever their Host (off: loopback only, a web page's DNS rebinding refused); the bot has no authentication, so only on a network you trust (a cluster's: deploy/kubernetes)")
	fs.StringVar(&f.data, "data", "", "data root for db_path (default: a temporary directory holding every domain's data as NeMo names it: coffee/db.json, tau2_airline/..., eva_airline/1.1.2.json, ...)")
	fs.BoolVar(&f.gold, "gold", false, "on a scenario's kickoff, play the -task's gold actions (tau2 domains, tasks embedded) and end the call")
	fs.StringVar(&f.task, "task", "", "with -gold: the id of the task every scenario plays, in the scenario's domain")
	fs.BoolVar(&f.demo, "demo", false, "drive one scenario against the bot, print it and exit")
	fs.BoolVar(&f.verbose, "v", false, "log the bot's warnings")
	fs.DurationVar(&f.timeouts.Write, "write-timeout", DefaultTimeouts.Write, "longest write of one frame; a connection whose write fails or takes longer is closed")
	fs.DurationVar(&f.timeouts.Idle, "idle-timeout", DefaultTimeouts.Idle, "close a connection that sends no message for this long (NeMo's bridge holds a run connection open up to 900 s); 0: never")
	fs.DurationVar(&f.timeouts.RunWait, "run-wait", DefaultTimeouts.RunWait, "how long a prepared scenario is kept for its run connection, once its preparation closed and while no run connection is open, before the bot takes a new scenario")
	fs.StringVar(&f.url, "llm-url", "", "the LLM brain: base URL of the model's API, e.g. http://127.0.0.1:8000/v1 for an OpenAI-compatible server")
	fs.StringVar(&f.provider, "llm-provider", llmflags.OpenAI, "adapter of the LLM brain: openai (Chat Completions), anthropic or gemini")
	fs.StringVar(&f.model, "llm-model", "standin", "model name sent with each request")
	fs.StringVar(&f.keyEnv, "llm-key-env", "OPENAI_API_KEY", "environment variable holding the API key (default after -llm-provider: OPENAI_API_KEY, ANTHROPIC_API_KEY or GEMINI_API_KEY; unset: \"EMPTY\")")
	fs.DurationVar(&f.llmTimeout, "llm-timeout", 60*time.Second, "bound of each model request attempt")
	fs.IntVar(&f.llmMaxTokens, "llm-max-tokens", 0, "max tokens of each model request; 0: none sent")
	fs.IntVar(&f.toolSteps, "llm-tool-steps", 0, "model calls of a turn that may call tools; the next forbid them (tool_choice \"none\"), so a model calling tool after tool ends its turn in words; 0: no bound, as pipecat")
	return fs
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
		if err := writeData(dir); err != nil {
			return err
		}
		f.data = dir
	}
	// SIGTERM (a service manager, kill) ends the bot as SIGINT does, so the
	// deferred clean-up runs: the default data directory is removed. The
	// handler is in place before the bot says it listens.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if f.url != "" {
		return serveLLM(ctx, f, stdout, logger)
	}
	if f.demo {
		f.addr = "127.0.0.1:0"
	}
	bot, err := NewBot(f.data, logger)
	if err != nil {
		return err
	}
	bot.cfg.AllowRemote = f.remote // setTimeouts makes the server from cfg
	bot.setTimeouts(f.timeouts)
	if f.gold {
		bot.gold = &goldAgent{task: f.task}
	}
	if f.demo {
		ln, err := listenLoopback(f.addr)
		if err != nil {
			return err
		}
		srv := &http.Server{Handler: bot, ReadHeaderTimeout: 5 * time.Second}
		go srv.Serve(ln) //nolint:errcheck // ends with Close
		defer func() {
			bot.CloseConnections()
			srv.Close()
		}()
		ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
		_, err = runScenario(ctx, "ws://"+ln.Addr().String(), stdout)
		return err
	}
	return serve(ctx, bot, bot.CloseConnections, f.addr, f.remote, stdout, "", logger)
}

// serve serves h on the loopback address addr (any address when remote)
// until ctx ends, then shuts down: closeConns closes the bot's WebSocket connections, which
// http.Server.Shutdown does not track. It prints "rtvibot listening on
// ws://ADDR" (and what), once it accepts connections.
func serve(ctx context.Context, h http.Handler, closeConns func(), addr string, remote bool, stdout io.Writer, what string, logger *slog.Logger) error {
	ln, err := listen(addr, remote)
	if err != nil {
		return err
	}
	hs := &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second}
	hs.RegisterOnShutdown(closeConns)
	go hs.Serve(ln) //nolint:errcheck // ends with Shutdown or Close
	defer func() {
		closeConns()
		hs.Close()
	}()
	line := []any{"rtvibot listening on", "ws://" + ln.Addr().String()}
	if what != "" {
		line = append(line, what)
	}
	fmt.Fprintln(stdout, line...)
	<-ctx.Done()
	logger.Debug("shutting down")
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return hs.Shutdown(shutdown)
}
