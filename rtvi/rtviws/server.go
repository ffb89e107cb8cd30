package rtviws

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/coder/websocket"
	"github.com/voiceeval/schematools/internal/rtviwire"
	"github.com/voiceeval/schematools/rtvi"
)

// Config wires a Server to a bot.
type Config struct {
	// Dispatcher configures the RTVI dispatcher of the harness's client
	// messages. Its Send and SendText are the server's: leave them nil.
	// Its State names the scenario's domain in refusals; nil gives the
	// dispatcher a state of its own.
	Dispatcher rtvi.Config
	// Brain answers each user turn: send-text, a text frame or a
	// transcription. Nil answers none (the text is dropped).
	Brain Brain
	// Timeouts bound each connection; zero fields take the defaults their
	// docs state (Write 10 s, RunWait 10 s, Grace 2 s), but a zero Idle
	// means no idle timeout.
	Timeouts Timeouts
	// Logger receives the server's logs; nil means slog.Default.
	Logger *slog.Logger
	// AllowRemote serves requests whatever their Host, for a bot that
	// harnesses on other machines reach by name (a pod of a bot pool:
	// deploy/kubernetes); serve it on a listener of your own. Unset,
	// requests whose Host is not a loopback name are refused. The server
	// has no authentication: allow remote clients on a trusted network
	// only.
	AllowRemote bool
}

// Server serves one bot to harnesses over WebSocket (see the package
// documentation). It is an http.Handler; serve it on a loopback listener
// (ListenLoopback).
type Server struct {
	d        *rtvi.Dispatcher
	brain    Brain
	logger   *slog.Logger
	timeouts Timeouts
	scenario *scenarioOwner
	remote   bool // Config.AllowRemote

	mu     sync.Mutex
	conns  map[*conn]bool // open connections
	nextID int64
}

// New returns a server for cfg.
func New(cfg Config) (*Server, error) {
	if cfg.Dispatcher.Send != nil || cfg.Dispatcher.SendText != nil {
		return nil, errors.New("rtviws: Config.Dispatcher.Send and SendText are the server's; leave them nil")
	}
	logger := cfg.Logger
	if logger == nil {
		logger = slog.Default()
	}
	s := &Server{brain: cfg.Brain, logger: logger, conns: map[*conn]bool{}, remote: cfg.AllowRemote}
	dc := cfg.Dispatcher
	dc.Send = s.send
	dc.SendText = s.queueText
	if dc.Logger == nil {
		dc.Logger = logger
	}
	s.d = rtvi.NewDispatcher(dc)
	st := s.d.State()
	t := cfg.Timeouts
	if t.Write <= 0 {
		t.Write = defaultWriteTimeout
	}
	if t.RunWait <= 0 {
		t.RunWait = defaultRunWait
	}
	if t.Grace <= 0 {
		t.Grace = defaultGrace
	}
	if t.Idle < 0 {
		t.Idle = 0
	}
	s.timeouts = t
	s.scenario = newScenarioOwner(t.RunWait, st.Domain)
	s.scenario.grace = t.Grace
	return s, nil
}

