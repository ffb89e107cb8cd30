package harness

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/agent"
	"github.com/voiceeval/schematools/rtvi/bridge"
)

// A price table: input and output required, cached_input optional, 0 a
// price; everything else refused with a message that names the problem.
func TestParsePrices(t *testing.T) {
	got, err := ParsePrices([]byte(`{"gpt-x": {"input": 2.5, "cached_input": 1.25, "output": 10},
		"local": {"input": 0, "output": 0}}`))
	require.NoError(t, err)
	assert.Equal(t, map[string]Price{"gpt-x": {Input: 2.5, CachedInput: some(1.25), Output: 10}, "local": {}}, got)

	for _, tt := range []struct {
		name, text, want string
	}{
		{"not JSON", `{"m": {"input": 1,`, "not JSON"},
		{"not JSON at all", `prices`, "not JSON"},
		{"a list", `[{"input": 1, "output": 2}]`, "not a JSON object of model names"},
		{"empty table", `{}`, "the table is empty"},
		{"empty model name", `{"": {"input": 1, "output": 2}}`, "a model name is empty"},
		{"model twice", `{"m": {"input": 1, "output": 2}, "m": {"input": 3, "output": 4}}`, `model "m" is given twice`},
		{"unknown key", `{"m": {"input": 1, "output": 2, "cache_input": 0.5}}`, `model "m": unknown key "cache_input"`},
		{"typo in input", `{"m": {"inptu": 1, "output": 2}}`, `unknown key "inptu"`},
		{"no output", `{"m": {"input": 1}}`, `model "m": output is missing`},
		{"no input", `{"m": {"output": 1}}`, `model "m": input is missing`},
		{"negative", `{"m": {"input": -1, "output": 2}}`, `model "m": input is negative`},
		{"negative cached", `{"m": {"input": 1, "cached_input": -0.5, "output": 2}}`, `cached_input is negative`},
		{"a string", `{"m": {"input": "1.0", "output": 2}}`, `model "m": input is "1.0", not a number`},
		{"null", `{"m": {"input": 1, "output": null}}`, `output is null, not a number`},
		{"not an object", `{"m": 3}`, `model "m": not an object of prices`},
		{"two values", `{"m": {"input": 1, "output": 2}} {}`, "more than one JSON value"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParsePrices([]byte(tt.text))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
			assert.True(t, strings.HasPrefix(err.Error(), "harness: prices: "), err.Error())
		})
	}
}

// The bots' calls are listed from their metrics events, one per tokens
// entry, with the cached prompt tokens an entry reported; an entry
// lacking a count is a call of unknown usage.
func TestCallLog(t *testing.T) {
	var l callLog
	msg := `{"label": "rtvi-ai", "type": "metrics", "data": {"tokens": [` +
		`{"prompt_tokens": 100, "completion_tokens": 10, "cache_read_input_tokens": 64},` +
		`{"prompt_tokens": 50, "completion_tokens": 5},` +
		`{"prompt_tokens": 7, "cache_read_input_tokens": "x"}]}}`
	l.observe(bridge.Event{Kind: bridge.KindMetrics, Message: msg, Tokens: []bridge.Usage{
		{Calls: 1, Prompt: 100, Completion: 10}, {Calls: 1, Prompt: 50, Completion: 5}, {Calls: 1, Prompt: 7, Partial: 1}}})
	l.observe(bridge.Event{Kind: bridge.KindOther, Message: msg}) // not metrics: nothing
	got := l.list()
	want := []callUsage{
		{Prompt: some(int64(100)), Completion: some(int64(10)), CachedPrompt: some(int64(64))},
		{Prompt: some(int64(50)), Completion: some(int64(5))},
		{},
	}
	assert.Equal(t, want, got)
}

// usage is a side's token_usage with calls of unknown usage.
func usage(calls, prompt, completion, without int64) Usage {
	return Usage{NCalls: calls, Prompt: prompt, Completion: completion, CallsWithoutUsage: without}
}

