package agent_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/agent"
	"github.com/voiceeval/schematools/internal/pyjson"
	"github.com/voiceeval/schematools/internal/pyvalue"
	"github.com/voiceeval/schematools/rtvi"
	"github.com/voiceeval/schematools/rtvi/rtviws"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

// -update rewrites testdata/context from the Go side. The truth is
// pipecat's: testdata/pipecat_oracle.py regenerates the files from
// pipecat 1.6.0 itself, and this test must then pass unchanged.
var update = flag.Bool("update", false, "rewrite testdata/context from the Go side")

// contextCase is one case of testdata/context_cases.json.
type contextCase struct {
	Name   string `json:"name"`
	System string `json:"system"`
	Turns  []struct {
		User      string `json:"user"`
		Responses []struct {
			Text  []string `json:"text"`
			Calls []struct {
				ID        string          `json:"id"`
				Name      string          `json:"name"`
				Arguments string          `json:"arguments"`
				Result    json.RawMessage `json:"result"`     // what pipecat is handed
				RawResult json.RawMessage `json:"raw_result"` // what the Go tool returns, when the live path wraps it
				Cancelled bool            `json:"cancelled"`
			} `json:"calls"`
		} `json:"responses"`
	} `json:"turns"`
}

func loadCases(t testing.TB) []contextCase {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "context_cases.json"))
	require.NoError(t, err)
	var cases []contextCase
	require.NoError(t, json.Unmarshal(data, &cases))
	return cases
}

// fixture is a tool answering from a case's results, looked up by its
// arguments (sorted compact JSON).
type fixture struct {
	name    string
	results map[string]any
	block   bool // wait for the turn to be cancelled
	onBlock func()
}

func (f *fixture) Name() string               { return f.name }
func (f *fixture) Description() string        { return "fixture" }
func (f *fixture) Properties() map[string]any { return map[string]any{} }
func (f *fixture) Required() []string         { return []string{} }
func (f *fixture) Execute(ctx context.Context, args map[string]any) (any, error) {
	if f.block {
		f.onBlock()
		<-ctx.Done()
		return nil, ctx.Err()
	}
	key, err := pyjson.Marshal(args, pyjson.Compact)
	if err != nil {
		return nil, err
	}
	r, ok := f.results[string(key)]
	if !ok {
		return nil, fmt.Errorf("fixture %s: no result for %s", f.name, key)
	}
	return r, nil
}

// runCase drives the loop through a case with a scripted model and
// returns the context.
func runCase(t *testing.T, c contextCase) *agent.Context {
	t.Helper()
	fixtures := map[string]*fixture{}
	conv := agent.NewContext(agent.Message{Role: agent.RoleSystem, Content: c.System})
	var responses [][]agent.Response
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	for _, turn := range c.Turns {
		var rs []agent.Response
		for _, r := range turn.Responses {
			resp := agent.Response{}
			for _, s := range r.Text {
				resp.Text += s
			}
			for _, call := range r.Calls {
				resp.Calls = append(resp.Calls, tool.ModelCall{ID: call.ID, Name: call.Name, Arguments: call.Arguments})
				if call.Name == "EndConversationTool" { // the Loop's default end tool
					continue
				}
				f := fixtures[call.Name]
				if f == nil {
					f = &fixture{name: call.Name, results: map[string]any{}}
					fixtures[call.Name] = f
				}
				if call.Cancelled {
					// Cancel the turn once the other calls are answered.
					f.block, f.onBlock = true, func() {
						for inProgress(conv) > 1 {
							time.Sleep(time.Millisecond)
						}
						cancel()
					}
					continue
				}
				args, err := tool.DecodeArgs([]byte(call.Arguments))
				require.NoError(t, err)
				key, err := pyjson.Marshal(args, pyjson.Compact)
				require.NoError(t, err)
				raw := call.Result
				if call.RawResult != nil {
					raw = call.RawResult
				}
				v, err := pyvalue.Loads(raw)
				require.NoError(t, err)
				if d, ok := v.(pyvalue.Dict); ok && len(d) == 0 {
					v = map[string]any{} // what a tool returns for {}
				}
				f.results[string(key)] = v
			}
			rs = append(rs, resp)
		}
		responses = append(responses, rs)
	}
	tools := tool.Harness(state.New(), nil)[:1]
	for _, f := range fixtures {
		tools = append(tools, f)
	}
	set, err := tool.NewSet(tools...)
	require.NoError(t, err)

	var mu sync.Mutex
	turn, step := 0, 0
	model := agent.ModelFunc(func(context.Context, agent.Request) (agent.Response, error) {
		mu.Lock()
		defer mu.Unlock()
		r := responses[turn][step]
		step++
		return r, nil
	})
	loop := &agent.Loop{Model: model, Tools: set, Context: conv, CallTimeout: 5 * time.Second}
	for i, tr := range c.Turns {
		mu.Lock()
		turn, step = i, 0
		mu.Unlock()
		_, err := loop.Turn(ctx, tr.User)
		if ctx.Err() != nil {
			require.ErrorIs(t, err, context.Canceled)
			break
		}
		require.NoError(t, err)
		assert.Equal(t, len(tr.Responses), step, "turn %d: model calls", i)
	}
	return conv
}

