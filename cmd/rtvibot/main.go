// Command rtvibot is a minimal Go voice bot that an evaluation harness
// drives over RTVI, the way NVIDIA NeMo's evaluation bridge drives its
// Python bots: pipecat protobuf frames over a WebSocket, the six client
// messages of a scenario's lifecycle, tool calls that announce their
// actions, and a summary whose DB hash matches gold replay.
//
//	go run ./cmd/rtvibot -demo             # start the bot, drive one scenario, print it, exit
//	go run ./cmd/rtvibot                   # serve on ws://127.0.0.1:8765 until interrupted
//	go run ./cmd/rtvibot -gold -task 0     # a perfect agent: plays task 0 of the scenario's tau2 domain
//
// Its serving is library code, rtvi/rtviws; the same bot with an LLM
// (agent.Loop on an OpenAI-compatible server, -llm-url) is
// provider/openai/cmd/rtvibot, in provider/openai's module so that this
// one does not depend on the SDK.
//
// It has no LLM: its scripted agent runs "/call <tool> <json arguments>"
// commands, or with -gold plays the gold actions of the -task on a
// scenario's first user message. It emits the server events of a pipecat
// bot (speaking, TTS text, one token-usage metrics event per response).
// It serves every domain of domains (coffee, tau2_airline,
// tau2_retail, tau2_telecom, eva_airline, customer_service, waitlist,
// restaurant and the default domain's basic and harness tools), and
// listens on the loopback interface only. db_path values are relative to
// -data, which by default is a temporary directory laid out as NeMo names
// them: coffee/db.json, tau2_airline/db.json (its shards in
// tau2_airline/db/), tau2_retail/db.json, tau2_telecom/db.json,
// eva_airline/<scenario>.json.
//
// It runs one scenario at a time: the connection that prepares a scenario,
// then the one that runs it, own it, and any other connection's scenario
// messages and text are refused with an error naming the scenario in
// progress (rtvi/rtviws has the rules); a prepared scenario whose run
// never comes is given up -run-wait after its preparation closed. Each connection's writes have a deadline (-write-timeout) and
// its reads an idle timeout (-idle-timeout): a peer that stops reading or
// goes silent loses its own connection, and no one else waits for it.
// SIGINT and SIGTERM end it cleanly, removing the default data directory.
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
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "rtvibot:", err)
		os.Exit(1)
	}
}

func run(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("rtvibot", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:8765", "loopback address to listen on")
	data := fs.String("data", "", "data root for db_path (default: a temporary directory holding every domain's data as NeMo names it: coffee/db.json, tau2_airline/..., eva_airline/1.1.2.json, ...)")
	gold := fs.Bool("gold", false, "on a scenario's kickoff, play the -task's gold actions (tau2 domains, tasks embedded) and end the call")
	task := fs.String("task", "", "with -gold: the id of the task every scenario plays, in the scenario's domain")
	demo := fs.Bool("demo", false, "drive one scenario against the bot, print it and exit")
	verbose := fs.Bool("v", false, "log the bot's warnings")
	writeTimeout := fs.Duration("write-timeout", DefaultTimeouts.Write, "longest write of one frame; a connection whose write fails or takes longer is closed")
	idleTimeout := fs.Duration("idle-timeout", DefaultTimeouts.Idle, "close a connection that sends no message for this long (NeMo's bridge holds a run connection open up to 900 s); 0: never")
	runWait := fs.Duration("run-wait", DefaultTimeouts.RunWait, "how long a prepared scenario is kept for its run connection, once its preparation closed and while no run connection is open, before the bot takes a new scenario")
	if err := fs.Parse(args); err != nil {
		return err
	}
	level := slog.LevelError
	if *verbose {
		level = slog.LevelDebug
	}
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))

	if *data == "" {
		dir, err := os.MkdirTemp("", "rtvibot-data-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		if err := writeData(dir); err != nil {
			return err
		}
		*data = dir
	}
	if *demo {
		*addr = "127.0.0.1:0"
	}
	bot, err := NewBot(*data, logger)
	if err != nil {
		return err
	}
	if *writeTimeout <= 0 || *runWait <= 0 || *idleTimeout < 0 {
		return errors.New("-write-timeout and -run-wait must be positive, -idle-timeout positive or 0")
	}
	bot.setTimeouts(Timeouts{Write: *writeTimeout, Idle: *idleTimeout, RunWait: *runWait})
	switch {
	case *gold && *task == "":
		return errors.New("-gold needs -task: the bridge never tells a bot its task")
	case *task != "" && !*gold:
		return errors.New("-task selects the task of -gold; add -gold")
	case *gold:
		bot.gold = &goldAgent{task: *task}
	}
	ln, err := listenLoopback(*addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: bot, ReadHeaderTimeout: 5 * time.Second}
	srv.RegisterOnShutdown(bot.CloseConnections)
	go srv.Serve(ln) //nolint:errcheck // ends with Shutdown or Close
	defer func() {
		bot.CloseConnections()
		srv.Close()
	}()
	url := "ws://" + ln.Addr().String()

	if *demo {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		_, err := runScenario(ctx, url, stdout)
		return err
	}
	// SIGTERM (a service manager, kill) ends the bot as SIGINT does, so the
	// deferred clean-up runs: the default data directory is removed. The
	// handler is in place before the bot says it listens.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	fmt.Fprintln(stdout, "rtvibot listening on", url)
	<-ctx.Done()
	logger.Debug("shutting down")
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return srv.Shutdown(shutdown)
}
