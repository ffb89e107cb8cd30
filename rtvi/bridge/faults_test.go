package bridge_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/voiceeval/schematools/internal/rtviwire"
	"github.com/voiceeval/schematools/rtvi/bridge"
)

func TestHandshakeTimeout(t *testing.T) {
	bot := newFakeBot(t, true, nil)
	start := time.Now()
	_, err := bridge.Dial(context.Background(), bot.url, fast(nil))
	if !errors.Is(err, bridge.ErrTimeout) || time.Since(start) > 3*time.Second {
		t.Fatalf("Dial = %v after %v, want ErrTimeout", err, time.Since(start))
	}
	o := fast(nil)
	o.LenientHandshake = true
	c, err := bridge.Dial(context.Background(), bot.url, o)
	if err != nil {
		t.Fatalf("lenient Dial: %v", err)
	}
	c.Close()
}

// TestApplyInitializationFaults: each way apply_initialization fails is
// an *InitError wrapping ErrInitAborted and its cause.
func TestApplyInitializationFaults(t *testing.T) {
	for _, tc := range []struct {
		name   string
		answer func(ctx context.Context, c *websocket.Conn, msg map[string]any)
		cause  error
		text   string
	}{
		{"error-response", func(ctx context.Context, c *websocket.Conn, msg map[string]any) {
			respond(ctx, c, map[string]any{"id": "stray", "data": map[string]any{"t": "update_system_prompt"}}, "true")
			writeJSON(ctx, c, `{"label": "rtvi-ai", "type": "error-response", "id": "`+msg["id"].(string)+`", "data": {"error": "KeyError: 'x'"}}`)
		}, bridge.ErrBotError, "[APPLY INIT] agent bot returned an error: KeyError: 'x'"},
		{"hang", func(context.Context, *websocket.Conn, map[string]any) {}, bridge.ErrTimeout,
			"[APPLY INIT] Timeout (0.3 s) waiting for agent bot to apply 0 initialization action(s)."},
		{"close", func(ctx context.Context, c *websocket.Conn, msg map[string]any) {
			c.Close(websocket.StatusInternalError, "boom")
		}, bridge.ErrClosed, "[APPLY INIT] agent bot connection failed: bridge: connection closed: closed with status 1011"},
		{"not a dict", func(ctx context.Context, c *websocket.Conn, msg map[string]any) {
			respond(ctx, c, msg, "[1]")
		}, bridge.ErrUnexpectedReply, "[APPLY INIT] agent bot answered [1]: AttributeError: 'list' object has no attribute 'get'"},
		{"success null", func(ctx context.Context, c *websocket.Conn, msg map[string]any) {
			respond(ctx, c, msg, `{"success": null, "errors": ["a", "b"]}`)
		}, nil, "[APPLY INIT] agent bot reported failure on 0 action(s): ['a', 'b']"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bot := newFakeBot(t, false, tc.answer)
			c, err := bridge.Dial(context.Background(), bot.url, fast(nil))
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			err = c.ApplyInitialization(context.Background(), bridge.Init{Side: "agent"})
			var ie *bridge.InitError
			if !errors.Is(err, bridge.ErrInitAborted) || !errors.As(err, &ie) {
				t.Fatalf("err = %v", err)
			}
			if tc.cause != nil && !errors.Is(err, tc.cause) || tc.cause == nil && ie.Err != nil {
				t.Errorf("cause of %v is not %v", err, tc.cause)
			}
			if !strings.HasPrefix(err.Error(), tc.text) {
				t.Errorf("text = %q, want %q", err.Error(), tc.text)
			}
		})
	}
}