// Each role's cost: known tokens at the table's prices (cached prompt
// tokens at cached_input, or input without it), 0 for a role that made no
// call; unknown (null, with the reason) when usage is unknown, there is
// no table, the model is not named or not in the table — never 0.
func TestScenarioCost(t *testing.T) {
	prices := map[string]Price{"a": {Input: 2, Output: 8, CachedInput: some(0.5)}, "u": {Input: 1, Output: 1}, "j": {Input: 3, Output: 15}}
	agentCalls := []callUsage{
		{Prompt: some(int64(600_000)), Completion: some(int64(50_000)), CachedPrompt: some(int64(400_000))},
		{Prompt: some(int64(400_000)), Completion: some(int64(50_000))},
	}
	known := func() *Run {
		return &Run{Scenario: Scenario{Name: "tau2_retail__1"},
			Agent: Side{Tokens: usage(2, 1_000_000, 100_000, 0)}, User: Side{Tokens: usage(3, 300_000, 30_000, 0)},
			calls: &runCalls{agent: agentCalls, user: nil}}
	}
	judged := func(calls ...callUsage) *judgeMeter { return &judgeMeter{consulted: true, calls: calls} }
	jCall := callUsage{Prompt: some(int64(200_000)), Completion: some(int64(10_000))}
	// agent: 600k uncached × $2 + 400k cached × $0.5 + 100k × $8 = 1.2 + 0.2 + 0.8
	const agentUSD, userUSD, judgeUSD = 2.2, 0.33, 0.75
	names := Options{AgentModel: "a", UserModel: "u", JudgeModel: "j", Prices: prices}
	for _, tt := range []struct {
		name      string
		run       *Run
		jm        *judgeMeter
		o         Options
		agent     *float64 // nil: unknown
		user      *float64
		judge     *float64
		judgeNull bool
		why       string // in the scenario's cost_unknown
	}{
		{"all known", known(), judged(jCall), names, some(agentUSD), some(userUSD), some(judgeUSD), false, ""},
		{"no judge", known(), nil, names, some(agentUSD), some(userUSD), nil, true, ""},
		{"judge not asked", known(), &judgeMeter{}, names, some(agentUSD), some(userUSD), some(0.0), false, ""},
		{"cached priced as input without cached_input", known(), nil,
			Options{AgentModel: "u", UserModel: "u", Prices: prices}, some(1.1), some(userUSD), nil, true, ""},
		{"a call without usage", func() *Run { r := known(); r.Agent.Tokens = usage(3, 1_000_000, 100_000, 1); return r }(), nil, names,
			nil, some(userUSD), nil, true, "agent: 1 of 3 call(s) reported no usage"},
		{"judge reported no usage", known(), judged(jCall, callUsage{}), names, some(agentUSD), some(userUSD), nil, false,
			"judge: 1 of 2 call(s) reported no usage"},
		{"a Judge that reports no calls", known(), judged(), names, some(agentUSD), some(userUSD), nil, false,
			"judge: the judge reported no model calls"},
		{"model not in the table", known(), judged(jCall), Options{AgentModel: "a", UserModel: "other", JudgeModel: "j", Prices: prices},
			some(agentUSD), nil, some(judgeUSD), false, `user: model "other" is not in the price table`},
		{"model not named", known(), nil, Options{AgentModel: "a", Prices: prices}, some(agentUSD), nil, nil, true, "user: the user's model is not named"},
		{"no price table", known(), nil, Options{AgentModel: "a", UserModel: "u"}, nil, nil, nil, true, "agent: no price table; user: no price table"},
		{"no calls cost 0 without a table", &Run{Scenario: Scenario{Name: "x__1"}, calls: &runCalls{}}, nil, Options{}, some(0.0), some(0.0), nil, true, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := scenarioCost(tt.run, tt.jm, tt.o)
			require.NotNil(t, f)
			check := func(role string, s *sideCost, want *float64) {
				t.Helper()
				if want == nil {
					assert.Nil(t, s.CostUSD, role)
					require.NotNil(t, s.CostUnknown, role)
					assert.NotEmpty(t, *s.CostUnknown, role)
					return
				}
				require.NotNil(t, s.CostUSD, "%s: %v", role, s.CostUnknown)
				assert.InDelta(t, *want, *s.CostUSD, 1e-12, role)
				assert.Nil(t, s.CostUnknown, role)
			}
			check("agent", &f.Agent, tt.agent)
			check("user", &f.User, tt.user)
			if tt.judgeNull {
				assert.Nil(t, f.Judge)
			} else {
				require.NotNil(t, f.Judge)
				check("judge", f.Judge, tt.judge)
			}
			if tt.why == "" {
				require.NotNil(t, f.CostUSD, "%v", f.CostUnknown)
				sum := valueOr(f.Agent.CostUSD) + valueOr(f.User.CostUSD)
				if f.Judge != nil {
					sum += valueOr(f.Judge.CostUSD)
				}
				assert.InDelta(t, sum, *f.CostUSD, 1e-12)
			} else {
				assert.Nil(t, f.CostUSD)
				require.NotNil(t, f.CostUnknown)
				assert.Contains(t, *f.CostUnknown, tt.why)
			}
		})
	}

	// Usage unknown: tokens null, not 0; the listed calls and the rest.
	r := known()
	r.Agent.Tokens = usage(3, 1_000_000, 100_000, 1)
	f := scenarioCost(r, judged(jCall, callUsage{}), names)
	assert.Nil(t, f.Agent.Prompt)
	assert.Nil(t, f.Agent.Completion)
	assert.Equal(t, int64(3), *f.Agent.Calls)
	assert.Len(t, f.Agent.PerCall, 2)
	assert.Equal(t, int64(1), f.Agent.PerCallNotListed)
	assert.Equal(t, int64(400_000), *f.Agent.CachedPrompt)
	assert.Nil(t, f.User.CachedPrompt, "no call reported cached tokens")
	assert.Nil(t, f.Judge.Prompt)
	assert.Equal(t, int64(1), *f.Judge.CallsWithoutUsage)

	// Nothing to say (a hand-built run, no judge usage, no prices, no
	// names): no cost.json.
	assert.Nil(t, scenarioCost(&Run{Scenario: Scenario{Name: "x__1"}}, &judgeMeter{consulted: true}, Options{}))
}

