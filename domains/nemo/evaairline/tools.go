package evaairline

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"sync"

	"github.com/voiceeval/schematools/domains/nemo/nemodata"
	"github.com/voiceeval/schematools/internal/pyschema"
	"github.com/voiceeval/schematools/registry"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

// errorDBNotInitialized is the error type answered when the state holds
// no DB (or an empty one).
const errorDBNotInitialized = "db_not_initialized"

// dbNotInitialized is the original's answer when shared_state["db"] is
// missing or empty.
func dbNotInitialized() tool.FailureResult {
	return tool.Failure(errorDBNotInitialized,
		"Scenario database not loaded. This indicates a fixture-loading bug; contact the evaluator.")
}

// schemas are the LLM-visible schemas of the original's tools, shipped as
// data in nemodata.
var schemas = sync.OnceValues(func() ([]pyschema.Schema, error) {
	return pyschema.ParseFS(nemodata.FS, "tool_schemas.jsonl")
})

// schemaOf returns the original's LLM-visible schema of the eva_airline tool
// name (one of [ToolNames]), as shipped in nemodata's tool_schemas.jsonl.
func schemaOf(name string) (pyschema.Schema, error) {
	ss, err := schemas()
	if err != nil {
		return pyschema.Schema{}, err
	}
	return pyschema.Find(ss, Domain, name, nil)
}

// runFunc is a tool's body, run on validated arguments.
type runFunc func(ctx context.Context, t *evaTool, v values) (any, error)

// evaTool is one eva tool: the original's schema, its parameter model and
// its body, bound to a scenario's state.
type evaTool struct {
	schema pyschema.Schema
	model  []field
	run    runFunc
	st     *state.Shared
	logger *slog.Logger
	db     tool.DB
}

// bodies are the tools' parameter models and bodies, by name.
var bodies = map[string]struct {
	model []field
	run   runFunc
}{
	NameGetReservation:         {modelGetReservation, runGetReservation},
	NameGetFlightStatus:        {modelGetFlightStatus, runGetFlightStatus},
	NameGetDisruptionInfo:      {modelGetDisruptionInfo, runGetDisruptionInfo},
	NameSearchRebookingOptions: {modelSearchRebookingOptions, runSearchRebookingOptions},
	NameRebookFlight:           {modelRebookFlight, runRebookFlight},
	NameCancelReservation:      {modelCancelReservation, runCancelReservation},
	NameProcessRefund:          {modelProcessRefund, runProcessRefund},
	NameAssignSeat:             {modelAssignSeat, runAssignSeat},
	NameAddBaggageAllowance:    {modelAddBaggageAllowance, runAddBaggageAllowance},
	NameAddMealRequest:         {modelAddMealRequest, runAddMealRequest},
	NameAddToStandby:           {modelAddToStandby, runAddToStandby},
	NameIssueTravelCredit:      {modelIssueTravelCredit, runIssueTravelCredit},
	NameIssueHotelVoucher:      {modelIssueHotelVoucher, runIssueHotelVoucher},
	NameIssueMealVoucher:       {modelIssueMealVoucher, runIssueMealVoucher},
	NameTransferToAgent:        {modelTransferToAgent, runTransferToAgent},
}

// New builds the eva_airline tool name (one of [ToolNames]) on st (nil: a
// private state, as a Python tool built without shared_state), logging
// notifier failures and unknown action types to logger (nil:
// slog.Default). EndConversationTool is the harness's (tool.Harness).
func New(name string, st *state.Shared, logger *slog.Logger) (tool.Tool, error) {
	if st == nil {
		st = state.New()
	}
	if name == NameEndConversation {
		return tool.Harness(st, logger)[0], nil
	}
	b, ok := bodies[name]
	if !ok {
		return nil, fmt.Errorf("evaairline: no tool %q", name)
	}
	s, err := schemaOf(name)
	if err != nil {
		return nil, err
	}
	return &evaTool{
		schema: s, model: b.model, run: b.run, st: st, logger: logger,
		db: tool.DB{NotLoaded: dbNotInitialized(), Recorder: tool.Recorder{ActionTypes: ActionTypes(), Logger: logger}},
	}, nil
}

// NewTools builds the 16 tools of an eva_airline scenario on st, in the
// scenario's order ([ToolNames]).
func NewTools(st *state.Shared, logger *slog.Logger) ([]tool.Tool, error) {
	if st == nil {
		st = state.New()
	}
	out := make([]tool.Tool, 0, 16)
	for _, name := range ToolNames() {
		t, err := New(name, st, logger)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

// Register adds the 16 tools to r under [Domain], by the names the model
// sees, each built on the scenario's state (deps.State) and logger
// (deps.Logger). They take no keyword arguments. EndConversationTool is
// registered under Domain too (the harness tool, as registry.RegisterHarness
// builds it in the default domain), so that the domain lists all 16.
// Registering twice in one registry is an error (registry.ErrDuplicate).
func Register(r *registry.Tools) error {
	for _, name := range ToolNames() {
		if err := r.Register(Domain, name, registry.Plain(func(d registry.Deps) (tool.Tool, error) {
			return New(name, d.State, d.Logger)
		})); err != nil {
			return err
		}
	}
	return nil
}

// Name returns the LLM-visible name.
func (t *evaTool) Name() string { return t.schema.Name }

// Description returns the original's description.
func (t *evaTool) Description() string { return t.schema.Description }

// Properties returns a copy of the original's JSON Schema properties.
func (t *evaTool) Properties() map[string]any {
	return state.Clone(t.schema.Properties).(map[string]any)
}

// Required returns the original's required list.
func (t *evaTool) Required() []string { return slices.Clone(t.schema.Required) }

// PropertyOrder returns the properties in the original's order.
func (t *evaTool) PropertyOrder() []string { return slices.Clone(t.schema.Order) }

// Execute validates args against the tool's parameter model — a failure
// is eva's validation response — and runs the tool's body.
func (t *evaTool) Execute(ctx context.Context, args map[string]any) (any, error) {
	v, errs := validate(ctx, t.model, args)
	if len(errs) > 0 {
		return validationResult(t.model, errs), nil
	}
	return t.run(ctx, t, v)
}

// AfterResult sends "<exit>Transfer complete.</exit>" after a successful
// transfer has been delivered; other tools and results send nothing.
func (t *evaTool) AfterResult(ctx context.Context, _ map[string]any, result any) error {
	if _, ok := result.(transferResult); ok {
		tool.SendExit(ctx, t.st, "Transfer complete.", t.logger)
	}
	return nil
}

// read runs fn on the scenario DB under its read lock (the tool.DB's
// ReadOrdered). What fn returns may hold the DB's own records: the result
// is their copy in the DB's key order (state.Order.Copy), so that it reads
// as the original's json.dumps writes it.
func (t *evaTool) read(fn func(db map[string]any, o *state.Order) (any, error)) (any, error) {
	return t.db.ReadOrdered(t.st, func(db map[string]any, o *state.Order) (any, error) {
		res, err := fn(db, o)
		return o.Copy(res), err
	})
}

// write runs fn on the scenario DB under its write lock (the tool.DB's
// Write, with state.OrderOf), fn changing only the named tables; fn notes the key
// order of the records it builds (state.Order.Keep), and its result is
// copied in the DB's key order, as read's.
func (t *evaTool) write(ctx context.Context, tables []string, fn func(db map[string]any, o *state.Order) (any, state.Action, error)) (any, error) {
	return t.db.Write(ctx, t.st, tables, func(db map[string]any) (any, state.Action, error) {
		o := state.OrderOf(db)
		res, action, err := fn(db, o)
		return o.Copy(res), action, err
	})
}
