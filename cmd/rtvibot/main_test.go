package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"github.com/voiceeval/schematools/state"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/dbhash"
	"github.com/voiceeval/schematools/domains/coffee"
	"github.com/voiceeval/schematools/internal/golden"
	"github.com/voiceeval/schematools/registry"
	"github.com/voiceeval/schematools/replay"
	"github.com/voiceeval/schematools/rtvi"
)

// startBot serves a bot on a free loopback port for the test's duration.
func startBot(t *testing.T) string {
	t.Helper()
	_, url := serveBot(t, nil)
	return url
}

// serveBot serves a bot, with gold as its gold agent (nil: none), on a
// free loopback port for the test's duration.
func serveBot(t *testing.T, gold *goldAgent) (*Bot, string) {
	t.Helper()
	dir := t.TempDir()
	require.NoError(t, writeData(dir))
	bot, err := NewBot(dir, slog.New(slog.DiscardHandler))
	require.NoError(t, err)
	bot.gold = gold
	ln, err := listenLoopback("127.0.0.1:0")
	require.NoError(t, err)
	srv := &http.Server{Handler: bot, ReadHeaderTimeout: time.Second}
	go srv.Serve(ln) //nolint:errcheck // ends with Close
	t.Cleanup(func() { srv.Close() })
	return bot, "ws://" + ln.Addr().String()
}

func testContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// The whole lifecycle of a scenario, as the NeMo bridge drives it; the
// bot's DB hash equals the gold replay of the actions it reports.
func TestScenarioLifecycle(t *testing.T) {
	ctx := testContext(t)
	res, err := runScenario(ctx, startBot(t), io.Discard)
	require.NoError(t, err)

	actions := res.Summary["actions"].([]any)
	require.Len(t, actions, 3)
	var gold []replay.Action
	for _, a := range actions {
		rec := a.(map[string]any)
		gold = append(gold, replay.Action{Name: rec["name"].(string), Arguments: rec["arguments"].(map[string]any)})
	}
	reg := &registry.Tools{Logger: slog.New(slog.DiscardHandler)}
	require.NoError(t, coffee.Register(reg))
	replayed, err := replay.Gold(ctx, replay.Scenario{
		Domain: coffee.Domain,
		Task:   replay.Task{ID: "rtvibot", EvaluationCriteria: &replay.EvaluationCriteria{Actions: gold}},
		DB:     state.NewSource(coffee.DB()),
		Tools:  replay.RegistryTools(reg, coffee.Domain, nil),
	})
	require.NoError(t, err)
	require.Empty(t, replayed.Errors)
	assert.Equal(t, replayed.DBHash, res.Summary["db_hash"], "the live DB hash equals the gold replay's")
	assert.NotContains(t, res.Summary, "db", "include_db was false")

	var kinds []string
	for _, p := range res.Pushes {
		data := p["data"].(map[string]any)
		if data["type"] == "action-applied" {
			kinds = append(kinds, "action-applied "+data["action"].(map[string]any)["name"].(string))
		} else {
			kinds = append(kinds, data["text"].(string))
		}
	}
	assert.Equal(t, []string{"action-applied place_order", "action-applied place_order", "action-applied cancel_order",
		"<exit>The task is finished.</exit>"}, kinds)

	assert.True(t, strings.HasPrefix(res.History, "[{'role': 'system', 'content': 'You are the barista"), res.History)
	assert.Contains(t, res.History, `'name': 'EndConversationTool'`)
	assert.Contains(t, res.History, `"order_id":"ORD-002"`)
	assert.Equal(t, "[{'role': 'system', 'content': '"+scenarioPrompt+"'}]", res.AfterReset)

	inlineDB, err := dbhash.Decode([]byte(`{"menu": {"tea": {"name": "Tea", "prices": {"small": 2.0}}}, "orders": {}}`))
	require.NoError(t, err)
	inline, err := dbhash.Hash(inlineDB)
	require.NoError(t, err)
	assert.Equal(t, inline, res.InlineDBHash, "the second scenario starts from its own DB only")
}

// Every agent response of the conversation — the reply to the kickoff,
// and two per tool call (the call, then the answer) — sends one metrics
// event with one tokens entry: NeMo's runner counts the agent's turns by
// them (--min-agent-turns).
func TestMetricsOneTokensEntryPerResponse(t *testing.T) {
	res, err := runScenario(testContext(t), startBot(t), io.Discard)
	require.NoError(t, err)
	entries := 0
	for _, e := range res.Events {
		if e["type"] != "metrics" {
			continue
		}
		tokens := e["data"].(map[string]any)["tokens"].([]any)
		require.Len(t, tokens, 1)
		assert.Equal(t, map[string]any{"prompt_tokens": 0.0, "completion_tokens": 0.0, "total_tokens": 0.0}, tokens[0])
		entries++
	}
	assert.Equal(t, 1+2*len(scenarioTurns), entries)
}

