package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"sync"
	"time"

	"github.com/voiceeval/schematools/internal/pyjson"
	"github.com/voiceeval/schematools/tool"
)

// Defaults of a [Loop]: what its zero fields mean.
const (
	defaultMaxSteps    = 25
	defaultCallTimeout = 10 * time.Second // NeMo's function_call_timeout_secs
	defaultParallel    = 8
	defaultEndTool     = "EndConversationTool"
)

// ErrStepLimit is returned when a turn reaches [Loop.MaxSteps] model calls
// and the model still calls tools. The context is complete: every call it
// made is answered.
var ErrStepLimit = errors.New("agent: step limit reached")

// Loop runs a bot's tool loop. Set its fields before the first turn and
// do not change them after; one Loop runs one turn at a time (turns of one
// Context must not overlap).
type Loop struct {
	Model   Model     // required
	Tools   *tool.Set // nil: no tools (every call is an unknown tool)
	Context *Context  // required

	MaxSteps int // model calls per turn; 0 means 25
	// ToolSteps, when > 0, is how many model calls of a turn may call
	// tools: the calls after them are made with Request.NoCalls, so that a
	// model calling tool after tool ends its turn in words rather than at
	// MaxSteps with ErrStepLimit. 0: no such bound, as pipecat (which
	// lets a model call tools as long as it likes).
	ToolSteps   int
	CallTimeout time.Duration // per tool call; 0 means 10 s (NeMo's function_call_timeout_secs), < 0 none
	Parallel    int           // calls run at once; 0 means 8
	EndTool     string        // "" means "EndConversationTool"
	CallOptions *tool.CallOptions
	Logger      *slog.Logger // nil: slog.Default()
	Hooks       Hooks

	workers workers
}

// Hooks are the loop's callbacks; each may be nil. They run on the turn's
// goroutine except OnResult, which runs on the call's.
type Hooks struct {
	// OnText receives the assistant's text as it streams.
	OnText func(delta string)
	// OnResponse runs after each model call, once its text and calls are in
	// the context and before the calls run: one per model call, with its
	// usage (a bot sends one rtvi Emitter.LLMResponse per call).
	OnResponse func(ctx context.Context, step int, resp Response)
	// OnResult runs after a call's content is in the context.
	OnResult func(ctx context.Context, call tool.ModelCall, content string)
	// OnEnd runs once the end tool's result is in the context and the
	// group's other calls are answered: when a bot may send "<exit>".
	OnEnd func(ctx context.Context, call tool.ModelCall)
}

// Answered is one call with the content it was answered with.
type Answered struct {
	tool.ModelCall
	Content string
	// Result is what the live path delivered; nil for a timeout, a
	// cancellation or a duplicate id.
	Result any
}

// TurnResult is what one turn did.
type TurnResult struct {
	// Responses are the turn's model responses, one per model call.
	Responses []Response
	// Calls are the turn's calls in order, as the context holds them
	// (duplicate ids renamed), with the content of their tool messages:
	// Responses[i]'s calls are the next len(Responses[i].Calls) of them.
	Calls []Answered
	Ended bool  // a successful end-tool call was answered
	Usage Usage // summed over the turn's model calls (optional counts summed when set)
}

// Turn adds the user's text to the context and runs the loop.
func (l *Loop) Turn(ctx context.Context, userText string) (TurnResult, error) {
	if err := l.check(); err != nil {
		return TurnResult{}, err
	}
	l.Context.Append(Message{Role: RoleUser, Content: userText})
	return l.Run(ctx)
}

