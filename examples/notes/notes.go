// Package notes is a custom domain written as a user of schematools
// writes one: a DB {"notes": {id: text}} and two tools, add_note (a
// write, recorded as an action) and count_notes (a read). Register adds
// them to a registry under the domain's name; examples/notesbot serves
// them as an RTVI bot (NewBot) and examples/notesharness evaluates a
// scenario on them.
package notes

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/voiceeval/schematools/agent"
	"github.com/voiceeval/schematools/agent/agenttest"
	"github.com/voiceeval/schematools/registry"
	"github.com/voiceeval/schematools/rtvi"
	"github.com/voiceeval/schematools/rtvi/rtviws"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

// Domain is the tool domain a scenario names.
const Domain = "notes"

// db reads and writes the domain's DB under the state's lock: a missing DB
// is answered db_not_initialized, and each write's action is recorded.
var db = tool.DB{
	NotLoaded: tool.Failure("db_not_initialized", "the notes DB is not loaded"),
	Recorder:  tool.Recorder{ActionTypes: []string{"add_note"}},
}

// addNoteParams are add_note's arguments: the struct is the tool's JSON
// Schema and its checks.
type addNoteParams struct {
	Text string `json:"text" jsonschema_description:"The note." validate:"min=1"`
}

func addNote(ctx context.Context, st *state.Shared, p addNoteParams) (any, error) {
	return db.Write(ctx, st, []string{"notes"}, func(d map[string]any) (any, state.Action, error) {
		notes, _ := d["notes"].(map[string]any)
		id := fmt.Sprintf("N%d", len(notes)+1)
		notes[id] = p.Text
		return map[string]any{"id": id}, state.NewAction("add_note", map[string]any{"text": p.Text}, map[string]any{"id": id}), nil
	})
}

func countNotes(_ context.Context, st *state.Shared, _ struct{}) (any, error) {
	return db.Read(st, func(d map[string]any) (any, error) {
		notes, _ := d["notes"].(map[string]any)
		return map[string]any{"count": len(notes)}, nil
	})
}

// Register adds the domain's two tools, and the harness's own
// (EndConversationTool, …), to r.
func Register(r *registry.Tools) error {
	return errors.Join(
		registry.RegisterHarness(r),
		r.Register(Domain, "add_note", registry.Plain(func(d registry.Deps) (tool.Tool, error) {
			return tool.New("add_note", "Add a note.", addNote, &tool.Options{State: d.State})
		})),
		r.Register(Domain, "count_notes", registry.Plain(func(d registry.Deps) (tool.Tool, error) {
			return tool.New("count_notes", "Count the notes.", countNotes, &tool.Options{State: d.State})
		})),
	)
}

// Script is what the scripted model answers, turn by turn.
func Script() []agenttest.Turn {
	return []agenttest.Turn{
		{Calls: []tool.ModelCall{{ID: "c1", Name: "add_note", Arguments: `{"text": "buy milk"}`}}},
		{Calls: []tool.ModelCall{{ID: "c2", Name: "count_notes", Arguments: `{}`}}},
		{Text: "Noted. Goodbye!", Calls: []tool.ModelCall{{ID: "c3", Name: "EndConversationTool", Arguments: `{}`}}},
	}
}

// NewBot returns an RTVI bot server with the notes tools whose brain
// runs model.
func NewBot(model agent.Model, logger *slog.Logger) (*rtviws.Server, error) {
	reg := &registry.Tools{Logger: logger}
	if err := Register(reg); err != nil {
		return nil, err
	}
	brain := &rtviws.AgentBrain{Model: model, Logger: logger}
	return rtviws.New(rtviws.Config{
		// The dispatcher answers the harness's six client messages (reset,
		// update_system_prompt, apply_initialization, …) on one state.
		Dispatcher: brain.Wire(rtvi.Config{State: state.New(), Tools: reg, Logger: logger}),
		Brain:      brain,
		Logger:     logger,
	})
}
