package main

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/rtvi"
)

// The bot under faults: peers that stop reading, go silent, trickle,
// reset, and harnesses that run at the same time.

// TestMain runs the bot's own main when the SIGTERM test starts this test
// binary as the bot.
func TestMain(m *testing.M) {
	if os.Getenv("RTVIBOT_TEST_MAIN") == "1" {
		os.Args = append([]string{"rtvibot"}, strings.Fields(os.Getenv("RTVIBOT_TEST_ARGS"))...)
		main()
		return
	}
	os.Exit(m.Run())
}

// flood sends n user-text frames on a connection that never reads, from
// its own goroutine; it reports the frames sent and the first write error.
type flood struct {
	sent   atomic.Int64
	failed atomic.Bool
	done   chan struct{}
}

func startFlood(ctx context.Context, c *websocket.Conn, n int, text string) *flood {
	f := &flood{done: make(chan struct{})}
	frame, err := rtvi.Frame{Text: &rtvi.TextFrame{Text: text}}.Marshal()
	if err != nil {
		panic(err)
	}
	go func() {
		defer close(f.done)
		for i := 0; i < n; i++ {
			if err := c.Write(ctx, websocket.MessageBinary, frame); err != nil {
				if ctx.Err() == nil {
					f.failed.Store(true)
				}
				return
			}
			f.sent.Add(1)
		}
	}()
	return f
}

// waitStalled waits until the flood's writes stop going through (the
// socket buffers are full: the bot's writes to it block).
func waitStalled(t *testing.T, f *flood) {
	t.Helper()
	last := int64(-1)
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		n := f.sent.Load()
		if n == last && n > 0 {
			return
		}
		last = n
	}
	t.Fatalf("the flood never stalled (%d frames sent)", last)
}

// A neighbour that floods the bot with tool calls and never reads: the
// well-behaved harness's scenarios all succeed, each within 2 s of its
// time on an unloaded bot, while the neighbour stays connected. Failed
// before: the second scenario hung at send-text (the stalled write held
// the shared Emitter's lock).
func TestStalledReaderHoldsUpNoOne(t *testing.T) {
	d, _ := findTau2Domain("tau2_retail")
	want, _, tools := goldExpectations(t, d)
	bot, url := startGoldBot(t)
	bot.gold.setTask("0")
	// Long enough that the bot does not drop the neighbour during the test,
	// however slow the machine: the others must not need it gone.
	bot.setTimeouts(Timeouts{Write: 5 * time.Minute, Idle: 5 * time.Minute, RunWait: time.Minute})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	start := time.Now()
	summary, _ := playGold(ctx, t, url, d.Name, tools)
	unloaded := time.Since(start)
	require.Equal(t, want["0"], summary["db_hash"])

	nctx, stop := context.WithCancel(ctx)
	defer stop()
	neighbour, _, err := websocket.Dial(nctx, url, nil)
	require.NoError(t, err)
	defer neighbour.CloseNow()
	f := startFlood(nctx, neighbour, 20000, "/call ListAllProductTypesTool {}")
	waitStalled(t, f)

	for i := 0; i < 5; i++ {
		sctx, cancel := context.WithTimeout(ctx, unloaded+5*time.Second)
		start := time.Now()
		summary, pushes := playGold(sctx, t, url, d.Name, tools)
		took := time.Since(start)
		cancel()
		assert.Equal(t, want["0"], summary["db_hash"], "scenario %d", i)
		require.NotEmpty(t, pushes)
		assert.Equal(t, "<exit>The task is finished.</exit>", pushes[len(pushes)-1]["data"].(map[string]any)["text"])
		assert.Less(t, took, unloaded+2*time.Second, "scenario %d took %v (unloaded: %v)", i, took, unloaded)
		t.Logf("scenario %d beside the stalled neighbour: %v (unloaded: %v)", i, took, unloaded)
	}
	assert.False(t, f.failed.Load(), "the neighbour is still connected")
	assert.GreaterOrEqual(t, bot.openConnections(), 1)
}

// scenarioOutcome is how one free-running scenario ended.
type scenarioOutcome int

const (
	succeeded scenarioOutcome = iota
	refused                   // an explicit error: an error-response or an RTVI error event
	wrong                     // no error, and a wrong hash or no clean exit
)