// scriptedModel answers every call with resp, or err.
type scriptedModel struct {
	resp agent.Response
	err  error
}

func (m scriptedModel) Complete(context.Context, agent.Request) (agent.Response, error) {
	return m.resp, m.err
}

// ModelJudge reports each model call's usage to the scenario's meter:
// known counts, unknown when the response reported none or the call
// failed.
func TestModelJudgeMetersItsCalls(t *testing.T) {
	verdict := `{"score": 1, "reason": "ok"}`
	cached := 30
	for _, tt := range []struct {
		name string
		m    scriptedModel
		want callUsage
	}{
		{"usage", scriptedModel{resp: agent.Response{Text: verdict, Usage: agent.Usage{PromptTokens: 100, CompletionTokens: 20, CacheReadInputTokens: &cached}}},
			callUsage{Prompt: some(int64(100)), Completion: some(int64(20)), CachedPrompt: some(int64(30))}},
		{"no usage", scriptedModel{resp: agent.Response{Text: verdict, Usage: agent.Usage{Missing: true}}}, callUsage{}},
		{"failed", scriptedModel{err: errors.New("HTTP 500")}, callUsage{}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			jm := &judgeMeter{}
			ctx := withJudgeMeter(context.Background(), jm)
			_, _ = judgeOnce(ctx, ModelJudge(tt.m), JudgeRequest{UserContent: "x"})
			assert.True(t, jm.consulted)
			assert.Equal(t, []callUsage{tt.want}, jm.calls)
		})
	}
	// Without a meter (a judge called outside Score) nothing breaks.
	_, err := ModelJudge(scriptedModel{resp: agent.Response{Text: verdict}}).Judge(context.Background(), JudgeRequest{})
	assert.NoError(t, err)
}

// Score writes the judge's calls into the result's cost; the judge's
// tokens never reach metrics.json.
func TestScoreMetersTheJudge(t *testing.T) {
	r := unknownRun()
	r.Agent.Context = []byte(`[{"role": "user", "content": "Hello"}]`)
	o := opts()
	o.Judge = ModelJudge(scriptedModel{resp: agent.Response{Text: `{"score": 1, "reason": "ok"}`, Usage: agent.Usage{PromptTokens: 123, CompletionTokens: 4}}})
	o.JudgeModel = "j"
	res, err := Score(context.Background(), r, o)
	require.NoError(t, err)
	require.NotNil(t, res.cost)
	require.NotNil(t, res.cost.Judge)
	assert.Equal(t, int64(123), *res.cost.Judge.Prompt)
	assert.Equal(t, "j", *res.cost.Judge.Model)
	b, err := res.Metrics.MarshalJSON()
	require.NoError(t, err)
	assert.NotContains(t, string(b), "123")
	assert.NotContains(t, string(b), "judge_tokens")
}

