// Command outside is a program a user writes in a module of their own,
// resolving schematools and its OpenAI adapter from a module proxy by
// version (TestOutsideModule runs it): a custom domain with two tools,
// served as an RTVI bot whose brain is agent.Loop on provider/openai
// (talking to the agenttest stand-in, which plays the model), evaluated on
// one scenario with harness.Evaluate. Public packages only.
package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"time"

	"github.com/voiceeval/schematools/agent"
	"github.com/voiceeval/schematools/agent/agenttest"
	"github.com/voiceeval/schematools/dbhash"
	"github.com/voiceeval/schematools/harness"
	"github.com/voiceeval/schematools/provider/openai"
	"github.com/voiceeval/schematools/registry"
	"github.com/voiceeval/schematools/rtvi"
	"github.com/voiceeval/schematools/rtvi/rtviws"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

// The notes domain: a DB {"notes": {id: text}} and two tools.
const domain = "notes"

var notesDB = tool.DB{
	NotLoaded: tool.Failure("db_not_initialized", "the notes DB is not loaded"),
	Recorder:  tool.Recorder{ActionTypes: []string{"add_note"}},
}

type addNoteParams struct {
	Text string `json:"text" jsonschema_description:"The note." validate:"min=1"`
}

func addNote(ctx context.Context, st *state.Shared, p addNoteParams) (any, error) {
	return notesDB.Write(ctx, st, []string{"notes"}, func(db map[string]any) (any, state.Action, error) {
		notes, _ := db["notes"].(map[string]any)
		id := fmt.Sprintf("N%d", len(notes)+1)
		notes[id] = p.Text
		return map[string]any{"id": id}, state.NewAction("add_note", map[string]any{"text": p.Text}, map[string]any{"id": id}), nil
	})
}

func countNotes(_ context.Context, st *state.Shared, _ struct{}) (any, error) {
	return notesDB.Read(st, func(db map[string]any) (any, error) {
		notes, _ := db["notes"].(map[string]any)
		return map[string]any{"count": len(notes)}, nil
	})
}

// register adds the domain's tools, and the harness's own, to r.
func register(r *registry.Tools) error {
	return errors.Join(
		registry.RegisterHarness(r),
		r.Register(domain, "add_note", registry.Plain(func(d registry.Deps) (tool.Tool, error) {
			return tool.New("add_note", "Add a note.", addNote, &tool.Options{State: d.State})
		})),
		r.Register(domain, "count_notes", registry.Plain(func(d registry.Deps) (tool.Tool, error) {
			return tool.New("count_notes", "Count the notes.", countNotes, &tool.Options{State: d.State})
		})),
	)
}

// serveBot serves an RTVI bot with the notes tools on model over a
// loopback WebSocket, and returns its URL.
func serveBot(model agent.Model) (string, func(), error) {
	logger := slog.New(slog.DiscardHandler)
	reg := &registry.Tools{Logger: logger}
	if err := register(reg); err != nil {
		return "", nil, err
	}
	brain := &rtviws.AgentBrain{Model: model, Logger: logger}
	srv, err := rtviws.New(rtviws.Config{
		Dispatcher: brain.Wire(rtvi.Config{State: state.New(), Tools: reg, Logger: logger}),
		Brain:      brain,
		Logger:     logger,
	})
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

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "outside:", err)
		os.Exit(1)
	}
}

func run() error {
	// The agent's model: the OpenAI adapter against a stand-in server that
	// plays three turns — add the note, count, end the call.
	standin := httptest.NewServer(agenttest.New(
		agenttest.Turn{Calls: []tool.ModelCall{{ID: "c1", Name: "add_note", Arguments: `{"text": "buy milk"}`}}},
		agenttest.Turn{Calls: []tool.ModelCall{{ID: "c2", Name: "count_notes", Arguments: `{}`}}},
		agenttest.Turn{Text: "Noted. Goodbye!", Calls: []tool.ModelCall{{ID: "c3", Name: "EndConversationTool", Arguments: `{}`}}},
	))
	defer standin.Close()
	agentURL, stopAgent, err := serveBot(openai.New("standin", &openai.Options{BaseURL: standin.URL + "/v1", APIKey: "EMPTY"}))
	if err != nil {
		return err
	}
	defer stopAgent()
	// The user simulator: an in-process scripted model.
	userURL, stopUser, err := serveBot(&agenttest.Model{Fallback: agent.Response{Text: "Please note: buy milk.", FinishReason: "stop"}})
	if err != nil {
		return err
	}
	defer stopUser()

	want, err := dbhash.Hash(map[string]any{"notes": map[string]any{"N1": "buy milk"}})
	if err != nil {
		return err
	}
	out, err := os.MkdirTemp("", "outside-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(out)
	opts := harness.EvaluateOptions{
		OutputDir: out,
		Bots:      []harness.BotPair{{AgentURL: agentURL, UserURL: userURL}},
		Session:   harness.DefaultSessionOptions(),
	}
	opts.Session.KickoffDelay, opts.Session.ExitSettle = -1, 50*time.Millisecond
	ev, err := harness.Evaluate(context.Background(), []*harness.Scenario{{
		Name:                 "notes__1",
		Domain:               domain,
		SuccessSignals:       []string{"db_state_match"},
		ExpectedDBHash:       want,
		MaxDuration:          30,
		AgentPrompt:          "You keep the user's notes.",
		UserPrompt:           "Ask the agent to note: buy milk.",
		AgentTools:           `{"add_note": {}, "count_notes": {}, "EndConversationTool": {}}`,
		UserTools:            `{}`,
		SharedStateInitAgent: map[string]any{"db": map[string]any{"notes": map[string]any{}}},
	}}, opts)
	if err != nil {
		return err
	}
	fmt.Printf("%d scenario(s), %d not successful\n", ev.Scenarios, ev.NotSuccessful)
	if ev.Scenarios != 1 || ev.NotSuccessful != 0 {
		return errors.New("the scenario was not successful")
	}
	return nil
}