// prepareExtras are what a harness may do on its prepare connection
// besides preparing, as NeMo's bridge and other harnesses do.
type prepareExtras struct {
	summary bool // read get_scenario_summary (an initial hash)
	delta   bool // push an apply_sync_delta (NeMo's initial shadow sync)
}

// tryGold drives one gold scenario as the bridge does, stopping at the
// first error the bot reports; it pulls once <exit> came, as the bridge
// does.
func tryGold(ctx context.Context, url, domain, tools, wantHash string, x prepareExtras) (scenarioOutcome, string) {
	h, err := dialHarness(ctx, url)
	if err != nil {
		return wrong, err.Error()
	}
	if _, err := h.ready(ctx); err != nil {
		h.close()
		return wrong, err.Error()
	}
	steps := []struct {
		t string
		d map[string]any
	}{
		{"reset", map[string]any{}},
		{"update_system_prompt", map[string]any{"prompt": "You are an airline or retail agent.", "tools": tools, "add_suffix": false, "tool_domain": domain}},
		{"apply_initialization", map[string]any{"domain": domain, "shared_state_init": `{"db_path": "` + domain + `/db.json"}`, "actions": []any{}}},
	}
	if x.delta {
		steps = append(steps, struct {
			t string
			d map[string]any
		}{"apply_sync_delta", map[string]any{"domain": domain, "delta": map[string]any{}}})
	}
	if x.summary {
		steps = append(steps, struct {
			t string
			d map[string]any
		}{"get_scenario_summary", map[string]any{"include_db": false}})
	}
	for _, s := range steps {
		m, err := h.request(ctx, s.t, s.d)
		if err != nil {
			h.close()
			return wrong, err.Error()
		}
		if m["type"] == "error-response" {
			h.close()
			return refused, fmt.Sprint(m["data"])
		}
	}
	h.close()

	h, err = dialHarness(ctx, url)
	if err != nil {
		return wrong, err.Error()
	}
	defer h.close()
	if _, err := h.ready(ctx); err != nil {
		return wrong, err.Error()
	}
	if _, err := h.sendText(ctx, "Hello"); err != nil {
		if strings.Contains(err.Error(), "error-response") {
			return refused, err.Error()
		}
		return wrong, err.Error()
	}
	// The bridge pulls once the agent said <exit>; an error event instead
	// is an explicit error; no exit at all is silently wrong (the context
	// ends it).
	if err := h.waitExit(ctx); err != nil {
		if strings.Contains(err.Error(), "reported an error") {
			return refused, err.Error()
		}
		return wrong, err.Error()
	}
	m, err := h.request(ctx, "get_scenario_summary", map[string]any{"include_db": false})
	if err != nil {
		return wrong, err.Error()
	}
	if m["type"] == "error-response" {
		return refused, fmt.Sprint(m["data"])
	}
	got := m["data"].(map[string]any)["d"].(map[string]any)["db_hash"]
	if got != wantHash {
		return wrong, fmt.Sprintf("hash %v (want %s)", got, wantHash)
	}
	return succeeded, ""
}

// Two harnesses drive one bot at once, free-running, 50 scenarios each
// (one retail, one airline), in each way a harness may use its prepare
// connection (nothing more; reading the summary; pushing a sync delta;
// both): every scenario either succeeds or gets an explicit error naming
// the scenario in progress — never another scenario's hash, DB or exit.
// Failed before: most scenarios ended with the other harness's hash, or
// no exit, and no error; with the summary read or the delta on the
// prepare connection, 10–13 of 20 per side still did (the read freed
// the scenario for the other harness).
func TestTwoHarnessesNeverMix(t *testing.T) {
	t.Parallel() // each way, its own bot: the harnesses wait on each other
	for _, tc := range []struct {
		name string
		x    prepareExtras
	}{
		{"prepare only", prepareExtras{}},
		{"summary read while preparing", prepareExtras{summary: true}},
		{"sync delta while preparing", prepareExtras{delta: true}},
		{"both", prepareExtras{summary: true, delta: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			twoHarnesses(t, 50, tc.x)
		})
	}
}

