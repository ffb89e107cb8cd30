package providertest

import (
	"context"
	"encoding/json"
	"io/fs"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/voiceeval/schematools/agent"
	"github.com/voiceeval/schematools/agent/agenttest"
	"github.com/voiceeval/schematools/domains"
	"github.com/voiceeval/schematools/provider/anthropic"
	"github.com/voiceeval/schematools/provider/gemini"
	"github.com/voiceeval/schematools/provider/openai"
	"github.com/voiceeval/schematools/replay"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

// adapter makes a model of one adapter for a stand-in at url.
type adapter struct {
	dialect string
	model   func(t *testing.T, url string, stream bool) agent.Model
}

var adapters = []adapter{
	{"openai", func(t *testing.T, url string, stream bool) agent.Model {
		opts := &openai.Options{BaseURL: url + "/v1", APIKey: "k"}
		if !stream {
			opts.NoStreaming = true
		}
		return openai.New("standin", opts)
	}},
	{"anthropic", func(t *testing.T, url string, stream bool) agent.Model {
		opts := &anthropic.Options{BaseURL: url, APIKey: "k"}
		if !stream {
			opts.NoStreaming = true
		}
		return anthropic.New("standin", opts)
	}},
	{"gemini", func(t *testing.T, url string, stream bool) agent.Model {
		opts := &gemini.Options{BaseURL: url, APIKey: "k", RetryDelay: time.Millisecond}
		if !stream {
			opts.NoStreaming = true
		}
		m, err := gemini.New(context.Background(), "standin", opts)
		require.NoError(t, err)
		return m
	}},
}

// retail is tau2 retail: its tasks, its DB and gold replay's final hashes.
type retail struct {
	d     domains.Domain
	src   *state.Source
	tasks []replay.Task
	want  map[string]string
}

func loadRetail(t *testing.T) *retail {
	t.Helper()
	d, err := domains.Find("tau2_retail")
	require.NoError(t, err)
	data, err := fs.ReadFile(d.Files, "tasks.json")
	require.NoError(t, err)
	tasks, err := replay.DecodeTasks(data)
	require.NoError(t, err)
	db, err := d.LoadDB()
	require.NoError(t, err)
	r := &retail{d: d, src: state.NewSource(db), want: map[string]string{}}
	for _, task := range tasks {
		if task.EvaluationCriteria != nil && len(task.EvaluationCriteria.Actions) >= 2 && len(r.tasks) < 4 {
			r.tasks = append(r.tasks, task)
		}
	}
	scenarios := make([]replay.Scenario, len(r.tasks))
	for i, task := range r.tasks {
		scenarios[i] = replay.Scenario{Domain: d.Name, Task: task, DB: r.src, Tools: d.Replay, HashesOnly: true}
	}
	results, err := replay.GoldAll(context.Background(), scenarios, 0, nil)
	require.NoError(t, err)
	for _, res := range results {
		r.want[res.TaskID] = res.DBHash
	}
	return r
}

// env is one conversation's state and tools, as gold replay builds them.
func (r *retail) env(t *testing.T) (*state.Shared, *tool.Set, map[string]string) {
	t.Helper()
	st := state.New()
	require.NoError(t, st.Seed(state.Seed{Domain: r.d.Name}, nil))
	st.Share(r.src)
	tools, err := r.d.Replay(replay.Env{Domain: r.d.Name, Agent: st, Clock: replay.FixedClock(time.Date(2025, time.February, 25, 0, 0, 0, 0, time.UTC)), IDs: replay.CounterIDs("id-")})
	require.NoError(t, err)
	keys := make([]string, 0, len(tools))
	for k := range tools {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	names := map[string]string{}
	list := make([]tool.Tool, 0, len(keys))
	for _, k := range keys {
		list = append(list, tools[k])
		names[k] = tools[k].Name()
	}
	for _, h := range tool.Harness(st, nil) {
		if !slices.ContainsFunc(list, func(x tool.Tool) bool { return x.Name() == h.Name() }) {
			list = append(list, h)
		}
	}
	set, err := tool.NewSet(list...)
	require.NoError(t, err)
	return st, set, names
}

// goldCalls are a task's agent-side gold actions as model calls.
func goldCalls(t *testing.T, task replay.Task, names map[string]string) []tool.ModelCall {
	t.Helper()
	var out []tool.ModelCall
	for _, a := range task.EvaluationCriteria.Actions {
		if a.Requestor != nil && *a.Requestor == "user" {
			continue
		}
		args, err := json.Marshal(a.Arguments)
		require.NoError(t, err)
		if a.Arguments == nil {
			args = []byte("{}")
		}
		require.Contains(t, names, a.Name)
		out = append(out, tool.ModelCall{Name: names[a.Name], Arguments: string(args)})
	}
	return out
}

// outcome is what a conversation did, with nothing adapter-specific in
// it: each call's name, arguments (keys sorted) and result, in order, the
// final text, and the DB hash.
type outcome struct {
	Calls  [][3]string
	Text   string
	Ended  bool
	DBHash string
}

func canonical(t *testing.T, s string) string {
	t.Helper()
	var v any
	if strings.TrimSpace(s) == "" {
		s = "{}" // as the context reads it
	}
	require.NoError(t, json.Unmarshal([]byte(s), &v), "%s", s)
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

// play runs turns on one adapter through agent.Loop.
func play(t *testing.T, a adapter, stream bool, turns []agenttest.Turn, st *state.Shared, set *tool.Set) outcome {
	t.Helper()
	s := agenttest.New(turns...)
	s.Dialect = a.dialect
	srv := httptest.NewServer(s)
	defer srv.Close()
	loop := &agent.Loop{Model: a.model(t, srv.URL, stream), Tools: set, Context: agent.NewContext(agent.Message{Role: agent.RoleSystem, Content: "You are a retail agent."})}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := loop.Turn(ctx, "Hello")
	require.NoError(t, err)
	var out outcome
	for _, c := range res.Calls {
		out.Calls = append(out.Calls, [3]string{c.Name, canonical(t, c.Arguments), c.Content})
	}
	for _, r := range res.Responses {
		if r.Text != "" {
			out.Text = r.Text
		}
	}
	out.Ended = res.Ended
	out.DBHash, err = st.Hash()
	require.NoError(t, err)
	// Every call of the context is answered, in pairs.
	msgs := loop.Context.Messages()
	for i, m := range msgs {
		if len(m.ToolCalls) > 0 {
			require.Equal(t, m.ToolCalls[0].ID, msgs[i+1].ToolCallID)
		}
	}
	return out
}

// The same scripts, on all three adapters, streaming and not, reach the
// same calls, results and DB hash — for a gold task, the hash of its gold
// replay.
func TestAdaptersAgree(t *testing.T) {
	r := loadRetail(t)
	require.NotEmpty(t, r.tasks)
	type script struct {
		name  string
		turns func(names map[string]string) []agenttest.Turn
		hash  string // the DB hash to reach; "" for the DB unchanged
	}
	var scripts []script
	for _, task := range r.tasks {
		scripts = append(scripts, script{name: "gold task " + task.ID, hash: r.want[task.ID], turns: func(names map[string]string) []agenttest.Turn {
			turns := agenttest.GoldTurns(goldCalls(t, task, names), "EndConversationTool")
			for i := range turns {
				turns[i].Thinking = "Next step of the plan." // signatures must travel back
				turns[i].Piece = 5
			}
			return turns
		}})
	}
	task := r.tasks[0]
	scripts = append(scripts,
		script{name: "reads in parallel", turns: func(names map[string]string) []agenttest.Turn {
			var calls []tool.ModelCall
			for i, c := range goldCalls(t, task, names) {
				if c.Name == names["get_order_details"] || c.Name == names["get_user_details"] || c.Name == names["find_user_id_by_name_zip"] || c.Name == names["get_product_details"] {
					calls = append(calls, tool.ModelCall{ID: "p" + string(rune('a'+i)), Name: c.Name, Arguments: c.Arguments})
				}
			}
			calls = append(calls, tool.ModelCall{ID: "p0", Name: names["list_all_product_types"], Arguments: "{}"})
			return []agenttest.Turn{{Thinking: "All at once.", Calls: calls}, {Text: "Here is what I found."}}
		}},
		script{name: "faults: retried errors, a zero-argument call, an unknown tool", turns: func(names map[string]string) []agenttest.Turn {
			return []agenttest.Turn{
				{Calls: []tool.ModelCall{{ID: "z", Name: names["list_all_product_types"], Arguments: ""}}, Fault: agenttest.Fault{Fail: []int{429, 503}, RetryAfter: "0"}},
				{Calls: []tool.ModelCall{{ID: "u", Name: "no_such_tool", Arguments: `{"a": 1}`}}, Fault: agenttest.Fault{Fail: []int{500}}},
				{Text: "Sorry, one moment.", Calls: []tool.ModelCall{{ID: "e", Name: "EndConversationTool", Arguments: "{}"}}},
			}
		}},
	)
	changed := 0 // gold tasks whose DB the calls changed
	for _, sc := range scripts {
		t.Run(sc.name, func(t *testing.T) {
			var first *outcome
			for _, a := range adapters {
				for _, stream := range []bool{true, false} {
					st, set, names := r.env(t)
					before, err := st.Hash()
					require.NoError(t, err)
					got := play(t, a, stream, sc.turns(names), st, set)
					want := sc.hash
					if want == "" {
						want = before
					}
					assert.Equal(t, want, got.DBHash, "%s stream=%v", a.dialect, stream)
					if got.DBHash != before && first == nil {
						changed++
					}
					assert.NotEmpty(t, got.Calls)
					if first == nil {
						first = &got
						continue
					}
					assert.Equal(t, *first, got, "%s stream=%v agrees with openai", a.dialect, stream)
				}
			}
		})
	}
	assert.Positive(t, changed, "some gold task writes to the DB")
}

// Request.NoCalls (agent.Loop.ToolSteps) is each dialect's "none" tool
// choice, with the tools still declared; other requests send no choice.
func TestAdaptersForbidCalls(t *testing.T) {
	want := map[string]string{
		"openai":    `"none"`,
		"anthropic": `{"type":"none"}`,
		"gemini":    `{"functionCallingConfig":{"mode":"NONE"}}`,
	}
	r := loadRetail(t)
	for _, a := range adapters {
		t.Run(a.dialect, func(t *testing.T) {
			_, set, names := r.env(t)
			s := agenttest.New(
				agenttest.Turn{Calls: []tool.ModelCall{{ID: "a", Name: names["list_all_product_types"], Arguments: "{}"}}},
				agenttest.Turn{Text: "We sell many things."},
			)
			s.Dialect = a.dialect
			srv := httptest.NewServer(s)
			defer srv.Close()
			loop := &agent.Loop{Model: a.model(t, srv.URL, true), Tools: set, Context: agent.NewContext(), ToolSteps: 1}
			_, err := loop.Turn(context.Background(), "What do you sell?")
			require.NoError(t, err)
			reqs := s.Requests()
			require.Len(t, reqs, 2)
			assert.Nil(t, reqs[0].ToolChoice)
			assert.JSONEq(t, want[a.dialect], string(reqs[1].ToolChoice))
			assert.NotEmpty(t, reqs[1].Tools)
		})
	}
}
