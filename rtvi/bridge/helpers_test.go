package bridge_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/voiceeval/schematools/domains/coffee"
	"github.com/voiceeval/schematools/registry"
	"github.com/voiceeval/schematools/rtvi"
	"github.com/voiceeval/schematools/rtvi/bridge"
	"github.com/voiceeval/schematools/tool"
)

// chatMsg is a message of the test bot's conversation; a struct, so its
// keys keep their order in the transcript.
type chatMsg struct {
	Role       string `json:"role"`
	Content    any    `json:"content,omitempty"`
	ToolCalls  []any  `json:"tool_calls,omitempty"`
	ToolCallID string `json:"tool_call_id,omitempty"`
}

type conversation struct {
	mu   sync.Mutex
	msgs []any
}

func (c *conversation) Reset(_ context.Context, msgs []rtvi.ChatMessage) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.msgs = nil
	for _, m := range msgs {
		c.msgs = append(c.msgs, chatMsg{Role: m.Role, Content: m.Content})
	}
	return nil
}

func (c *conversation) Messages(context.Context) ([]any, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]any(nil), c.msgs...), nil
}

func (c *conversation) add(m chatMsg) {
	c.mu.Lock()
	c.msgs = append(c.msgs, m)
	c.mu.Unlock()
}

// coffeeBot is a minimal bot on rtvi.Dispatcher serving the coffee domain
// over WebSocket. On send-text it plays a scripted agent: one LLM call
// that places an order (its action-applied goes out), one that answers in
// two spoken turns, then the end-conversation exit message.
type coffeeBot struct {
	t    *testing.T
	d    *rtvi.Dispatcher
	conv *conversation
	em   *rtvi.Emitter
	url  string

	mu       sync.Mutex
	tools    *tool.Set
	conn     *websocket.Conn
	received []string // the JSON of every message received, in order
}

func newCoffeeBot(t *testing.T) *coffeeBot {
	t.Helper()
	root := t.TempDir()
	db, err := json.Marshal(coffee.DB())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, "coffee"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "coffee", "db.json"), db, 0o644); err != nil {
		t.Fatal(err)
	}
	reg := &registry.Tools{}
	if err := coffee.Register(reg); err != nil {
		t.Fatal(err)
	}
	b := &coffeeBot{t: t, conv: &conversation{}}
	b.em = &rtvi.Emitter{Send: b.send}
	b.d = rtvi.NewDispatcher(rtvi.Config{
		Tools:        reg,
		Conversation: b.conv,
		Installer:    b,
		DataRoot:     root,
		Send:         b.send,
		SendText:     b.play,
		Logger:       slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	srv := httptest.NewServer(http.HandlerFunc(b.serve))
	t.Cleanup(srv.Close)
	b.url = "ws" + strings.TrimPrefix(srv.URL, "http")
	return b
}

func (b *coffeeBot) InstallTools(_ context.Context, set *tool.Set) error {
	b.mu.Lock()
	b.tools = set
	b.mu.Unlock()
	return nil
}

func (b *coffeeBot) serve(w http.ResponseWriter, r *http.Request) {
	c, err := websocket.Accept(w, r, nil)
	if err != nil {
		return
	}
	defer c.CloseNow()
	b.mu.Lock()
	b.conn = c
	b.mu.Unlock()
	for {
		_, data, err := c.Read(r.Context())
		if err != nil {
			return
		}
		f, err := rtvi.DecodeFrame(data)
		if err != nil || f.Message == nil {
			continue
		}
		b.mu.Lock()
		b.received = append(b.received, f.Message.Data)
		b.mu.Unlock()
		reply, _ := b.d.Handle(r.Context(), []byte(f.Message.Data))
		if reply != nil {
			if err := c.Write(r.Context(), websocket.MessageBinary, rtvi.MessageFrameBytes(reply)); err != nil {
				return
			}
		}
	}
}

func (b *coffeeBot) send(ctx context.Context, msg []byte) error {
	b.mu.Lock()
	c := b.conn
	b.mu.Unlock()
	return c.Write(ctx, websocket.MessageBinary, rtvi.MessageFrameBytes(msg))
}

func (b *coffeeBot) messages() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.received...)
}

