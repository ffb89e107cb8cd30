package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/coder/websocket"
	"github.com/voiceeval/schematools/internal/pyvalue"
	"github.com/voiceeval/schematools/registry"
	"github.com/voiceeval/schematools/rtvi"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

// Bot is a voice bot reduced to what an evaluation harness talks to: one
// WebSocket endpoint carrying pipecat protobuf frames, an RTVI dispatcher
// for the harness's client messages, the tools of every domain it serves
// (every domain of examples/domains, and the harness tools),
// and — in place of an LLM — a scripted agent that runs "/call <tool>
// <json arguments>" commands from the user's text, or with a gold agent,
// plays a benchmark task's gold actions on the kickoff.
//
// Like a pipecat bot, it has one shared state and one conversation for its
// whole life: a harness connects once to prepare a scenario and again to
// run it, and both connections see the same scenario.
type Bot struct {
	st      *state.Shared
	conv    *conversation
	tracker rtvi.CallTracker
	d       *rtvi.Dispatcher
	events  *rtvi.Emitter // the server events of its turns
	gold    *goldAgent    // plays a task's gold actions on the kickoff, when set
	logger  *slog.Logger

	mu    sync.Mutex
	tools *tool.Set
	conns map[*websocket.Conn]bool // open connections, newest in conn
	conn  *websocket.Conn          // where messages without a connection of their own go
	calls int
}

// maxMessageBytes is the WebSocket message limit the Python bridge lives
// with, and the dispatcher's default Config.MaxMessageBytes.
const maxMessageBytes = 1 << 20

// connKey carries a tool call's connection in its context, so its
// messages go back where the call came from.
type connKey struct{}

// NewBot returns a bot whose db_path values are relative to dataRoot.
func NewBot(dataRoot string, logger *slog.Logger) (*Bot, error) {
	reg := &registry.Tools{Logger: logger}
	if err := registerDomains(reg); err != nil {
		return nil, err
	}
	b := &Bot{st: state.New(), conv: &conversation{}, logger: logger, tools: &tool.Set{}, conns: map[*websocket.Conn]bool{}}
	b.events = &rtvi.Emitter{Send: b.send}
	b.d = rtvi.NewDispatcher(rtvi.Config{
		State:        b.st,
		Tools:        reg,
		Conversation: b.conv,
		Installer:    b,
		InFlight:     &b.tracker,
		DataRoot:     dataRoot,
		Send:         b.send,
		SendText:     b.userText,
		About:        map[string]any{"library": "schematools-rtvibot"},
		Logger:       logger,
	})
	return b, nil
}

// InstallTools makes set the tools of the scripted agent (rtvi.ToolInstaller).
// A new tool set means a new scenario: the gold agent, if any, plays its
// task again.
func (b *Bot) InstallTools(_ context.Context, set *tool.Set) error {
	b.mu.Lock()
	b.tools = set
	b.mu.Unlock()
	if b.gold != nil {
		b.gold.newScenario()
	}
	return nil
}

// ServeHTTP accepts one harness connection and serves it until it closes.
// Requests whose Host is not a loopback name are refused, so a web page
// cannot reach the bot through DNS rebinding.
func (b *Bot) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !loopbackHost(r.Host) {
		http.Error(w, "rtvibot serves loopback clients only", http.StatusForbidden)
		return
	}
	c, err := websocket.Accept(w, r, nil)
	if err != nil {
		b.logger.Warn("websocket upgrade failed", "err", err)
		return
	}
	defer c.CloseNow()
	// The Python bridge's limit; the dispatcher refuses larger messages.
	c.SetReadLimit(maxMessageBytes + 1024)
	b.mu.Lock()
	b.conns[c] = true
	b.conn = c
	b.mu.Unlock()
	defer func() {
		b.mu.Lock()
		delete(b.conns, c)
		if b.conn == c {
			b.conn = nil
		}
		b.mu.Unlock()
	}()

	ctx := context.WithValue(r.Context(), connKey{}, c)
	for {
		typ, data, err := c.Read(ctx)
		if err != nil {
			if status := websocket.CloseStatus(err); status != websocket.StatusNormalClosure && status != websocket.StatusGoingAway {
				b.logger.Debug("connection closed", "err", err)
			}
			return
		}
		if typ != websocket.MessageBinary {
			b.logger.Warn("ignoring a text WebSocket message: frames are binary protobuf")
			continue
		}
		if err := b.handleFrame(ctx, c, data); err != nil {
			b.logger.Warn("frame not handled", "err", err)
		}
	}
}