// ServeHTTP accepts one harness connection and serves it until it closes,
// goes silent for longer than the idle timeout, or fails a write.
// Requests whose Host is not a loopback name are refused, so a web page
// cannot reach the bot through DNS rebinding, unless Config.AllowRemote.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !s.remote && !loopbackHost(r.Host) {
		http.Error(w, "this bot serves loopback clients only", http.StatusForbidden)
		return
	}
	ws, err := websocket.Accept(w, r, nil)
	if err != nil {
		s.logger.Warn("websocket upgrade failed", "err", err)
		return
	}
	defer ws.CloseNow()
	// The Python bridge's limit; the dispatcher refuses larger messages.
	ws.SetReadLimit(rtviwire.MaxMessageBytes + 1024)
	c := &conn{ws: ws, write: s.timeouts.Write}
	c.events = &rtvi.Emitter{Send: s.send}
	s.mu.Lock()
	s.nextID++
	c.id = s.nextID
	s.conns[c] = true
	s.mu.Unlock()
	s.scenario.connect(c)
	defer func() {
		s.scenario.release(c)
		s.mu.Lock()
		delete(s.conns, c)
		s.mu.Unlock()
	}()

	ctx, cancel := context.WithCancel(context.WithValue(r.Context(), connKey{}, c))
	c.turns = newTurnQueue(ctx, s.logger, func(err error) {
		// pipecat pushes an ErrorFrame when its LLM service fails: the
		// harness sees an error event, at once.
		if eerr := c.events.Error(ctx, "the bot's turn failed: "+err.Error(), false); eerr != nil {
			s.logger.Warn("the turn's error was not reported", "conn", c.id, "err", eerr)
		}
	})
	defer func() {
		// Before the release above: the connection's turns end (their
		// contexts cancelled) while it still owns its scenario.
		cancel()
		c.turns.stop()
	}()
	for {
		typ, data, err := s.read(ctx, c)
		if err != nil {
			if errors.Is(err, websocket.ErrMessageTooBig) {
				// The close frame (1009) is sent; finish the close
				// handshake, which reads and discards what the client
				// is still sending (at most 5 s). Closing the socket
				// with that unread would reset the connection, and the
				// client would see an abnormal closure, not 1009.
				_ = ws.Close(websocket.StatusMessageTooBig, "message too big")
				return
			}
			if status := websocket.CloseStatus(err); status != websocket.StatusNormalClosure && status != websocket.StatusGoingAway {
				s.logger.Debug("connection closed", "conn", c.id, "err", err)
			}
			return
		}
		if typ != websocket.MessageBinary {
			s.logger.Warn("ignoring a text WebSocket message: frames are binary protobuf")
			continue
		}
		if err := s.handleFrame(ctx, c, data); err != nil {
			s.logger.Warn("frame not handled", "conn", c.id, "err", err)
		}
		if c.failed.Load() {
			return // a write failed or timed out: this connection is done
		}
	}
}

// read reads c's next message within the idle timeout; a connection that
// sends nothing for that long (or trickles one message over it) is closed.
func (s *Server) read(ctx context.Context, c *conn) (websocket.MessageType, []byte, error) {
	if s.timeouts.Idle <= 0 {
		return c.ws.Read(ctx)
	}
	rctx, cancel := context.WithTimeout(ctx, s.timeouts.Idle)
	defer cancel()
	typ, data, err := c.ws.Read(rctx)
	if err != nil && rctx.Err() != nil && ctx.Err() == nil {
		s.logger.Debug("closing an idle connection", "conn", c.id, "idle", s.timeouts.Idle)
	}
	return typ, data, err
}

// handleFrame answers one frame: RTVI messages go to the dispatcher, user
// text to the brain; audio is ignored (this server has no ears).
// What a frame may do to the scenario is the scenario owner's to say
// (scenarioOwner): a refused frame is answered with the reason and does
// nothing else.
func (s *Server) handleFrame(ctx context.Context, c *conn, data []byte) error {
	f, err := rtvi.DecodeFrame(data)
	if err != nil {
		return err // pipecat drops frames it cannot read, and so do we
	}
	var req request
	switch {
	case f.Message != nil:
		req = classify([]byte(f.Message.Data))
	case f.Text != nil, f.Transcription != nil:
		req = request{kind: kindTalk, t: "user text"}
	default:
		return nil
	}
	a := s.scenario.admit(c, req)
	if !a.ok {
		s.logger.Warn("refused", "conn", c.id, "reason", a.why)
		if req.id != "" {
			return s.write(ctx, rtvi.MessageFrameBytes(errorResponse(req.id, a.why)))
		}
		return c.events.Error(ctx, a.why, false)
	}
	ctx = context.WithValue(ctx, scenarioKey{}, a.scenario)
	switch {
	case req.kind == kindPrepare:
		// A new scenario's preparation does not overlap a turn of the
		// last one: it interrupts it, as new user speech interrupts a
		// pipecat bot.
		c.turns.interrupt()
	case f.Text != nil || f.Transcription != nil:
		if !c.turns.push(func(tctx context.Context) error {
			return s.handle(context.WithValue(tctx, scenarioKey{}, a.scenario), f)
		}) {
			return c.events.Error(ctx, errTurnsFull.Error(), false)
		}
		return nil
	}
	return s.handle(ctx, f)
}

