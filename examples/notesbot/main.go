// Command notesbot serves the notes domain (examples/notes) as an RTVI
// bot, the kind NeMo's evaluation bridge and this repository's harness
// drive: rtviws does the serving, agent.Loop (rtviws.AgentBrain) runs each
// user turn on a model. Here the model is scripted (agenttest.Model: it
// adds the note "buy milk", counts, and ends the call); give the brain
// provider/openai's Model (its own module) for a real one.
//
//	go run ./examples/notesbot -addr 127.0.0.1:8765
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
	"time"

	"github.com/voiceeval/schematools/agent"
	"github.com/voiceeval/schematools/agent/agenttest"
	"github.com/voiceeval/schematools/examples/notes"
	"github.com/voiceeval/schematools/rtvi/rtviws"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "notesbot:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("notesbot", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:8765", "loopback address to listen on")
	if err := fs.Parse(args); err != nil {
		return err
	}
	model := &agenttest.Model{Fallback: agent.Response{Text: "Goodbye.", FinishReason: "stop"}}
	model.Arm(notes.Script(), false)
	srv, err := notes.NewBot(model, slog.New(slog.DiscardHandler))
	if err != nil {
		return err
	}
	ln, err := rtviws.ListenLoopback(*addr)
	if err != nil {
		return err
	}
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 5 * time.Second}
	go hs.Serve(ln) //nolint:errcheck // ends with Close
	defer func() { srv.CloseConnections(); hs.Close() }()
	fmt.Fprintln(stdout, "notesbot listening on", "ws://"+ln.Addr().String())
	<-ctx.Done()
	return nil
}
