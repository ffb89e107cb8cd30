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
// run it, and both connections see the same scenario. So it runs one
// scenario at a time, owned by one connection at a time (scenarioOwner):
// a second harness gets error-responses naming the scenario in progress,
// and no other connection's text enters the scenario's conversation.
// Each connection has its own event emitter and write deadline: a peer
// that stops reading holds up no one else, and a write that fails or
// times out ends that connection.
type Bot struct {
	st      *state.Shared
	conv    *conversation
	tracker rtvi.CallTracker
	d       *rtvi.Dispatcher
	gold    *goldAgent // plays a task's gold actions on the kickoff, when set
	logger  *slog.Logger
	// timeouts bound each connection (set them before serving).
	timeouts Timeouts
	scenario *scenarioOwner

	mu     sync.Mutex
	tools  *tool.Set
	conns  map[*conn]bool // open connections
	nextID int64
	calls  int
}

// maxMessageBytes is the WebSocket message limit the Python bridge lives
// with, and the dispatcher's default Config.MaxMessageBytes.
const maxMessageBytes = 1 << 20

// NewBot returns a bot whose db_path values are relative to dataRoot.
func NewBot(dataRoot string, logger *slog.Logger) (*Bot, error) {
	reg := &registry.Tools{Logger: logger}
	if err := registerDomains(reg); err != nil {
		return nil, err
	}
	b := &Bot{st: state.New(), conv: &conversation{}, logger: logger, tools: &tool.Set{}, conns: map[*conn]bool{}, timeouts: DefaultTimeouts}
	b.scenario = newScenarioOwner(DefaultTimeouts.RunWait, b.st.Domain)
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

// setTimeouts sets the bot's timeouts; call it before serving.
func (b *Bot) setTimeouts(t Timeouts) {
	b.timeouts = t
	b.scenario.runWait = t.RunWait
}

// ServeHTTP accepts one harness connection and serves it until it closes,
// goes silent for longer than the idle timeout, or fails a write.
// Requests whose Host is not a loopback name are refused, so a web page
// cannot reach the bot through DNS rebinding.
func (b *Bot) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !loopbackHost(r.Host) {
		http.Error(w, "rtvibot serves loopback clients only", http.StatusForbidden)
		return
	}
	ws, err := websocket.Accept(w, r, nil)
	if err != nil {
		b.logger.Warn("websocket upgrade failed", "err", err)
		return
	}
	defer ws.CloseNow()
	// The Python bridge's limit; the dispatcher refuses larger messages.
	ws.SetReadLimit(maxMessageBytes + 1024)
	c := &conn{ws: ws, write: b.timeouts.Write}
	c.events = &rtvi.Emitter{Send: b.send}
	b.mu.Lock()
	b.nextID++
	c.id = b.nextID
	b.conns[c] = true
	b.mu.Unlock()
	defer func() {
		b.scenario.release(c)
		b.mu.Lock()
		delete(b.conns, c)
		b.mu.Unlock()
	}()

	ctx := context.WithValue(r.Context(), connKey{}, c)
	for {
		typ, data, err := b.read(ctx, c)
		if err != nil {
			if status := websocket.CloseStatus(err); status != websocket.StatusNormalClosure && status != websocket.StatusGoingAway {
				b.logger.Debug("connection closed", "conn", c.id, "err", err)
			}
			return
		}
		if typ != websocket.MessageBinary {
			b.logger.Warn("ignoring a text WebSocket message: frames are binary protobuf")
			continue
		}
		if err := b.handleFrame(ctx, c, data); err != nil {
			b.logger.Warn("frame not handled", "conn", c.id, "err", err)
		}
		if c.failed.Load() {
			return // a write failed or timed out: this connection is done
		}
	}
}

// read reads c's next message within the idle timeout; a connection that
// sends nothing for that long (or trickles one message over it) is closed.
func (b *Bot) read(ctx context.Context, c *conn) (websocket.MessageType, []byte, error) {
	if b.timeouts.Idle <= 0 {
		return c.ws.Read(ctx)
	}
	rctx, cancel := context.WithTimeout(ctx, b.timeouts.Idle)
	defer cancel()
	typ, data, err := c.ws.Read(rctx)
	if err != nil && rctx.Err() != nil && ctx.Err() == nil {
		b.logger.Debug("closing an idle connection", "conn", c.id, "idle", b.timeouts.Idle)
	}
	return typ, data, err
}

