// Command quickstart runs a scripted coffee-shop session through the live
// tool-call path: the tools a model would call, one bad call, one call to
// a tool that does not exist, and the end of the conversation. It prints
// each call, each result, the server messages the harness would receive,
// and the final action log. It needs no setup: the DB is embedded.
//
//	go run ./examples/quickstart
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"

	"github.com/voiceeval/schematools/domains/coffee"
	"github.com/voiceeval/schematools/registry"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

// spec is the scenario's tool set: tool name -> keyword arguments. Only two
// drinks are on offer today.
var spec = []registry.ToolSpec{
	{Name: coffee.NameGetMenu, Args: map[string]any{"items": []any{"latte", "espresso"}}},
	{Name: coffee.NamePlaceOrder},
	{Name: coffee.NameOrderStatus},
	{Name: coffee.NameCancelOrder},
	{Name: "EndConversationTool"},
}

// script is what a model might call during one conversation.
var script = []struct{ name, args string }{
	{coffee.NameGetMenu, `{}`},
	{coffee.NamePlaceOrder, `{"customer": "Ada", "items": [{"item_id": "latte", "size": "large", "quantity": 2}]}`},
	{coffee.NamePlaceOrder, `{"customer": "Bob", "items": [{"item_id": "latte", "size": "huge", "quantity": 0}]}`},
	{coffee.NameOrderStatus, `{"order_id": "ORD-001"}`},
	{coffee.NameCancelOrder, `{"order_id": "ORD-001", "reason": "changed my mind"}`},
	{"refund_order", `{"order_id": "ORD-001"}`},
	{"EndConversationTool", `{}`},
}

func main() {
	if err := run(os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "quickstart:", err)
		os.Exit(1)
	}
}

func run(w io.Writer) error {
	ctx := context.Background()

	// One shared state per scenario: the DB, the action log, the domain and
	// the notifier that carries server messages to the harness.
	st := state.New()
	st.StartScenario(coffee.Domain, printer{w})
	st.SetDB(coffee.DB())

	// Keep the screen for results: warnings (the default-domain fallback of
	// EndConversationTool, the unknown tool) would go to this logger.
	logger := slog.New(slog.DiscardHandler)

	// Register the domain's tools and the shared harness tools, then build
	// the scenario's tool set from its {tool name: keyword arguments} spec.
	reg := &registry.Tools{Logger: logger}
	if err := errors.Join(registry.RegisterHarness(reg), coffee.Register(reg)); err != nil {
		return err
	}
	set, err := reg.NewSet(coffee.Domain, spec, registry.Deps{State: st, Logger: logger})
	if err != nil {
		return err
	}

	quiet := &tool.CallOptions{Logger: logger}
	fmt.Fprintf(w, "coffee shop, %d tools: %v\n\n", len(set.Names()), set.Names())
	for _, call := range script {
		fmt.Fprintf(w, "→ %s %s\n", call.name, call.args)
		err := set.CallJSON(ctx, call.name, []byte(call.args), func(result any) error {
			fmt.Fprintf(w, "← %s\n", compact(result))
			return nil
		}, quiet)
		if err != nil {
			return err
		}
	}

	fmt.Fprintln(w, "\naction log:")
	for i, a := range st.Actions() {
		fmt.Fprintf(w, "  %d. %s\n", i+1, compact(a))
	}
	return nil
}

// compact renders v as one line of JSON, leaving <, > and & readable.
func compact(v any) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Sprintf("%v", v)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// printer is the notifier of the tour: it prints each server message.
type printer struct{ w io.Writer }

// Notify prints msg.
func (p printer) Notify(_ context.Context, msg any) error {
	fmt.Fprintf(p.w, "   ⇢ server message %s\n", compact(msg))
	return nil
}