// The run's summary sums the scenarios' cost.json per domain and in all;
// a scenario of unknown cost makes the sums unknown, lists the reason,
// and leaves the known part summed apart; a scenario without the file is
// one of unknown cost.
func TestCostSummary(t *testing.T) {
	dir := t.TempDir()
	w, err := openRun(dir, []string{"a__1", "a__2", "b__1", "b__2"}, map[string]*resultLine{})
	require.NoError(t, err)
	defer w.Close()
	prices := map[string]Price{"m": {Input: 1, Output: 2}}
	write := func(name string, agentCalls, without int64, model string) {
		r := &Run{Scenario: Scenario{Name: name}, Agent: Side{Tokens: usage(agentCalls, agentCalls*1000, agentCalls*100, without)},
			User: Side{Tokens: usage(1, 500, 50, 0)}, calls: &runCalls{}}
		f := scenarioCost(r, nil, Options{Prices: prices, AgentModel: model, UserModel: "m"})
		b, err := marshalIndented(f)
		require.NoError(t, err)
		require.NoError(t, os.MkdirAll(w.ScenarioDir(name), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(w.ScenarioDir(name), fileCost), b, 0o644))
	}
	line := func(name string) *resultLine { return &resultLine{Scenario: name, Domain: prefix(name)} }
	write("a__1", 2, 0, "m")
	write("a__2", 3, 0, "m")
	write("b__1", 1, 0, "m")
	write("b__2", 1, 0, "other")

	s, err := w.costSummary([]*resultLine{line("a__1"), line("a__2"), line("b__1")})
	require.NoError(t, err)
	// a__1: 2000×1 + 200×2 + 500 + 100 = 3000 µ$; a__2: 3000 + 600 + 600 = 4200; b__1: 1000 + 200 + 600 = 1800
	require.NotNil(t, s.Run.CostUSD)
	assert.InDelta(t, 0.009, *s.Run.CostUSD, 1e-12)
	assert.InDelta(t, 0.0072, *s.Domains["a"].CostUSD, 1e-12)
	assert.InDelta(t, 0.0018, *s.Domains["b"].CostUSD, 1e-12)
	assert.InDelta(t, *s.Domains["a"].CostUSD+*s.Domains["b"].CostUSD, *s.Run.CostUSD, 1e-12)
	assert.Equal(t, int64(6000), *s.Run.Agent.Prompt)
	assert.Equal(t, int64(6), *s.Run.Agent.Calls)
	assert.Equal(t, int64(3), *s.Run.User.Calls)
	assert.Equal(t, []string{"m"}, s.Run.Agent.Models)
	assert.Empty(t, s.Unknown)
	assert.InDelta(t, 0.0, *s.Run.Judge.CostUSD, 0, "no judge: nothing spent")

	s, err = w.costSummary([]*resultLine{line("a__1"), line("a__2"), line("b__1"), line("b__2")})
	require.NoError(t, err)
	assert.Nil(t, s.Run.CostUSD)
	assert.Nil(t, s.Domains["b"].CostUSD)
	assert.NotNil(t, s.Domains["a"].CostUSD)
	assert.InDelta(t, 0.009, s.Run.CostUSDKnown, 1e-12)
	assert.Equal(t, 1, s.Run.ScenariosCostUnknown)
	require.Len(t, s.Unknown, 1)
	assert.Equal(t, "b__2", s.Unknown[0].Scenario)
	assert.Contains(t, s.Unknown[0].Reason, `model "other" is not in the price table`)
	assert.Equal(t, []string{"m", "other"}, s.Run.Agent.Models)

	// A scenario without cost.json is one of unknown cost.
	require.NoError(t, os.Remove(filepath.Join(w.ScenarioDir("a__2"), fileCost)))
	s, err = w.costSummary([]*resultLine{line("a__1"), line("a__2")})
	require.NoError(t, err)
	assert.Nil(t, s.Run.CostUSD)
	assert.Nil(t, s.Run.Agent.Calls)
	assert.Contains(t, s.Unknown[0].Reason, "no cost.json")
	text := string(costText(s))
	assert.Contains(t, text, "Run: unknown over 2 scenario(s)")
	assert.Contains(t, text, "a__2: no cost.json")

	// No scenario with the file: no summary.
	require.NoError(t, os.Remove(filepath.Join(w.ScenarioDir("a__1"), fileCost)))
	s, err = w.costSummary([]*resultLine{line("a__1"), line("a__2")})
	require.NoError(t, err)
	assert.Nil(t, s)

	// The file is what the report will read: it decodes into its type.
	var back costSummaryFile
	b, err := marshalIndented(&costSummaryFile{Domains: map[string]costTotals{}})
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &back))
}
