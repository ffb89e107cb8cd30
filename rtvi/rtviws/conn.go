package rtviws

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
	"github.com/voiceeval/schematools/rtvi"
)

// Timeouts bound what one connection can hold: a write the peer does not
// read, a connection that sends nothing, a scenario prepared but never run.
type Timeouts struct {
	// Write bounds one frame's write. A write that fails or takes longer
	// ends that connection, and only it. Zero means 10 s.
	Write time.Duration
	// Idle bounds the wait for a connection's next message (and the time
	// that message takes to arrive): a connection silent for longer is
	// closed. NeMo's bridge keeps a run connection open for a whole
	// scenario (up to 900 s), sending audio or nothing, so a bound must be
	// longer (cmd/rtvibot's default is 20 min). Zero means no idle
	// timeout.
	Idle time.Duration
	// RunWait bounds how long a prepared scenario is reserved for its run
	// connection once its prepare connection has closed, while no
	// candidate run connection is open; then the bot takes new scenarios
	// again (a preparing message waits for that rather than be refused).
	// Zero means 10 s: NeMo's bridge opens its run connections as soon as
	// it has closed the preparation's, and waits 15 s for
	// apply_initialization's answer, so the next bridge is answered in
	// time after an aborted preparation.
	RunWait time.Duration
	// Grace bounds how long a request refused because another connection
	// owns the scenario first waits for that owner to close: a harness's
	// next connection can arrive before the server has seen its last one
	// close. Zero means 2 s.
	Grace time.Duration
}

// The defaults of Timeouts' zero fields (a zero Idle means no idle
// timeout).
const (
	defaultWriteTimeout = 10 * time.Second
	defaultRunWait      = 10 * time.Second
	defaultGrace        = 2 * time.Second
)

// conn is one harness connection: its socket, its own event emitter (a
// turn's events go to the connection whose turn it is, and a slow peer
// delays only its own), and what the scenario's owner knows of it.
type conn struct {
	ws     *websocket.Conn
	id     int64
	events *rtvi.Emitter
	write  time.Duration

	// Guarded by the bot's scenarioOwner.mu.
	ready   uint64 // the owner's tick at its last client-ready; 0: none
	triedIn int    // the scenario in progress when it sent a preparing message of its own: it never claims that one's run

	failed atomic.Bool // a write failed: the connection is closed

	turns *turnQueue // its user turns, run in order beside its reads
}

// errConnFailed is the error of a write on a connection whose earlier
// write failed.
var errConnFailed = errors.New("the connection was closed after a failed write")

// send writes one frame within the write timeout. A failed or timed-out
// write closes the connection: its read loop ends at the next read.
func (c *conn) send(ctx context.Context, frame []byte) error {
	if c.failed.Load() {
		return errConnFailed
	}
	wctx, cancel := context.WithTimeout(ctx, c.write)
	defer cancel()
	if err := c.ws.Write(wctx, websocket.MessageBinary, frame); err != nil {
		c.fail()
		return fmt.Errorf("connection %d: %w", c.id, err)
	}
	return nil
}

// fail closes the connection once, without a closing handshake: its peer
// is not reading.
func (c *conn) fail() {
	if c.failed.CompareAndSwap(false, true) {
		c.ws.CloseNow() //nolint:errcheck // best effort: the peer is gone or stalled
	}
}

// connKey carries a frame's connection in its context, so its replies,
// events and tool messages go back where it came from.
type connKey struct{}

func connOf(ctx context.Context) *conn {
	c, _ := ctx.Value(connKey{}).(*conn)
	return c
}

// scenarioKey carries the number of the scenario a frame was admitted to
// (Turn.Scenario).
type scenarioKey struct{}

func scenarioOf(ctx context.Context) int {
	n, _ := ctx.Value(scenarioKey{}).(int)
	return n
}
