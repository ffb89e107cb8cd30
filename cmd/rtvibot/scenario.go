package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// scenarioResult is what the harness pulled at the end of the scenario.
type scenarioResult struct {
	Summary      map[string]any // the get_scenario_summary answer's d
	History      string         // get_context_history's context
	AfterReset   string         // get_context_history's context after reset
	Pushes       []map[string]any
	Events       []map[string]any // the server events of the conversation
	InlineDBHash any              // db_hash of the second scenario, seeded with an inline DB
}

// The scenario the demo and the test drive: the prompt and tools, then the
// user's turns.
var (
	scenarioPrompt = "You are the barista of a coffee shop. Take and manage orders with your tools."
	scenarioTools  = `{"get_menu": {}, "place_order": {}, "order_status": {}, "cancel_order": {}, "EndConversationTool": {}}`
	scenarioTurns  = []string{
		`/call place_order {"customer": "Ada", "items": [{"item_id": "latte", "size": "large", "quantity": 2}]}`,
		`/call place_order {"customer": "Grace", "items": [{"item_id": "espresso", "size": "small", "quantity": 1}]}`,
		`/call cancel_order {"order_id": "ORD-001", "reason": "changed my mind"}`,
		`/call order_status {"order_id": "ORD-042"}`,
		`/call EndConversationTool {}`,
	}
)

// runScenario drives one scenario against the bot at url as NeMo's
// evaluation bridge does — a prepare connection (handshake, reset,
// update_system_prompt, apply_initialization), then a run connection
// (conversation, get_context_history, get_scenario_summary) — and writes a
// transcript of it to w. A second, short scenario is seeded with an inline
// DB to show that update_system_prompt starts from a clean state.
func runScenario(ctx context.Context, url string, w io.Writer) (scenarioResult, error) {
	var res scenarioResult
	h, err := dialHarness(ctx, url)
	if err != nil {
		return res, err
	}
	steps := []struct {
		t string
		d any
	}{
		{"reset", map[string]any{}},
		{"update_system_prompt", map[string]any{"prompt": scenarioPrompt, "tools": scenarioTools, "add_suffix": false, "tool_domain": "coffee"}},
		{"apply_initialization", map[string]any{"domain": "coffee", "shared_state_init": `{"db_path": "coffee/db.json"}`, "actions": []any{}}},
	}
	fmt.Fprintln(w, "# prepare connection")
	if m, err := h.ready(ctx); err != nil {
		return res, err
	} else {
		fmt.Fprintf(w, "→ client-ready\n← %s %v\n", m["type"], m["data"].(map[string]any)["version"])
	}
	for _, s := range steps {
		if _, err := answer(ctx, h, w, s.t, s.d); err != nil {
			return res, err
		}
	}
	h.close()

	fmt.Fprintln(w, "# run connection")
	if h, err = dialHarness(ctx, url); err != nil {
		return res, err
	}
	defer h.close()
	if _, err := h.ready(ctx); err != nil {
		return res, err
	}
	said, err := h.sendText(ctx, "Hello")
	if err != nil {
		return res, err
	}
	fmt.Fprintf(w, "→ send-text Hello\n← %s\n", said)
	for _, turn := range scenarioTurns {
		before := len(h.pushes)
		said, err := h.say(ctx, turn)
		if err != nil {
			return res, err
		}
		fmt.Fprintf(w, "→ %s\n← %s\n", turn, said)
		for _, p := range h.pushes[before:] {
			fmt.Fprintf(w, "  server-message %s\n", describePush(p))
		}
	}
	d, err := answer(ctx, h, w, "get_context_history", map[string]any{})
	if err != nil {
		return res, err
	}
	res.History, _ = d.(map[string]any)["context"].(string)
	d, err = answer(ctx, h, w, "get_scenario_summary", map[string]any{"include_db": false})
	if err != nil {
		return res, err
	}
	res.Summary, _ = d.(map[string]any)
	res.Pushes = h.pushes
	res.Events = h.events

	if _, err := answer(ctx, h, w, "reset", map[string]any{}); err != nil {
		return res, err
	}
	if d, err = answer(ctx, h, w, "get_context_history", map[string]any{}); err != nil {
		return res, err
	}
	res.AfterReset, _ = d.(map[string]any)["context"].(string)

	fmt.Fprintln(w, "# next scenario, seeded with an inline DB")
	inline := `{"db": {"menu": {"tea": {"name": "Tea", "prices": {"small": 2.0}}}, "orders": {}}}`
	for _, s := range []struct {
		t string
		d any
	}{
		{"update_system_prompt", map[string]any{"prompt": scenarioPrompt, "tools": scenarioTools, "add_suffix": false, "tool_domain": "coffee"}},
		{"apply_initialization", map[string]any{"domain": "coffee", "shared_state_init": inline, "actions": []any{}}},
		{"get_scenario_summary", map[string]any{"include_db": true}},
	} {
		if d, err = answer(ctx, h, w, s.t, s.d); err != nil {
			return res, err
		}
	}
	res.InlineDBHash = d.(map[string]any)["db_hash"]
	return res, nil
}

// answer sends one client message, prints it and its answer, and returns
// the answer's d. An error-response is an error.
func answer(ctx context.Context, h *harness, w io.Writer, t string, d any) (any, error) {
	m, err := h.request(ctx, t, d)
	if err != nil {
		return nil, err
	}
	data, _ := m["data"].(map[string]any)
	if m["type"] != "server-response" {
		return nil, fmt.Errorf("%s: %v", t, data["error"])
	}
	text, err := json.Marshal(data["d"])
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(w, "→ %s\n← %s\n", t, shorten(string(text), 200))
	return data["d"], nil
}

func describePush(p map[string]any) string {
	data, _ := p["data"].(map[string]any)
	if data["type"] == "action-applied" {
		action, _ := data["action"].(map[string]any)
		return fmt.Sprintf("action-applied %v (domain %v)", action["name"], data["tool_domain"])
	}
	if text, ok := data["text"].(string); ok {
		return text
	}
	b, _ := json.Marshal(data)
	return string(b)
}

func shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.TrimSpace(s[:n]) + "…"
}
