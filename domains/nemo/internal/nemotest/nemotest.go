// Package nemotest replays NeMo's other-domain call scripts
// (other_domain_calls.jsonl) against the Go ports, for their tests and
// benchmarks.
//
//   - Scripts reads the vectors, keeping every object's key order.
//   - Registry registers the harness tools and the four ports.
//   - Replay builds a script's tools in its tool_config order on a fresh
//     state and runs every call on the live path as the agent loop does
//     (tool.CallJSON with the arguments' text), reporting each difference
//     from the vectors: delivered and raw result, actions, RTVI messages,
//     state hash after each call, final state and hash; and the delivered
//     result's text as a model reads it (agent.ResultContent, pipecat's
//     json.dumps(result, ensure_ascii=False)), byte for byte.
package nemotest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"sync"

	"github.com/voiceeval/schematools/agent"
	"github.com/voiceeval/schematools/dbhash"
	"github.com/voiceeval/schematools/domains/nemo/basictools"
	"github.com/voiceeval/schematools/domains/nemo/customerservice"
	"github.com/voiceeval/schematools/domains/nemo/internal/nemostate"
	"github.com/voiceeval/schematools/domains/nemo/restaurant"
	"github.com/voiceeval/schematools/domains/nemo/waitlist"
	"github.com/voiceeval/schematools/internal/jsonlines"
	"github.com/voiceeval/schematools/internal/pyjson"
	"github.com/voiceeval/schematools/internal/pyvalue"
	"github.com/voiceeval/schematools/registry"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

// Script is one line of other_domain_calls.jsonl.
type Script struct {
	Domain, Scenario, Name string
	Line                   pyvalue.Dict
}

// Calls returns the number of calls of the script.
func (s Script) Calls() int {
	c, _ := s.Line.Get("calls")
	l, _ := c.([]any)
	return len(l)
}

// Scripts reads the call scripts at path.
func Scripts(path string) ([]Script, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []Script
	sc := jsonlines.NewScanner(f)
	for sc.Scan() {
		v, err := pyvalue.Loads(sc.Line())
		if err != nil {
			return nil, err
		}
		d := v.(pyvalue.Dict)
		out = append(out, Script{Domain: str(d, "domain"), Scenario: str(d, "scenario"), Name: str(d, "script"), Line: d})
	}
	return out, sc.Err()
}

func str(d pyvalue.Dict, k string) string {
	v, _ := d.Get(k)
	s, _ := v.(string)
	return s
}

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// Registry returns a registry holding the harness tools and the four
// ports.
var Registry = sync.OnceValues(func() (*registry.Tools, error) {
	r := &registry.Tools{Logger: quiet}
	for _, reg := range []func(*registry.Tools) error{
		registry.RegisterHarness, customerservice.Register, waitlist.Register, restaurant.Register, basictools.Register,
	} {
		if err := reg(r); err != nil {
			return nil, err
		}
	}
	return r, nil
})

// notifier collects the messages pushed during a call.
type notifier struct {
	mu   sync.Mutex
	msgs []any
}

func (n *notifier) Notify(_ context.Context, m any) error {
	n.mu.Lock()
	n.msgs = append(n.msgs, m)
	n.mu.Unlock()
	return nil
}

func (n *notifier) take() []any {
	n.mu.Lock()
	defer n.mu.Unlock()
	m := n.msgs
	n.msgs = nil
	return m
}

// rawRecorder keeps the raw result of the last Execute of a tool.
type rawRecorder struct {
	tool.Tool
	raw any
}

func (r *rawRecorder) Execute(ctx context.Context, args map[string]any) (any, error) {
	res, err := r.Tool.Execute(ctx, args)
	r.raw = res
	return res, err
}

func (r *rawRecorder) AfterResult(ctx context.Context, args map[string]any, result any) error {
	if h, ok := r.Tool.(tool.AfterResulter); ok {
		return h.AfterResult(ctx, args, result)
	}
	return nil
}

// Canon returns Python's json.dumps text of v (insertion order kept) after
// a JSON round trip of Go values, so that values compare with their key
// order and Python's number forms.
func Canon(v any) (string, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return "", err
	}
	x, err := pyvalue.Loads(b)
	if err != nil {
		return "", err
	}
	return canonLoaded(x)
}

// canonLoaded is Canon of a value pyvalue.Loads made.
func canonLoaded(x any) (string, error) {
	b, err := pyvalue.AppendJSON(nil, x, pyjson.Default, false)
	return string(b), err
}

// StateHash is the vectors' state hash: dbhash.Hash of the state's values
// but the "__" ones.
func StateHash(st *state.Shared) (string, error) {
	return dbhash.Hash(nemostate.StateValues(st))
}

