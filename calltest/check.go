package calltest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/voiceeval/schematools/tool"
)

// ErrInvalidTest is wrapped by every error about a test itself (as opposed
// to a failing agent).
var ErrInvalidTest = errors.New("calltest: invalid test")

// Option configures [Check].
type Option func(*options)

type options struct {
	judge Judge
	tools map[string]tool.Tool
}

// WithJudge sets the judge of llm checks. Without one they are Unknown.
func WithJudge(j Judge) Option { return func(o *options) { o.judge = j } }

// WithTools makes the check schema-aware: a test naming a tool that is not
// in tools, or a path that is not in the tool's schema, is an invalid
// test; native exact checks coerce expected strings to the schema's type.
func WithTools(tools ...tool.Tool) Option {
	return func(o *options) {
		o.tools = make(map[string]tool.Tool, len(tools))
		for _, t := range tools {
			o.tools[t.Name()] = t
		}
	}
}

// ExpectationResult is the outcome of one expectation.
type ExpectationResult struct {
	Index  int    `json:"index"`
	Tool   string `json:"tool,omitempty"`
	Absent bool   `json:"absent,omitempty"`
	Status Status `json:"status"`
	// Call is the index of the call it was matched to (or, for a failed
	// expectation, the closest call considered); -1 when none.
	Call   int           `json:"call"`
	Params []ParamResult `json:"params,omitempty"`
	Reason string        `json:"reason,omitempty"`
}

// Result is the outcome of a test.
type Result struct {
	Test         string              `json:"test"`
	Status       Status              `json:"status"`
	Expectations []ExpectationResult `json:"expectations"`
	// Problems are failures not tied to one expectation: extra calls,
	// count bounds, too many calls.
	Problems []string `json:"problems,omitempty"`
}

// Passed reports whether the test passed.
func (r Result) Passed() bool { return r.Status == Pass }

// Check runs test against the agent's step. The error is for an invalid
// test (bad path, bad pattern, unknown eval type, an absent expectation
// with parameters, unknown tools or paths with [WithTools]); a failing
// agent is a Result with Status Fail.
//
// The rules:
//
//   - an expectation matches a call when the tool names are equal (an
//     empty Tool matches any call) and every parameter check passes or is
//     Unknown;
//   - expectations are assigned to calls by an optimal (maximum) matching,
//     not greedily, so the order of expectations never changes the outcome;
//     ties go to the lowest call index;
//   - Mode says what else must hold (see [Mode]); with a single expectation
//     and without AnyCallMatches, more than one call fails the test, as in
//     ElevenLabs;
//   - an Absent expectation fails when any call has its tool's name;
//   - Counts bound the number of calls per tool name;
//   - the test fails if anything fails; otherwise it is Unknown if a
//     matched check was Unknown; otherwise it passes.
func Check(ctx context.Context, test Test, step Step, opts ...Option) (Result, error) {
	var o options
	for _, f := range opts {
		f(&o)
	}
	if err := validate(&test, o.tools); err != nil {
		return Result{}, err
	}
	k := &checker{ctx: ctx, judge: o.judge, history: test.History}
	if o.tools != nil {
		k.types = func(toolName, path string) string { return schemaType(o.tools[toolName], path) }
	}
	res := Result{Test: test.Name, Expectations: make([]ExpectationResult, len(test.Expect)), Problems: []string{}}

	var positive []int
	for i, e := range test.Expect {
		res.Expectations[i] = ExpectationResult{Index: i, Tool: e.Tool, Absent: e.Absent, Status: Pass, Call: -1}
		if !e.Absent {
			positive = append(positive, i)
		}
	}

	// Evaluate every (expectation, call) pair once.
	type pairResult struct {
		ok      bool
		unknown bool
		params  []ParamResult
		passed  int
	}
	pairs := make([][]pairResult, len(test.Expect))
	for _, i := range positive {
		e := &test.Expect[i]
		pairs[i] = make([]pairResult, len(step.Calls))
		for j, c := range step.Calls {
			pr := pairResult{}
			if e.Tool != "" && e.Tool != c.Name {
				pairs[i][j] = pr
				continue
			}
			pr.ok = true
			for p := range e.Params {
				r := k.run(&e.Params[p], c)
				pr.params = append(pr.params, r)
				switch r.Status {
				case Fail:
					pr.ok = false
				case Unknown:
					pr.unknown = true
				case Pass:
					pr.passed++
				}
			}
			pairs[i][j] = pr
		}
	}
	matches := func(i, j int) bool { return pairs[i][j].ok }

	assign := assignment(test, positive, len(step.Calls), matches, &res)
	for _, i := range positive {
		er := &res.Expectations[i]
		if j, ok := assign[i]; ok && j < 0 {
			er.Reason = "not called, which subset mode allows"
			continue
		} else if ok {
			er.Call, er.Params = j, pairs[i][j].params
			if pairs[i][j].unknown {
				er.Status = Unknown
			}
			continue
		}
		er.Status = Fail
		er.Reason, er.Call = explain(test.Expect[i], step, func(j int) (int, []ParamResult) {
			return pairs[i][j].passed, pairs[i][j].params
		})
		if er.Call >= 0 {
			er.Params = pairs[i][er.Call].params
		}
	}
	for i, e := range test.Expect {
		if !e.Absent {
			continue
		}
		er := &res.Expectations[i]
		for j, c := range step.Calls {
			if c.Name == e.Tool {
				er.Status, er.Call = Fail, j
				er.Reason = fmt.Sprintf("%s must not be called, but call %d is to it", e.Tool, j)
				break
			}
		}
	}
	names := make([]string, 0, len(test.Counts))
	for name := range test.Counts {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		b := test.Counts[name]
		n := 0
		for _, c := range step.Calls {
			if c.Name == name {
				n++
			}
		}
		if n < b.Min || (b.Max > 0 && n > b.Max) {
			res.Problems = append(res.Problems, fmt.Sprintf("%s was called %d times; want %s", name, n, b))
		}
	}

	res.Status = Pass
	if len(res.Problems) > 0 {
		res.Status = Fail
	}
	for _, er := range res.Expectations {
		switch {
		case er.Status == Fail:
			res.Status = Fail
		case er.Status == Unknown && res.Status == Pass:
			res.Status = Unknown
		}
	}
	return res, nil
}

