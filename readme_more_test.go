//lint:file-ignore SA4006 the README's snippets are quoted as written, errors ignored between lines as a reader would write them

package schematools_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/calltest"
	"github.com/voiceeval/schematools/dbhash"
	"github.com/voiceeval/schematools/domains/coffee"
	"github.com/voiceeval/schematools/registry"
	"github.com/voiceeval/schematools/replay"
	"github.com/voiceeval/schematools/rtvi"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
	"github.com/voiceeval/schematools/tool/schema"
)

// Every ```go block of the README stands, line for line (white space
// folded), in this package's tests: each snippet compiles and runs.
func TestReadmeSnippetsAreHeldByTests(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	require.NoError(t, err)
	var tests strings.Builder
	for _, name := range []string{"readme_test.go", "readme_more_test.go"} {
		b, err := os.ReadFile(name)
		require.NoError(t, err)
		tests.Write(b)
	}
	held := foldedLines(tests.String())
	var blocks [][]string
	var cur []string
	in := false
	sc := bufio.NewScanner(strings.NewReader(string(readme)))
	for sc.Scan() {
		line := sc.Text()
		switch {
		case !in && strings.HasPrefix(line, "```go"):
			in, cur = true, nil
		case in && strings.HasPrefix(line, "```"):
			in = false
			blocks = append(blocks, cur)
		case in:
			if f := fold(line); f != "" {
				cur = append(cur, f)
			}
		}
	}
	require.GreaterOrEqual(t, len(blocks), 8)
	for i, block := range blocks {
		at := 0
		for _, line := range block {
			j := indexFrom(held, at, line)
			if !assert.GreaterOrEqual(t, j, 0, "README block %d: line not found (in order) in the readme tests: %s", i+1, line) {
				break
			}
			at = j + 1
		}
	}
}

func fold(s string) string { return strings.Join(strings.Fields(s), " ") }

func foldedLines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		out = append(out, fold(l))
	}
	return out
}

func indexFrom(lines []string, from int, want string) int {
	for i := from; i < len(lines); i++ {
		if lines[i] == want {
			return i
		}
	}
	return -1
}

// The README's registry snippet: kwargs decoded per tool, the harness
// tools found through the default domain.
func TestReadmeRegistry(t *testing.T) {
	st := state.New()
	st.SetDB(coffee.DB())
	// --- README ---
	reg := new(registry.Tools)
	registry.RegisterHarness(reg) // EndConversationTool, TransferToHumanAgentsTool, SendScenarioSummaryTool
	reg.Register("coffee", "get_menu", registry.Configured(func(d registry.Deps, o coffee.MenuOptions) (tool.Tool, error) {
		return coffee.NewGetMenuWith(o, &tool.Options{State: d.State}) // o decoded strictly from the spec's kwargs
	}))

	set, err := reg.NewSet("coffee", []registry.ToolSpec{ // built in this order, as the Python bot builds them
		{Name: "get_menu", Args: map[string]any{"items": []any{"latte"}}}, // per-scenario kwargs
		{Name: "EndConversationTool"},                                     // falls back to "default", with a logged warning
	}, registry.Deps{State: st})
	// --- end ---
	require.NoError(t, err)
	assert.ElementsMatch(t, []string{"get_menu", "EndConversationTool"}, names(set.Tools()))
}

func names(tools []tool.Tool) []string {
	var out []string
	for _, tl := range tools {
		out = append(out, tl.Name())
	}
	return out
}

// The README's hashing snippet.
func TestReadmeHashing(t *testing.T) {
	st := state.New()
	st.SetDB(map[string]any{"orders": map[string]any{"O1": map[string]any{"total": 1.0}}})
	data := []byte(`{"orders": {"O1": {"total": 1}}}`)
	db := st.Snapshot()
	expectedDB, actualDB := db, map[string]any{"orders": map[string]any{}}
	// --- README ---
	h, err := dbhash.Hash(st.Snapshot())      // the bot's DB
	v, err := dbhash.Decode(data)             // raw JSON, read as Python's json.loads reads it
	h, err = dbhash.Hash(v)                   // so hashed as Python hashes it
	b, err := dbhash.Canonical(db)            // the exact bytes hashed
	d := dbhash.Compare(expectedDB, actualDB) // why two hashes differ: compute_db_diff's shape
	// --- end ---
	require.NoError(t, err)
	plain, err := dbhash.Hash(db)
	require.NoError(t, err)
	assert.Equal(t, plain, h, "1.0 and 1 hash alike")
	assert.Equal(t, `{"orders":{"O1":{"total":1}}}`, string(b))
	assert.False(t, d.Empty())
}

