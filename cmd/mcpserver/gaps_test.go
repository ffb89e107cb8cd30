package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/domains"
	"github.com/voiceeval/schematools/internal/clip"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

// connect serves domain name on an in-memory transport and returns the
// client session.
func connect(t *testing.T, name string) *mcp.ClientSession {
	t.Helper()
	d, err := domains.Find(name)
	require.NoError(t, err)
	server, err := newServer(state.New(), d, "")
	require.NoError(t, err)
	ctx := context.Background()
	clientT, serverT := mcp.NewInMemoryTransports()
	ss, err := server.Connect(ctx, serverT, nil)
	require.NoError(t, err)
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "v0"}, nil).Connect(ctx, clientT, nil)
	require.NoError(t, err)
	t.Cleanup(func() { cs.Close() })
	return cs
}

// The MCP input schema says what the tool does with an unknown key: for
// every tool of every domain, "additionalProperties": false exactly when a
// call with an unknown key is refused naming that key; otherwise the
// schema is tool.Schema's parameters object, unchanged.
func TestInputSchemaSaysWhetherUnknownKeysAreRefused(t *testing.T) {
	const key = "an_unknown_key"
	closedCount := map[string]int{}
	for _, name := range domains.Names() {
		t.Run(name, func(t *testing.T) {
			cs := connect(t, name)
			ctx := context.Background()
			list, err := cs.ListTools(ctx, nil)
			require.NoError(t, err)
			for _, tl := range list.Tools {
				schema, err := json.Marshal(tl.InputSchema)
				require.NoError(t, err)
				var m map[string]any
				require.NoError(t, json.Unmarshal(schema, &m))
				closed := m["additionalProperties"] == false
				res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tl.Name, Arguments: map[string]any{key: 1}})
				require.NoError(t, err)
				txt := text(t, res)
				refused := res.IsError && strings.Contains(txt, key) &&
					(strings.Contains(txt, "extra_forbidden") || strings.Contains(txt, "unexpected keyword argument"))
				assert.Equal(t, refused, closed, "%s %s: schema %s, answer %s", name, tl.Name, schema, txt)
				if closed {
					closedCount[name]++
				}
			}
		})
	}
	assert.Equal(t, 4, closedCount["coffee"], "coffee's typed tools refuse unknown keys")
	assert.Equal(t, 43, closedCount["tau2_telecom"])
	assert.Zero(t, closedCount["eva_airline"], "NeMo's eva_airline tools ignore extras")
}

// The MCP presentation adds only the flag: the rest is the model-facing
// schema, byte for byte, properties in field order.
func TestInputSchemaIsToolSchema(t *testing.T) {
	type params struct {
		Name string `json:"name" jsonschema_description:"a name"`
		ID   string `json:"id" jsonschema_description:"an id"`
	}
	tl, err := tool.New("find", "finds", func(context.Context, *state.Shared, params) (any, error) { return nil, nil }, nil)
	require.NoError(t, err)
	model, err := json.Marshal(tool.Schema(tl).Parameters)
	require.NoError(t, err)
	open, err := inputSchema(tl, false)
	require.NoError(t, err)
	assert.Equal(t, string(model), string(open))
	closed, err := inputSchema(tl, true)
	require.NoError(t, err)
	assert.Equal(t, strings.TrimSuffix(string(model), "}")+`,"additionalProperties":false}`, string(closed))
	assert.True(t, strings.HasPrefix(string(closed), `{"type":"object","properties":{"name":`), string(closed))
}

// A 10 MiB argument is answered with a bounded error: a not-found result,
// an unknown key, and the SDK's protocol error for an unknown tool name.
func TestErrorsEchoingAHugeArgumentAreBounded(t *testing.T) {
	cs := connect(t, "coffee")
	ctx := context.Background()
	big := strings.Repeat("x", 10<<20)
	for _, args := range []map[string]any{{"order_id": big}, {"order_id": "ORD-1", big: 1}} {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "order_status", Arguments: args})
		require.NoError(t, err)
		assert.True(t, res.IsError)
		assert.Less(t, len(text(t, res)), 4*clip.Max)
	}
	_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: big, Arguments: map[string]any{}})
	require.Error(t, err)
	assert.Less(t, len(err.Error()), 2*clip.Max)
	assert.Contains(t, err.Error(), "unknown tool")
}

