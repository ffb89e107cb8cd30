package bridge_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/voiceeval/schematools/domains/coffee"
	"github.com/voiceeval/schematools/rtvi/bridge"
)

// TestNeMoSequence drives the coffee bot through the bridge's sequence:
// prepare (reset, update_system_prompt, apply_initialization), run (the
// kickoff, events until <exit>), pull (history, summary), and checks the
// bytes the bot received against NeMo's payloads.
func TestNeMoSequence(t *testing.T) {
	bot := newCoffeeBot(t)
	ctx := context.Background()
	clock := fixedClock()

	// Prepare.
	prep, err := bridge.Dial(ctx, bot.url, &bridge.Options{Now: clock})
	if err != nil {
		t.Fatal(err)
	}
	tools, err := bridge.ToolsJSON(json.RawMessage(`{"place_order": {}, "get_menu": {"items": ["latte", "café"]}}`))
	if err != nil {
		t.Fatal(err)
	}
	if err := prep.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	if err := prep.UpdateSystemPrompt(ctx, bridge.Prompt{Prompt: "You are a barista.", Tools: tools, ToolDomain: coffee.Domain}); err != nil {
		t.Fatal(err)
	}
	if err := prep.ApplyInitialization(ctx, bridge.Init{Side: "agent", Domain: coffee.Domain,
		SharedStateInit: map[string]any{"db_path": "coffee/db.json"}}); err != nil {
		t.Fatalf("ApplyInitialization: %v", err)
	}
	if err := prep.Close(); err != nil {
		t.Fatal(err)
	}

	// Run.
	rec := &bridge.Recorder{Agent: true}
	exited := make(chan struct{})
	var once bool
	run, err := bridge.Dial(ctx, bot.url, &bridge.Options{Now: clock, OnEvent: func(e bridge.Event) {
		rec.Handle(e)
		if e.Kind == bridge.KindExit && !once {
			once = true
			close(exited)
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer run.Close()
	if err := run.SendText(ctx, "Hello"); err != nil {
		t.Fatal(err)
	}
	select {
	case <-exited:
	case <-time.After(5 * time.Second):
		t.Fatal("no <exit> from the bot")
	}

	// Pull.
	hist, err := run.GetContextHistory(ctx)
	if err != nil {
		t.Fatalf("GetContextHistory: %v", err)
	}
	sum, err := run.GetScenarioSummary(ctx, true)
	if err != nil {
		t.Fatalf("GetScenarioSummary: %v", err)
	}
	rec.Finish(time.Now())

	// What the bot received: NeMo's payloads, ids from the clock.
	want := []string{
		`{"label": "rtvi-ai", "type": "client-ready", "id": "client_ready_1718000000.123456", "data": {"version": "1.1.0", "about": {"library": "evaluation-bridge", "library_version": "1.0.0"}}}`,
		`{"label": "rtvi-ai", "type": "client-message", "id": "reset_1718000001.123456", "data": {"t": "reset", "d": {}}}`,
		`{"label": "rtvi-ai", "type": "client-message", "id": "update_prompt_1718000002.123456", "data": {"t": "update_system_prompt", "d": {"prompt": "You are a barista.", "tools": "{\"place_order\": {}, \"get_menu\": {\"items\": [\"latte\", \"caf\\u00e9\"]}}", "add_suffix": false, "tool_domain": "coffee"}}}`,
		`{"label": "rtvi-ai", "type": "client-message", "id": "apply_init_agent_1718000003.123456", "data": {"t": "apply_initialization", "d": {"domain": "coffee", "shared_state_init": "{\"db_path\": \"coffee/db.json\"}", "actions": []}}}`,
		`{"label": "rtvi-ai", "type": "client-ready", "id": "client_ready_1718000004.123456", "data": {"version": "1.1.0", "about": {"library": "evaluation-bridge", "library_version": "1.0.0"}}}`,
		`{"label": "rtvi-ai", "type": "send-text", "id": "send_text_1718000005.123456", "data": {"content": "Hello", "options": {"run_immediately": true, "audio_response": true}}}`,
		`{"label": "rtvi-ai", "type": "client-message", "id": "get_context_history_1718000006.123456", "data": {"t": "get_context_history", "d": {}}}`,
		`{"label": "rtvi-ai", "type": "client-message", "id": "get_scenario_summary_1718000007.123456", "data": {"t": "get_scenario_summary", "d": {"include_db": true}}}`,
	}
	got := bot.messages()
	if len(got) != len(want) {
		t.Fatalf("the bot received %d messages, want %d:\n%s", len(got), len(want), strings.Join(got, "\n"))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("message %d:\n got %s\nwant %s", i, got[i], want[i])
		}
	}

	// The events, assembled.
	turns := rec.Turns()
	var texts []string
	for _, tr := range turns {
		texts = append(texts, tr.Text)
	}
	if strings.Join(texts, "|") != "Your order ORD-001 is placed.|Bye!" || !turns[0].Stopped || !turns[1].Stopped {
		t.Errorf("turns = %+v", turns)
	}
	if u := rec.Usage(); u != (bridge.Usage{Calls: 2, Prompt: 30, Completion: 7}) {
		t.Errorf("usage = %+v", u)
	}
	if text, ok := rec.Exit(); !ok || text != "The task is finished." {
		t.Errorf("exit = %q, %v", text, ok)
	}
	acts := rec.Actions()
	if len(acts) != 1 || acts[0].Name != coffee.NamePlaceOrder || acts[0].ToolDomain != coffee.Domain {
		t.Errorf("actions applied = %+v", acts)
	}

	// The pulled context, as llm_context.json.
	js, err := hist.JSON(0)
	if err != nil {
		t.Fatal(err)
	}
	for _, part := range []string{
		"[\n  {\n    \"role\": \"system\",\n    \"content\": \"You are a barista.\"\n  },\n  {\n    \"role\": \"user\",\n    \"content\": \"Hello\"\n  },",
		`"tool_call_id": "call_1"`, `"content": "Your order ORD-001 is placed. Bye!"`,
	} {
		if !strings.Contains(string(js), part) {
			t.Errorf("llm_context.json lacks %q:\n%s", part, js)
		}
	}
	v, err := hist.Value()
	if err != nil {
		t.Fatal(err)
	}
	if msgs, _ := v.([]any); len(msgs) != 5 {
		t.Errorf("context = %v, want 5 messages", v)
	}

	// The summary: the order's action, the DB with it.
	if len(sum.Actions) != 1 || sum.DBHash == nil || len(*sum.DBHash) != 64 {
		t.Errorf("summary = %+v", sum)
	}
	db, _ := sum.DB.(map[string]any)
	if orders, _ := db["orders"].(map[string]any); orders["ORD-001"] == nil {
		t.Errorf("summary DB = %v", sum.DB)
	}
}

// TestApplyInitializationRefused: a bot that reports failure aborts the
// scenario with NeMo's text.
func TestApplyInitializationRefused(t *testing.T) {
	bot := newCoffeeBot(t)
	ctx := context.Background()
	c, err := bridge.Dial(ctx, bot.url, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	err = c.ApplyInitialization(ctx, bridge.Init{Side: "user", Domain: coffee.Domain,
		SharedStateInit: json.RawMessage(`{"db_path": "coffee/db.json"}`),
		Actions:         json.RawMessage(`[{"func_name": "no_such_function", "arguments": {}, "side": "user"}]`)})
	var ie *bridge.InitError
	if !errors.Is(err, bridge.ErrInitAborted) || !errors.As(err, &ie) || ie.Err != nil || ie.Errors == nil {
		t.Fatalf("err = %v (%#v)", err, ie)
	}
	if !strings.HasPrefix(err.Error(), "[APPLY INIT] user bot reported failure on 1 action(s): [") {
		t.Errorf("text = %q", err.Error())
	}
}