// The README's gold replay snippet.
func TestReadmeGoldReplay(t *testing.T) {
	ctx := context.Background()
	tasks, err := replay.DecodeTasks([]byte(`[{"id": "t1", "evaluation_criteria": {"actions": [
		{"action_id": "a1", "name": "place_order", "arguments": {"customer": "Ada", "items": [{"item_id": "latte", "size": "large", "quantity": 1}]}}]}}]`))
	require.NoError(t, err)
	task := tasks[0]
	// --- README ---
	reg := new(registry.Tools)
	coffee.Register(reg)
	res, err := replay.Gold(ctx, replay.Scenario{
		Domain: coffee.Domain,
		Task:   task,                         // tau2 format: replay.DecodeTasks(tasks.json's bytes)
		DB:     state.NewSource(coffee.DB()), // a private copy, shared by many replays, never modified
		Tools:  replay.RegistryTools(reg, coffee.Domain, nil),
	})
	fmt.Println(res.DBHash) // compare with the agent bot's dbhash.Hash
	// --- end ---
	require.NoError(t, err)
	assert.Len(t, res.DBHash, 64)
	assert.Empty(t, res.Errors)
}

// fakeConn stands for a websocket connection: it reads the frames given
// and keeps what is written.
type fakeConn struct {
	in  [][]byte
	out [][]byte
}

func (c *fakeConn) Read(context.Context) (websocket.MessageType, []byte, error) {
	if len(c.in) == 0 {
		return 0, nil, io.EOF
	}
	f := c.in[0]
	c.in = c.in[1:]
	return websocket.MessageBinary, f, nil
}

func (c *fakeConn) Write(_ context.Context, _ websocket.MessageType, b []byte) error {
	c.out = append(c.out, b)
	return nil
}

type fakeConversation struct{ messages []any }

func (f *fakeConversation) Reset(_ context.Context, ms []rtvi.ChatMessage) error {
	f.messages = nil
	for _, m := range ms {
		f.messages = append(f.messages, m)
	}
	return nil
}

func (f *fakeConversation) Messages(context.Context) ([]any, error) { return f.messages, nil }

type fakeLLM struct{ tools []string }

func (f *fakeLLM) InstallTools(_ context.Context, set *tool.Set) error {
	f.tools = names(set.Tools())
	return nil
}

// The README's bot snippet: a dispatcher over a connection, driven by
// the read loop as written there.
func TestReadmeDispatcher(t *testing.T) {
	ctx := context.Background()
	reg := new(registry.Tools)
	require.NoError(t, coffee.Register(reg))
	myContext, myLLM := &fakeConversation{}, &fakeLLM{}
	var tracker rtvi.CallTracker
	conn := &fakeConn{in: [][]byte{
		rtvi.MessageFrameBytes([]byte(`{"label": "rtvi-ai", "type": "client-message", "id": "1", "data": {"t": "update_system_prompt",
			"d": {"prompt": "You sell coffee.", "tool_domain": "coffee", "tools": "{\"get_menu\": {}}"}}}`)),
	}}
	connOf := func(context.Context) *fakeConn { return conn }
	serve := func() error {
		// --- README ---
		st := state.New()
		d := rtvi.NewDispatcher(rtvi.Config{
			State:        st,
			Tools:        reg,       // update_system_prompt builds each scenario's tools from it
			Conversation: myContext, // Reset(ctx, []rtvi.ChatMessage), Messages(ctx)
			Installer:    myLLM,     // InstallTools(ctx, *tool.Set); nil turns tool calling off
			InFlight:     &tracker,  // an rtvi.CallTracker wrapped around each tool call
			DataRoot:     os.Getenv("EVAL_DATA_ROOT"),
			Send: func(ctx context.Context, msg []byte) error { // action-applied and <exit> pushes
				return connOf(ctx).Write(ctx, websocket.MessageBinary, rtvi.MessageFrameBytes(msg))
			},
		})
		// One dispatcher for the bot's whole life (the harness connects twice per
		// scenario); for each connection, a read loop that handles messages in order:
		for {
			_, frame, err := conn.Read(ctx)
			if err != nil {
				return err
			}
			if reply, _ := d.HandleFrame(ctx, frame); reply != nil {
				conn.Write(ctx, websocket.MessageBinary, reply)
			}
		}
		// --- end ---
	}
	require.ErrorIs(t, serve(), io.EOF)
	require.Len(t, conn.out, 1, "one reply")
	assert.Equal(t, []string{"get_menu"}, myLLM.tools)
	assert.Len(t, myContext.messages, 1, "the system prompt")
}

