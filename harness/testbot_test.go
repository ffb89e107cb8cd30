package harness

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/voiceeval/schematools/agent"
	"github.com/voiceeval/schematools/agent/agenttest"
	"github.com/voiceeval/schematools/domains"
	"github.com/voiceeval/schematools/registry"
	"github.com/voiceeval/schematools/rtvi"
	"github.com/voiceeval/schematools/rtvi/rtviws"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

// standinModel is an agent.Model calling an agenttest stand-in over HTTP,
// non-streaming: the smallest OpenAI-compatible client.
type standinModel struct{ url string }

func (m standinModel) Complete(ctx context.Context, req agent.Request) (agent.Response, error) {
	msgs := make([]json.RawMessage, 0, len(req.Messages))
	for _, msg := range req.Messages {
		b, err := msg.MarshalJSON()
		if err != nil {
			return agent.Response{}, err
		}
		msgs = append(msgs, b)
	}
	body, _ := json.Marshal(map[string]any{"model": "standin", "messages": msgs})
	hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, m.url+"/v1/chat/completions", bytes.NewReader(body))
	if err != nil {
		return agent.Response{}, err
	}
	resp, err := http.DefaultClient.Do(hreq)
	if err != nil {
		return agent.Response{}, err
	}
	defer resp.Body.Close()
	var out struct {
		Choices []struct {
			Message struct {
				Content   string `json:"content"`
				ToolCalls []struct {
					ID       string `json:"id"`
					Function struct{ Name, Arguments string }
				} `json:"tool_calls"`
			} `json:"message"`
			FinishReason string `json:"finish_reason"`
		} `json:"choices"`
		Usage struct {
			Prompt     int `json:"prompt_tokens"`
			Completion int `json:"completion_tokens"`
		} `json:"usage"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || len(out.Choices) == 0 {
		return agent.Response{}, fmt.Errorf("stand-in answer: %v (%d choices)", err, len(out.Choices))
	}
	c := out.Choices[0]
	r := agent.Response{Text: c.Message.Content, FinishReason: c.FinishReason}
	r.Usage.PromptTokens, r.Usage.CompletionTokens = out.Usage.Prompt, out.Usage.Completion
	for _, tc := range c.Message.ToolCalls {
		r.Calls = append(r.Calls, tool.ModelCall{ID: tc.ID, Name: tc.Function.Name, Arguments: tc.Function.Arguments})
	}
	return r, nil
}

// testBot is a bot built from the library pieces: an rtvi.Dispatcher, an
// agent.Loop on a stand-in model, served over a loopback WebSocket. One
// connection at a time, text standing in for audio.
type testBot struct {
	t     testing.TB
	d     *rtvi.Dispatcher
	ctx   *agent.Context
	model *agenttest.Server
	// noReset makes reset and update_system_prompt keep the conversation
	// (a bot that leaks one scenario into the next).
	noReset bool
	// silent makes the bot never answer a text (a hung LLM).
	silent bool
	// delay is how long the bot waits before it starts to answer a text
	// (a slow LLM).
	delay time.Duration
	// hook, when set, may replace how one incoming frame is handled: it
	// returns true when it handled it (faults).
	hook func(ws *websocket.Conn, msg []byte) bool

	mu    sync.Mutex
	tools *tool.Set
	ws    *websocket.Conn
	wmu   sync.Mutex
	URL   string
}

// keepConv is an rtvi.Conversation that ignores resets after the first.
type keepConv struct {
	rtvi.Conversation
	b    *testBot
	once bool
}

func (k *keepConv) Reset(ctx context.Context, msgs []rtvi.ChatMessage) error {
	if k.b.noReset && k.once {
		return nil
	}
	k.once = true
	return k.Conversation.Reset(ctx, msgs)
}

func newTestBot(t testing.TB, dataRoot string, script ...agenttest.Turn) *testBot {
	t.Helper()
	reg := &registry.Tools{Logger: slog.New(slog.DiscardHandler)}
	if err := domains.Register(reg); err != nil {
		t.Fatal(err)
	}
	b := &testBot{t: t, ctx: agent.NewContext(), model: agenttest.New(script...), tools: &tool.Set{}}
	llm := httptest.NewServer(b.model)
	t.Cleanup(llm.Close)
	b.d = rtvi.NewDispatcher(rtvi.Config{
		State:        state.New(),
		Tools:        reg,
		Conversation: &keepConv{Conversation: rtviws.NewConversation(b.ctx), b: b},
		InFlight:     b.ctx, // an agent.Context reports its calls in progress
		Installer:    b,
		DataRoot:     dataRoot,
		Send:         b.send,
		SendText: func(_ context.Context, text string) error {
			go b.turn(llm.URL, text)
			return nil
		},
	})
	srv := httptest.NewServer(http.HandlerFunc(b.serve))
	t.Cleanup(srv.Close)
	b.URL = "ws" + strings.TrimPrefix(srv.URL, "http")
	return b
}

func (b *testBot) InstallTools(_ context.Context, set *tool.Set) error {
	b.mu.Lock()
	b.tools = set
	b.mu.Unlock()
	return nil
}

func (b *testBot) serve(w http.ResponseWriter, r *http.Request) {
	ws, err := websocket.Accept(w, r, nil)
	if err != nil {
		return
	}
	defer ws.CloseNow()
	ws.SetReadLimit(2 << 20)
	b.mu.Lock()
	b.ws = ws
	b.mu.Unlock()
	ctx := r.Context()
	for {
		_, data, err := ws.Read(ctx)
		if err != nil {
			return
		}
		if b.hook != nil && b.hook(ws, data) {
			continue
		}
		if reply, _ := b.d.HandleFrame(ctx, data); reply != nil {
			b.write(ctx, reply)
		}
	}
}

func (b *testBot) write(ctx context.Context, frame []byte) {
	b.mu.Lock()
	ws := b.ws
	b.mu.Unlock()
	if ws == nil {
		return
	}
	b.wmu.Lock()
	defer b.wmu.Unlock()
	wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	_ = ws.Write(wctx, websocket.MessageBinary, frame)
}

func (b *testBot) send(ctx context.Context, msg []byte) error {
	b.write(ctx, rtvi.MessageFrameBytes(msg))
	return nil
}

// turn is one user turn through the tool loop; its text is spoken.
func (b *testBot) turn(llmURL, text string) {
	if b.silent {
		return
	}
	time.Sleep(b.delay)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	em := &rtvi.Emitter{Send: b.send}
	b.mu.Lock()
	set := b.tools
	b.mu.Unlock()
	var spoken []string
	loop := &agent.Loop{
		Model: standinModel{url: llmURL}, Tools: set, Context: b.ctx, CallTimeout: 5 * time.Second,
		Hooks: agent.Hooks{OnResponse: func(ctx context.Context, _ int, r agent.Response) {
			_ = em.LLMResponse(ctx, rtvi.Usage(r.Usage))
			if r.Text != "" {
				spoken = append(spoken, r.Text)
			}
		}},
	}
	_, _ = loop.Turn(ctx, text)
	if len(spoken) > 0 {
		_ = em.Say(ctx, strings.Join(spoken, " "))
	}
}
