package harness_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/voiceeval/schematools/agent"
	"github.com/voiceeval/schematools/agent/agenttest"
	"github.com/voiceeval/schematools/dbhash"
	"github.com/voiceeval/schematools/harness"
	"github.com/voiceeval/schematools/registry"
	"github.com/voiceeval/schematools/rtvi"
	"github.com/voiceeval/schematools/rtvi/rtviws"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

// The notes domain: a DB {"notes": {id: text}} and two tools.
const notesDomain = "notes"

var notesDB = tool.DB{
	NotLoaded: tool.Failure("db_not_initialized", "the notes DB is not loaded"),
	Recorder:  tool.Recorder{ActionTypes: []string{"add_note"}},
}

type addNoteParams struct {
	Text string `json:"text" jsonschema_description:"The note." validate:"min=1"`
}

// registerNotes adds add_note and count_notes to r.
func registerNotes(r *registry.Tools) error {
	return errors.Join(
		r.Register(notesDomain, "add_note", registry.Plain(func(d registry.Deps) (tool.Tool, error) {
			return tool.New("add_note", "Add a note.", func(ctx context.Context, st *state.Shared, p addNoteParams) (any, error) {
				return notesDB.Write(ctx, st, []string{"notes"}, func(db map[string]any) (any, state.Action, error) {
					notes, _ := db["notes"].(map[string]any)
					id := fmt.Sprintf("N%d", len(notes)+1)
					notes[id] = p.Text
					return map[string]any{"id": id}, state.NewAction("add_note", map[string]any{"text": p.Text}, map[string]any{"id": id}), nil
				})
			}, &tool.Options{State: d.State})
		})),
		r.Register(notesDomain, "count_notes", registry.Plain(func(d registry.Deps) (tool.Tool, error) {
			return tool.New("count_notes", "Count the notes.", func(_ context.Context, st *state.Shared, _ struct{}) (any, error) {
				return notesDB.Read(st, func(db map[string]any) (any, error) {
					notes, _ := db["notes"].(map[string]any)
					return map[string]any{"count": len(notes)}, nil
				})
			}, &tool.Options{State: d.State})
		})),
	)
}

// serveBot serves an RTVI bot on model with the notes tools over a
// loopback WebSocket and returns its URL.
func serveBot(model agent.Model) (url string, stop func(), err error) {
	return serveBotTimeouts(model, rtviws.Timeouts{})
}

// serveBotTimeouts is serveBot with the server's timeouts.
func serveBotTimeouts(model agent.Model, timeouts rtviws.Timeouts) (url string, stop func(), err error) {
	return serveBotAt(model, timeouts, "127.0.0.1:0")
}

// serveBotAt is serveBotTimeouts listening on addr, a loopback address.
func serveBotAt(model agent.Model, timeouts rtviws.Timeouts, addr string) (url string, stop func(), err error) {
	logger := slog.New(slog.DiscardHandler)
	reg := &registry.Tools{Logger: logger}
	if err := errors.Join(registry.RegisterHarness(reg), registerNotes(reg)); err != nil {
		return "", nil, err
	}
	brain := &rtviws.AgentBrain{Model: model, Logger: logger}
	srv, err := rtviws.New(rtviws.Config{
		Dispatcher: brain.Wire(rtvi.Config{State: state.New(), Tools: reg, Logger: logger}),
		Brain:      brain,
		Logger:     logger,
		Timeouts:   timeouts,
	})
	if err != nil {
		return "", nil, err
	}
	ln, err := rtviws.ListenLoopback(addr)
	if err != nil {
		return "", nil, err
	}
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 5 * time.Second}
	go hs.Serve(ln) //nolint:errcheck // ends with Close
	return "ws://" + ln.Addr().String(), func() { srv.CloseConnections(); hs.Close() }, nil
}

// Evaluate one scenario of a custom domain against an RTVI bot pair
// driven by scripted models: the agent adds the note the scenario expects
// and ends the call; the DB it reports matches the expected hash.
func ExampleEvaluate() {
	agentModel := &agenttest.Model{Fallback: agent.Response{Text: "Goodbye.", FinishReason: "stop"}}
	agentModel.Arm([]agenttest.Turn{
		{Calls: []tool.ModelCall{{ID: "c1", Name: "add_note", Arguments: `{"text": "buy milk"}`}}},
		{Calls: []tool.ModelCall{{ID: "c2", Name: "count_notes", Arguments: `{}`}}},
		{Text: "Noted. Goodbye!", Calls: []tool.ModelCall{{ID: "c3", Name: "EndConversationTool", Arguments: `{}`}}},
	}, false)
	userModel := &agenttest.Model{Fallback: agent.Response{Text: "Please note: buy milk.", FinishReason: "stop"}}
	agentURL, stopAgent, err := serveBot(agentModel)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer stopAgent()
	userURL, stopUser, err := serveBot(userModel)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer stopUser()

	want, err := dbhash.Hash(map[string]any{"notes": map[string]any{"N1": "buy milk"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	sc := &harness.Scenario{
		Name:                 "notes__1",
		Domain:               notesDomain,
		SuccessSignals:       []string{"db_state_match"},
		ExpectedDBHash:       want,
		MaxDuration:          30,
		AgentPrompt:          "You keep the user's notes.",
		UserPrompt:           "Ask the agent to note: buy milk.",
		AgentTools:           `{"add_note": {}, "count_notes": {}, "EndConversationTool": {}}`,
		UserTools:            `{}`,
		SharedStateInitAgent: map[string]any{"db": map[string]any{"notes": map[string]any{}}},
	}
	out, err := os.MkdirTemp("", "evaluate-example-")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(out)
	o := harness.EvaluateOptions{
		OutputDir: out,
		Bots:      []harness.BotPair{{AgentURL: agentURL, UserURL: userURL}},
		Session:   harness.DefaultSessionOptions(),
	}
	o.Session.KickoffDelay, o.Session.ExitSettle = -1, 50*time.Millisecond
	ev, err := harness.Evaluate(context.Background(), []*harness.Scenario{sc}, o)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d scenario(s), %d not successful\n", ev.Scenarios, ev.NotSuccessful)
	_, err = os.Stat(filepath.Join(ev.Dir, "notes__1", "metrics.json"))
	fmt.Println("metrics.json written:", err == nil)
	// Output:
	// 1 scenario(s), 0 not successful
	// metrics.json written: true
}