// A malformed line on stdin is answered with a JSON-RPC -32700 Parse error
// (id null) and the session goes on; so is a line that is JSON but no
// JSON-RPC message (-32600).
func TestMalformedLineIsAnsweredAndTheSessionGoesOn(t *testing.T) {
	d, err := domains.Find("coffee")
	require.NoError(t, err)
	server, err := newServer(state.New(), d, "")
	require.NoError(t, err)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- server.Run(ctx, guardedStdio(inR, outW)) }()
	lines := make(chan string, 16)
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	next := func() map[string]any {
		t.Helper()
		select {
		case l, ok := <-lines:
			require.True(t, ok, "the server closed its output")
			var m map[string]any
			require.NoError(t, json.Unmarshal([]byte(l), &m), l)
			return m
		case err := <-done:
			t.Fatalf("the session ended: %v", err)
		case <-time.After(5 * time.Second):
			t.Fatal("no answer")
		}
		return nil
	}
	send := func(s string) {
		_, err := io.WriteString(inW, s+"\n")
		require.NoError(t, err)
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`)
	assert.EqualValues(t, 1, next()["id"])
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	for _, bad := range []struct {
		line string
		code float64
	}{{`not json`, -32700}, {`{"jsonrpc":"2.0","id":7,"method":"tools/list"`, -32700}, {`{} {}`, -32700}, {`{"hello":1}`, -32600}, {`42`, -32600}, {`[]`, -32600}} {
		send(bad.line)
		m := next()
		assert.Nil(t, m["id"], bad.line)
		assert.Contains(t, m, "id")
		e, _ := m["error"].(map[string]any)
		assert.Equal(t, bad.code, e["code"], bad.line)
	}
	send(``)
	send(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	m := next()
	assert.EqualValues(t, 2, m["id"])
	assert.Contains(t, m, "result")
	require.NoError(t, inW.Close())
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("the session did not end at the end of input")
	}
}

// An error result of NeMo's ordered-dict type is an isError result too:
// customer_service's {"error": "Account '…' not found."}.
func TestOrderedDictErrorIsAnErrorResult(t *testing.T) {
	cs := connect(t, "customer_service")
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "LookupAccountTool", Arguments: map[string]any{"account_id": "nobody"}})
	require.NoError(t, err)
	assert.Equal(t, `{"error":"Account 'nobody' not found."}`, text(t, res))
	assert.True(t, res.IsError)
	res, err = cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "ResolveTicketTool", Arguments: map[string]any{
		"account_id": "A1", "issue_summary": "s", "resolution_type": "fixed", "resolution_details": "d"}})
	require.NoError(t, err)
	assert.False(t, res.IsError, text(t, res))
}

// A large frame's memory is handed back to the operating system once the
// SDK has answered it (once per answer, not per write; small frames never
// trigger it). Without it, eight 16 MiB calls in a row left the process at
// its peak (about 200 MiB here, 394 MiB measured with the calls)
// for minutes; with it, 83 MiB a fifth of a second after the answers.
func TestLargeFramesAreHandedBack(t *testing.T) {
	var freed atomic.Int32
	large := &largeFrames{free: func() { freed.Add(1) }}
	var out bytes.Buffer
	w := &lockedWriter{w: &out, large: large}
	big := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_menu","arguments":{"pad":"` + strings.Repeat("a", largeFrameBytes) + `"}}}`
	small := `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`
	var sdk bytes.Buffer
	require.NoError(t, guardFrames(strings.NewReader(small+"\n"), &sdk, w, maxFrame, large))
	_, err := w.Write([]byte("{}\n"))
	require.NoError(t, err)
	time.Sleep(2 * returnDelay)
	assert.Zero(t, freed.Load(), "a small frame keeps nothing worth returning")

	require.NoError(t, guardFrames(strings.NewReader(big+"\n"+small+"\n"), &sdk, w, maxFrame, large))
	assert.Equal(t, small+"\n"+big+"\n"+small+"\n", sdk.String(), "frames pass unchanged")
	assert.Zero(t, freed.Load(), "not before the answer")
	for range 3 {
		_, err := w.Write([]byte("{}\n"))
		require.NoError(t, err)
	}
	require.Eventually(t, func() bool { return freed.Load() == 1 }, 5*time.Second, 10*time.Millisecond)
	time.Sleep(2 * returnDelay)
	assert.EqualValues(t, 1, freed.Load(), "once per answered batch of frames")
}