// TestPullFaults: the pulls' timeouts, type matching and failures.
func TestPullFaults(t *testing.T) {
	for _, tc := range []struct {
		name   string
		answer func(ctx context.Context, c *websocket.Conn, msg map[string]any)
		pull   func(c *bridge.Conn) error
		want   error
	}{
		{"history hangs", nil, history, bridge.ErrTimeout},
		{"summary hangs", nil, summary, bridge.ErrTimeout},
		{"history error-response", func(ctx context.Context, c *websocket.Conn, msg map[string]any) {
			writeJSON(ctx, c, `{"label": "rtvi-ai", "type": "error-response", "id": "other", "data": {"error": "boom"}}`)
		}, history, bridge.ErrBotError},
		// The summary reader ignores error-responses and waits out its timeout.
		{"summary error-response", func(ctx context.Context, c *websocket.Conn, msg map[string]any) {
			writeJSON(ctx, c, `{"label": "rtvi-ai", "type": "error-response", "id": "`+msg["id"].(string)+`", "data": {"error": "boom"}}`)
		}, summary, bridge.ErrTimeout},
		// Matched by type: a late answer to another request is taken.
		{"history takes a stray answer", func(ctx context.Context, c *websocket.Conn, msg map[string]any) {
			writeJSON(ctx, c, `{"label": "rtvi-ai", "type": "server-response", "id": "reset_1", "data": {"t": "reset", "d": true}}`)
			respond(ctx, c, msg, `{"context": "[]"}`)
		}, history, bridge.ErrUnexpectedReply},
		{"bot closes", func(ctx context.Context, c *websocket.Conn, msg map[string]any) {
			c.Close(websocket.StatusGoingAway, "bye")
		}, history, bridge.ErrClosed},
		{"oversized frame", func(ctx context.Context, c *websocket.Conn, msg map[string]any) {
			respond(ctx, c, msg, `{"context": "'`+strings.Repeat("x", rtviwire.MaxMessageBytes)+`'"}`)
		}, history, bridge.ErrClosed},
		{"canceled", nil, func(c *bridge.Conn) error {
			ctx, cancel := context.WithCancel(context.Background())
			time.AfterFunc(50*time.Millisecond, cancel)
			_, err := c.GetContextHistory(ctx)
			return err
		}, context.Canceled},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bot := newFakeBot(t, false, tc.answer)
			o := fast(nil)
			if tc.name == "oversized frame" {
				o.RequestTimeout = 20 * time.Second // a 1 MiB write is slow under -race
			}
			c, err := bridge.Dial(context.Background(), bot.url, o)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			if err := tc.pull(c); !errors.Is(err, tc.want) {
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
		})
	}
}

func history(c *bridge.Conn) error {
	_, err := c.GetContextHistory(context.Background())
	return err
}

func summary(c *bridge.Conn) error {
	_, err := c.GetScenarioSummary(context.Background(), false)
	return err
}

// TestOversizedFrameCloses: a message over the limit closes the
// connection with 1009, as NeMo's websockets does; later requests fail
// with the reason.
func TestOversizedFrameCloses(t *testing.T) {
	bot := newFakeBot(t, false, func(ctx context.Context, c *websocket.Conn, msg map[string]any) {
		respond(ctx, c, msg, `"`+strings.Repeat("x", 2000)+`"`)
	})
	o := fast(nil)
	o.MaxMessageBytes = 1000
	c, err := bridge.Dial(context.Background(), bot.url, o)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_, err = c.GetContextHistory(context.Background())
	if !errors.Is(err, bridge.ErrClosed) || !strings.Contains(err.Error(), "1009") {
		t.Fatalf("err = %v", err)
	}
	<-c.Done()
	if err := c.Reset(context.Background()); !errors.Is(err, bridge.ErrClosed) {
		t.Fatalf("Reset after close = %v", err)
	}
}

