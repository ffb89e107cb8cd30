package rtviws

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/rtvi"
	"github.com/voiceeval/schematools/rtvi/bridge"
)

func TestLoopbackHost(t *testing.T) {
	for _, tc := range []struct {
		host string
		want bool
	}{
		{"127.0.0.1:1", true}, {"localhost:2", true}, {"[::1]:3", true}, {"localhost", true},
		{"192.168.1.2:80", false}, {"attacker.example:8765", false}, {"", false},
	} {
		assert.Equal(t, tc.want, loopbackHost(tc.host), tc.host)
	}
}

// A transcription frame without a timestamp is stamped as pipecat stamps
// one: UTC, milliseconds, Python's isoformat.
func TestPipecatTimestamp(t *testing.T) {
	ts := time.Date(2026, 8, 21, 14, 34, 56, 789_000_000, time.FixedZone("CEST", 2*3600))
	assert.Equal(t, "2026-08-21T12:34:56.789+00:00", pipecatTimestamp(ts))
	assert.Equal(t, "1970-01-01T00:00:00.000+00:00", pipecatTimestamp(time.Unix(0, 0)))
}

func TestListenLoopbackRefusesOtherAddresses(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:0", ":0", "192.168.1.2:0", "nohost"} {
		_, err := ListenLoopback(addr)
		assert.Error(t, err, addr)
	}
	ln, err := ListenLoopback("127.0.0.1:0")
	require.NoError(t, err)
	ln.Close()
}

// A request whose Host is not a loopback name is refused, unless the
// server allows remote clients (a bot pool's pod, reached by its name).
func TestAllowRemote(t *testing.T) {
	for _, remote := range []bool{false, true} {
		srv, err := New(Config{AllowRemote: remote, Logger: slog.New(slog.DiscardHandler)})
		require.NoError(t, err)
		ln, err := ListenLoopback("127.0.0.1:0")
		require.NoError(t, err)
		hs := &http.Server{Handler: srv, ReadHeaderTimeout: 30 * time.Second}
		go hs.Serve(ln) //nolint:errcheck // ends with Close

		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		c, resp, err := websocket.Dial(ctx, "ws://"+ln.Addr().String(), &websocket.DialOptions{Host: "agent-bots-0.agent-bots:8765"})
		if remote {
			require.NoError(t, err)
			c.Close(websocket.StatusNormalClosure, "")
		} else {
			require.Error(t, err)
			assert.Equal(t, http.StatusForbidden, resp.StatusCode)
		}
		cancel()
		srv.CloseConnections()
		hs.Close()
	}
}

func TestNewRefusesTheServersCallbacks(t *testing.T) {
	_, err := New(Config{Dispatcher: rtvi.Config{SendText: func(context.Context, string) error { return nil }}})
	assert.Error(t, err)
}

// A brain gets each user turn — send-text and text frames — with the
// connection's Emitter and a Reply that answers on that connection.
func TestBrainAnswersEachTurnOnItsConnection(t *testing.T) {
	var got []string
	srv, err := New(Config{
		Brain: BrainFunc(func(ctx context.Context, turn Turn) error {
			got = append(got, turn.Text)
			if err := turn.Events.Say(ctx, "echo "+turn.Text); err != nil {
				return err
			}
			return turn.Reply(ctx, "echo "+turn.Text)
		}),
		Logger: slog.New(slog.DiscardHandler),
	})
	require.NoError(t, err)
	ln, err := ListenLoopback("127.0.0.1:0")
	require.NoError(t, err)
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 30 * time.Second}
	go hs.Serve(ln) //nolint:errcheck // ends with Close
	t.Cleanup(func() { srv.CloseConnections(); hs.Close() })

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, _, err := websocket.Dial(ctx, "ws://"+ln.Addr().String(), nil)
	require.NoError(t, err)
	defer c.CloseNow()

	// Conversation needs a scenario: this connection prepares one (its
	// reset), then runs it.
	reset, _ := json.Marshal(map[string]any{"label": "rtvi-ai", "type": "client-message", "id": "r1", "data": map[string]any{"t": "reset", "d": map[string]any{}}})
	require.NoError(t, c.Write(ctx, websocket.MessageBinary, rtvi.MessageFrameBytes(reset)))
	msg, _ := json.Marshal(map[string]any{"label": "rtvi-ai", "type": "send-text", "id": "st1", "data": map[string]any{"content": "Hello"}})
	require.NoError(t, c.Write(ctx, websocket.MessageBinary, rtvi.MessageFrameBytes(msg)))
	text, err := rtvi.Frame{Text: &rtvi.TextFrame{Text: "again"}}.Marshal()
	require.NoError(t, err)
	require.NoError(t, c.Write(ctx, websocket.MessageBinary, text))

	var replies, events []string
	for len(replies) < 2 {
		_, data, err := c.Read(ctx)
		require.NoError(t, err)
		f, err := rtvi.DecodeFrame(data)
		require.NoError(t, err)
		switch {
		case f.Text != nil:
			replies = append(replies, f.Text.Text)
		case f.Message != nil:
			var m struct{ Type string }
			require.NoError(t, json.Unmarshal([]byte(f.Message.Data), &m))
			events = append(events, m.Type)
		}
	}
	assert.Equal(t, []string{"echo Hello", "echo again"}, replies)
	assert.Equal(t, []string{"Hello", "again"}, got)
	assert.Contains(t, events, "bot-started-speaking")
	assert.Contains(t, events, "bot-tts-text")
	assert.Equal(t, 1, srv.OpenConnections())
}

// A turn that fails — an error or a panic in the brain — is reported to
// the harness at once as an RTVI error event with its text, and the
// connection goes on. Failed before: a BrainFunc's error was only logged
// ("user turn not handled") and the harness waited out its scenario.
func TestFailedTurnIsAnErrorEvent(t *testing.T) {
	for _, tc := range []struct {
		name string
		turn BrainFunc
		want string
	}{
		{"error", func(context.Context, Turn) error { return errors.New("model: 500 Internal Server Error") }, "the bot's turn failed: model: 500 Internal Server Error"},
		{"panic", func(context.Context, Turn) error { panic("index out of range") }, "the bot's turn failed: panic: index out of range"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv, err := New(Config{Brain: tc.turn, Logger: slog.New(slog.DiscardHandler)})
			require.NoError(t, err)
			ln, err := ListenLoopback("127.0.0.1:0")
			require.NoError(t, err)
			hs := &http.Server{Handler: srv, ReadHeaderTimeout: 30 * time.Second}
			go hs.Serve(ln) //nolint:errcheck // ends with Close
			t.Cleanup(func() { srv.CloseConnections(); hs.Close() })

			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			var errs []string
			got := make(chan struct{}, 4)
			c, err := bridge.Dial(ctx, "ws://"+ln.Addr().String(), &bridge.Options{OnEvent: func(e bridge.Event) {
				if e.Kind == bridge.KindError {
					errs = append(errs, e.Error)
					got <- struct{}{}
				}
			}})
			require.NoError(t, err)
			defer c.Close()
			require.NoError(t, c.Reset(ctx))
			for i := 0; i < 2; i++ {
				require.NoError(t, c.SendText(ctx, "Hello"))
				select {
				case <-got:
				case <-ctx.Done():
					t.Fatal("no error event")
				}
			}
			assert.Equal(t, []string{tc.want, tc.want}, errs, "each failed turn, and the connection goes on")
		})
	}
}
