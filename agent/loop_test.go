package agent_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/agent"
	"github.com/voiceeval/schematools/rtvi"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

// script is a model answering with its responses in turn, then with text.
type script struct {
	mu        sync.Mutex
	responses []agent.Response
	seen      [][]agent.Message
}

func (s *script) Complete(_ context.Context, req agent.Request) (agent.Response, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seen = append(s.seen, req.Messages)
	if len(s.responses) == 0 {
		return agent.Response{Text: "done", FinishReason: "stop"}, nil
	}
	r := s.responses[0]
	s.responses = s.responses[1:]
	return r, nil
}

// funcTool is a tool running fn.
type funcTool struct {
	name string
	fn   func(ctx context.Context, args map[string]any) (any, error)
}

func (f funcTool) Name() string               { return f.name }
func (f funcTool) Description() string        { return "test tool" }
func (f funcTool) Properties() map[string]any { return map[string]any{} }
func (f funcTool) Required() []string         { return []string{} }
func (f funcTool) Execute(ctx context.Context, args map[string]any) (any, error) {
	return f.fn(ctx, args)
}

func echoTool() tool.Tool {
	return funcTool{name: "echo", fn: func(_ context.Context, args map[string]any) (any, error) {
		return map[string]any{"echo": args}, nil
	}}
}

func newSet(t testing.TB, tools ...tool.Tool) *tool.Set {
	t.Helper()
	s, err := tool.NewSet(tools...)
	require.NoError(t, err)
	return s
}

func calls(cs ...string) []tool.ModelCall {
	out := make([]tool.ModelCall, 0, len(cs)/3)
	for i := 0; i+2 < len(cs); i += 3 {
		out = append(out, tool.ModelCall{ID: cs[i], Name: cs[i+1], Arguments: cs[i+2]})
	}
	return out
}

func toolContents(c *agent.Context) map[string]string {
	out := map[string]string{}
	for _, m := range c.Messages() {
		if m.Role == agent.RoleTool {
			out[m.ToolCallID] = m.Content
		}
	}
	return out
}

// checkPaired asserts every tool_calls message is followed by its tool
// message, no id answered twice, and nothing left IN_PROGRESS.
func checkPaired(t *testing.T, c *agent.Context) {
	t.Helper()
	msgs := c.Messages()
	ids := map[string]bool{}
	for i, m := range msgs {
		if len(m.ToolCalls) == 0 {
			continue
		}
		require.Less(t, i+1, len(msgs), "tool_calls message %d has no tool message", i)
		next := msgs[i+1]
		assert.Equal(t, agent.RoleTool, next.Role)
		assert.Equal(t, m.ToolCalls[0].ID, next.ToolCallID)
		assert.NotEqual(t, "IN_PROGRESS", next.Content)
		assert.False(t, ids[next.ToolCallID], "id %s answered twice", next.ToolCallID)
		ids[next.ToolCallID] = true
	}
	assert.False(t, c.CallsInProgress())
}

