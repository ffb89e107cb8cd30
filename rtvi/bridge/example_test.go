package bridge_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http/httptest"
	"strings"

	"github.com/voiceeval/schematools/rtvi"
	"github.com/voiceeval/schematools/rtvi/bridge"
	"github.com/voiceeval/schematools/rtvi/rtviws"
)

// A bot served by rtvi/rtviws, prepared and pulled as NeMo's bridge does.
func Example() {
	bot, err := rtviws.New(rtviws.Config{Dispatcher: rtvi.Config{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}})
	if err != nil {
		fmt.Println(err)
		return
	}
	srv := httptest.NewServer(bot)
	defer srv.Close()

	ctx := context.Background()
	var rec bridge.Recorder
	conn, err := bridge.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http"), &bridge.Options{OnEvent: rec.Handle})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer conn.Close()
	_ = conn.Reset(ctx)
	_ = conn.UpdateSystemPrompt(ctx, bridge.Prompt{Prompt: "You are a helpful agent."})
	if err := conn.ApplyInitialization(ctx, bridge.Init{Side: "agent", SharedStateInit: map[string]any{"db": map[string]any{"n": 1}}}); err != nil {
		fmt.Println("aborted unscored:", err)
		return
	}
	sum, err := conn.GetScenarioSummary(ctx, true)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("actions:", len(sum.Actions), "db:", sum.DB)
	// Output: actions: 0 db: map[n:1]
}