// handleFrame answers one frame: RTVI messages go to the dispatcher, user
// text to the scripted agent; audio is ignored (this bot has no ears).
func (b *Bot) handleFrame(ctx context.Context, c *websocket.Conn, data []byte) error {
	f, err := rtvi.DecodeFrame(data)
	if err != nil {
		return err // pipecat drops frames it cannot read, and so do we
	}
	switch {
	case f.Message != nil:
		reply, err := b.d.Handle(ctx, []byte(f.Message.Data))
		if reply != nil {
			if werr := c.Write(ctx, websocket.MessageBinary, rtvi.MessageFrameBytes(reply)); werr != nil {
				return werr
			}
		}
		return err
	case f.Text != nil:
		return b.userText(ctx, f.Text.Text)
	case f.Transcription != nil:
		stamp := f.Transcription.Timestamp
		if stamp == "" {
			stamp = rtvi.Timestamp(time.Now())
		}
		if err := b.events.UserTranscription(ctx, rtvi.Transcript{
			Text: f.Transcription.Text, UserID: f.Transcription.UserID, Timestamp: stamp, Final: true,
		}); err != nil {
			return err
		}
		return b.userText(ctx, f.Transcription.Text)
	}
	return nil
}

// userText is the scripted agent's turn: it records the user's message,
// runs a "/call" command through the tool set and answers with the tool's
// result. Each answer is what an LLM response would be: its events
// (bot-llm-*, a metrics event with zero token counts) go out as a pipecat
// bot's do, a tool call costing one response more.
func (b *Bot) userText(ctx context.Context, text string) error {
	b.conv.add(pyvalue.Dict{{Key: "role", Value: "user"}, {Key: "content", Value: text}})
	name, args, ok := strings.Cut(strings.TrimPrefix(text, "/call "), " ")
	if !strings.HasPrefix(text, "/call ") {
		if b.gold != nil {
			played, err := b.goldTurn(ctx)
			if err != nil && !played {
				// No task to play (an unknown id, unreadable data): say so
				// rather than leave the harness waiting.
				b.logger.Warn("gold agent", "err", err)
				return b.respond(ctx, "The gold agent cannot play this scenario: "+err.Error())
			}
			if played {
				return err
			}
		}
		answer := "Send /call <tool> <json arguments> to call a tool."
		b.conv.add(pyvalue.Dict{{Key: "role", Value: "assistant"}, {Key: "content", Value: answer}})
		return b.respond(ctx, answer)
	}
	if !ok {
		args = "{}"
	}
	answer, err := b.callTool(ctx, name, args)
	if err != nil {
		return err
	}
	return b.respond(ctx, answer)
}

