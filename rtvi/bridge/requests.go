package bridge

import (
	"context"
	"errors"
	"fmt"

	"github.com/voiceeval/schematools/internal/pyjson"
	"github.com/voiceeval/schematools/internal/pyvalue"
	"github.com/voiceeval/schematools/internal/rtviwire"
)

// Reset sends reset ({}), not awaited: the bot's answer (true) arrives as
// an event.
func (c *Conn) Reset(ctx context.Context) error {
	msg, err := clientMessage(c.ids.id("reset_"), rtviwire.Reset)
	if err != nil {
		return err
	}
	return c.send(ctx, msg)
}

// Prompt is what update_system_prompt carries.
type Prompt struct {
	// Prompt is the system prompt, sent as it is (add_suffix is false).
	Prompt string
	// Tools is the JSON string of the tool map ([toolsJSON]); "" sends
	// "{}", the bridge's string for no tools.
	Tools string
	// ToolDomain is the registry namespace of the tools; "" sends
	// "default".
	ToolDomain string
}

// UpdateSystemPrompt sends update_system_prompt {prompt, tools,
// add_suffix: false, tool_domain}, not awaited, as the bridge: the bot's
// answer (true or false) arrives as an event.
func (c *Conn) UpdateSystemPrompt(ctx context.Context, p Prompt) error {
	if p.Tools == "" {
		p.Tools = "{}"
	}
	if p.ToolDomain == "" {
		p.ToolDomain = "default"
	}
	msg, err := clientMessage(c.ids.id("update_prompt_"), rtviwire.UpdateSystemPrompt,
		field{"prompt", p.Prompt}, field{"tools", p.Tools}, field{"add_suffix", false}, field{"tool_domain", p.ToolDomain})
	if err != nil {
		return err
	}
	return c.send(ctx, msg)
}

// Init is what apply_initialization carries to one bot.
type Init struct {
	// Side labels the bot ("agent" or "user") in the request id and the
	// errors.
	Side string
	// Domain is the scenario's domain; "" sends "default".
	Domain string
	// SharedStateInit is the dict the scenario's setup_shared_state filled
	// for this side ({"db_path": ...}); it travels as the JSON string of
	// the dict, as [pythonJSON] writes it. Nil sends "{}".
	SharedStateInit any
	// Actions are this side's initialization action records ({func_name,
	// arguments, side}), as a list. Nil sends [].
	Actions any
}

// ErrInitAborted is wrapped by every error of ApplyInitialization but the
// context's: the bot could not be seeded, and NeMo's bridge aborts the
// scenario, unscored.
var ErrInitAborted = errors.New("bridge: apply_initialization failed")

// initError is an apply_initialization that failed. Its text is the
// RuntimeError NeMo's bridge raises.
type initError struct {
	// Side is the bot's label.
	Side string
	// Errors is the bot's "errors" when it answered {"success": false},
	// nil otherwise.
	Errors any
	// Err is ErrBotError, ErrTimeout, ErrClosed or ErrUnexpectedReply, or
	// nil when the bot reported failure.
	Err  error
	text string
}

func (e *initError) Error() string { return e.text }

// Unwrap gives ErrInitAborted and Err.
func (e *initError) Unwrap() []error {
	if e.Err == nil {
		return []error{ErrInitAborted}
	}
	return []error{ErrInitAborted, e.Err}
}

// ApplyInitialization sends apply_initialization {domain,
// shared_state_init, actions} and waits, at most RequestTimeout (15 s),
// for the answer with the same id — other answers (the
// update_system_prompt true that can race it) are skipped. It returns nil
// when the answer's success is truthy, and otherwise an *initError
// wrapping ErrInitAborted: an error-response, {"success": false}, no
// answer in time, or a closed connection. Only the end of ctx is
// reported as ctx's error.
func (c *Conn) ApplyInitialization(ctx context.Context, in Init) error {
	if in.Domain == "" {
		in.Domain = "default"
	}
	init := "{}"
	if in.SharedStateInit != nil {
		var err error
		if init, err = pythonJSON(in.SharedStateInit); err != nil {
			return fmt.Errorf("bridge: shared_state_init: %w", err)
		}
	}
	actions := in.Actions
	if actions == nil {
		actions = []any{}
	}
	actionsJSON, err := pythonJSON(actions)
	if err != nil {
		return fmt.Errorf("bridge: actions: %w", err)
	}
	n := countList(actionsJSON)
	id := c.ids.id("apply_init_" + in.Side + "_")
	msg, err := clientMessage(id, rtviwire.ApplyInitialization,
		field{"domain", in.Domain}, field{"shared_state_init", init}, field{"actions", rawJSON(actionsJSON)})
	if err != nil {
		return err
	}
	fail := func(cause error, errs any, format string, args ...any) error {
		return &initError{Side: in.Side, Errors: errs, Err: cause, text: fmt.Sprintf(format, args...)}
	}
	e, err := c.await(ctx, msg, c.opts.RequestTimeout, "apply_initialization answer", func(e Event) bool {
		return (e.Kind == KindServerResponse || e.Kind == KindErrorResponse) && e.ID == id
	})
	switch {
	case err != nil && ctx.Err() != nil:
		return err
	case errors.Is(err, ErrTimeout):
		return fail(err, nil, "[APPLY INIT] Timeout (%s s) waiting for %s bot to apply %d initialization action(s).",
			pyvalue.Repr(c.opts.RequestTimeout.Seconds()), in.Side, n)
	case err != nil:
		return fail(err, nil, "[APPLY INIT] %s bot connection failed: %v", in.Side, err)
	case e.Kind == KindErrorResponse:
		return fail(ErrBotError, nil, "[APPLY INIT] %s bot returned an error: %s", in.Side, e.Error)
	}
	d := e.D
	if !e.hasD {
		d = map[string]any{} // data.get("d", {})
	}
	result, ok := d.(map[string]any)
	if !ok {
		return fail(ErrUnexpectedReply, nil, "[APPLY INIT] %s bot answered %s: AttributeError: '%s' object has no attribute 'get'",
			in.Side, pyvalue.Repr(d), pyvalue.TypeName(d))
	}
	if pyvalue.Truthy(result["success"]) {
		return nil
	}
	return fail(nil, result["errors"], "[APPLY INIT] %s bot reported failure on %d action(s): %s",
		in.Side, n, pyvalue.Repr(result["errors"]))
}