// Run runs the loop on the context as it is (a kickoff, or after the
// caller appended messages itself): it calls the model until a response
// has no calls, the end tool has been answered, or MaxSteps model calls
// were made. A model error or a cancelled ctx ends the turn with the
// error; what the context holds by then is complete.
func (l *Loop) Run(ctx context.Context) (TurnResult, error) {
	if err := l.check(); err != nil {
		return TurnResult{}, err
	}
	var res TurnResult
	maxSteps := l.MaxSteps
	if maxSteps <= 0 {
		maxSteps = defaultMaxSteps
	}
	for step := 0; step < maxSteps; step++ {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		noCalls := l.ToolSteps > 0 && step >= l.ToolSteps
		resp, err := l.Model.Complete(ctx, Request{Messages: l.Context.Messages(), Tools: l.Tools, OnText: l.Hooks.OnText, NoCalls: noCalls})
		if err != nil {
			return res, fmt.Errorf("agent: model call %d: %w", step+1, err)
		}
		res.Usage = addUsage(res.Usage, resp.Usage)
		if resp.Text != "" {
			// The text is pushed on LLMFullResponseEndFrame, which the
			// OpenAI service sends (base_llm.py process_frame, finally)
			// before the calls' FunctionCallInProgressFrames, broadcast
			// from the call tasks (llm_service.py _run_function_call);
			// push_aggregation writes it stripped
			// (utils/string.py concatenate_aggregated_text).
			l.Context.Append(Message{Role: RoleAssistant, Content: pyjson.Strip(resp.Text), Native: resp.Native})
		}
		native := resp.Native
		if resp.Text != "" {
			native = nil // on the text message already
		}
		g := l.writeCalls(resp.Calls, native)
		if l.Hooks.OnResponse != nil {
			l.Hooks.OnResponse(ctx, step+1, resp)
		}
		res.Responses = append(res.Responses, resp)
		if len(resp.Calls) == 0 {
			return res, nil
		}
		endCall, ended := l.runGroup(ctx, g)
		res.Calls = append(res.Calls, g.answered...)
		if err := ctx.Err(); err != nil {
			return res, err
		}
		if ended {
			res.Ended = true
			if l.Hooks.OnEnd != nil {
				l.Hooks.OnEnd(ctx, endCall)
			}
			return res, nil
		}
	}
	return res, fmt.Errorf("%w: %d model calls", ErrStepLimit, maxSteps)
}

func (l *Loop) check() error {
	if l.Model == nil || l.Context == nil {
		return errors.New("agent: Loop needs a Model and a Context")
	}
	return nil
}

// group is the calls of one response, written into the context.
type group struct {
	answered []Answered
	slots    []slot
	run      []bool // false for a duplicate id: answered already
}

// writeCalls writes one assistant+tool pair per call, in the model's
// order, and answers duplicate ids at once; native goes on the first
// call's assistant message.
func (l *Loop) writeCalls(calls []tool.ModelCall, native map[string]json.RawMessage) *group {
	if len(calls) == 0 {
		return &group{}
	}
	g := &group{answered: make([]Answered, len(calls)), slots: make([]slot, len(calls)), run: make([]bool, len(calls))}
	seen := idSet{}
	for i, c := range calls {
		orig := c.ID
		dup := orig == "" || seen.has(orig)
		if dup {
			c.ID = uniqueID(orig, seen)
		}
		seen.add(c.ID)
		g.answered[i] = Answered{ModelCall: c}
		g.slots[i] = l.Context.addCall(tool.ModelCall{ID: c.ID, Name: c.Name, Arguments: ContextArguments(c.Arguments)}, native)
		native = nil
		if dup {
			msg := "The call id " + strconv.Quote(orig) + " was already used in this response; the call was not run. Call the tool again if it is needed."
			if orig == "" {
				msg = "The call had no id; it was not run. Call the tool again if it is needed."
			}
			content, _ := ResultContent(tool.Failure("duplicate_call_id", msg))
			l.Context.answer(g.slots[i], content)
			g.answered[i].Content = content
			continue
		}
		g.run[i] = true
	}
	return g
}