// The README's server events snippet.
func TestReadmeEmitter(t *testing.T) {
	ctx := context.Background()
	var sent []string
	send := func(_ context.Context, msg []byte) error { sent = append(sent, string(msg)); return nil }
	p, c, text := 12, 3, "Hello!"
	// --- README ---
	events := &rtvi.Emitter{Send: send} // the dispatcher's Send
	events.LLMResponse(ctx, rtvi.Usage{PromptTokens: p, CompletionTokens: c, TotalTokens: p + c}, text)
	events.Say(ctx, text) // bot-started-speaking, bot-tts-text, bot-stopped-speaking
	// --- end ---
	joined := strings.Join(sent, "\n")
	for _, typ := range []string{"bot-llm-started", "bot-llm-text", "bot-llm-stopped", "metrics", "bot-started-speaking", "bot-tts-text", "bot-stopped-speaking"} {
		assert.Contains(t, joined, `"type": "`+typ+`"`)
	}
}

// The README's export and dispatch snippet.
func TestReadmeExports(t *testing.T) {
	ctx := context.Background()
	st := state.New()
	st.SetDB(coffee.DB())
	menu, err := coffee.NewGetMenu(&tool.Options{State: st})
	require.NoError(t, err)
	set, err := tool.NewSet(menu)
	require.NoError(t, err)
	// --- README ---
	tools := set.Tools()
	openai, err := schema.OpenAI(tools, &schema.Options{Strict: true}) // Chat Completions; schema.OpenAIResponses for Responses
	anthropic, err := schema.Anthropic(tools, nil)                     // {name, description, input_schema}
	gemini, removed, err := schema.Gemini(tools)                       // functionDeclarations, and the keywords dropped

	var results []any
	err = set.CallJSON(ctx, "get_menu", []byte("{}"), func(result any) error { results = append(results, result); return nil }, nil)
	// --- end ---
	require.NoError(t, err)
	assert.Len(t, openai, 1)
	assert.Len(t, anthropic, 1)
	assert.Contains(t, string(gemini), `"get_menu"`)
	assert.Empty(t, removed)
	require.Len(t, results, 1)
	assert.False(t, tool.IsError(results[0]))
}

// The README's tool-call test snippet.
func TestReadmeCalltest(t *testing.T) {
	ctx := context.Background()
	raw := []byte(`{"party_size": 6, "time": "20:00"}`)
	agent := calltest.Agent(func(ctx context.Context, history []calltest.Turn) (calltest.Step, error) {
		args, err := tool.DecodeArgs(raw)
		return calltest.Step{Calls: []calltest.Call{{Name: "book_table", Arguments: args}}}, err
	})
	// --- README ---
	test := calltest.Test{
		History: []calltest.Turn{{Role: "user", Message: "A table for six at eight, please."}},
		Expect: []calltest.Expectation{
			{Tool: "book_table", Params: []calltest.ParamCheck{calltest.Equals("party_size", 6), calltest.Matches("time", "^20:00$")}},
			{Tool: "transfer_to_human_agents", Absent: true},
		},
	}
	args, err := tool.DecodeArgs(raw) // the model's argument JSON, as the tools read it
	step := calltest.Step{Calls: []calltest.Call{{Name: "book_table", Arguments: args}}}
	calltest.Require(t, test, step, nil)                      // in a Go test: a readable failure
	res, err := calltest.Check(ctx, test, step, nil)          // or a Result with a reason per check
	rep, err := calltest.Repeat(ctx, agent, test, 20, 4, nil) // pass^k, pass@k, Wilson interval, failures grouped
	// --- end ---
	require.NoError(t, err)
	assert.Equal(t, "pass", string(res.Status))
	assert.Equal(t, 1.0, rep.PassHatK(20))
}
