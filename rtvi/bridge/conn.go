package bridge

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/coder/websocket"
	"github.com/voiceeval/schematools/internal/pyjson"
	"github.com/voiceeval/schematools/internal/rtviwire"
	"github.com/voiceeval/schematools/rtvi"
)

// NeMo's bridge's limits.
const (
	// defaultHandshakeTimeout is how long Dial waits for bot-ready.
	defaultHandshakeTimeout = 5 * time.Second
	// defaultRequestTimeout is how long an awaited request waits for its
	// answer.
	defaultRequestTimeout = 15 * time.Second
	// defaultWriteTimeout bounds each write (NeMo's close_timeout is 10 s;
	// its sends have no bound of their own).
	defaultWriteTimeout = 10 * time.Second
	// defaultMaxStreamBytes bounds what a bot sends on one connection:
	// 256 MiB, some six times a voice bot's 900 s of 24 kHz audio.
	defaultMaxStreamBytes = 256 << 20
	// defaultMaxDepth bounds a message's nesting: Python's json.loads,
	// which NeMo's bridge reads every message with, raises RecursionError
	// near 1000 (994 at the top of a CPython 3.11 stack, less inside the
	// bridge's calls), so 900 is what NeMo surely reads.
	defaultMaxDepth = 900
)

// Options configure [Dial]. The zero value is NeMo's bridge.
type Options struct {
	// OnEvent receives every frame the bot sends, decoded, in the order
	// received, answers to requests included. It runs on the connection's
	// reader: while it runs no frame is read, so it must not block for
	// long, and it must not call Close (wait on Done instead). Nil drops
	// the events. A panic in it closes the connection with an error.
	OnEvent func(Event)
	// HandshakeTimeout bounds the wait for bot-ready; 0 means 5 s.
	HandshakeTimeout time.Duration
	// RequestTimeout bounds the wait for the answer of an awaited request;
	// 0 means 15 s.
	RequestTimeout time.Duration
	// WriteTimeout bounds each write; 0 means 10 s.
	WriteTimeout time.Duration
	// MaxMessageBytes is the largest message read; 0 means 1 MiB. A larger
	// one closes the connection (status 1009), as it does NeMo's.
	MaxMessageBytes int64
	// MaxStreamBytes bounds the bytes read from the bot on this
	// connection; 0 means 256 MiB. Past it the connection is
	// closed and its error wraps ErrBudget.
	MaxStreamBytes int64
	// MaxDepth bounds the nesting of a message's JSON; 0 means 900 (what
	// Python's json.loads surely reads). A deeper message is a KindMalformed event whose Err
	// wraps ErrBudget.
	MaxDepth int
	// LenientHandshake makes Dial return the connection even when no
	// bot-ready came in time, as NeMo's bridge, which logs a warning and
	// carries on. By default Dial fails with ErrTimeout.
	LenientHandshake bool
	// HTTPClient and HTTPHeader are passed to the WebSocket dial.
	HTTPClient *http.Client
	HTTPHeader http.Header
	// Now is the clock of the request ids; nil means time.Now.
	Now func() time.Time
}

// Errors of a connection. Each error a method returns wraps one of them
// (or the context's error when ctx ends first).
var (
	// ErrTimeout: no answer within the timeout.
	ErrTimeout = errors.New("bridge: timed out")
	// ErrClosed: the connection is closed (by Close, by the bot, or after
	// a read error such as a message over MaxMessageBytes); the error
	// says why.
	ErrClosed = errors.New("bridge: connection closed")
	// ErrBotError: the bot answered with an error-response.
	ErrBotError = errors.New("bridge: bot returned an error")
	// ErrUnexpectedReply: the answer is not of the shape the request
	// expects.
	ErrUnexpectedReply = errors.New("bridge: unexpected reply")
	// ErrBudget: the bot sent more, or deeper, than a budget allows
	// (Options.MaxStreamBytes, Options.MaxDepth; a harness's budgets wrap
	// it too).
	ErrBudget = errors.New("over budget")
)

// An awaited request also fails, at once, with an error wrapping
// ErrMalformed when a frame or message that cannot be read arrives while
// it waits.

// Conn is a connection to one bot, as NeMo's bridge holds one per bot and
// per phase (prepare, then run). Its methods are safe for concurrent use;
// awaited requests are carried out one at a time. Close it when done: its
// reader runs until the connection ends.
type Conn struct {
	ws   *websocket.Conn
	opts Options
	ids  idClock

	reqMu sync.Mutex // one awaited request at a time

	mu     sync.Mutex
	waiter *waiter
	err    error // why the connection closed, once it has

	done chan struct{} // closed when the reader has stopped
}

// waiter is an awaited request: match picks its answer.
type waiter struct {
	match func(Event) bool
	got   chan Event // buffered, 1
}