// handleFrame answers one frame: RTVI messages go to the dispatcher, user
// text to the scripted agent; audio is ignored (this bot has no ears).
// What a frame may do to the scenario is the scenario owner's to say
// (scenarioOwner): a refused frame is answered with the reason and does
// nothing else.
func (b *Bot) handleFrame(ctx context.Context, c *conn, data []byte) error {
	f, err := rtvi.DecodeFrame(data)
	if err != nil {
		return err // pipecat drops frames it cannot read, and so do we
	}
	var req request
	switch {
	case f.Message != nil:
		req = classify([]byte(f.Message.Data))
	case f.Text != nil, f.Transcription != nil:
		req = request{kind: kindRun, t: "user text"}
	default:
		return nil
	}
	v, why := b.scenario.admit(c, req)
	switch v {
	case refuse:
		b.logger.Warn("refused", "conn", c.id, "reason", why)
		if req.id != "" {
			return b.write(ctx, rtvi.MessageFrameBytes(errorResponse(req.id, why)))
		}
		return c.events.Error(ctx, why, false)
	case allowIdle:
		return b.idleWork(ctx, c, req, f)
	}
	return b.handle(ctx, f)
}

// idleWork handles conversation while no scenario is in progress: with the
// scenario's work lock held for reading (a scenario cannot start in the
// middle of it) and its frames buffered, then sent once the lock is let go.
func (b *Bot) idleWork(ctx context.Context, c *conn, req request, f rtvi.Frame) error {
	buf := &frameBuffer{}
	b.scenario.work.RLock()
	if !b.scenario.isIdle() {
		// A scenario started while this frame waited: decide again.
		b.scenario.work.RUnlock()
		if v, why := b.scenario.admit(c, req); v == refuse {
			if req.id != "" {
				return b.write(ctx, rtvi.MessageFrameBytes(errorResponse(req.id, why)))
			}
			return c.events.Error(ctx, why, false)
		}
		return b.handle(ctx, f)
	}
	err := b.handle(context.WithValue(ctx, bufferKey{}, buf), f)
	b.scenario.work.RUnlock()
	for _, frame := range buf.frames {
		if werr := c.send(ctx, frame); werr != nil {
			return werr
		}
	}
	return err
}

// handle does what an admitted frame asks.
func (b *Bot) handle(ctx context.Context, f rtvi.Frame) error {
	switch {
	case f.Message != nil:
		reply, err := b.d.Handle(ctx, []byte(f.Message.Data))
		if reply != nil {
			if werr := b.write(ctx, rtvi.MessageFrameBytes(reply)); werr != nil {
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
		if err := b.emitter(ctx).UserTranscription(ctx, rtvi.Transcript{
			Text: f.Transcription.Text, UserID: f.Transcription.UserID, Timestamp: stamp, Final: true,
		}); err != nil {
			return err
		}
		return b.userText(ctx, f.Transcription.Text)
	}
	return nil
}

// errorResponse is the error-response answering the request id with text.
func errorResponse(id, text string) []byte {
	msg, _ := json.Marshal(map[string]any{"label": "rtvi-ai", "type": "error-response", "id": id, "data": map[string]any{"error": text}})
	return msg
}

// emitter returns the event emitter of ctx's connection; without one,
// events are dropped.
func (b *Bot) emitter(ctx context.Context) *rtvi.Emitter {
	if c := connOf(ctx); c != nil {
		return c.events
	}
	return &rtvi.Emitter{}
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
	if err := b.emitter(ctx).LLMResponse(ctx, rtvi.TokenUsage{}); err != nil {
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
	if err := b.emitter(ctx).LLMResponse(ctx, rtvi.TokenUsage{}, text); err != nil {
		return err
	}
	if err := b.emitter(ctx).Say(ctx, text); err != nil {
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

// write sends a frame on the connection of ctx (into its buffer, for idle
// work), or else on the scenario owner's. Each connection's writes have a
// deadline; a failed one closes that connection only.
func (b *Bot) write(ctx context.Context, frame []byte) error {
	if buf := bufferOf(ctx); buf != nil {
		buf.frames = append(buf.frames, frame)
		return nil
	}
	c := connOf(ctx)
	if c == nil {
		c = b.scenario.current()
	}
	if c == nil {
		return errNoConnection
	}
	return c.send(ctx, frame)
}

// CloseConnections closes every open connection with "going away"; run it
// when the server shuts down (http.Server does not close WebSockets).
func (b *Bot) CloseConnections() {
	b.mu.Lock()
	conns := make([]*conn, 0, len(b.conns))
	for c := range b.conns {
		conns = append(conns, c)
	}
	b.mu.Unlock()
	// In parallel, and waited for a second at most: a peer that does not
	// answer the close (or does not read) must not hold up the others, or
	// the exit. (The library gives up on such a peer after 5 s.)
	var wg sync.WaitGroup
	for _, c := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.ws.Close(websocket.StatusGoingAway, "bot shutting down") //nolint:errcheck // best effort
		}()
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(time.Second):
	}
}

// openConnections is the number of connections being served.
func (b *Bot) openConnections() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.conns)
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