// The frames of two scripted turns (typed text, then a transcription), in
// order, as pipecat's would be: testdata/turn_events.golden and, as bytes,
// turn_frames.golden (-update rewrites them).
func TestScriptedTurnEvents(t *testing.T) {
	ctx := testContext(t)
	h, err := dialHarness(ctx, startBot(t))
	require.NoError(t, err)
	defer h.close()
	_, err = h.request(ctx, "update_system_prompt", map[string]any{"prompt": scenarioPrompt, "tools": scenarioTools, "tool_domain": "coffee"})
	require.NoError(t, err)
	_, err = h.request(ctx, "apply_initialization", map[string]any{"shared_state_init": `{"db_path": "coffee/db.json"}`})
	require.NoError(t, err)
	h.log, h.frames = nil, nil
	_, err = h.say(ctx, scenarioTurns[0])
	require.NoError(t, err)
	_, err = h.transcribe(ctx, `/call order_status {"order_id": "ORD-001"}`)
	require.NoError(t, err)
	golden.Check(t, "testdata/turn_events.golden", []byte(strings.Join(h.log, "\n")+"\n"))
	// The same frames, as bytes, for the Node suite that decodes them with
	// pipecat's own client (clienttest/).
	var b64 strings.Builder
	for _, f := range h.frames {
		b64.WriteString(base64.StdEncoding.EncodeToString(f) + "\n")
	}
	golden.Check(t, "testdata/turn_frames.golden", []byte(b64.String()))
}

// The demo's transcript is stable: testdata/demo.golden (-update rewrites it).
func TestDemo(t *testing.T) {
	var out, errs bytes.Buffer
	require.NoError(t, run([]string{"-demo"}, &out, &errs))
	golden.Check(t, "testdata/demo.golden", out.Bytes())
	assert.Empty(t, errs.String())
}

func TestRefusesNonLoopbackAddresses(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:0", "192.0.2.1:8765", ":8765"} {
		err := run([]string{"-addr", addr}, io.Discard, io.Discard)
		assert.ErrorContains(t, err, "loopback", addr)
	}
}

// startProcess runs the bot's main in a child process (the test binary,
// TestMain) with args and TMPDIR tmp, and returns it with the first line
// it printed (where it listens) and its standard error.
func startProcess(t *testing.T, args, tmp string) (*exec.Cmd, string, *strings.Builder) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "RTVIBOT_TEST_MAIN=1", "RTVIBOT_TEST_ARGS="+args, "TMPDIR="+tmp)
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	stderr := &strings.Builder{}
	cmd.Stderr = stderr
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { cmd.Process.Kill() }) //nolint:errcheck // ends a bot the test failed to stop
	line, err := bufio.NewReader(stdout).ReadString('\n')
	require.NoError(t, err, stderr.String())
	return cmd, line, stderr
}

// With -remote the bot listens on any address and serves a harness that
// names it by a name that is not a loopback one, as a harness outside the
// pod reaches a bot of a pool (deploy/kubernetes). The test binary runs
// the bot's main (TestMain).
func TestRemote(t *testing.T) {
	cmd, line, stderr := startProcess(t, "-remote -addr 0.0.0.0:0", t.TempDir())
	host, port, err := net.SplitHostPort(strings.TrimPrefix(strings.TrimSpace(line), "rtvibot listening on ws://"))
	require.NoError(t, err, line)
	assert.True(t, net.ParseIP(host).IsUnspecified(), "listening on every interface: %s", line)

	ctx := testContext(t)
	c, _, err := websocket.Dial(ctx, "ws://127.0.0.1:"+port, &websocket.DialOptions{Host: "agent-bots-0.agent-bots:8765"})
	require.NoError(t, err, "a Host that is not a loopback name is served")
	h := &harness{c: c}
	defer h.c.CloseNow()
	_, err = h.ready(ctx)
	require.NoError(t, err)

	require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
	require.NoError(t, cmd.Wait(), stderr.String())
}