func (b Bounds) String() string {
	switch {
	case b.Max == 0:
		return fmt.Sprintf("at least %d", b.Min)
	case b.Min == b.Max:
		return fmt.Sprintf("exactly %d", b.Min)
	}
	return fmt.Sprintf("%d to %d", b.Min, b.Max)
}

// assignment pairs expectations with calls according to the test's mode,
// recording mode-level problems in res.
func assignment(test Test, positive []int, nCalls int, matches func(i, j int) bool, res *Result) map[int]int {
	assign := map[int]int{}
	mode := test.Mode
	if mode == "" {
		mode = Superset
	}
	if len(positive) == 1 && !test.AnyCallMatches && nCalls > 1 && (mode == Superset || mode == Unordered) {
		res.Problems = append(res.Problems, fmt.Sprintf("the agent made %d tool calls where one was expected (set AnyCallMatches to accept any matching call)", nCalls))
	}
	switch mode {
	case InOrder:
		j := 0
		for _, i := range positive {
			for ; j < nCalls; j++ {
				if matches(i, j) {
					assign[i] = j
					j++
					break
				}
			}
		}
		return assign
	case ExactOrder:
		if nCalls != len(positive) {
			res.Problems = append(res.Problems, fmt.Sprintf("the agent made %d tool calls; exactly %d were expected, in order", nCalls, len(positive)))
		}
		for pos, i := range positive {
			if pos < nCalls && matches(i, pos) {
				assign[i] = pos
			}
		}
		return assign
	}
	// Maximum bipartite matching (augmenting paths, Kuhn), expectations in
	// order, calls by index: optimal, and deterministic.
	callOwner := make([]int, nCalls)
	for j := range callOwner {
		callOwner[j] = -1
	}
	var try func(i int, seen []bool) bool
	try = func(i int, seen []bool) bool {
		for j := range nCalls {
			if seen[j] || !matches(i, j) {
				continue
			}
			seen[j] = true
			if callOwner[j] < 0 || try(callOwner[j], seen) {
				callOwner[j] = i
				return true
			}
		}
		return false
	}
	for _, i := range positive {
		try(i, make([]bool, nCalls))
	}
	for j, i := range callOwner {
		if i >= 0 {
			assign[i] = j
		}
	}
	if mode == Unordered || mode == Subset {
		for j, i := range callOwner {
			if i < 0 {
				res.Problems = append(res.Problems, fmt.Sprintf("call %d is not expected", j))
			}
		}
	}
	if mode == Subset {
		// Unmet expectations are allowed: mark them as not required.
		for _, i := range positive {
			if _, ok := assign[i]; !ok {
				assign[i] = -1
			}
		}
	}
	return assign
}