func TestLoopFaults(t *testing.T) {
	slow := funcTool{name: "slow", fn: func(context.Context, map[string]any) (any, error) {
		time.Sleep(300 * time.Millisecond) // ignores its context
		return "late", nil
	}}
	panics := funcTool{name: "boom", fn: func(context.Context, map[string]any) (any, error) { panic("boom") }}
	tests := []struct {
		name  string
		calls []tool.ModelCall
		want  map[string]string // id → a substring of its content
	}{
		{"unknown tool", calls("c1", "nope", "{}"), map[string]string{"c1": `"error_type": "unknown_tool"`}},
		{"malformed arguments", calls("c1", "echo", `{"a":`), map[string]string{"c1": `"json_invalid"`}},
		{"arguments not an object", calls("c1", "echo", `[1]`), map[string]string{"c1": `"dict_type"`}},
		{"panic", calls("c1", "boom", `{}`), map[string]string{"c1": `{"error": "tool boom panicked: boom"}`}},
		{"duplicate id", calls("c1", "echo", `{"n": 1}`, "c1", "echo", `{"n": 2}`),
			map[string]string{"c1": `{"echo": {"n": 1}}`, "c1_dup2": `"error_type": "duplicate_call_id"`}},
		{"empty id", calls("", "echo", `{}`), map[string]string{"call_auto2": `"duplicate_call_id"`}},
		{"timeout", calls("c1", "slow", `{}`, "c2", "echo", `{}`),
			map[string]string{"c1": `"error_type": "timeout"`, "c2": `{"echo": {}}`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			conv := agent.NewContext()
			m := &script{responses: []agent.Response{{Calls: tt.calls}}}
			l := &agent.Loop{Model: m, Tools: newSet(t, echoTool(), slow, panics), Context: conv, CallTimeout: 50 * time.Millisecond}
			res, err := l.Turn(context.Background(), "go")
			require.NoError(t, err)
			require.Len(t, res.Responses, 2)
			got := toolContents(conv)
			assert.Len(t, got, len(tt.want))
			for id, sub := range tt.want {
				assert.Contains(t, got[id], sub, "call %s", id)
			}
			checkPaired(t, conv)
		})
	}
}

func TestLoopLateResultIsRefused(t *testing.T) {
	var hookRan atomic.Bool
	late := &lateTool{release: make(chan struct{}), hook: &hookRan}
	conv := agent.NewContext()
	l := &agent.Loop{Model: &script{responses: []agent.Response{{Calls: calls("c1", "late", "{}")}}},
		Tools: newSet(t, late), Context: conv, CallTimeout: 20 * time.Millisecond}
	_, err := l.Turn(context.Background(), "go")
	require.NoError(t, err)
	close(late.release)
	time.Sleep(20 * time.Millisecond)
	assert.Contains(t, toolContents(conv)["c1"], `"timeout"`)
	assert.False(t, hookRan.Load(), "a refused result's after-result hook does not run")
}

type lateTool struct {
	release chan struct{}
	hook    *atomic.Bool
}

func (l *lateTool) Name() string               { return "late" }
func (l *lateTool) Description() string        { return "late" }
func (l *lateTool) Properties() map[string]any { return map[string]any{} }
func (l *lateTool) Required() []string         { return []string{} }
func (l *lateTool) Execute(context.Context, map[string]any) (any, error) {
	<-l.release
	return "x", nil
}
func (l *lateTool) AfterResult(context.Context, map[string]any, any) error {
	l.hook.Store(true)
	return nil
}

func TestLoopStepLimit(t *testing.T) {
	loopForever := agent.ModelFunc(func(_ context.Context, req agent.Request) (agent.Response, error) {
		return agent.Response{Calls: calls(fmt.Sprintf("c%d", len(req.Messages)), "echo", "{}")}, nil
	})
	conv := agent.NewContext()
	l := &agent.Loop{Model: loopForever, Tools: newSet(t, echoTool()), Context: conv, MaxSteps: 3}
	res, err := l.Turn(context.Background(), "go")
	require.ErrorIs(t, err, agent.ErrStepLimit)
	assert.Len(t, res.Responses, 3)
	assert.Equal(t, 1+3*2, conv.Len())
	checkPaired(t, conv)

	l.MaxSteps = 0
	_, err = l.Turn(context.Background(), "again")
	require.ErrorIs(t, err, agent.ErrStepLimit)
	assert.Equal(t, 1+3*2+1+25*2, conv.Len()) // MaxSteps 0: the default, 25
}