// Dial connects to the bot at url (ws://host:port/...), checks that it
// speaks WebSocket, sends client-ready and waits for bot-ready
// (Options.HandshakeTimeout). ctx bounds the dial and the handshake only.
func Dial(ctx context.Context, url string, opts *Options) (*Conn, error) {
	o := Options{}
	if opts != nil {
		o = *opts
	}
	if o.HandshakeTimeout <= 0 {
		o.HandshakeTimeout = defaultHandshakeTimeout
	}
	if o.RequestTimeout <= 0 {
		o.RequestTimeout = defaultRequestTimeout
	}
	if o.WriteTimeout <= 0 {
		o.WriteTimeout = defaultWriteTimeout
	}
	if o.MaxMessageBytes <= 0 {
		o.MaxMessageBytes = rtviwire.MaxMessageBytes
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.MaxStreamBytes <= 0 {
		o.MaxStreamBytes = defaultMaxStreamBytes
	}
	if o.MaxDepth <= 0 {
		o.MaxDepth = defaultMaxDepth
	}
	ws, _, err := websocket.Dial(ctx, url, &websocket.DialOptions{HTTPClient: o.HTTPClient, HTTPHeader: o.HTTPHeader})
	if err != nil {
		return nil, fmt.Errorf("bridge: dial %s: %w", url, err)
	}
	ws.SetReadLimit(o.MaxMessageBytes)
	c := &Conn{ws: ws, opts: o, ids: idClock{now: o.Now}, done: make(chan struct{})}
	go c.read()
	if err := c.handshake(ctx); err != nil {
		if o.LenientHandshake && errors.Is(err, ErrTimeout) {
			return c, nil
		}
		c.closeWith(err)
		c.ws.CloseNow()
		<-c.done
		return nil, err
	}
	return c, nil
}

// handshake sends client-ready and waits for any bot-ready, as the
// bridge does (it checks the type only, not the id).
func (c *Conn) handshake(ctx context.Context) error {
	data, err := object(field{"version", clientVersion},
		field{"about", fields{{"library", clientLibrary}, {"library_version", clientLibraryVersion}}})
	if err != nil {
		return err
	}
	msg, err := envelope(rtviwire.TypeClientReady, c.ids.id("client_ready_"), data)
	if err != nil {
		return err
	}
	_, err = c.await(ctx, msg, c.opts.HandshakeTimeout, "bot-ready", func(e Event) bool { return e.Kind == KindBotReady })
	return err
}

// read is the reader: it decodes each message, hands it to the waiter
// when it is the answer, and to OnEvent.
func (c *Conn) read() {
	defer close(c.done)
	var read int64
	seen := map[string]Event{} // small messages that carry nothing but their type, decoded once
	for {
		typ, data, err := c.ws.Read(context.Background())
		if err != nil {
			c.closeWith(readError(err))
			return
		}
		if read += int64(len(data)); read > c.opts.MaxStreamBytes {
			c.closeWith(fmt.Errorf("%w: %w: the bot sent more than %d bytes on this connection (MaxStreamBytes)", ErrClosed, ErrBudget, c.opts.MaxStreamBytes))
			c.ws.CloseNow()
			return
		}
		at := time.Now()
		var e Event
		if typ != websocket.MessageBinary {
			// pipecat's serializer cannot parse a text message as a frame.
			e = Event{Kind: KindMalformed, Message: string(data), Err: fmt.Errorf("%w: a text WebSocket message (frames are binary)", ErrMalformed)}
		} else {
			e = decodeCached(data, c.opts.MaxDepth, seen)
		}
		e.At = at
		c.mu.Lock()
		// A frame that cannot be read fails the waiting request at once,
		// with its reason: it may be the answer, and a harness waiting out
		// the timeout would report a timeout, not the cause.
		if w := c.waiter; w != nil && (w.match(e) || e.Kind == KindMalformed) {
			c.waiter = nil
			w.got <- e
		}
		c.mu.Unlock()
		if err := c.deliver(e); err != nil {
			c.closeWith(err)
			c.ws.CloseNow()
			return
		}
	}
}

// decodeWithin is decodeFrame for a message nested at most maxDepth deep:
// the nesting is measured before the JSON is decoded, so a deeper one is
// refused for its depth, cheaply.
func decodeWithin(data []byte, maxDepth int) Event {
	f, err := rtvi.DecodeFrame(data)
	if err != nil || f.Message == nil {
		return decodeFrame(data)
	}
	if n := pyjson.Nesting([]byte(f.Message.Data)); n > maxDepth {
		return Event{Kind: KindMalformed, Message: f.Message.Data, Err: fmt.Errorf("%w: %w: a message nested %d deep, past %d (MaxDepth; Python's json.loads raises RecursionError near 1000)", ErrMalformed, ErrBudget, n, maxDepth)}
	}
	return decodeMessage([]byte(f.Message.Data))
}

// decodeCached is decodeWithin, remembering the events of small messages
// that carry nothing but their kind (bot-started-speaking,
// bot-stopped-speaking, bot-llm-started, …: a bot sends the same bytes
// for each), so a turn costs one JSON decode, not three.
func decodeCached(data []byte, maxDepth int, seen map[string]Event) Event {
	if len(data) > 160 {
		return decodeWithin(data, maxDepth)
	}
	if e, ok := seen[string(data)]; ok {
		return e
	}
	e := decodeWithin(data, maxDepth)
	if len(seen) < 64 && e.D == nil && !e.hasD && e.Tokens == nil && e.Action == nil && e.Frame == nil && e.Err == nil && e.Text == "" &&
		(e.Kind == KindStartedSpeaking || e.Kind == KindStoppedSpeaking || e.Kind == KindOther) {
		seen[string(data)] = e
	}
	return e
}

// deliver calls OnEvent, turning a panic into an error.
func (c *Conn) deliver(e Event) (err error) {
	if c.opts.OnEvent == nil {
		return nil
	}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%w: OnEvent panicked: %v", ErrClosed, r)
		}
	}()
	c.opts.OnEvent(e)
	return nil
}

