package harness_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/agent"
	"github.com/voiceeval/schematools/agent/agenttest"
	"github.com/voiceeval/schematools/harness"
	"github.com/voiceeval/schematools/tool"
)

// cachedModel reports cached prompt tokens on every response of m.
type cachedModel struct {
	m      agent.Model
	cached int
}

func (c cachedModel) Complete(ctx context.Context, r agent.Request) (agent.Response, error) {
	resp, err := c.m.Complete(ctx, r)
	n := c.cached
	resp.Usage.CacheReadInputTokens = &n
	return resp, err
}

// usageModel answers every call with text and usage.
type usageModel struct {
	text  string
	usage agent.Usage
}

func (m usageModel) Complete(context.Context, agent.Request) (agent.Response, error) {
	return agent.Response{Text: m.text, Usage: m.usage, FinishReason: "stop"}, nil
}

// The cost files as a test reads them.
type (
	costCall struct {
		Prompt, Completion *int64
		CachedPrompt       *int64 `json:"cached_prompt"`
	}
	costSide struct {
		Model             *string
		Calls             *int64
		CallsWithoutUsage *int64 `json:"calls_without_usage"`
		Prompt            *int64
		Completion        *int64
		CachedPrompt      *int64     `json:"cached_prompt"`
		CostUSD           *float64   `json:"cost_usd"`
		CostUnknown       *string    `json:"cost_unknown"`
		PerCall           []costCall `json:"per_call"`
		PerCallNotListed  int64      `json:"per_call_not_listed"`
	}
	costFile struct {
		Scenario, Domain string
		CostUSD          *float64 `json:"cost_usd"`
		CostUnknown      *string  `json:"cost_unknown"`
		Agent, User      costSide
		Judge            *costSide
	}
	costTotals struct {
		Scenarios            int
		CostUSD              *float64 `json:"cost_usd"`
		CostUSDKnown         float64  `json:"cost_usd_known"`
		ScenariosCostUnknown int      `json:"scenarios_cost_unknown"`
		Agent, User, Judge   costSide
	}
	costSummary struct {
		Run     costTotals
		Domains map[string]costTotals
		Unknown []struct{ Scenario, Reason string }
	}
)

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, v), "%s", b)
}

// costBots serves a bot pair whose models report their usage: each agent
// call 1000 prompt tokens (400 of them cached) and 100 completion, each
// user call 200 and 20.
func costBots(t *testing.T) harness.BotPair {
	t.Helper()
	agentUsage := &agenttest.Usage{PromptTokens: 1000, CompletionTokens: 100, TotalTokens: 1100}
	scripted := &agenttest.Model{Fallback: agent.Response{Text: "Goodbye.", FinishReason: "stop", Usage: agent.Usage{PromptTokens: 1000, CompletionTokens: 100}}}
	agentURL, stopAgent, err := serveBot(cachedModel{m: scripted, cached: 400})
	require.NoError(t, err)
	t.Cleanup(stopAgent)
	userURL, stopUser, err := serveBot(usageModel{text: "Please note: buy milk.", usage: agent.Usage{PromptTokens: 200, CompletionTokens: 20}})
	require.NoError(t, err)
	t.Cleanup(stopUser)
	return harness.BotPair{AgentURL: agentURL, UserURL: userURL, Prepare: func(context.Context, *harness.Scenario, int) error {
		scripted.Arm([]agenttest.Turn{
			{Text: "Hello, what shall I note?", Usage: agentUsage},
			{Calls: []tool.ModelCall{{ID: "c1", Name: "add_note", Arguments: `{"text": "buy milk"}`}}, Usage: agentUsage},
			{Text: "Noted. Goodbye!", Calls: []tool.ModelCall{{ID: "c2", Name: "EndConversationTool", Arguments: `{}`}}, Usage: agentUsage},
		}, false)
		return nil
	}}
}