// explain says why no call satisfied expectation e, pointing at the
// closest call to the same tool.
func explain(e Expectation, step Step, score func(j int) (int, []ParamResult)) (string, int) {
	best, bestScore := -1, -1
	for j, c := range step.Calls {
		if e.Tool != "" && c.Name != e.Tool {
			continue
		}
		if s, _ := score(j); s > bestScore {
			best, bestScore = j, s
		}
	}
	if best < 0 {
		if len(step.Calls) == 0 {
			return fmt.Sprintf("expected a call to %s; the agent made no tool call", toolLabel(e.Tool)), -1
		}
		names := make([]string, len(step.Calls))
		for j, c := range step.Calls {
			names[j] = c.Name
		}
		return fmt.Sprintf("expected a call to %s; the agent called %s", toolLabel(e.Tool), strings.Join(names, ", ")), -1
	}
	_, params := score(best)
	var why []string
	for _, p := range params {
		if p.Status == Fail {
			why = append(why, p.Message)
		}
	}
	if len(why) == 0 {
		return fmt.Sprintf("call %d to %s matches, but it is needed for another expectation", best, toolLabel(e.Tool)), best
	}
	return fmt.Sprintf("call %d to %s: %s", best, step.Calls[best].Name, strings.Join(why, "; ")), best
}

func toolLabel(name string) string {
	if name == "" {
		return "any tool"
	}
	return name
}

// validate checks the test itself.
func validate(t *Test, tools map[string]tool.Tool) error {
	var problems []string
	if len(t.History) == 0 {
		problems = append(problems, "the chat history is empty")
	}
	for i, turn := range t.History {
		if turn.Role != "user" && turn.Role != "agent" {
			problems = append(problems, fmt.Sprintf("history turn %d: role %q is neither user nor agent", i, turn.Role))
		}
	}
	if n := len(t.History); n > 0 && t.History[n-1].Role == "agent" {
		problems = append(problems, "the chat history ends on an agent turn; it must end on the turn just before the expected call")
	}
	switch t.Mode {
	case "", Superset, Unordered, Subset, InOrder, ExactOrder:
	default:
		problems = append(problems, fmt.Sprintf("unknown mode %q", t.Mode))
	}
	for i := range t.Expect {
		e := &t.Expect[i]
		if e.Absent && len(e.Params) > 0 {
			problems = append(problems, fmt.Sprintf("expectation %d: an absent tool takes no parameter checks (verify_absence with parameters)", i))
		}
		if e.Absent && e.Tool == "" {
			problems = append(problems, fmt.Sprintf("expectation %d: an absent expectation needs a tool", i))
		}
		if tools != nil && e.Tool != "" {
			if _, ok := tools[e.Tool]; !ok {
				problems = append(problems, fmt.Sprintf("expectation %d: unknown tool %q", i, e.Tool))
			}
		}
		for p := range e.Params {
			if err := e.Params[p].compile(); err != nil {
				problems = append(problems, fmt.Sprintf("expectation %d: %v", i, err))
				continue
			}
			if tl, ok := tools[e.Tool]; ok && tools != nil && schemaType(tl, e.Params[p].Path) == "" {
				problems = append(problems, fmt.Sprintf("expectation %d: path %q is not in the schema of %s", i, e.Params[p].Path, e.Tool))
			}
		}
	}
	if len(problems) > 0 {
		return fmt.Errorf("%w %q: %s", ErrInvalidTest, t.Name, strings.Join(problems, "; "))
	}
	return nil
}

// schemaType returns the JSON Schema type at path in t's parameters: "" when
// the path is not in the schema, "any" when the schema does not say.
func schemaType(t tool.Tool, path string) string {
	if t == nil {
		return ""
	}
	var cur any = map[string]any{"type": "object", "properties": t.Properties()}
	for _, seg := range strings.Split(path, ".") {
		m, ok := cur.(map[string]any)
		if !ok {
			return ""
		}
		if props, ok := m["properties"].(map[string]any); ok {
			if next, ok := props[seg]; ok {
				cur = next
				continue
			}
		}
		if items, ok := m["items"]; ok && isIndex(seg) {
			cur = items
			continue
		}
		if m["type"] == nil || m["additionalProperties"] != nil && m["additionalProperties"] != false {
			return "any" // an open object: any key may be there
		}
		return ""
	}
	if m, ok := cur.(map[string]any); ok {
		if s, ok := m["type"].(string); ok {
			return s
		}
	}
	return "any"
}

func isIndex(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