// ToolSteps: a model that calls tools whenever it may is asked for words
// after ToolSteps calls, and the turn ends on its answer; one that calls
// tools even then is answered, and stops at MaxSteps.
func TestLoopToolSteps(t *testing.T) {
	var mu sync.Mutex
	var noCalls []bool
	callsUnlessForbidden := func(obey bool) agent.Model {
		return agent.ModelFunc(func(_ context.Context, req agent.Request) (agent.Response, error) {
			mu.Lock()
			noCalls = append(noCalls, req.NoCalls)
			mu.Unlock()
			if req.NoCalls && obey {
				return agent.Response{Text: "Here is what I found.", FinishReason: "stop"}, nil
			}
			return agent.Response{Calls: calls(fmt.Sprintf("c%d", len(req.Messages)), "echo", "{}")}, nil
		})
	}
	tests := []struct {
		name      string
		obey      bool
		toolSteps int
		maxSteps  int
		want      []bool
		err       error
	}{
		{"asked for words after two", true, 2, 0, []bool{false, false, true}, nil},
		{"asked for words at once", true, 1, 0, []bool{false, true}, nil},
		{"unset: as pipecat", true, 0, 3, []bool{false, false, false}, agent.ErrStepLimit},
		{"calls anyway", false, 1, 3, []bool{false, true, true}, agent.ErrStepLimit},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			noCalls = nil
			conv := agent.NewContext()
			l := &agent.Loop{Model: callsUnlessForbidden(tt.obey), Tools: newSet(t, echoTool()), Context: conv, ToolSteps: tt.toolSteps, MaxSteps: tt.maxSteps}
			res, err := l.Turn(context.Background(), "go")
			if tt.err != nil {
				require.ErrorIs(t, err, tt.err)
			} else {
				require.NoError(t, err)
				assert.Equal(t, "Here is what I found.", conv.Messages()[conv.Len()-1].Content)
			}
			assert.Equal(t, tt.want, noCalls)
			assert.Len(t, res.Responses, len(tt.want))
			checkPaired(t, conv)
		})
	}
}

func TestLoopModelError(t *testing.T) {
	boom := errors.New("HTTP 500")
	conv := agent.NewContext()
	l := &agent.Loop{Model: agent.ModelFunc(func(context.Context, agent.Request) (agent.Response, error) {
		return agent.Response{}, boom
	}), Context: conv}
	_, err := l.Turn(context.Background(), "hi")
	require.ErrorIs(t, err, boom)
	assert.Equal(t, 1, conv.Len(), "only the user message")
}

func TestLoopCancelledDuringCalls(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var started sync.WaitGroup
	started.Add(3)
	block := funcTool{name: "block", fn: func(ctx context.Context, _ map[string]any) (any, error) {
		started.Done()
		<-ctx.Done()
		return nil, ctx.Err()
	}}
	stubborn := funcTool{name: "stubborn", fn: func(context.Context, map[string]any) (any, error) {
		started.Done()
		time.Sleep(200 * time.Millisecond)
		return "ignored", nil
	}}
	conv := agent.NewContext()
	l := &agent.Loop{Model: &script{responses: []agent.Response{{Calls: calls(
		"c1", "block", "{}", "c2", "block", "{}", "c3", "stubborn", "{}", "c4", "block", "{}")}}},
		Tools: newSet(t, block, stubborn), Context: conv, Parallel: 3}
	go func() { started.Wait(); cancel() }()
	_, err := l.Turn(ctx, "go")
	require.ErrorIs(t, err, context.Canceled)
	for id, c := range toolContents(conv) {
		assert.Equal(t, "CANCELLED", c, id)
	}
	checkPaired(t, conv)
}

// The end tool's "<exit>" goes out after its result is in the context,
// OnEnd runs after that, the model is not called again, and "<exit>"
// never enters the context.
func TestLoopEndTool(t *testing.T) {
	st := state.New()
	conv := agent.NewContext()
	var exitSawResult, endSawResult bool
	st.StartScenario("", notifierFunc(func(_ context.Context, msg any) error {
		if tm, ok := msg.(tool.TextMessage); ok && strings.HasPrefix(tm.Text, "<exit>") {
			exitSawResult = strings.Contains(toolContents(conv)["end"], "Exit message sent.")
		}
		return nil
	}))
	m := &script{responses: []agent.Response{{Text: "Bye!", Calls: calls("e1", "echo", "{}", "end", "EndConversationTool", "{}")}}}
	l := &agent.Loop{Model: m, Tools: newSet(t, append(tool.Harness(st, nil), echoTool())...), Context: conv,
		Hooks: agent.Hooks{OnEnd: func(_ context.Context, c tool.ModelCall) {
			endSawResult = c.ID == "end" && !conv.CallsInProgress() && strings.Contains(toolContents(conv)["end"], "success")
		}}}
	res, err := l.Turn(context.Background(), "bye")
	require.NoError(t, err)
	assert.True(t, res.Ended)
	assert.True(t, exitSawResult, "<exit> was sent after the result was in the context")
	assert.True(t, endSawResult)
	assert.Len(t, m.seen, 1, "no model call after the end tool")
	for _, msg := range conv.Messages() {
		assert.NotContains(t, msg.Content, "<exit>")
	}
	checkPaired(t, conv)
}