// Result counts what a replay matched: calls whose every check passed,
// and calls whose result reads, as a model reads it, byte for byte as the
// vector's (Texts of them compared).
type Result struct {
	Calls, CallsOK int
	Texts, TextsOK int
	Diffs          []string
}

// Replay runs script s and reports its differences from the vectors.
func Replay(ctx context.Context, s Script) (Result, error) {
	var res Result
	reg, err := Registry()
	if err != nil {
		return res, err
	}
	diff := func(format string, a ...any) { res.Diffs = append(res.Diffs, fmt.Sprintf(format, a...)) }
	n := &notifier{}
	st := state.New()
	st.StartScenario(s.Domain, n)
	cfgV, _ := s.Line.Get("tool_config")
	tools := map[string]*rawRecorder{}
	for _, it := range cfgV.(pyvalue.Dict).Items() {
		kw, _ := nemostate.Plain(it.Value).(map[string]any)
		tl, err := reg.New(s.Domain, it.Key, registry.Deps{State: st, Args: kw, Logger: quiet})
		if err != nil {
			return res, fmt.Errorf("build %s: %w", it.Key, err)
		}
		tools[it.Key] = &rawRecorder{Tool: tl}
	}
	if h, err := StateHash(st); err != nil || h != str(s.Line, "initial_state_hash") {
		diff("initial state hash %s (%v), want %s", h, err, str(s.Line, "initial_state_hash"))
	}
	want, _ := s.Line.Get("initial_state")
	if !pyvalue.Equal(nemostate.Py(nemostate.FromValue(nemostate.StateValues(st))), want) {
		diff("initial state %v", nemostate.StateValues(st))
	}
	callsV, _ := s.Line.Get("calls")
	for _, cv := range callsV.([]any) {
		c := cv.(pyvalue.Dict)
		res.Calls++
		before := len(st.Actions())
		name := str(c, "tool")
		tl := tools[name]
		i, _ := c.Get("i")
		if tl == nil {
			diff("call %v: no tool %s", i, name)
			continue
		}
		argsV, _ := c.Get("arguments")
		args, err := pyvalue.AppendJSON(nil, argsV, pyjson.Unicode, false)
		if err != nil {
			return res, fmt.Errorf("call %v: arguments: %w", i, err)
		}
		var delivered any
		if err := tool.CallJSON(ctx, tl, args, func(r any) error { delivered = r; return nil }, &tool.CallOptions{Logger: quiet}); err != nil {
			diff("call %v %s: %v", i, name, err)
			continue
		}
		ok := true
		res.Texts++
		wantV, _ := c.Get("result")
		wantText, err := pyvalue.AppendJSON(nil, wantV, pyjson.Unicode, false)
		if err != nil {
			return res, fmt.Errorf("call %v: result: %w", i, err)
		}
		if got, err := agent.ResultContent(delivered); err != nil || got != string(wantText) {
			ok = false
			diff("call %v %s: the result a model reads differs (%v)\n got  %s\n want %s", i, name, err, got, wantText)
		} else {
			res.TextsOK++
		}
		check := func(what string, got any, wantKey string) {
			w, _ := c.Get(wantKey)
			g, gerr := Canon(got)
			wt, _ := canonLoaded(w)
			if gerr != nil || g != wt {
				ok = false
				diff("call %v %s: %s\n got  %s (%v)\n want %s", i, name, what, g, gerr, wt)
			}
		}
		check("result", delivered, "result")
		if _, has := c.Get("raw_result"); has {
			check("raw_result", tl.raw, "raw_result")
		}
		acts := st.Actions()[before:]
		actsAny := make([]any, len(acts))
		for j, a := range acts {
			actsAny[j] = map[string]any(a)
		}
		check("actions", actsAny, "actions_appended")
		check("rtvi messages", append([]any{}, n.take()...), "rtvi_messages")
		h, err := StateHash(st)
		if w := str(c, "state_hash_after"); err != nil || h != w {
			ok = false
			diff("call %v %s: state hash %s (%v), want %s; state %v", i, name, h, err, w, nemostate.StateValues(st))
		}
		if ok {
			res.CallsOK++
		}
	}
	finalV, _ := s.Line.Get("final_state")
	if !pyvalue.Equal(nemostate.Py(nemostate.FromValue(nemostate.StateValues(st))), finalV) {
		diff("final state %v", nemostate.StateValues(st))
	}
	if h, err := StateHash(st); err != nil || h != str(s.Line, "final_state_hash") {
		diff("final state hash %s (%v), want %s", h, err, str(s.Line, "final_state_hash"))
	}
	return res, nil
}