func twoHarnesses(t *testing.T, n int, x prepareExtras) {
	bot, url := startGoldBot(t)
	bot.gold.setTask("0")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	type side struct {
		domain, tools, want string
		outcomes            [3]int
		wrongs              []string
	}
	var sides []*side
	for _, name := range []string{"tau2_retail", "tau2_airline"} {
		d, _ := findTau2Domain(name)
		want, _, tools := goldExpectations(t, d)
		sides = append(sides, &side{domain: name, tools: tools, want: want["0"]})
	}
	var wg sync.WaitGroup
	for _, s := range sides {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < n; i++ {
				o, why := tryGold(ctx, url, s.domain, s.tools, s.want, x)
				s.outcomes[o]++
				if o == wrong {
					s.wrongs = append(s.wrongs, why)
				}
			}
		}()
	}
	wg.Wait()
	for _, s := range sides {
		t.Logf("%s: %d succeeded, %d refused, %d wrong", s.domain, s.outcomes[succeeded], s.outcomes[refused], s.outcomes[wrong])
		assert.Zero(t, s.outcomes[wrong], "%s: silently wrong: %v", s.domain, s.wrongs)
	}
	assert.Positive(t, sides[0].outcomes[succeeded]+sides[1].outcomes[succeeded], "some scenarios succeed")
}

// What a second harness gets while a scenario is in progress: an
// error-response naming it, at every preparing message, send-text and
// summary; and once the scenario's run connection has closed, the bot
// takes the next one.
func TestSecondHarnessIsRefusedByName(t *testing.T) {
	ctx := testContext(t)
	bot, url := serveBot(t, nil)
	bot.setTimeouts(Timeouts{Write: DefaultTimeouts.Write, Idle: DefaultTimeouts.Idle, RunWait: DefaultTimeouts.RunWait, Grace: 50 * time.Millisecond}) // each refusal waits this long for a closing owner
	owner, err := dialHarness(ctx, url)
	require.NoError(t, err)
	_, err = owner.ready(ctx)
	require.NoError(t, err)
	m, err := owner.request(ctx, "update_system_prompt", map[string]any{"prompt": scenarioPrompt, "tools": scenarioTools, "tool_domain": "coffee"})
	require.NoError(t, err)
	require.Equal(t, "server-response", m["type"])
	m, err = owner.request(ctx, "apply_initialization", map[string]any{"shared_state_init": `{"db_path": "coffee/db.json"}`})
	require.NoError(t, err)
	require.Equal(t, "server-response", m["type"])

	other, err := dialHarness(ctx, url)
	require.NoError(t, err)
	defer other.close()
	_, err = other.ready(ctx)
	require.NoError(t, err, "the handshake is always answered")
	for _, t_ := range []string{"reset", "update_system_prompt", "apply_initialization", "get_context_history", "get_scenario_summary", "apply_sync_delta"} {
		m, err := other.request(ctx, t_, map[string]any{})
		require.NoError(t, err)
		assert.Equal(t, "error-response", m["type"], t_)
		assert.Contains(t, m["data"].(map[string]any)["error"], "scenario 1 (coffee) is in progress on another connection", t_)
	}
	_, err = other.sendText(ctx, "Hello")
	assert.ErrorContains(t, err, "scenario 1 (coffee) is in progress")
	_, err = other.say(ctx, "/call get_menu {}")
	assert.ErrorContains(t, err, "scenario 1 (coffee) is in progress", "a text frame gets an RTVI error event")

	// The owner prepared only: its close leaves the scenario for its run.
	owner.close()
	_, err = other.sendText(ctx, "Hello")
	assert.ErrorContains(t, err, "waits for its run connection", "a connection that was there before the preparation is no run connection")
	run, err := dialHarness(ctx, url)
	require.NoError(t, err)
	_, err = run.ready(ctx)
	require.NoError(t, err)
	_, err = run.say(ctx, scenarioTurns[0])
	require.NoError(t, err)
	require.Len(t, run.pushes, 1)
	run.close()

	require.Eventually(t, func() bool {
		m, err := other.request(ctx, "update_system_prompt", map[string]any{"prompt": scenarioPrompt, "tools": scenarioTools, "tool_domain": "coffee"})
		return err == nil && m["type"] == "server-response"
	}, 5*time.Second, 20*time.Millisecond, "after the run, the next scenario starts")
}