// callTool is one LLM response that calls a tool: it reports the
// response, records the call in the conversation, runs it through the
// tool set and returns the result delivered, as JSON.
func (b *Bot) callTool(ctx context.Context, name, args string) (string, error) {
	if err := b.events.LLMResponse(ctx, rtvi.TokenUsage{}); err != nil {
		return "", err
	}

	b.mu.Lock()
	b.calls++
	callID := fmt.Sprintf("call_%d", b.calls)
	set := b.tools
	b.mu.Unlock()

	end := b.tracker.Begin()
	defer end()
	b.conv.add(pyvalue.Dict{{Key: "role", Value: "assistant"}, {Key: "tool_calls", Value: []any{pyvalue.Dict{
		{Key: "id", Value: callID}, {Key: "type", Value: "function"},
		{Key: "function", Value: pyvalue.Dict{{Key: "name", Value: name}, {Key: "arguments", Value: args}}},
	}}}})
	var answer string
	err := set.CallJSON(ctx, name, []byte(args), func(result any) error {
		out, err := json.Marshal(result)
		if err != nil {
			return err
		}
		answer = string(out)
		b.conv.add(pyvalue.Dict{{Key: "role", Value: "tool"}, {Key: "tool_call_id", Value: callID}, {Key: "content", Value: answer}})
		return nil
	}, tool.WithLogger(b.logger))
	return answer, err
}

// respond is the LLM response that answers the user: its events, the
// spoken turn (text standing in for audio: bot-started-speaking,
// bot-tts-text, bot-stopped-speaking) and a text frame.
func (b *Bot) respond(ctx context.Context, text string) error {
	if err := b.events.LLMResponse(ctx, rtvi.TokenUsage{}, text); err != nil {
		return err
	}
	if err := b.events.Say(ctx, text); err != nil {
		return err
	}
	return b.say(ctx, text)
}

// say sends text to the harness as a text frame.
func (b *Bot) say(ctx context.Context, text string) error {
	frame, err := rtvi.Frame{Text: &rtvi.TextFrame{Text: text}}.Marshal()
	if err != nil {
		return err
	}
	return b.write(ctx, frame)
}

// send is the dispatcher's sender: tool messages (action-applied, exit)
// go, as message frames, to the connection the tool call came from.
func (b *Bot) send(ctx context.Context, msg []byte) error {
	return b.write(ctx, rtvi.MessageFrameBytes(msg))
}

var errNoConnection = errors.New("no harness connected")

// write sends a frame on the connection of ctx, or else on the newest one.
func (b *Bot) write(ctx context.Context, frame []byte) error {
	c, _ := ctx.Value(connKey{}).(*websocket.Conn)
	if c == nil {
		b.mu.Lock()
		c = b.conn
		b.mu.Unlock()
	}
	if c == nil {
		return errNoConnection
	}
	return c.Write(ctx, websocket.MessageBinary, frame)
}

// CloseConnections closes every open connection with "going away"; run it
// when the server shuts down (http.Server does not close WebSockets).
func (b *Bot) CloseConnections() {
	b.mu.Lock()
	conns := make([]*websocket.Conn, 0, len(b.conns))
	for c := range b.conns {
		conns = append(conns, c)
	}
	b.mu.Unlock()
	for _, c := range conns {
		c.Close(websocket.StatusGoingAway, "bot shutting down")
	}
}

// loopbackHost reports whether a request's Host names the loopback
// interface.
func loopbackHost(hostport string) bool {
	host, _, err := net.SplitHostPort(hostport)
	if err != nil {
		host = hostport
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && ip.IsLoopback()
}

// conversation is the bot's LLM context (rtvi.Conversation). It holds its
// messages as the Python bot holds dicts, pyvalue.Dict values whose keys
// keep their order (role first) in get_context_history's transcript; a bot
// outside this module would use its LLM client's message structs.
type conversation struct {
	mu   sync.Mutex
	msgs []any
}

func (c *conversation) Reset(_ context.Context, msgs []rtvi.ChatMessage) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.msgs = c.msgs[:0]
	for _, m := range msgs {
		c.msgs = append(c.msgs, pyvalue.Dict{{Key: "role", Value: m.Role}, {Key: "content", Value: m.Content}})
	}
	return nil
}

func (c *conversation) Messages(context.Context) ([]any, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]any(nil), c.msgs...), nil
}

func (c *conversation) add(m any) {
	c.mu.Lock()
	c.msgs = append(c.msgs, m)
	c.mu.Unlock()
}