// ApplySyncDelta sends apply_sync_delta {domain, delta} to the bot of
// side, not awaited (the bridge's docstring says it waits; its code does
// not). delta is what [pythonJSON] takes, an object of dotted path → value.
func (c *Conn) ApplySyncDelta(ctx context.Context, side, domain string, delta any) error {
	d, err := pythonJSON(delta)
	if err != nil {
		return fmt.Errorf("bridge: delta: %w", err)
	}
	msg, err := clientMessage(c.ids.id("apply_sync_delta_"+side+"_"), rtviwire.ApplySyncDelta,
		field{"domain", domain}, field{"delta", rawJSON(d)})
	if err != nil {
		return err
	}
	return c.send(ctx, msg)
}

// SendText sends send-text {content, options: {run_immediately: true,
// audio_response: true}}: the bridge's kickoff ("Hello") to the agent
// bot, and the user's turns a harness relays. Not awaited.
func (c *Conn) SendText(ctx context.Context, text string) error {
	// Written in one buffer: a harness relays every turn with it.
	b := make([]byte, 0, 160+len(text)+len(text)/8)
	b = append(b, `{"label": "`+rtviwire.Label+`", "type": "`+rtviwire.TypeSendText+`", "id": `...)
	b, err := pyjson.AppendString(b, c.ids.id("send_text_"))
	if err != nil {
		return err
	}
	b = append(b, `, "data": {"content": `...)
	if b, err = pyjson.AppendString(b, text); err != nil {
		return fmt.Errorf("content: %w", err)
	}
	b = append(b, `, "options": {"run_immediately": true, "audio_response": true}}}`...)
	return c.send(ctx, b)
}

// GetContextHistory sends get_context_history ({}) and waits, at most
// RequestTimeout, for the first server-response or error-response of
// any id — the bridge does not match ids, so an answer to an earlier
// request arriving now is taken for this one (its d is then no object
// and the call fails with ErrUnexpectedReply, where the bridge would log
// and save an empty context). An error-response is an ErrBotError. Where
// this fails, NeMo's bridge goes on with an empty reply, which saves the
// context [] (what a zero [History] gives).
func (c *Conn) GetContextHistory(ctx context.Context) (*History, error) {
	msg, err := clientMessage(c.ids.id("get_context_history_"), rtviwire.GetContextHistory)
	if err != nil {
		return nil, err
	}
	e, err := c.await(ctx, msg, c.opts.RequestTimeout, "get_context_history answer", func(e Event) bool {
		return e.Kind == KindServerResponse || e.Kind == KindErrorResponse
	})
	if err != nil {
		return nil, err
	}
	if e.Kind == KindErrorResponse {
		return nil, fmt.Errorf("%w: get_context_history: %s", ErrBotError, e.Error)
	}
	d, err := replyObject(e, "get_context_history")
	if err != nil {
		return nil, err
	}
	return &History{Reply: d, MaxDepth: c.opts.MaxDepth}, nil
}

// GetScenarioSummary sends get_scenario_summary {include_db} and waits,
// at most RequestTimeout, for the first server-response of any id. Like
// the bridge it ignores error-responses, so a bot that refuses the
// request makes it wait out the timeout; and an answer to an earlier
// request arriving now is taken for this one (ErrUnexpectedReply when its
// d is no object). Where this fails, NeMo's bridge goes on with an empty
// summary: no actions, no DB hash.
func (c *Conn) GetScenarioSummary(ctx context.Context, includeDB bool) (*Summary, error) {
	msg, err := clientMessage(c.ids.id("get_scenario_summary_"), rtviwire.GetScenarioSummary, field{"include_db", includeDB})
	if err != nil {
		return nil, err
	}
	e, err := c.await(ctx, msg, c.opts.RequestTimeout, "get_scenario_summary answer", func(e Event) bool {
		return e.Kind == KindServerResponse
	})
	if err != nil {
		return nil, err
	}
	d, err := replyObject(e, "get_scenario_summary")
	if err != nil {
		return nil, err
	}
	s := &Summary{Reply: d, DB: d["db"]}
	s.Actions, _ = d["actions"].([]any)
	if h, ok := d["db_hash"].(string); ok {
		s.DBHash = &h
	}
	return s, nil
}

// replyObject is a server-response's d, which must be an object ({} when
// absent, as data.get("d", {})).
func replyObject(e Event, what string) (map[string]any, error) {
	if !e.hasD {
		return map[string]any{}, nil
	}
	d, ok := e.D.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%w: %s answered %s (the answer to request %q?)", ErrUnexpectedReply, what, pyvalue.Repr(e.D), e.ID)
	}
	return d, nil
}

// rawJSON is JSON text written as it is.
type rawJSON string

// countList returns the number of elements of the JSON list text s, or 0.
func countList(s string) int {
	v, err := pyvalue.Loads([]byte(s))
	if err != nil {
		return 0
	}
	l, _ := v.([]any)
	return len(l)
}
