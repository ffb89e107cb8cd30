// Command standin serves the agenttest stand-in, in one dialect or all.
//
//	go run ./cmd/standin                        # the demo script, every dialect, on 127.0.0.1:0
//	go run ./cmd/standin -addr :8089 -script turns.json -loop
//	go run ./cmd/standin -dialect anthropic     # only /v1/messages
//	go run ./cmd/standin -domain tau2_airline -task 0 -addr 127.0.0.1:8000
//
// It prints "listening on http://HOST:PORT" once it accepts connections.
// Point an OpenAI client's base URL at http://HOST:PORT/v1, an Anthropic
// or Gemini client's at http://HOST:PORT. -dialect (openai, anthropic,
// gemini; "" for all) answers only that API's routes. The script file is
// a JSON list of agenttest.Turn values. With -domain and -task it plays a
// tau2 task instead (domains/tau2script): its gold calls one per
// response (-batch-reads: each run of consecutive read calls in one
// response), then EndConversationTool, then a goodbye.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"

	"github.com/voiceeval/schematools/agent/agenttest"
	"github.com/voiceeval/schematools/domains/tau2script"
	"github.com/voiceeval/schematools/tool"
)

// demo is the script the Node client test reads (the same turn twice, so
// a streaming and a non-streaming request see the same answer).
var demo = []agenttest.Turn{demoTurn, demoTurn}

var demoTurn = agenttest.Turn{
	Text: "Let me look that up — un momento.",
	Calls: []tool.ModelCall{
		{ID: "call_1", Name: "get_order_details", Arguments: `{"order_id": "#W0000001", "note": "ünïcode ✓"}`},
		{ID: "call_2", Name: "get_user_details", Arguments: `{"user_id": "ann_1"}`},
	},
	Thinking: "The user asks about an order: look it up.",
	Usage:    &agenttest.Usage{PromptTokens: 120, CompletionTokens: 30, CachedTokens: 64, CacheCreationTokens: 6, ReasoningTokens: 12},
	Piece:    5,
}

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "standin:", err)
		os.Exit(1)
	}
}

func run(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("standin", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:0", "address to listen on")
	script := fs.String("script", "", "JSON file of turns (default: the demo script)")
	loop := fs.Bool("loop", false, "start the script again when it runs out")
	domain := fs.String("domain", "", "play a task of this tau2 domain (tau2_airline, tau2_retail, tau2_telecom); needs -task")
	task := fs.String("task", "", "with -domain: the id of the task to play")
	batch := fs.Bool("batch-reads", false, "with -domain: put each run of consecutive read calls in one response")
	dialect := fs.String("dialect", "", "the only dialect answered: openai, anthropic or gemini (default: all)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	turns := demo
	switch {
	case (*domain == "") != (*task == ""):
		return errors.New("-domain and -task go together")
	case *domain != "" && *script != "":
		return errors.New("-script or -domain, not both")
	case *batch && *domain == "":
		return errors.New("-batch-reads needs -domain and -task")
	case *domain != "":
		d, err := tau2script.Load(*domain)
		if err != nil {
			return err
		}
		t, err := d.Task(*task)
		if err != nil {
			return err
		}
		if turns, err = d.Script(t, tau2script.Options{BatchReads: *batch}); err != nil {
			return err
		}
	}
	if *script != "" {
		var err error
		if turns, err = loadScript(*script); err != nil {
			return err
		}
	}
	switch *dialect {
	case "", "openai", "anthropic", "gemini":
	default:
		return fmt.Errorf("-dialect %q: want openai, anthropic or gemini", *dialect)
	}
	s := agenttest.New(turns...)
	s.Loop, s.Dialect = *loop, *dialect
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "listening on http://%s\n", ln.Addr())
	srv := &http.Server{Handler: s}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		_ = srv.Close()
	}()
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// loadScript reads a -script file: a JSON list of turns, every field the
// file's own (decoded into an empty slice, so a field the file leaves out
// is empty, never the demo script's).
func loadScript(path string) ([]agenttest.Turn, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var turns []agenttest.Turn
	if err := json.Unmarshal(data, &turns); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return turns, nil
}
