// Command notesharness evaluates one scenario of the notes domain
// (examples/notes) the way NeMo's runner does, with harness.Evaluate: it
// prepares both bots, relays the conversation between the agent and the
// user simulator, pulls the agent's DB and scores it against the expected
// hash, then writes the run (metrics.json, results.jsonl, report.html, …)
// under -out. By default it starts the two bots itself, in-process; give
// -agent-url and -user-url to evaluate bots already running (go run
// ./examples/notesbot, twice, on two ports).
//
//	go run ./examples/notesharness
//	go run ./examples/notesharness -agent-url ws://127.0.0.1:8765 -user-url ws://127.0.0.1:8766 -out /tmp/notes
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
	"time"

	"github.com/voiceeval/schematools/agent"
	"github.com/voiceeval/schematools/agent/agenttest"
	"github.com/voiceeval/schematools/dbhash"
	"github.com/voiceeval/schematools/examples/notes"
	"github.com/voiceeval/schematools/harness"
	"github.com/voiceeval/schematools/rtvi/rtviws"
)

func main() {
	if err := run(context.Background(), os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "notesharness:", err)
		os.Exit(1)
	}
}

// scenario is the one scenario: the agent is to note "buy milk"; success
// is the agent's DB hashing as {"notes": {"N1": "buy milk"}} does.
func scenario() (*harness.Scenario, error) {
	want, err := dbhash.Hash(map[string]any{"notes": map[string]any{"N1": "buy milk"}})
	if err != nil {
		return nil, err
	}
	return &harness.Scenario{
		Name:                 "notes__1",
		Domain:               notes.Domain,
		SuccessSignals:       []string{"db_state_match"},
		ExpectedDBHash:       want,
		MaxDuration:          30,
		AgentPrompt:          "You keep the user's notes.",
		UserPrompt:           "Ask the agent to note: buy milk.",
		AgentTools:           `{"add_note": {}, "count_notes": {}, "EndConversationTool": {}}`,
		UserTools:            `{}`,
		SharedStateInitAgent: map[string]any{"db": map[string]any{"notes": map[string]any{}}},
	}, nil
}

// serve starts a notes bot on model over loopback and returns its URL.
func serve(model agent.Model) (string, func(), error) {
	srv, err := notes.NewBot(model, slog.New(slog.DiscardHandler))
	if err != nil {
		return "", nil, err
	}
	ln, err := rtviws.ListenLoopback("127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 5 * time.Second}
	go hs.Serve(ln) //nolint:errcheck // ends with Close
	return "ws://" + ln.Addr().String(), func() { srv.CloseConnections(); hs.Close() }, nil
}

func run(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("notesharness", flag.ContinueOnError)
	agentURL := fs.String("agent-url", "", "the agent bot's WebSocket URL (default: one started here)")
	userURL := fs.String("user-url", "", "the user simulator bot's WebSocket URL (default: one started here)")
	out := fs.String("out", "", "directory the run is written under (default: a temporary one, removed after)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *agentURL == "" {
		model := &agenttest.Model{Fallback: agent.Response{Text: "Goodbye.", FinishReason: "stop"}}
		model.Arm(notes.Script(), false)
		url, stop, err := serve(model)
		if err != nil {
			return err
		}
		defer stop()
		*agentURL = url
	}
	if *userURL == "" {
		url, stop, err := serve(&agenttest.Model{Fallback: agent.Response{Text: "Please note: buy milk.", FinishReason: "stop"}})
		if err != nil {
			return err
		}
		defer stop()
		*userURL = url
	}
	if *out == "" {
		dir, err := os.MkdirTemp("", "notesharness-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		*out = dir
	}
	sc, err := scenario()
	if err != nil {
		return err
	}
	opts := harness.EvaluateOptions{
		OutputDir: *out,
		Bots:      []harness.BotPair{{AgentURL: *agentURL, UserURL: *userURL}},
		Session:   harness.DefaultSessionOptions(),
	}
	// No kickoff pause and a short settle after the exit: text mode needs
	// neither NeMo's audio delays.
	opts.Session.KickoffDelay, opts.Session.ExitSettle = -1, 50*time.Millisecond
	ev, err := harness.Evaluate(ctx, []*harness.Scenario{sc}, opts)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%d scenario(s), %d not successful\n", ev.Scenarios, ev.NotSuccessful)
	if ev.NotSuccessful != 0 {
		return errors.New("a scenario was not successful")
	}
	return nil
}