// A prepared scenario whose run never comes is given up after RunWait.
func TestUnclaimedScenarioIsGivenUp(t *testing.T) {
	ctx := testContext(t)
	bot, url := serveBot(t, nil)
	bot.setTimeouts(Timeouts{Write: time.Second, Idle: time.Minute, RunWait: 300 * time.Millisecond})
	p, err := dialHarness(ctx, url)
	require.NoError(t, err)
	_, err = p.request(ctx, "update_system_prompt", map[string]any{"prompt": scenarioPrompt, "tools": scenarioTools, "tool_domain": "coffee"})
	require.NoError(t, err)
	p.close()
	q, err := dialHarness(ctx, url)
	require.NoError(t, err)
	defer q.close()
	require.Eventually(t, func() bool {
		m, err := q.request(ctx, "update_system_prompt", map[string]any{"prompt": scenarioPrompt, "tools": scenarioTools, "tool_domain": "coffee"})
		return err == nil && m["type"] == "server-response"
	}, 5*time.Second, 50*time.Millisecond)
}

// Text from a connection that is not the scenario's never enters its
// conversation, however large: a neighbour's tool call and ~1 MiB of text
// between prepare and run. Failed before: both were in the transcript, and
// get_context_history failed for its size.
func TestNeighbourTextStaysOut(t *testing.T) {
	ctx := testContext(t)
	url := startBot(t)
	neighbour, err := dialHarness(ctx, url)
	require.NoError(t, err)
	defer neighbour.close()
	_, err = neighbour.ready(ctx)
	require.NoError(t, err)

	h, err := dialHarness(ctx, url)
	require.NoError(t, err)
	_, err = h.ready(ctx)
	require.NoError(t, err)
	for _, s := range []struct {
		t string
		d any
	}{
		{"reset", map[string]any{}},
		{"update_system_prompt", map[string]any{"prompt": scenarioPrompt, "tools": scenarioTools, "add_suffix": false, "tool_domain": "coffee"}},
		{"apply_initialization", map[string]any{"domain": "coffee", "shared_state_init": `{"db_path": "coffee/db.json"}`, "actions": []any{}}},
	} {
		_, err := answer(ctx, h, io.Discard, s.t, s.d)
		require.NoError(t, err)
	}
	h.close()
	_, err = neighbour.say(ctx, `/call place_order {"customer": "Mallory", "items": [{"item_id": "latte", "size": "large", "quantity": 9}]}`)
	require.Error(t, err)
	_, err = neighbour.say(ctx, strings.Repeat("n", 1<<20-100))
	require.Error(t, err)

	run, err := dialHarness(ctx, url)
	require.NoError(t, err)
	defer run.close()
	_, err = run.ready(ctx)
	require.NoError(t, err)
	_, err = run.sendText(ctx, "Hello")
	require.NoError(t, err)
	_, err = run.say(ctx, scenarioTurns[0])
	require.NoError(t, err)
	_, err = neighbour.say(ctx, "/call cancel_order {\"order_id\": \"ORD-001\"}")
	require.Error(t, err)
	d, err := answer(ctx, run, io.Discard, "get_context_history", map[string]any{})
	require.NoError(t, err)
	history := d.(map[string]any)["context"].(string)
	assert.NotContains(t, history, "Mallory")
	assert.NotContains(t, history, "nnnn")
	assert.NotContains(t, history, "cancel_order")
	d, err = answer(ctx, run, io.Discard, "get_scenario_summary", map[string]any{})
	require.NoError(t, err)
	assert.Len(t, d.(map[string]any)["actions"], 1)
}

// An idle connection, and one that trickles a message a byte at a time,
// are closed after the idle timeout; a connection that keeps talking
// outlives it. Failed before: both were held forever.
func TestIdleAndTricklingConnectionsAreClosed(t *testing.T) {
	ctx := testContext(t)
	bot, url := serveBot(t, nil)
	const idleTimeout = 400 * time.Millisecond
	bot.setTimeouts(Timeouts{Write: time.Second, Idle: idleTimeout, RunWait: time.Second})

	quiet, _, err := websocket.Dial(ctx, url, nil)
	require.NoError(t, err)
	defer quiet.CloseNow()
	start := time.Now()
	_, _, err = quiet.Read(ctx)
	require.Error(t, err, "the bot closed the idle connection")
	assert.Less(t, time.Since(start), idleTimeout+2*time.Second)

	trickle := rawDial(t, url)
	defer trickle.Close()
	header := []byte{0x82, 0x80 | 100, 0, 0, 0, 0} // a masked binary frame of 100 bytes, mask 0
	_, err = trickle.Write(header)
	require.NoError(t, err)
	start = time.Now()
	for i := 0; i < 100 && time.Since(start) < 10*time.Second; i++ {
		time.Sleep(50 * time.Millisecond)
		if _, err = trickle.Write([]byte{0}); err != nil {
			break
		}
	}
	require.Eventually(t, func() bool { return bot.openConnections() == 0 }, 5*time.Second, 20*time.Millisecond, "the trickling connection was closed")
	assert.Less(t, time.Since(start), idleTimeout+3*time.Second)

	talker, err := dialHarness(ctx, url)
	require.NoError(t, err)
	defer talker.close()
	for end := time.Now().Add(3 * idleTimeout); time.Now().Before(end); time.Sleep(idleTimeout / 4) {
		_, err := talker.ready(ctx)
		require.NoError(t, err, "a connection that talks is kept")
	}
}

