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

// Options configure [Check], [Repeat] and [Require]; a nil *Options is the
// zero value.
type Options struct {
	// Judge decides llm checks. Without one they are Unknown.
	Judge Judge
	// Tools make the check schema-aware: a test naming a tool that is not
	// among them, or a path that is not in the tool's schema, is an
	// invalid test; native exact checks coerce expected strings to the
	// schema's type. None given: no schema checks.
	Tools []tool.Tool
}

func toolMap(tools []tool.Tool) map[string]tool.Tool {
	if len(tools) == 0 {
		return nil
	}
	m := make(map[string]tool.Tool, len(tools))
	for _, t := range tools {
		m[t.Name()] = t
	}
	return m
}

// ExpectationResult is the outcome of one expectation.
type ExpectationResult struct {
	Index  int    `json:"index"`            // the expectation's index in Test.Expect
	Tool   string `json:"tool,omitempty"`   // the expectation's tool ("" matches any)
	Absent bool   `json:"absent,omitempty"` // an absent expectation: the tool must not be called
	// Status is Pass when met, Fail when not, Unknown when met through a
	// check that is Unknown.
	Status Status `json:"status"`
	// Call is the index of the call it was matched to (or, for a failed
	// expectation, the closest call considered); -1 when none.
	Call int `json:"call"`
	// Params are the results of the expectation's parameter checks on
	// that call, in the expectation's order; none when Call is -1, and
	// none for an absent expectation.
	Params []ParamResult `json:"params,omitempty"`
	// Reason says why a failed expectation failed; for an expectation that
	// subset mode lets go unmet, it says so.
	Reason string `json:"reason,omitempty"`
}

// Result is the outcome of a test.
type Result struct {
	Test string `json:"test"` // the test's Name
	// Status is Fail if anything failed (an expectation or a Problem),
	// else Unknown if a matched check was Unknown, else Pass.
	Status Status `json:"status"`
	// Expectations has one result per expectation, in Test.Expect's order.
	Expectations []ExpectationResult `json:"expectations"`
	// Problems are failures not tied to one expectation: extra calls,
	// count bounds, too many calls.
	Problems []string `json:"problems,omitempty"`
}

