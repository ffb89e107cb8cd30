package rtviws_test

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/voiceeval/schematools/rtvi"
	"github.com/voiceeval/schematools/rtvi/bridge"
	"github.com/voiceeval/schematools/rtvi/rtviws"
)

// A scripted bot served on loopback, prepared and run by the bridge as
// NeMo's harness does: one connection prepares the scenario, the next one
// runs it, and the bot's spoken answer becomes a turn of the transcript.
func Example() {
	srv, err := rtviws.New(rtviws.Config{
		Dispatcher: rtvi.Config{Logger: slog.New(slog.DiscardHandler)},
		Brain: rtviws.BrainFunc(func(ctx context.Context, t rtviws.Turn) error {
			answer := "You said: " + t.Text
			if err := t.Events.LLMResponse(ctx, rtvi.Usage{PromptTokens: 12, CompletionTokens: 4}, answer); err != nil {
				return err
			}
			return t.Events.Say(ctx, answer)
		}),
		Logger: slog.New(slog.DiscardHandler),
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	ln, err := rtviws.ListenLoopback("127.0.0.1:0")
	if err != nil {
		fmt.Println(err)
		return
	}
	hs := &http.Server{Handler: srv}
	go hs.Serve(ln) //nolint:errcheck // ends with Close
	defer hs.Close()
	url := "ws://" + ln.Addr().String()
	ctx := context.Background()

	prep, err := bridge.Dial(ctx, url, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	_ = prep.UpdateSystemPrompt(ctx, bridge.Prompt{Prompt: "You are an echo."})
	err = prep.ApplyInitialization(ctx, bridge.Init{Side: "agent", SharedStateInit: map[string]any{"db": map[string]any{"n": 1}}})
	prep.Close()
	if err != nil {
		fmt.Println("aborted unscored:", err)
		return
	}

	rec := &bridge.Recorder{Agent: true}
	spoke := make(chan struct{}, 1)
	run, err := bridge.Dial(ctx, url, &bridge.Options{OnEvent: func(e bridge.Event) {
		rec.Handle(e)
		if e.Kind == bridge.KindStoppedSpeaking {
			spoke <- struct{}{}
		}
	}})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer run.Close()
	_ = run.SendText(ctx, "Hello")
	select {
	case <-spoke:
	case <-time.After(10 * time.Second):
		fmt.Println("no answer")
		return
	}
	turn, _ := rec.LastTurn()
	fmt.Println(turn.Text)
	fmt.Printf("%+v\n", rec.Usage())
	// Output:
	// You said: Hello
	// {Calls:1 Prompt:12 Completion:4 Unreported:0 Partial:0}
}