// TestContextMatchesPipecat checks the context the loop builds against
// what pipecat 1.6.0's own aggregator builds for the same model outputs
// (testdata/pipecat_oracle.py), byte for byte, message by message; and
// the get_context_history answer rtvi builds from it against pipecat's
// str() of its messages.
func TestContextMatchesPipecat(t *testing.T) {
	for _, c := range loadCases(t) {
		t.Run(c.Name, func(t *testing.T) {
			conv := runCase(t, c)
			var got bytes.Buffer
			for _, m := range conv.Messages() {
				b, err := m.MarshalJSON()
				require.NoError(t, err)
				got.Write(b)
				got.WriteByte('\n')
			}
			history := historyOf(t, conv)
			base := filepath.Join("testdata", "context", c.Name)
			if *update {
				require.NoError(t, os.WriteFile(base+".jsonl", got.Bytes(), 0o644))
				require.NoError(t, os.WriteFile(base+".history.txt", []byte(history), 0o644))
				return
			}
			want, err := os.ReadFile(base + ".jsonl")
			require.NoError(t, err)
			assert.Equal(t, string(want), got.String())
			wantHistory, err := os.ReadFile(base + ".history.txt")
			require.NoError(t, err)
			assert.Equal(t, string(wantHistory), history)
			assert.False(t, conv.CallsInProgress())
		})
	}
}

// historyOf asks an rtvi Dispatcher holding conv for get_context_history
// and returns the context text it answers.
func historyOf(t testing.TB, conv *agent.Context) string {
	t.Helper()
	d := rtvi.NewDispatcher(rtvi.Config{Conversation: rtviws.NewConversation(conv)})
	raw, err := json.Marshal(map[string]any{"label": "rtvi-ai", "type": "client-message", "id": "h1",
		"data": map[string]any{"t": "get_context_history"}})
	require.NoError(t, err)
	reply, err := d.Handle(context.Background(), raw)
	require.NoError(t, err)
	var m struct {
		Type string `json:"type"`
		Data struct {
			D struct {
				Context string `json:"context"`
			} `json:"d"`
		} `json:"data"`
	}
	require.NoError(t, json.Unmarshal(reply, &m), "%s", reply)
	require.Equal(t, "server-response", m.Type, "%s", reply)
	return m.Data.D.Context
}

// inProgress counts the tool messages still "IN_PROGRESS".
func inProgress(c *agent.Context) int {
	n := 0
	for _, m := range c.Messages() {
		if m.Role == agent.RoleTool && m.Content == "IN_PROGRESS" {
			n++
		}
	}
	return n
}