// rawDial opens a WebSocket connection by hand, for peers no client
// library plays: ones that trickle bytes or reset the connection.
func rawDial(t *testing.T, url string) *net.TCPConn {
	t.Helper()
	addr := strings.TrimPrefix(url, "ws://")
	c, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	key := make([]byte, 16)
	_, _ = rand.Read(key)
	_, err = fmt.Fprintf(c, "GET / HTTP/1.1\r\nHost: %s\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: %x==\r\nSec-WebSocket-Version: 13\r\n\r\n", addr, key[:11])
	require.NoError(t, err)
	r := bufio.NewReader(c)
	status, err := r.ReadString('\n')
	require.NoError(t, err)
	require.Contains(t, status, "101")
	for {
		line, err := r.ReadString('\n')
		require.NoError(t, err)
		if line == "\r\n" {
			break
		}
	}
	return c.(*net.TCPConn)
}

// rawFrame is a masked binary WebSocket frame holding payload (mask 0).
func rawFrame(payload []byte) []byte {
	var b []byte
	switch n := len(payload); {
	case n < 126:
		b = []byte{0x82, 0x80 | byte(n)}
	case n < 1<<16:
		b = []byte{0x82, 0x80 | 126, byte(n >> 8), byte(n)}
	default:
		b = append([]byte{0x82, 0x80 | 127}, binary.BigEndian.AppendUint64(nil, uint64(n))...)
	}
	return append(append(b, 0, 0, 0, 0), payload...)
}

// A peer that floods tool calls, never reads, then resets the connection:
// the bot's next write fails and ends that connection at once — it does
// not work through the frames still buffered, nor add their text to the
// conversation. Failed before: it ran every buffered frame, logging a
// write error for each.
func TestResetMidCallEndsTheConnection(t *testing.T) {
	ctx := testContext(t)
	bot, url := serveBot(t, nil)
	h, err := dialHarness(ctx, url)
	require.NoError(t, err)
	defer h.close()
	_, err = h.request(ctx, "update_system_prompt", map[string]any{"prompt": scenarioPrompt, "tools": scenarioTools, "tool_domain": "coffee"})
	require.NoError(t, err)
	_, err = h.request(ctx, "apply_initialization", map[string]any{"shared_state_init": `{"db_path": "coffee/db.json"}`})
	require.NoError(t, err)
	_, err = h.request(ctx, "reset", map[string]any{})
	require.NoError(t, err)
	h.close() // the scenario ran nothing: the bot is idle again, and talks to anyone

	peer := rawDial(t, url)
	frame, err := rtvi.Frame{Text: &rtvi.TextFrame{Text: "/call get_menu {}"}}.Marshal()
	require.NoError(t, err)
	raw := rawFrame(frame)
	batch := make([]byte, 0, 200*len(raw))
	for i := 0; i < 200; i++ {
		batch = append(batch, raw...)
	}
	require.NoError(t, peer.SetWriteDeadline(time.Now().Add(10*time.Second)))
	for i := 0; i < 100; i++ { // 20,000 calls, or as many as the buffers take
		if _, err := peer.Write(batch); err != nil {
			break
		}
		if i > 5 {
			require.NoError(t, peer.SetWriteDeadline(time.Now().Add(300*time.Millisecond)))
		}
	}
	before, err := bot.conv.Messages(ctx)
	require.NoError(t, err)
	require.NoError(t, peer.SetLinger(0))
	require.NoError(t, peer.Close()) // a reset

	require.Eventually(t, func() bool { return bot.openConnections() == 0 }, 10*time.Second, 10*time.Millisecond, "the reset connection ended")
	time.Sleep(100 * time.Millisecond)
	after, err := bot.conv.Messages(ctx)
	require.NoError(t, err)
	// The call in progress at the reset may finish (a user message, the
	// call, its result); no frame after it is handled.
	assert.LessOrEqual(t, len(after)-len(before), 3, "frames handled after the reset")
}

