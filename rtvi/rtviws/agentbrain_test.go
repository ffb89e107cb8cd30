package rtviws_test

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/agent"
	"github.com/voiceeval/schematools/registry"
	"github.com/voiceeval/schematools/rtvi"
	"github.com/voiceeval/schematools/rtvi/bridge"
	"github.com/voiceeval/schematools/rtvi/rtviws"
	"github.com/voiceeval/schematools/tool"
)

// serveBrain serves an AgentBrain on model over loopback.
func serveBrain(t *testing.T, model agent.Model) string {
	t.Helper()
	logger := slog.New(slog.DiscardHandler)
	brain := &rtviws.AgentBrain{Model: model, Logger: logger}
	srv, err := rtviws.New(rtviws.Config{Dispatcher: brain.Wire(rtvi.Config{Logger: logger}), Brain: brain, Logger: logger})
	require.NoError(t, err)
	ln, err := rtviws.ListenLoopback("127.0.0.1:0")
	require.NoError(t, err)
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 30 * time.Second}
	go hs.Serve(ln) //nolint:errcheck // ends with Close
	t.Cleanup(func() { srv.CloseConnections(); hs.Close() })
	return "ws://" + ln.Addr().String()
}

// The user-simulator role: a prompt and no tools; each send-text is one
// user turn, each model call one tokens entry with the model's usage, its
// text spoken; reset starts the context again from the prompt.
func TestAgentBrainAsUserSimulator(t *testing.T) {
	var mu sync.Mutex
	var seen [][]agent.Message
	model := agent.ModelFunc(func(_ context.Context, req agent.Request) (agent.Response, error) {
		mu.Lock()
		defer mu.Unlock()
		seen = append(seen, req.Messages)
		return agent.Response{Text: "I want to cancel my order.", Usage: agent.Usage{PromptTokens: 40 + len(seen), CompletionTokens: 7, TotalTokens: 47 + len(seen)}}, nil
	})
	url := serveBrain(t, model)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	rec := &bridge.Recorder{}
	c, err := bridge.Dial(ctx, url, &bridge.Options{OnEvent: rec.Handle})
	require.NoError(t, err)
	defer c.Close()
	require.NoError(t, c.UpdateSystemPrompt(ctx, bridge.Prompt{Prompt: "You are a customer."}))
	require.NoError(t, c.SendText(ctx, "Hi, how can I help?"))
	require.NoError(t, c.SendText(ctx, "Sure, which order?"))
	require.Eventually(t, func() bool { return rec.Usage().Calls == 2 }, 10*time.Second, 5*time.Millisecond)
	hist, err := c.GetContextHistory(ctx)
	require.NoError(t, err)
	text, ok := hist.Reply["context"].(string)
	require.True(t, ok, "a str context")
	assert.Equal(t, "[{'role': 'system', 'content': 'You are a customer.'}, {'role': 'user', 'content': 'Hi, how can I help?'}, "+
		"{'role': 'assistant', 'content': 'I want to cancel my order.'}, {'role': 'user', 'content': 'Sure, which order?'}, "+
		"{'role': 'assistant', 'content': 'I want to cancel my order.'}]", text)
	assert.Equal(t, bridge.Usage{Calls: 2, Prompt: 41 + 42, Completion: 14}, rec.Usage())
	turns := rec.Turns()
	require.Len(t, turns, 2)
	assert.Equal(t, "I want to cancel my order.", turns[0].Text)

	require.NoError(t, c.Reset(ctx))
	require.Eventually(t, func() bool {
		h, err := c.GetContextHistory(ctx)
		if err != nil {
			return false
		}
		s, _ := h.Reply["context"].(string)
		return s == "[{'role': 'system', 'content': 'You are a customer.'}]"
	}, 5*time.Second, 20*time.Millisecond, "reset keeps the prompt only")
	mu.Lock()
	assert.Len(t, seen[1], 4, "the second call saw the whole conversation")
	mu.Unlock()
}

// A model error is an RTVI error event, as pipecat's ErrorFrame; the
// conversation goes on.
func TestAgentBrainModelErrorIsAnErrorEvent(t *testing.T) {
	url := serveBrain(t, agent.ModelFunc(func(context.Context, agent.Request) (agent.Response, error) {
		return agent.Response{}, errors.New("upstream 500")
	}))
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	errs := make(chan string, 4)
	c, err := bridge.Dial(ctx, url, &bridge.Options{OnEvent: func(e bridge.Event) {
		if e.Type == "error" {
			errs <- e.Message
		}
	}})
	require.NoError(t, err)
	defer c.Close()
	require.NoError(t, c.UpdateSystemPrompt(ctx, bridge.Prompt{Prompt: "You are an agent."}))
	require.NoError(t, c.SendText(ctx, "Hello"))
	select {
	case m := <-errs:
		assert.True(t, strings.Contains(m, "upstream 500"), m)
	case <-ctx.Done():
		t.Fatal("no error event")
	}
}