// TestMalformedFrames: what cannot be read becomes a KindMalformed event,
// and fails the waiting request at once with the reason (ErrMalformed,
// not a timeout); the connection goes on.
func TestMalformedFrames(t *testing.T) {
	var served atomic.Int32
	bot := newFakeBot(t, false, func(ctx context.Context, c *websocket.Conn, msg map[string]any) {
		if served.Add(1) == 1 { // the first request
			c.Write(ctx, websocket.MessageBinary, []byte{0xff, 0xff, 0xff})              // not protobuf
			c.Write(ctx, websocket.MessageText, []byte(`{"type": "bot-ready"}`))         // text, not a frame
			writeJSON(ctx, c, `{"label": "rtvi-ai", "type": "bot-tts-text"`)             // invalid JSON
			writeJSON(ctx, c, `[1, 2]`)                                                  // not an object
			writeJSON(ctx, c, `{"label": "rtvi-ai", "type": "bot-tts-text", "data": 5}`) // data.get on an int
			return
		}
		respond(ctx, c, msg, `{"context": "[{'role': 'user', 'content': 'hi'}]"}`)
	})
	var mu sync.Mutex
	var kinds []bridge.Kind
	c, err := bridge.Dial(context.Background(), bot.url, fast(func(e bridge.Event) {
		mu.Lock()
		kinds = append(kinds, e.Kind)
		mu.Unlock()
		if e.Kind == bridge.KindMalformed && !errors.Is(e.Err, bridge.ErrMalformed) {
			t.Errorf("malformed event without ErrMalformed: %v", e.Err)
		}
	}))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	start := time.Now()
	_, err = c.GetContextHistory(context.Background())
	if !errors.Is(err, bridge.ErrMalformed) || !strings.Contains(err.Error(), "truncated varint") {
		t.Fatalf("the pull: err = %v", err)
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Fatalf("the pull failed after %v: it waited for its timeout", took)
	}
	count := func() int { mu.Lock(); defer mu.Unlock(); return len(kinds) }
	for deadline := time.Now().Add(5 * time.Second); count() < 6 && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
	}
	h, err := c.GetContextHistory(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if v, err := h.Value(); err != nil || len(v.([]any)) != 1 {
		t.Fatalf("history = %v, %v", v, err)
	}
	mu.Lock()
	defer mu.Unlock()
	want := []bridge.Kind{bridge.KindBotReady, bridge.KindMalformed, bridge.KindMalformed, bridge.KindMalformed,
		bridge.KindMalformed, bridge.KindMalformed, bridge.KindServerResponse}
	if len(kinds) != len(want) {
		t.Fatalf("kinds = %v, want %v", kinds, want)
	}
	for i := range want {
		if kinds[i] != want[i] {
			t.Fatalf("kinds = %v, want %v", kinds, want)
		}
	}
}

// TestOnEventPanic: a panic in OnEvent closes the connection with an
// error, not the program.
func TestOnEventPanic(t *testing.T) {
	bot := newFakeBot(t, false, func(ctx context.Context, c *websocket.Conn, msg map[string]any) {
		respond(ctx, c, msg, `{}`)
	})
	c, err := bridge.Dial(context.Background(), bot.url, fast(func(e bridge.Event) {
		if e.Kind == bridge.KindServerResponse {
			panic("harness bug")
		}
	}))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_, _ = c.GetContextHistory(context.Background())
	<-c.Done()
	if err := c.Err(); !errors.Is(err, bridge.ErrClosed) || !strings.Contains(err.Error(), "harness bug") {
		t.Fatalf("Err = %v", err)
	}
}

// TestBudgets: a message nested past MaxDepth is malformed and fails the
// waiting request at once (ErrBudget); a bot that sends more than
// MaxStreamBytes on a connection has it closed (ErrBudget).
func TestBudgets(t *testing.T) {
	deep := strings.Repeat("[", 901) + strings.Repeat("]", 901)
	bot := newFakeBot(t, false, func(ctx context.Context, c *websocket.Conn, msg map[string]any) {
		respond(ctx, c, msg, `{"context": `+deep+`}`)
	})
	c, err := bridge.Dial(context.Background(), bot.url, &bridge.Options{RequestTimeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	start := time.Now()
	_, err = c.GetContextHistory(context.Background())
	if !errors.Is(err, bridge.ErrBudget) || !errors.Is(err, bridge.ErrMalformed) || !strings.Contains(err.Error(), "nested 904 deep, past 900") {
		t.Fatalf("err = %v", err)
	}
	if time.Since(start) > 5*time.Second {
		t.Fatalf("the pull waited %v", time.Since(start))
	}

	chatty := newFakeBot(t, false, func(ctx context.Context, c *websocket.Conn, msg map[string]any) {
		for range 50 {
			writeJSON(ctx, c, `{"label": "rtvi-ai", "type": "bot-tts-text", "data": {"text": "`+strings.Repeat("x", 1000)+`"}}`)
		}
	})
	c2, err := bridge.Dial(context.Background(), chatty.url, &bridge.Options{MaxStreamBytes: 20000})
	if err != nil {
		t.Fatal(err)
	}
	defer c2.Close()
	if err := c2.Reset(context.Background()); err != nil {
		t.Fatal(err)
	}
	<-c2.Done()
	if err := c2.Err(); !errors.Is(err, bridge.ErrBudget) || !errors.Is(err, bridge.ErrClosed) || !strings.Contains(err.Error(), "more than 20000 bytes") {
		t.Fatalf("Err = %v", err)
	}
}