// handle does what an admitted frame asks.
func (s *Server) handle(ctx context.Context, f rtvi.Frame) error {
	switch {
	case f.Message != nil:
		reply, err := s.d.Handle(ctx, []byte(f.Message.Data))
		if reply != nil {
			if werr := s.write(ctx, rtvi.MessageFrameBytes(reply)); werr != nil {
				return werr
			}
		}
		return err
	case f.Text != nil:
		return s.userText(ctx, f.Text.Text)
	case f.Transcription != nil:
		t := *f.Transcription
		if t.Timestamp == "" {
			t.Timestamp = pipecatTimestamp(time.Now())
		}
		if err := s.emitter(ctx).UserTranscription(ctx, t, true); err != nil {
			return err
		}
		return s.userText(ctx, f.Transcription.Text)
	}
	return nil
}

// queueText is the dispatcher's SendText: the turn joins its connection's
// queue (turnQueue) and the send-text is answered at once, as pipecat
// queues the text into its pipeline; a turn's error then reaches the
// harness as an error event, not as send-text's answer. A context with no
// connection runs the turn in place.
func (s *Server) queueText(ctx context.Context, text string) error {
	c := connOf(ctx)
	if c == nil || c.turns == nil {
		return s.userText(ctx, text)
	}
	n := scenarioOf(ctx)
	if !c.turns.push(func(tctx context.Context) error {
		return s.userText(context.WithValue(tctx, scenarioKey{}, n), text)
	}) {
		return errTurnsFull
	}
	return nil
}

// userText hands one user turn to the brain.
func (s *Server) userText(ctx context.Context, text string) error {
	if s.brain == nil {
		return nil
	}
	return s.brain.Turn(ctx, Turn{Text: text, Scenario: scenarioOf(ctx), Events: s.emitter(ctx), Reply: s.say})
}

// pipecatTimestamp writes t as pipecat stamps transcriptions: UTC,
// milliseconds, Python's isoformat ("2026-08-21T12:34:56.789+00:00").
func pipecatTimestamp(t time.Time) string {
	return t.UTC().Format("2006-01-02T15:04:05.000-07:00")
}

// errorResponse is the error-response answering the request id with text.
func errorResponse(id, text string) []byte {
	msg, _ := json.Marshal(map[string]any{"label": rtviwire.Label, "type": rtviwire.TypeErrorResponse, "id": id, "data": map[string]any{"error": text}})
	return msg
}

// emitter returns the event emitter of ctx's connection; without one,
// events are dropped.
func (s *Server) emitter(ctx context.Context) *rtvi.Emitter {
	if c := connOf(ctx); c != nil {
		return c.events
	}
	return &rtvi.Emitter{}
}

// say sends text to the harness as a text frame.
func (s *Server) say(ctx context.Context, text string) error {
	frame, err := rtvi.Frame{Text: &rtvi.TextFrame{Text: text}}.Marshal()
	if err != nil {
		return err
	}
	return s.write(ctx, frame)
}

// send is the dispatcher's sender: tool messages (action-applied, exit)
// go, as message frames, to the connection the tool call came from.
func (s *Server) send(ctx context.Context, msg []byte) error {
	return s.write(ctx, rtvi.MessageFrameBytes(msg))
}

// ErrNoConnection is the error of a write with no harness to write to.
var ErrNoConnection = errors.New("rtviws: no harness connected")

// write sends a frame on the connection of ctx, or else on the scenario
// owner's. Each connection's writes have a deadline; a failed one closes
// that connection only.
func (s *Server) write(ctx context.Context, frame []byte) error {
	c := connOf(ctx)
	if c == nil {
		c = s.scenario.current()
	}
	if c == nil {
		return ErrNoConnection
	}
	return c.send(ctx, frame)
}

// CloseConnections closes every open connection with "going away"; run it
// when the server shuts down (http.Server does not close WebSockets).
func (s *Server) CloseConnections() {
	s.mu.Lock()
	conns := make([]*conn, 0, len(s.conns))
	for c := range s.conns {
		conns = append(conns, c)
	}
	s.mu.Unlock()
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

// OpenConnections is the number of connections being served.
func (s *Server) OpenConnections() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.conns)
}

// ListenLoopback listens on addr, which must be a loopback address
// ("127.0.0.1:8765", "[::1]:0", "localhost:8765").
func ListenLoopback(addr string) (net.Listener, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return nil, errors.New("the address must be a loopback address, e.g. 127.0.0.1:8765")
	}
	return net.Listen("tcp", addr)
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