// SIGTERM ends the bot as SIGINT does: the default data directory is
// removed. The test binary runs the bot's main, with TMPDIR a fresh
// directory. Failed before: the process died on SIGTERM and left
// rtvibot-data-* (11 MB) behind.
func TestSIGTERMRemovesTheDataDirectory(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			tmp := t.TempDir()
			cmd, line, stderr := startProcess(t, "-addr 127.0.0.1:0", tmp)
			require.Contains(t, line, "listening on ws://")
			dirs, _ := filepath.Glob(filepath.Join(tmp, "rtvibot-data-*"))
			require.Len(t, dirs, 1, "the bot made its data directory")

			// A connection open at the signal is closed, not waited for.
			ctx := testContext(t)
			h, err := dialHarness(ctx, strings.TrimSpace(strings.TrimPrefix(line, "rtvibot listening on ")))
			require.NoError(t, err)
			defer h.c.CloseNow()
			_, err = h.ready(ctx)
			require.NoError(t, err)

			require.NoError(t, cmd.Process.Signal(sig))
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case err := <-done:
				require.NoError(t, err, stderr.String())
			case <-time.After(15 * time.Second):
				t.Fatal("the bot did not exit")
			}
			dirs, _ = filepath.Glob(filepath.Join(tmp, "rtvibot-data-*"))
			assert.Empty(t, dirs, "the data directory is removed")
		})
	}
}

// After neighbours of every kind leave — a stalled flood, idle ones, a
// refused harness — the bot's goroutines and open files return to their
// baseline.
func TestNeighboursLeaveNoTrace(t *testing.T) {
	ctx := testContext(t)
	bot, url := serveBot(t, nil)
	// Warm up: one scenario, so lazily started goroutines already run.
	_, err := runScenario(ctx, url, io.Discard)
	require.NoError(t, err)
	require.Eventually(t, func() bool { return bot.openConnections() == 0 }, 3*time.Second, 10*time.Millisecond)
	goroutines, fds := runtime.NumGoroutine(), openFiles(t)

	var conns []*websocket.Conn
	var floods []*flood
	nctx, stop := context.WithCancel(ctx)
	for i := 0; i < 3; i++ {
		c, _, err := websocket.Dial(nctx, url, nil)
		require.NoError(t, err)
		conns = append(conns, c)
		floods = append(floods, startFlood(nctx, c, 20000, "/call get_menu {}"))
	}
	for i := 0; i < 5; i++ {
		c, _, err := websocket.Dial(nctx, url, nil)
		require.NoError(t, err)
		conns = append(conns, c)
	}
	for _, f := range floods {
		waitStalled(t, f)
	}
	_, err = runScenario(ctx, url, io.Discard)
	require.NoError(t, err, "a harness is served meanwhile")
	stop()
	for _, c := range conns {
		c.CloseNow()
	}
	for _, f := range floods {
		<-f.done
	}
	require.Eventually(t, func() bool { return bot.openConnections() == 0 }, 15*time.Second, 20*time.Millisecond, "every connection ended")
	// Polled here, not in assert.Eventually, whose own goroutine would count.
	var nowG, nowF int
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		nowG, nowF = runtime.NumGoroutine(), openFiles(t)
		if nowG <= goroutines && nowF <= fds {
			break
		}
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			t.Fatalf("goroutines %d (baseline %d), files %d (baseline %d)\n%s", nowG, goroutines, nowF, fds, buf[:runtime.Stack(buf, true)])
		}
	}
	t.Logf("goroutines %d (baseline %d), files %d (baseline %d)", nowG, goroutines, nowF, fds)
}

func openFiles(t *testing.T) int {
	entries, err := os.ReadDir("/proc/self/fd")
	if errors.Is(err, os.ErrNotExist) {
		t.Skip("no /proc/self/fd")
	}
	require.NoError(t, err)
	return len(entries)
}