// Hostile frames: garbage is dropped, the connection and the bot carry on;
// a message over the size limit closes that connection only.
func TestBadFrames(t *testing.T) {
	ctx := testContext(t)
	url := startBot(t)
	h, err := dialHarness(ctx, url)
	require.NoError(t, err)
	defer h.close()
	for _, bad := range [][]byte{{0xff, 0xff}, {0x22, 0x05, 0x0a}, rtvi.MessageFrameBytes([]byte("{not json")), {}} {
		require.NoError(t, h.c.Write(ctx, websocket.MessageBinary, bad))
	}
	// The invalid JSON got an RTVI error event; then a request still works.
	m, _, err := h.read(ctx)
	require.NoError(t, err)
	assert.Equal(t, "error", m["type"])
	m, err = h.request(ctx, "get_scenario_summary", map[string]any{})
	require.NoError(t, err)
	assert.Equal(t, "server-response", m["type"])
	m, err = h.request(ctx, "no_such_message", map[string]any{})
	require.NoError(t, err)
	assert.Equal(t, "unknown message type: no_such_message", m["data"].(map[string]any)["error"])

	big := rtvi.MessageFrameBytes([]byte(`{"label":"rtvi-ai","type":"client-message","id":"x","data":{"t":"reset","d":{"pad":"` +
		strings.Repeat("a", 2<<20) + `"}}}`))
	// The bot closes the connection with 1009 once the frame passes its read
	// limit; depending on timing our write is cut short, or we read the close.
	if err := h.c.Write(ctx, websocket.MessageBinary, big); err == nil {
		_, _, err = h.read(ctx)
		assert.Equal(t, websocket.StatusMessageTooBig, websocket.CloseStatus(err))
	}

	h2, err := dialHarness(ctx, url)
	require.NoError(t, err)
	defer h2.close()
	_, err = h2.ready(ctx)
	require.NoError(t, err, "the bot serves the next connection")
}

func TestRefusesNonLoopbackHosts(t *testing.T) {
	url := startBot(t)
	req, err := http.NewRequest(http.MethodGet, strings.Replace(url, "ws://", "http://", 1), nil)
	require.NoError(t, err)
	req.Host = "attacker.example:8765"
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusForbidden, resp.StatusCode)
	// Which Hosts are loopback names: rtvi/rtviws's TestLoopbackHost.
}

// Tool messages go back on the connection the call came from, even when a
// newer connection is open.
func TestToolMessagesFollowTheirConnection(t *testing.T) {
	ctx := testContext(t)
	url := startBot(t)
	first, err := dialHarness(ctx, url)
	require.NoError(t, err)
	defer first.close()
	_, err = first.request(ctx, "update_system_prompt", map[string]any{"prompt": scenarioPrompt, "tools": scenarioTools, "tool_domain": "coffee"})
	require.NoError(t, err)
	_, err = first.request(ctx, "apply_initialization", map[string]any{"shared_state_init": `{"db_path": "coffee/db.json"}`})
	require.NoError(t, err)
	second, err := dialHarness(ctx, url)
	require.NoError(t, err)
	defer second.close()
	_, err = second.ready(ctx)
	require.NoError(t, err)

	_, err = first.say(ctx, scenarioTurns[0])
	require.NoError(t, err)
	require.Len(t, first.pushes, 1, "the action-applied came back on the first connection")
}

// A get_context_history reply whose JSON is a few bytes under 1 MiB, to a
// harness with the Python bridge's limit (websockets' max_size, 1 MiB per
// frame): the client gets an answer at once — the reply, or an
// error-response saying it is too large — never a frame it must drop.
// Failed before: the reply went out in a frame of 1 MiB + 8 bytes and the
// client's read failed (1009, message too big).
func TestNearLimitReplyReachesA1MiBClient(t *testing.T) {
	ctx := testContext(t)
	h, err := dialHarness(ctx, startBot(t))
	require.NoError(t, err)
	defer h.close() // its read limit is the bridge's, 1 MiB
	_, err = h.request(ctx, "update_system_prompt", map[string]any{"prompt": scenarioPrompt, "tools": scenarioTools, "tool_domain": "coffee"})
	require.NoError(t, err)

	history := func(text string) map[string]any {
		t.Helper()
		m, err := h.request(ctx, "reset", map[string]any{})
		require.NoError(t, err)
		require.Equal(t, "server-response", m["type"])
		_, err = h.say(ctx, text)
		require.NoError(t, err)
		m, err = h.request(ctx, "get_context_history", map[string]any{})
		require.NoError(t, err, "the client reads the answer")
		return m
	}
	small := history("a")
	require.Equal(t, "server-response", small["type"])
	overhead := len(h.log[len(h.log)-1]) - len("message ") - 1
	for _, size := range []int{1<<20 - 8, 1<<20 - 4, 1 << 20} {
		start := time.Now()
		m := history(strings.Repeat("a", size-overhead))
		assert.Less(t, time.Since(start), 5*time.Second)
		if m["type"] == "server-response" {
			continue
		}
		assert.Equal(t, "error-response", m["type"])
		assert.Contains(t, m["data"].(map[string]any)["error"], "larger than the 1048576-byte limit")
	}
}