// uniqueID returns id + "_dup2", "_dup3", … (or "call_auto2", … for an
// empty id): the first that seen does not hold.
func uniqueID(id string, seen idSet) string {
	base := id + "_dup"
	if id == "" {
		base = "call_auto"
	}
	for n := 2; ; n++ {
		if c := base + strconv.Itoa(n); !seen.has(c) {
			return c
		}
	}
}

// idSet is the call ids of a response: a list while it is short, a map
// after.
type idSet struct {
	list []string
	m    map[string]bool
}

func (s *idSet) has(id string) bool {
	if s.m != nil {
		return s.m[id]
	}
	for _, x := range s.list {
		if x == id {
			return true
		}
	}
	return false
}

func (s *idSet) add(id string) {
	if s.m == nil && len(s.list) < 16 {
		s.list = append(s.list, id)
		return
	}
	if s.m == nil {
		s.m = make(map[string]bool, 32)
		for _, x := range s.list {
			s.m[x] = true
		}
	}
	s.m[id] = true
}

// runnable counts the calls to run.
func (g *group) runnable() int {
	n := 0
	for _, r := range g.run {
		if r {
			n++
		}
	}
	return n
}

// runGroup runs the group's calls, at most Parallel at once, and answers
// each exactly once. It reports the end-tool call when one succeeded.
func (l *Loop) runGroup(ctx context.Context, g *group) (tool.ModelCall, bool) {
	parallel := l.Parallel
	if parallel <= 0 {
		parallel = defaultParallel
	}
	endTool := l.EndTool
	if endTool == "" {
		endTool = defaultEndTool
	}
	if n := g.runnable(); n == 1 {
		// One call: no goroutine for it beyond the tool's own.
		for i := range g.answered {
			if g.run[i] {
				res, ok := l.call(ctx, g, i)
				ok = ok && g.answered[i].Name == endTool && !tool.IsError(res)
				return g.answered[i].ModelCall, ok
			}
		}
	}
	sem := make(chan struct{}, parallel)
	var (
		wg      sync.WaitGroup
		mu      sync.Mutex
		endCall tool.ModelCall
		ended   bool
	)
	for i := range g.answered {
		if !g.run[i] {
			continue
		}
		wg.Go(func() {
			select {
			case sem <- struct{}{}:
			case <-ctx.Done():
				l.finish(ctx, g, i, nil, contentCancelled)
				return
			}
			defer func() { <-sem }()
			res, ok := l.call(ctx, g, i)
			if ok && g.answered[i].Name == endTool && !tool.IsError(res) {
				mu.Lock()
				if !ended {
					endCall, ended = g.answered[i].ModelCall, true
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return endCall, ended
}

// errRefused is what a late delivery gets: the call was answered already.
var errRefused = errors.New("agent: the call was answered already (timed out or cancelled)")

// call runs call i with its timeout and answers it: with the delivered
// result, the timeout result, or "CANCELLED". It reports the delivered
// result, and whether one was delivered in time.
func (l *Loop) call(ctx context.Context, g *group, i int) (any, bool) {
	c := g.answered[i].ModelCall
	timeout := l.CallTimeout
	if timeout == 0 {
		timeout = defaultCallTimeout
	}
	cctx := ctx
	if timeout > 0 {
		var cancel context.CancelFunc
		cctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	r := &running{delivered: make(chan any, 1), done: make(chan error, 1)}
	l.workers.run(func() {
		r.done <- l.Tools.CallJSON(cctx, c.Name, []byte(c.Arguments), func(v any) error {
			r.mu.Lock()
			defer r.mu.Unlock()
			if r.closed {
				return errRefused
			}
			r.closed = true
			content, err := ResultContent(v)
			if err != nil {
				l.logger().ErrorContext(ctx, "agent: tool result cannot be written; answering with an error", "tool", c.Name, "id", c.ID, "err", err)
				content, _ = ResultContent(tool.Failure("unserializable_result", err.Error()))
			}
			// Written before the after-result hook runs, so the end
			// tool's "<exit>" follows its result into the context.
			l.finish(ctx, g, i, v, content)
			r.delivered <- v
			return nil
		}, l.CallOptions)
	})
	select {
	case v := <-r.delivered:
		// The after-result hook runs after delivery; wait for it (within
		// the call's time), so the group ends after the exit signal.
		select {
		case err := <-r.done:
			if err != nil {
				l.logger().WarnContext(ctx, "agent: tool call failed after its result", "tool", c.Name, "id", c.ID, "err", err)
			}
		case <-cctx.Done():
		}
		return v, true
	case err := <-r.done:
		if v, ok := r.close(); ok {
			return v, true
		}
		switch {
		case ctx.Err() != nil:
			l.finish(ctx, g, i, nil, contentCancelled)
		case cctx.Err() != nil:
			l.timedOut(ctx, g, i, timeout)
		default:
			content, _ := ResultContent(tool.Failure("no_result", fmt.Sprintf("Tool %s returned no result: %v", c.Name, err)))
			l.finish(ctx, g, i, nil, content)
		}
		return nil, false
	case <-cctx.Done():
		if v, ok := r.close(); ok {
			return v, true
		}
		if ctx.Err() != nil {
			l.finish(ctx, g, i, nil, contentCancelled)
		} else {
			l.timedOut(ctx, g, i, timeout)
		}
		return nil, false
	}
}

// running is one call in flight.
type running struct {
	mu        sync.Mutex
	closed    bool     // answered, or no longer taking an answer
	delivered chan any // the result, once delivered in time
	done      chan error
}

// close stops the call taking an answer, and returns the result it
// delivered first, if it did.
func (r *running) close() (any, bool) {
	r.mu.Lock()
	r.closed = true
	r.mu.Unlock()
	select {
	case v := <-r.delivered:
		return v, true
	default:
		return nil, false
	}
}

func (l *Loop) timedOut(ctx context.Context, g *group, i int, timeout time.Duration) {
	c := g.answered[i]
	l.logger().WarnContext(ctx, "agent: tool call timed out", "tool", c.Name, "id", c.ID, "timeout", timeout)
	content, _ := ResultContent(tool.Failure("timeout", fmt.Sprintf("Tool %s did not answer within %v.", c.Name, timeout)))
	l.finish(ctx, g, i, nil, content)
}

// finish answers call i with content, once; later answers are dropped.
func (l *Loop) finish(ctx context.Context, g *group, i int, result any, content string) {
	if !l.Context.answer(g.slots[i], content) {
		return
	}
	g.answered[i].Content, g.answered[i].Result = content, result
	if l.Hooks.OnResult != nil {
		l.Hooks.OnResult(ctx, g.answered[i].ModelCall, content)
	}
}

func (l *Loop) logger() *slog.Logger {
	if l.Logger != nil {
		return l.Logger
	}
	return slog.Default()
}

func addUsage(a, b Usage) Usage {
	opt := func(x, y *int) *int {
		if x == nil && y == nil {
			return nil
		}
		n := 0
		if x != nil {
			n += *x
		}
		if y != nil {
			n += *y
		}
		return &n
	}
	return Usage{
		PromptTokens: a.PromptTokens + b.PromptTokens, CompletionTokens: a.CompletionTokens + b.CompletionTokens,
		TotalTokens:               a.TotalTokens + b.TotalTokens,
		CacheReadInputTokens:      opt(a.CacheReadInputTokens, b.CacheReadInputTokens),
		CacheCreationInputTokens:  opt(a.CacheCreationInputTokens, b.CacheCreationInputTokens),
		ReasoningTokens:           opt(a.ReasoningTokens, b.ReasoningTokens),
		InputAudioTokens:          opt(a.InputAudioTokens, b.InputAudioTokens),
		OutputAudioTokens:         opt(a.OutputAudioTokens, b.OutputAudioTokens),
		CacheReadInputAudioTokens: opt(a.CacheReadInputAudioTokens, b.CacheReadInputAudioTokens),
	}
}