// A model that hangs does not hang the bot: the connection keeps reading,
// so the pulls are answered mid-turn (the context holds the user's text,
// and the usage the model calls that did finish), as a pipecat bot's RTVI
// processor answers while its LLM service waits; reset interrupts the
// hung turn, and the next scenario's turns run.
func TestHungModelLeavesPullsAnswered(t *testing.T) {
	var mu sync.Mutex
	calls, cancelled := 0, 0
	model := agent.ModelFunc(func(ctx context.Context, _ agent.Request) (agent.Response, error) {
		mu.Lock()
		calls++
		n := calls
		mu.Unlock()
		if n == 2 {
			<-ctx.Done() // the second call hangs until its turn is interrupted
			mu.Lock()
			cancelled++
			mu.Unlock()
			return agent.Response{}, ctx.Err()
		}
		return agent.Response{Text: "answer", Usage: agent.Usage{PromptTokens: 10, CompletionTokens: 2, TotalTokens: 12}}, nil
	})
	url := serveBrain(t, model)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	rec := &bridge.Recorder{}
	c, err := bridge.Dial(ctx, url, &bridge.Options{OnEvent: rec.Handle})
	require.NoError(t, err)
	defer c.Close()
	require.NoError(t, c.UpdateSystemPrompt(ctx, bridge.Prompt{Prompt: "You are an agent."}))
	require.NoError(t, c.SendText(ctx, "Hello"))
	require.Eventually(t, func() bool { return rec.Usage().Calls == 1 }, 10*time.Second, 5*time.Millisecond)
	require.NoError(t, c.SendText(ctx, "Are you there?"))
	require.Eventually(t, func() bool { mu.Lock(); defer mu.Unlock(); return calls == 2 }, 10*time.Second, 5*time.Millisecond)

	pullCtx, pullCancel := context.WithTimeout(ctx, 3*time.Second)
	defer pullCancel()
	hist, err := c.GetContextHistory(pullCtx)
	require.NoError(t, err, "the pull is answered while the model hangs")
	text, ok := hist.Reply["context"].(string)
	require.True(t, ok, "a str context")
	assert.Equal(t, "[{'role': 'system', 'content': 'You are an agent.'}, {'role': 'user', 'content': 'Hello'}, "+
		"{'role': 'assistant', 'content': 'answer'}, {'role': 'user', 'content': 'Are you there?'}]", text)
	_, err = c.GetScenarioSummary(pullCtx, false)
	require.NoError(t, err)
	assert.EqualValues(t, 1, rec.Usage().Calls, "the hung call has no tokens entry")

	require.NoError(t, c.Reset(ctx)) // sent, not answered (NeMo's reset)
	require.Eventually(t, func() bool { mu.Lock(); defer mu.Unlock(); return cancelled == 1 }, 10*time.Second, 5*time.Millisecond, "reset interrupts the hung turn")
	require.NoError(t, c.SendText(ctx, "Hello again"))
	require.Eventually(t, func() bool { return rec.Usage().Calls == 2 }, 10*time.Second, 5*time.Millisecond, "the next turn runs")
}

// A response that says goodbye and calls the end tool is heard as a
// pipecat bot with a TTS stage sends it: the end tool's <exit> (an urgent
// transport message) before the goodbye's speech, so a harness records
// the goodbye but does not relay it; the text of the model call pipecat
// makes after the result follows. Failed before: the goodbye was spoken
// first, and the harness relayed it to the user simulator.
func TestGoodbyeWithTheEndCallIsSpokenAfterExit(t *testing.T) {
	var calls atomic.Int32
	model := agent.ModelFunc(func(context.Context, agent.Request) (agent.Response, error) {
		if calls.Add(1) == 1 {
			return agent.Response{Text: "Goodbye.", Calls: []tool.ModelCall{{ID: "c1", Name: "EndConversationTool", Arguments: "{}"}}, FinishReason: "tool_calls"}, nil
		}
		return agent.Response{Text: "Bye!", FinishReason: "stop"}, nil
	})
	logger := slog.New(slog.DiscardHandler)
	reg := &registry.Tools{Logger: logger}
	require.NoError(t, registry.RegisterHarness(reg))
	brain := &rtviws.AgentBrain{Model: model, Logger: logger}
	srv, err := rtviws.New(rtviws.Config{Dispatcher: brain.Wire(rtvi.Config{Tools: reg, Logger: logger}), Brain: brain, Logger: logger})
	require.NoError(t, err)
	ln, err := rtviws.ListenLoopback("127.0.0.1:0")
	require.NoError(t, err)
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 30 * time.Second}
	go hs.Serve(ln) //nolint:errcheck // ends with Close
	t.Cleanup(func() { srv.CloseConnections(); hs.Close() })

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var mu sync.Mutex
	var order []string
	c, err := bridge.Dial(ctx, "ws://"+ln.Addr().String(), &bridge.Options{OnEvent: func(e bridge.Event) {
		mu.Lock()
		defer mu.Unlock()
		switch e.Kind {
		case bridge.KindExit:
			order = append(order, "exit")
		case bridge.KindTTSText:
			order = append(order, "say "+e.Text)
		}
	}})
	require.NoError(t, err)
	defer c.Close()
	require.NoError(t, c.UpdateSystemPrompt(ctx, bridge.Prompt{Prompt: "You are an agent.", Tools: `{"EndConversationTool": {}}`}))
	require.NoError(t, c.SendText(ctx, "Hello"))
	require.Eventually(t, func() bool { mu.Lock(); defer mu.Unlock(); return len(order) == 3 }, 10*time.Second, 5*time.Millisecond)
	mu.Lock()
	defer mu.Unlock()
	assert.Equal(t, []string{"exit", "say Goodbye.", "say Bye!"}, order)
}