type notifierFunc func(ctx context.Context, msg any) error

func (f notifierFunc) Notify(ctx context.Context, msg any) error { return f(ctx, msg) }

// One OnResponse per model call, with its usage; Usage converts to
// rtvi.Usage for Emitter.LLMResponse.
func TestLoopReportsUsagePerCall(t *testing.T) {
	cached := 3
	m := &script{responses: []agent.Response{
		{Calls: calls("c1", "echo", "{}"), Usage: agent.Usage{PromptTokens: 10, CompletionTokens: 2, TotalTokens: 12, CacheReadInputTokens: &cached}},
		{Text: "ok", Usage: agent.Usage{PromptTokens: 20, CompletionTokens: 1, TotalTokens: 21}},
	}}
	var got []rtvi.Usage
	var texts []string
	l := &agent.Loop{Model: m, Tools: newSet(t, echoTool()), Context: agent.NewContext(), Hooks: agent.Hooks{
		OnResponse: func(_ context.Context, step int, r agent.Response) {
			got = append(got, rtvi.Usage(r.Usage))
			texts = append(texts, r.Text)
		},
	}}
	res, err := l.Turn(context.Background(), "hi")
	require.NoError(t, err)
	require.Len(t, got, 2)
	assert.Equal(t, 12, got[0].TotalTokens)
	assert.Equal(t, 3, *got[0].CacheReadInputTokens)
	assert.Equal(t, []string{"", "ok"}, texts)
	assert.Equal(t, 33, res.Usage.TotalTokens)
	assert.Equal(t, 3, *res.Usage.CacheReadInputTokens)
}

func TestLoopManyCalls(t *testing.T) {
	var cs []tool.ModelCall
	for i := range 500 {
		cs = append(cs, tool.ModelCall{ID: fmt.Sprintf("c%d", i), Name: "echo", Arguments: fmt.Sprintf(`{"i": %d}`, i)})
	}
	conv := agent.NewContext()
	l := &agent.Loop{Model: &script{responses: []agent.Response{{Calls: cs}}}, Tools: newSet(t, echoTool()), Context: conv}
	_, err := l.Turn(context.Background(), "go")
	require.NoError(t, err)
	assert.Equal(t, 1+500*2+1, conv.Len())
	msgs := conv.Messages()
	for i := range 500 {
		assert.Equal(t, fmt.Sprintf(`{"echo": {"i": %d}}`, i), msgs[2+2*i].Content)
	}
	checkPaired(t, conv)
}

func TestLoopNeedsModelAndContext(t *testing.T) {
	_, err := (&agent.Loop{}).Turn(context.Background(), "hi")
	require.Error(t, err)
}

// The model sees the context as it stands before each call.
func TestLoopModelSeesResults(t *testing.T) {
	m := &script{responses: []agent.Response{{Calls: calls("c1", "echo", `{"b":1,"a":2}`)}}}
	l := &agent.Loop{Model: m, Tools: newSet(t, echoTool()), Context: agent.NewContext()}
	_, err := l.Turn(context.Background(), "hi")
	require.NoError(t, err)
	require.Len(t, m.seen, 2)
	second := m.seen[1]
	require.Len(t, second, 3)
	assert.Equal(t, `{"b": 1, "a": 2}`, second[1].ToolCalls[0].Arguments, "the model's key order")
	assert.Equal(t, `{"echo": {"a": 2, "b": 1}}`, second[2].Content)
}