// A run with a price table and a judge: each scenario's cost.json has
// every role's model, tokens (the judge's apart from metrics.json), calls
// one by one and cost; cost_summary.json sums them per domain and in all.
// A judge that reports no usage, or a model the table lacks, leaves that
// cost unknown — null with the reason, never 0.
func TestEvaluateWritesCost(t *testing.T) {
	bots := costBots(t)
	queue := []*harness.Scenario{notesScenario(t, "notes__1"), notesScenario(t, "notes__2"), notesScenario(t, "memo__1")}
	prices, err := harness.ParsePrices([]byte(`{"agent-m": {"input": 2, "cached_input": 0.5, "output": 8},
		"user-m": {"input": 1, "output": 4}, "judge-m": {"input": 3, "output": 15}}`))
	require.NoError(t, err)
	verdict := `{"score": 1.0, "reason": "noted"}`
	for _, tt := range []struct {
		name       string
		judgeUsage agent.Usage
		userModel  string
		known      bool
		why        string
	}{
		{"known", agent.Usage{PromptTokens: 3000, CompletionTokens: 50}, "user-m", true, ""},
		{"judge reports no usage", agent.Usage{Missing: true}, "user-m", false, "judge: 1 of 1 call(s) reported no usage"},
		{"user model not in the table", agent.Usage{PromptTokens: 3000, CompletionTokens: 50}, "user-x", false, `user: model "user-x" is not in the price table`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			o := trialOptions(t.TempDir(), bots, 1)
			o.Session.Score.Judge = harness.ModelJudge(usageModel{text: verdict, usage: tt.judgeUsage})
			o.Session.Score.Prices = prices
			o.Session.Score.AgentModel, o.Session.Score.UserModel, o.Session.Score.JudgeModel = "agent-m", tt.userModel, "judge-m"
			ev, err := harness.Evaluate(context.Background(), queue, o)
			require.NoError(t, err)
			require.Zero(t, ev.NotSuccessful)

			byDomain := map[string]float64{}
			var run float64
			for _, sc := range queue {
				var f costFile
				readJSON(t, filepath.Join(ev.Dir, sc.Name, "cost.json"), &f)
				assert.Equal(t, sc.Name, f.Scenario)
				// The agent: its model's calls as metrics.json counts them, each listed
				// with its cached tokens.
				var m struct {
					TokenUsage struct {
						Agent, User struct {
							NCalls             *int64 `json:"n_calls"`
							Prompt, Completion *int64
						}
					} `json:"token_usage"`
				}
				readJSON(t, filepath.Join(ev.Dir, sc.Name, "metrics.json"), &m)
				a := f.Agent
				assert.Equal(t, "agent-m", *a.Model)
				require.NotNil(t, a.Calls)
				assert.Equal(t, *m.TokenUsage.Agent.NCalls, *a.Calls)
				assert.Equal(t, *m.TokenUsage.Agent.Prompt, *a.Prompt)
				assert.Len(t, a.PerCall, int(*a.Calls))
				assert.Zero(t, a.PerCallNotListed)
				for _, c := range a.PerCall {
					assert.Equal(t, int64(1000), *c.Prompt)
					assert.Equal(t, int64(400), *c.CachedPrompt)
				}
				assert.Equal(t, 400**a.Calls, *a.CachedPrompt)
				// calls × (600 × $2 + 400 × $0.5 + 100 × $8) per million
				assert.InDelta(t, float64(*a.Calls)*0.0022, *a.CostUSD, 1e-12)
				assert.Equal(t, *m.TokenUsage.User.NCalls, *f.User.Calls)
				assert.Positive(t, *f.User.Calls)
				assert.Nil(t, f.User.CachedPrompt, "the user's calls reported no cached tokens")

				j := f.Judge
				require.NotNil(t, j)
				assert.Equal(t, "judge-m", *j.Model)
				assert.Equal(t, int64(1), *j.Calls)
				if tt.judgeUsage.Missing {
					assert.Nil(t, j.Prompt, "unknown, not 0")
					assert.Nil(t, j.Completion)
					assert.Nil(t, j.CostUSD)
					assert.Equal(t, int64(1), *j.CallsWithoutUsage)
				} else {
					assert.Equal(t, int64(3000), *j.Prompt)
					assert.InDelta(t, 0.00975, *j.CostUSD, 1e-12) // 3000 × $3 + 50 × $15
				}
				if !tt.known {
					assert.Nil(t, f.CostUSD)
					require.NotNil(t, f.CostUnknown)
					assert.Contains(t, *f.CostUnknown, tt.why)
					continue
				}
				require.NotNil(t, f.CostUSD, "%v", f.CostUnknown)
				assert.InDelta(t, *a.CostUSD+*f.User.CostUSD+*j.CostUSD, *f.CostUSD, 1e-12)
				byDomain[f.Domain] += *f.CostUSD
				run += *f.CostUSD
			}

			var s costSummary
			readJSON(t, filepath.Join(ev.Dir, "cost_summary.json"), &s)
			text, err := os.ReadFile(filepath.Join(ev.Dir, "cost_summary.txt"))
			require.NoError(t, err)
			assert.Equal(t, 3, s.Run.Scenarios)
			assert.Equal(t, 2, s.Domains["notes"].Scenarios)
			// report.html shows the cost: the run's total (or unknown, with
			// why), each domain's, and each scenario's.
			report, err := os.ReadFile(filepath.Join(ev.Dir, "report.html"))
			require.NoError(t, err)
			html := string(report)
			assert.Contains(t, html, `<h2>Cost</h2>`)
			assert.Contains(t, html, `<tr data-cost="memo">`)
			if !tt.known {
				assert.Contains(t, html, `<tr data-cost="Run"><td>Run</td><td class="num">3</td><td class="num">unknown <span class="small">`)
				assert.Contains(t, html, "Why some costs are unknown")
				assert.Contains(t, html, "<span>Cost <b>unknown: ")
			} else {
				assert.Contains(t, html, `<tr data-cost="Run"><td>Run</td><td class="num">3</td><td class="num">$`+strconv.FormatFloat(*s.Run.CostUSD, 'f', -1, 64)+`</td>`)
				assert.NotContains(t, html, "Why some costs are unknown")
			}
			if !tt.known {
				assert.Nil(t, s.Run.CostUSD)
				assert.Equal(t, 3, s.Run.ScenariosCostUnknown)
				require.Len(t, s.Unknown, 3)
				assert.Contains(t, s.Unknown[0].Reason, tt.why)
				assert.Contains(t, string(text), "Run: unknown over 3 scenario(s)")
				return
			}
			require.NotNil(t, s.Run.CostUSD)
			assert.InDelta(t, run, *s.Run.CostUSD, 1e-9)
			for d, want := range byDomain {
				assert.InDelta(t, want, *s.Domains[d].CostUSD, 1e-9, d)
			}
			assert.Len(t, s.Domains, 2)
			assert.InDelta(t, *s.Run.Agent.CostUSD+*s.Run.User.CostUSD+*s.Run.Judge.CostUSD, *s.Run.CostUSD, 1e-9)
			assert.Equal(t, int64(3), *s.Run.Judge.Calls)
			assert.Empty(t, s.Unknown)
			assert.Contains(t, string(text), "Run: $")
		})
	}
}