// Check runs test against the agent's step. The error is for an invalid
// test (no expectation, a bad history, path, pattern or bound, an unknown
// mode or eval type, an absent expectation with parameters, unknown tools
// or paths with [Options.Tools]) and wraps [ErrInvalidTest]; a failing
// agent is a Result with Status Fail. Check never modifies test, and may
// be called concurrently with the same test. Checking against an empty
// [Step] validates a test without running any check: do it when loading a
// suite (with the tools), so a typo is an error then rather than a failing
// run later.
//
// The rules:
//
//   - an expectation matches a call when the tool names are equal (an
//     empty Tool matches any call) and every parameter check passes or is
//     Unknown; a match with an Unknown check is a weaker match;
//   - expectations are assigned to calls by an optimal matching: as many
//     expectations met as possible, then as many fully passing matches as
//     possible, then the lowest call indexes — never greedily, so the order
//     of expectations never changes the status;
//   - Mode says what else must hold (see [Test.Mode]); in the superset and
//     unordered modes, a test with a single expectation and without
//     AnyCallMatches fails when the agent made more than one call, as in
//     ElevenLabs;
//   - an Absent expectation fails when any call has its tool's name;
//   - Counts bound the number of calls per tool name;
//   - the test fails if anything fails; otherwise it is Unknown if a
//     matched check was Unknown; otherwise it passes.
func Check(ctx context.Context, test Test, step Step, opts *Options) (Result, error) {
	if opts == nil {
		opts = &Options{}
	}
	tools := toolMap(opts.Tools)
	test = cloneTest(test)
	if err := validate(&test, tools); err != nil {
		return Result{}, err
	}
	k := &checker{ctx: ctx, judge: opts.Judge, history: test.History}
	if tools != nil {
		k.types = func(toolName, path string) string { return schemaType(tools[toolName], path) }
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
			pr.sameTool, pr.ok = true, true
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

	mode := test.Mode
	if mode == "" {
		mode = modeSuperset
	}
	assign := assignment(mode, positive, len(step.Calls), pairs)
	if len(positive) == 1 && !test.AnyCallMatches && len(step.Calls) > 1 && (mode == modeSuperset || mode == modeUnordered) {
		res.Problems = append(res.Problems, fmt.Sprintf("the agent made %d tool calls where one was expected (set AnyCallMatches to accept any matching call)", len(step.Calls)))
	}
	if mode == modeExactOrder && len(step.Calls) != len(positive) {
		res.Problems = append(res.Problems, fmt.Sprintf("the agent made %d tool calls; exactly %d were expected, in order", len(step.Calls), len(positive)))
	}
	used := make([]bool, len(step.Calls))
	for _, j := range assign {
		used[j] = true
	}
	for _, i := range positive {
		er := &res.Expectations[i]
		if j, ok := assign[i]; ok {
			er.Call, er.Params = j, pairs[i][j].params
			if pairs[i][j].unknown {
				er.Status = Unknown
			}
			continue
		}
		if mode == modeSubset {
			er.Reason = "not called, which subset mode allows"
			continue
		}
		er.Status = Fail
		er.Reason, er.Call = explain(mode, i, positive, test.Expect[i], step, pairs[i], used)
		if er.Call >= 0 {
			er.Params = pairs[i][er.Call].params
		}
	}
	if mode == modeUnordered || mode == modeSubset {
		for j, u := range used {
			if !u {
				res.Problems = append(res.Problems, unexpectedCall(j, step.Calls[j], positive, pairs))
			}
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
			res.Problems = append(res.Problems, fmt.Sprintf("%s was called %d times; want %s", name, n, boundsText(b)))
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

// pairResult is how one expectation fares against one call.
type pairResult struct {
	sameTool bool // the call is to the expectation's tool
	ok       bool // every check passed or is Unknown
	unknown  bool // some check is Unknown
	params   []ParamResult
	passed   int // checks that passed
}

// cloneTest copies what Check prepares (compiled patterns), so a caller's
// test is never written to.
func cloneTest(t Test) Test {
	t.Expect = slices.Clone(t.Expect)
	for i := range t.Expect {
		t.Expect[i].Params = slices.Clone(t.Expect[i].Params)
	}
	return t
}

// assignment pairs expectations with calls according to mode: call index
// by expectation index, for the expectations that are met.
func assignment(mode string, positive []int, nCalls int, pairs [][]pairResult) map[int]int {
	assign := map[int]int{}
	switch mode {
	case modeExactOrder:
		for pos, i := range positive {
			if pos < nCalls && pairs[i][pos].ok {
				assign[i] = pos
			}
		}
		return assign
	case modeInOrder:
		return inOrder(positive, nCalls, pairs)
	}
	// Maximum-weight bipartite matching: every match is worth more than all
	// pass bonuses together, every pass bonus more than all index
	// preferences together.
	m := len(positive)
	if m == 0 || nCalls == 0 {
		return assign
	}
	c := int64(nCalls)
	passBonus := int64(m)*c + 1
	matchValue := int64(m+1) * (passBonus + 1)
	w := make([][]int64, m)
	for r, i := range positive {
		w[r] = make([]int64, nCalls)
		for j := range nCalls {
			if pr := pairs[i][j]; pr.ok {
				w[r][j] = matchValue + c - int64(j)
				if !pr.unknown {
					w[r][j] += passBonus
				}
			}
		}
	}
	for r, j := range maxWeightMatching(w) {
		if j >= 0 && w[r][j] > 0 {
			assign[positive[r]] = j
		}
	}
	return assign
}

// inOrder finds the best order-preserving assignment (a longest common
// subsequence with weights): most expectations met, then most fully
// passing, then the earliest calls.
func inOrder(positive []int, nCalls int, pairs [][]pairResult) map[int]int {
	type score struct{ met, passing int }
	better := func(a, b score) bool { return a.met > b.met || a.met == b.met && a.passing > b.passing }
	m := len(positive)
	best := make([][]score, m+1)
	for r := range best {
		best[r] = make([]score, nCalls+1)
	}
	for r := m - 1; r >= 0; r-- {
		for j := nCalls - 1; j >= 0; j-- {
			s := best[r+1][j] // expectation r goes unmet
			if alt := best[r][j+1]; better(alt, s) {
				s = alt // call j is skipped
			}
			if pr := pairs[positive[r]][j]; pr.ok {
				alt := best[r+1][j+1]
				alt.met++
				if !pr.unknown {
					alt.passing++
				}
				if better(alt, s) || alt == s {
					s = alt
				}
			}
			best[r][j] = s
		}
	}
	assign := map[int]int{}
	r, j := 0, 0
	for r < m && j < nCalls {
		pr := pairs[positive[r]][j]
		if pr.ok {
			alt := best[r+1][j+1]
			alt.met++
			if !pr.unknown {
				alt.passing++
			}
			if alt == best[r][j] {
				assign[positive[r]] = j
				r, j = r+1, j+1
				continue
			}
		}
		if best[r][j+1] == best[r][j] {
			j++
		} else {
			r++
		}
	}
	return assign
}

// explain says why expectation i was not met, pointing at the closest call
// to its tool, in the terms of the mode.
func explain(mode string, i int, positive []int, e Expectation, step Step, pairs []pairResult, used []bool) (string, int) {
	if mode == modeExactOrder {
		pos := slices.Index(positive, i)
		if pos >= len(step.Calls) {
			return fmt.Sprintf("expected call %d to be to %s; the agent made only %d calls", pos, toolLabel(e.Tool), len(step.Calls)), -1
		}
		pr := pairs[pos]
		if !pr.sameTool {
			for j, other := range pairs {
				if other.ok {
					return fmt.Sprintf("call %d is to %s; %s was called at position %d, and exact-order mode needs it at %d", pos, step.Calls[pos].Name, toolLabel(e.Tool), j, pos), pos
				}
			}
			return fmt.Sprintf("call %d is to %s, not %s", pos, step.Calls[pos].Name, toolLabel(e.Tool)), pos
		}
		return fmt.Sprintf("call %d to %s: %s", pos, step.Calls[pos].Name, failures(pr.params)), pos
	}
	best, bestScore := -1, -1
	for j, pr := range pairs {
		if pr.sameTool && pr.passed > bestScore {
			best, bestScore = j, pr.passed
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
	if pairs[best].ok {
		if mode == modeInOrder {
			return fmt.Sprintf("call %d to %s matches, but not in the expected order", best, toolLabel(e.Tool)), best
		}
		if used[best] {
			return fmt.Sprintf("call %d to %s matches, but it is needed for another expectation", best, toolLabel(e.Tool)), best
		}
	}
	return fmt.Sprintf("call %d to %s: %s", best, step.Calls[best].Name, failures(pairs[best].params)), best
}

// unexpectedCall says why call j met no expectation.
func unexpectedCall(j int, c Call, positive []int, pairs [][]pairResult) string {
	for _, i := range positive {
		if pr := pairs[i][j]; pr.sameTool && !pr.ok {
			return fmt.Sprintf("call %d to %s is not expected: %s", j, c.Name, failures(pr.params))
		}
	}
	return fmt.Sprintf("call %d to %s is not expected", j, c.Name)
}

// failures joins the messages of the failed checks.
func failures(params []ParamResult) string {
	var why []string
	for _, p := range params {
		if p.Status == Fail {
			why = append(why, p.Message)
		}
	}
	if len(why) == 0 {
		return "no check failed"
	}
	return strings.Join(why, "; ")
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
	if len(t.Expect) == 0 {
		problems = append(problems, "the test has no expectation")
	}
	for name, b := range t.Counts {
		if b.Min < 0 || b.Max < 0 || b.Max > 0 && b.Min > b.Max {
			problems = append(problems, fmt.Sprintf("count bounds for %s are not a range: %+v", name, b))
		}
	}
	switch t.Mode {
	case "", modeSuperset, modeUnordered, modeSubset, modeInOrder, modeExactOrder:
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