// play is the scripted agent's answer to the kickoff.
func (b *coffeeBot) play(ctx context.Context, text string) error {
	b.conv.add(chatMsg{Role: "user", Content: text})
	if err := b.em.LLMResponse(ctx, rtvi.Usage{PromptTokens: 10, CompletionTokens: 2}); err != nil {
		return err
	}
	args := `{"customer": "Ada", "items": [{"item_id": "latte", "size": "small", "quantity": 2}]}`
	b.conv.add(chatMsg{Role: "assistant", ToolCalls: []any{map[string]any{
		"id": "call_1", "type": "function", "function": map[string]any{"name": coffee.NamePlaceOrder, "arguments": args}}}})
	b.mu.Lock()
	set := b.tools
	b.mu.Unlock()
	var result string
	if err := set.CallJSON(ctx, coffee.NamePlaceOrder, []byte(args), func(v any) error {
		out, err := json.Marshal(v)
		result = string(out)
		return err
	}, nil); err != nil {
		return err
	}
	b.conv.add(chatMsg{Role: "tool", Content: result, ToolCallID: "call_1"})
	answer := "Your order ORD-001 is placed. "
	b.conv.add(chatMsg{Role: "assistant", Content: answer + "Bye!"})
	if err := b.em.LLMResponse(ctx, rtvi.Usage{PromptTokens: 20, CompletionTokens: 5}, answer, "Bye!"); err != nil {
		return err
	}
	if err := b.em.Say(ctx, answer); err != nil {
		return err
	}
	for _, step := range []func() error{
		func() error { return b.em.StartSpeaking(ctx) },
		func() error { return b.em.SpokenText(ctx, " Bye") },
		func() error { return b.em.SpokenText(ctx, "!") },
		func() error { return b.em.StopSpeaking(ctx) },
	} {
		if err := step(); err != nil {
			return err
		}
	}
	return b.send(ctx, []byte(`{"label": "rtvi-ai", "type": "server-message", "data": {"text": "<exit>The task is finished.</exit>"}}`))
}

// fakeBot is a WebSocket server whose answers each test scripts: answer
// gets every message frame's JSON and the connection to write on. It
// answers client-ready with bot-ready itself unless silent.
type fakeBot struct {
	url    string
	silent bool
	answer func(ctx context.Context, c *websocket.Conn, msg map[string]any)
}

func newFakeBot(t *testing.T, silent bool, answer func(ctx context.Context, c *websocket.Conn, msg map[string]any)) *fakeBot {
	t.Helper()
	f := &fakeBot{silent: silent, answer: answer}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		defer c.CloseNow()
		c.SetReadLimit(4 << 20)
		for {
			_, data, err := c.Read(r.Context())
			if err != nil {
				return
			}
			fr, err := rtvi.DecodeFrame(data)
			if err != nil || fr.Message == nil {
				continue
			}
			var msg map[string]any
			if err := json.Unmarshal([]byte(fr.Message.Data), &msg); err != nil {
				continue
			}
			if msg["type"] == "client-ready" {
				if !f.silent {
					writeJSON(r.Context(), c, `{"label": "rtvi-ai", "type": "bot-ready", "id": "`+msg["id"].(string)+`", "data": {"version": "1.1.0"}}`)
				}
				continue
			}
			if f.answer != nil {
				f.answer(r.Context(), c, msg)
			}
		}
	}))
	t.Cleanup(srv.Close)
	f.url = "ws" + strings.TrimPrefix(srv.URL, "http")
	return f
}

// writeJSON writes one RTVI message as a message frame.
func writeJSON(ctx context.Context, c *websocket.Conn, msg string) {
	_ = c.Write(ctx, websocket.MessageBinary, rtvi.MessageFrameBytes([]byte(msg)))
}

// respond writes a server-response to msg with d given as JSON.
func respond(ctx context.Context, c *websocket.Conn, msg map[string]any, d string) {
	t, _ := msg["data"].(map[string]any)["t"].(string)
	writeJSON(ctx, c, `{"label": "rtvi-ai", "type": "server-response", "id": "`+msg["id"].(string)+`", "data": {"t": "`+t+`", "d": `+d+`}}`)
}

// fixedClock returns a clock at 2024-06-10 06:13:20.123456 UTC
// (1718000000.123456), which moves on a second at each call.
func fixedClock() func() time.Time {
	var mu sync.Mutex
	t := time.Unix(1718000000, 123456000)
	return func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		now := t
		t = t.Add(time.Second)
		return now
	}
}

// fast are options with short timeouts for the fault tests.
func fast(onEvent func(bridge.Event)) *bridge.Options {
	return &bridge.Options{HandshakeTimeout: 300 * time.Millisecond, RequestTimeout: 300 * time.Millisecond, OnEvent: onEvent}
}