// readError says why reading stopped.
func readError(err error) error {
	if errors.Is(err, websocket.ErrMessageTooBig) {
		return fmt.Errorf("%w: a message over the read limit (closed with status 1009): %w", ErrClosed, err)
	}
	switch status := websocket.CloseStatus(err); status {
	case -1:
		return fmt.Errorf("%w: %w", ErrClosed, err)
	default:
		return fmt.Errorf("%w: closed with status %d: %w", ErrClosed, int(status), err)
	}
}

// closeWith records why the connection ended (the first reason wins) and
// fails the waiting request.
func (c *Conn) closeWith(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err == nil {
		c.err = err
	}
	if w := c.waiter; w != nil {
		c.waiter = nil
		close(w.got)
	}
}

// Err returns why the connection closed, or nil while it is open.
func (c *Conn) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// Done is closed once the connection's reader has stopped: no event is
// delivered after it.
func (c *Conn) Done() <-chan struct{} { return c.done }

// Close closes the connection normally (status 1000) and waits, at most
// a few seconds, for the bot's closing handshake. It must not be called
// from OnEvent.
func (c *Conn) Close() error {
	already := c.Err() != nil
	c.closeWith(fmt.Errorf("%w: closed by the bridge", ErrClosed))
	err := c.ws.Close(websocket.StatusNormalClosure, "")
	<-c.done
	if already || err == nil || websocket.CloseStatus(err) != -1 || errors.Is(err, net.ErrClosed) {
		return nil
	}
	return fmt.Errorf("bridge: close: %w", err)
}

// CloseNow closes the connection at once, without the closing handshake
// (for a bot that may not answer it), and waits for the reader to stop.
func (c *Conn) CloseNow() {
	c.closeWith(fmt.Errorf("%w: closed by the bridge", ErrClosed))
	c.ws.CloseNow() //nolint:errcheck // nothing to report: the connection is gone either way
	<-c.done
}

// send writes msg as a message frame, bounded by WriteTimeout.
func (c *Conn) send(ctx context.Context, msg []byte) error {
	if err := c.Err(); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, c.opts.WriteTimeout)
	defer cancel()
	if err := c.ws.Write(ctx, websocket.MessageBinary, rtvi.MessageFrameBytes(msg)); err != nil {
		if cerr := c.Err(); cerr != nil {
			return cerr
		}
		if ctx.Err() != nil && errors.Is(err, context.DeadlineExceeded) {
			return fmt.Errorf("%w: writing to the bot: %w", ErrTimeout, err)
		}
		return fmt.Errorf("bridge: write: %w", err)
	}
	return nil
}

// await sends msg and waits, at most timeout (and while ctx lasts), for
// the first event match accepts; what says what is awaited, for errors.
func (c *Conn) await(ctx context.Context, msg []byte, timeout time.Duration, what string, match func(Event) bool) (Event, error) {
	c.reqMu.Lock()
	defer c.reqMu.Unlock()
	w := &waiter{match: match, got: make(chan Event, 1)}
	c.mu.Lock()
	if c.err != nil {
		err := c.err
		c.mu.Unlock()
		return Event{}, err
	}
	c.waiter = w
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		if c.waiter == w {
			c.waiter = nil
		}
		c.mu.Unlock()
	}()
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	if err := c.send(ctx, msg); err != nil {
		return Event{}, err
	}
	select {
	case e, ok := <-w.got:
		if !ok {
			return Event{}, c.Err()
		}
		if e.Kind == KindMalformed {
			return Event{}, fmt.Errorf("no %s: the bot sent what cannot be read: %w", what, e.Err)
		}
		return e, nil
	case <-timer.C:
		return Event{}, fmt.Errorf("%w: no %s within %v", ErrTimeout, what, timeout)
	case <-ctx.Done():
		return Event{}, ctx.Err()
	}
}
