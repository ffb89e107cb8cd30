package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/agent/agenttest"
)

// Each role's model settings: its -<role>-llm-* flags where given, else
// -llm-*'s; the key variable, unless given, is the provider's. What
// cannot be honoured is refused.
func TestRoleModelFlags(t *testing.T) {
	base := []string{"-scenarios", "tau2_retail__0", "-out", t.TempDir()}
	llm := []string{"-llm-url", "http://127.0.0.1:1/v1", "-llm-model", "m"}
	type role struct {
		url, model, provider, keyEnv string
		timeout                      time.Duration
		maxTokens                    int
	}
	of := func(f llmFlags) role {
		return role{f.url, f.model, f.provider, f.keyEnv, f.timeout, f.maxTokens}
	}
	for _, tt := range []struct {
		name        string
		args        []string
		agent, user role
	}{
		{"gold stand-ins", nil, role{"", "", "openai", "OPENAI_API_KEY", time.Minute, 0}, role{"", "", "openai", "OPENAI_API_KEY", time.Minute, 0}},
		{"-llm-* drive both", append(llm, "-llm-timeout", "5s", "-llm-max-tokens", "64"),
			role{"http://127.0.0.1:1/v1", "m", "openai", "OPENAI_API_KEY", 5 * time.Second, 64}, role{"http://127.0.0.1:1/v1", "m", "openai", "OPENAI_API_KEY", 5 * time.Second, 64}},
		{"-llm-provider for both", append(llm, "-llm-provider", "gemini"),
			role{"http://127.0.0.1:1/v1", "m", "gemini", "GEMINI_API_KEY", time.Minute, 0}, role{"http://127.0.0.1:1/v1", "m", "gemini", "GEMINI_API_KEY", time.Minute, 0}},
		{"a role's flags override", append(llm, "-agent-llm-provider", "anthropic", "-agent-llm-url", "http://a", "-agent-llm-model", "a",
			"-agent-llm-timeout", "7s", "-user-llm-max-tokens", "9", "-user-llm-key-env", "U_KEY"),
			role{"http://a", "a", "anthropic", "ANTHROPIC_API_KEY", 7 * time.Second, 0}, role{"http://127.0.0.1:1/v1", "m", "openai", "U_KEY", time.Minute, 9}},
		{"only per-role flags", []string{"-agent-llm-url", "http://a", "-agent-llm-model", "a", "-user-llm-url", "http://u", "-user-llm-model", "u", "-user-llm-provider", "gemini"},
			role{"http://a", "a", "openai", "OPENAI_API_KEY", time.Minute, 0}, role{"http://u", "u", "gemini", "GEMINI_API_KEY", time.Minute, 0}},
		{"-llm-key-env given is every role's", append(llm, "-llm-key-env", "MY_KEY", "-user-llm-provider", "anthropic"),
			role{"http://127.0.0.1:1/v1", "m", "openai", "MY_KEY", time.Minute, 0}, role{"http://127.0.0.1:1/v1", "m", "anthropic", "MY_KEY", time.Minute, 0}},
		{"external bots' models named for cost.json", []string{"-agent-url", "ws://a", "-user-url", "ws://u", "-agent-llm-model", "a", "-llm-model", "m"},
			role{"", "a", "openai", "OPENAI_API_KEY", time.Minute, 0}, role{"", "m", "openai", "OPENAI_API_KEY", time.Minute, 0}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f, err := parse(append(append([]string{}, base...), tt.args...), io.Discard)
			require.NoError(t, err)
			assert.Equal(t, tt.agent, of(f.roles.agent), "agent")
			assert.Equal(t, tt.user, of(f.roles.user), "user")
		})
	}

	for _, tt := range []struct {
		name string
		args []string
		want string
	}{
		{"one bot on a model", []string{"-agent-llm-url", "http://a", "-agent-llm-model", "a"}, "a model drives both in-process bots or neither"},
		{"a URL without a model", append(llm, "-agent-llm-url", "http://a", "-agent-llm-model", ""), "the agent's model needs a URL and a name: -agent-llm-url and -agent-llm-model"},
		{"-llm-url without a model", []string{"-llm-url", "http://a"}, "the agent's model needs a URL and a name: -llm-url and -llm-model"},
		{"a model without a URL", []string{"-agent-llm-model", "a"}, "needs a URL and a name"},
		{"unknown provider", append(llm, "-user-llm-provider", "mistral"), `-user-llm-provider is openai, anthropic or gemini, not "mistral"`},
		{"unknown -llm-provider", append(llm, "-llm-provider", "mistral"), `-llm-provider is openai, anthropic or gemini, not "mistral"`},
		{"zero timeout", append(llm, "-agent-llm-timeout", "0s"), "-agent-llm-timeout must be positive"},
		{"negative max tokens", append(llm, "-user-llm-max-tokens", "-1"), "-user-llm-max-tokens must be positive, or 0"},
		{"a seed for anthropic", append(llm, "-agent-llm-provider", "anthropic", "-llm-seed", "1"), "anthropic's API takes no seed"},
		{"unknown judge provider", []string{"-judge-provider", "x"}, `-judge-provider is openai, anthropic or gemini, not "x"`},
		{"a judge seed for anthropic", []string{"-judge-provider", "anthropic", "-judge-seed", "1"}, "-judge-seed: anthropic's API takes no seed"},
		{"a URL for an external bot", []string{"-agent-url", "ws://a", "-user-url", "ws://u", "-user-llm-url", "http://u", "-user-llm-model", "u"}, "-user-llm-url is the in-process user's"},
		{"a provider for an external bot", []string{"-agent-url", "ws://a", "-user-url", "ws://u", "-agent-llm-provider", "gemini"}, "-agent-llm-provider is the in-process agent's"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parse(append(append([]string{}, base...), tt.args...), io.Discard)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}

// -prices is checked before anything runs: the command exits 2 with a
// message naming the problem.
func TestPricesFlagErrors(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct {
		name, text, want string
	}{
		{"not JSON", `{"m": {"input": 1`, "not JSON"},
		{"unknown key", `{"m": {"input": 1, "output": 2, "cache_input": 1}}`, `unknown key "cache_input"`},
		{"negative", `{"m": {"input": 1, "output": -2}}`, "output is negative"},
		{"missing output", `{"m": {"input": 1}}`, "output is missing"},
		{"empty", `{}`, "the table is empty"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(tt.name, " ", "_")+".json")
			require.NoError(t, os.WriteFile(path, []byte(tt.text), 0o644))
			var stdout, stderr bytes.Buffer
			code := run([]string{"-scenarios", "tau2_retail__0", "-out", t.TempDir(), "-prices", path}, &stdout, &stderr)
			assert.Equal(t, 2, code)
			assert.Contains(t, stderr.String(), "-prices "+path+": harness: prices: ")
			assert.Contains(t, stderr.String(), tt.want)
		})
	}
	var stderr bytes.Buffer
	assert.Equal(t, 2, run([]string{"-scenarios", "tau2_retail__0", "-out", t.TempDir(), "-prices", filepath.Join(dir, "absent.json")}, io.Discard, &stderr))
	assert.Contains(t, stderr.String(), "-prices: open ")
}

// costOf is a role of cost.json as the tests read it.
type costOf struct {
	Model             *string
	Calls             *int64
	CallsWithoutUsage *int64 `json:"calls_without_usage"`
	Prompt            *int64
	Completion        *int64
	CostUSD           *float64 `json:"cost_usd"`
	CostUnknown       *string  `json:"cost_unknown"`
	PerCall           []struct {
		Prompt, Completion *int64
	} `json:"per_call"`
}

type costJSON struct {
	CostUSD     *float64 `json:"cost_usd"`
	CostUnknown *string  `json:"cost_unknown"`
	Agent, User costOf
	Judge       *costOf
}

func readCost(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, v), "%s", b)
}

// roleStandins serves three stand-ins, one per role, each answering one
// dialect only: the agent (openai) plays a greeting, then tau2_airline__7's
// gold calls; the user (anthropic) answers every turn; the judge (gemini
// unless judgeDialect says otherwise) gives a verdict. judgeTurn is the
// judge's turn.
func roleStandins(t *testing.T, judgeDialect string, judgeTurn agenttest.Turn) (agentSrv, userSrv, judgeSrv *agenttest.Server, urls []string) {
	t.Helper()
	gold, _, err := (&golds{}).scripts("tau2_airline__7")
	require.NoError(t, err)
	agentSrv = agenttest.New(append([]agenttest.Turn{{Text: "Hello, how can I help?"}}, gold...)...)
	agentSrv.Dialect = "openai"
	userSrv = agenttest.New(agenttest.Turn{Text: "Yes, please go ahead."})
	userSrv.Loop, userSrv.Dialect = true, "anthropic"
	judgeSrv = agenttest.New(judgeTurn)
	judgeSrv.Loop, judgeSrv.Dialect = true, judgeDialect
	for _, s := range []*agenttest.Server{agentSrv, userSrv, judgeSrv} {
		srv := httptest.NewServer(s)
		t.Cleanup(srv.Close)
		urls = append(urls, srv.URL)
	}
	return agentSrv, userSrv, judgeSrv, urls
}

const scoreVerdict = `{"score": 1.0, "reason": "done", "nl_assertion_verdicts": []}`

// A model per role: the agent, the user simulator and the judge each on
// their own server, model and provider. Each stand-in sees only its
// role's requests, for its role's model; cost.json names each role's
// model and has its tokens (the judge's too, which metrics.json does not
// hold) and, with -prices, its cost; cost_summary.json sums them.
func TestModelPerRole(t *testing.T) {
	agentSrv, userSrv, judgeSrv, urls := roleStandins(t, "gemini", agenttest.Turn{Text: scoreVerdict})
	prices := filepath.Join(t.TempDir(), "prices.json")
	require.NoError(t, os.WriteFile(prices, []byte(`{"agent-m": {"input": 2, "output": 8}, "user-m": {"input": 0.5, "cached_input": 0.25, "output": 1},
		"judge-m": {"input": 3, "output": 15}}`), 0o644))
	const name = "tau2_airline__7"
	var stdout, stderr bytes.Buffer
	args := []string{"-scenarios", name, "-out", t.TempDir(), "-timeout", "20s", "-max-turns", "20", "-min-agent-turns", "0",
		"-agent-llm-url", urls[0] + "/v1", "-agent-llm-model", "agent-m",
		"-user-llm-url", urls[1], "-user-llm-model", "user-m", "-user-llm-provider", "anthropic", "-user-llm-max-tokens", "300",
		"-judge-url", urls[2], "-judge-model", "judge-m", "-judge-provider", "gemini",
		"-prices", prices}
	if code := run(args, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr.String())
	}
	assert.NotContains(t, stderr.String(), "cost will be unknown")
	for _, s := range []struct {
		name, dialect, model string
		srv                  *agenttest.Server
	}{{"agent", "openai", "agent-m", agentSrv}, {"user", "anthropic", "user-m", userSrv}, {"judge", "gemini", "judge-m", judgeSrv}} {
		reqs := s.srv.Requests()
		require.NotEmpty(t, reqs, "the %s's stand-in was never asked", s.name)
		for _, r := range reqs {
			assert.Equal(t, s.dialect, r.Dialect, s.name)
			assert.Equal(t, s.model, r.Model, "%s's stand-in got a request for %q", s.name, r.Model)
		}
	}
	// The agent's requests carry its tools; the user's none of the agent's.
	assert.NotEmpty(t, agentSrv.Requests()[0].Tools)
	for _, r := range userSrv.Requests() {
		assert.NotContains(t, string(r.Body), "book_reservation")
		var body struct {
			MaxTokens int `json:"max_tokens"`
		}
		require.NoError(t, json.Unmarshal(r.Body, &body))
		assert.Equal(t, 300, body.MaxTokens, "-user-llm-max-tokens")
	}
	assert.Len(t, judgeSrv.Requests(), 1)

	dir, _, _ := strings.Cut(stdout.String(), ":")
	m := readMetrics(t, dir, name)
	assert.Equal(t, 1.0, m["judge_score"])
	var c costJSON
	readCost(t, filepath.Join(dir, name, "cost.json"), &c)
	for _, r := range []struct {
		role  string
		model string
		side  *costOf
		n     int
	}{{"agent", "agent-m", &c.Agent, len(agentSrv.Requests())}, {"user", "user-m", &c.User, len(userSrv.Requests())}, {"judge", "judge-m", c.Judge, 1}} {
		require.NotNil(t, r.side, r.role)
		assert.Equal(t, r.model, *r.side.Model, r.role)
		require.NotNil(t, r.side.Calls, r.role)
		assert.Equal(t, int64(r.n), *r.side.Calls, "%s: one call per stand-in request", r.role)
		require.NotNil(t, r.side.Prompt, r.role)
		assert.Positive(t, *r.side.Prompt, r.role)
		assert.Len(t, r.side.PerCall, r.n, r.role)
		require.NotNil(t, r.side.CostUSD, "%s: %v", r.role, r.side.CostUnknown)
		assert.Positive(t, *r.side.CostUSD, r.role)
	}
	tu := m["token_usage"].(map[string]any)
	assert.Equal(t, float64(*c.Agent.Prompt), tu["agent"].(map[string]any)["prompt"], "cost.json's agent tokens are metrics.json's")
	assert.NotContains(t, tu, "judge", "metrics.json keeps NeMo's keys")
	// judge: prompt × $3 + completion × $15 per million
	assert.InDelta(t, (float64(*c.Judge.Prompt)*3+float64(*c.Judge.Completion)*15)/1e6, *c.Judge.CostUSD, 1e-12)
	require.NotNil(t, c.CostUSD, "%v", c.CostUnknown)
	assert.InDelta(t, *c.Agent.CostUSD+*c.User.CostUSD+*c.Judge.CostUSD, *c.CostUSD, 1e-12)

	var s struct {
		Run struct {
			CostUSD *float64 `json:"cost_usd"`
		}
		Domains map[string]struct {
			CostUSD *float64 `json:"cost_usd"`
		}
	}
	readCost(t, filepath.Join(dir, "cost_summary.json"), &s)
	require.NotNil(t, s.Run.CostUSD)
	assert.InDelta(t, *c.CostUSD, *s.Run.CostUSD, 1e-12)
	assert.InDelta(t, *c.CostUSD, *s.Domains["tau2_airline"].CostUSD, 1e-12)
}

// A judge that reports no usage leaves its tokens and cost unknown (null),
// not 0; a model the price table lacks leaves that role's cost unknown,
// with the reason, and the command warns before the run.
func TestUnknownCost(t *testing.T) {
	_, _, _, urls := roleStandins(t, "openai", agenttest.Turn{Text: scoreVerdict, Quirks: agenttest.Quirks{NoUsage: true}})
	prices := filepath.Join(t.TempDir(), "prices.json")
	require.NoError(t, os.WriteFile(prices, []byte(`{"agent-m": {"input": 2, "output": 8}, "judge-m": {"input": 3, "output": 15}}`), 0o644))
	const name = "tau2_airline__7"
	var stdout, stderr bytes.Buffer
	args := []string{"-scenarios", name, "-out", t.TempDir(), "-timeout", "20s", "-max-turns", "20", "-min-agent-turns", "0",
		"-agent-llm-url", urls[0] + "/v1", "-agent-llm-model", "agent-m",
		"-user-llm-url", urls[1], "-user-llm-model", "user-m", "-user-llm-provider", "anthropic",
		"-judge-url", urls[2] + "/v1/chat/completions", "-judge-model", "judge-m", "-prices", prices}
	if code := run(args, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr.String())
	}
	assert.Contains(t, stderr.String(), `-prices has no price for the user's model "user-m": its cost will be unknown`)
	dir, _, _ := strings.Cut(stdout.String(), ":")
	var c costJSON
	readCost(t, filepath.Join(dir, name, "cost.json"), &c)
	require.NotNil(t, c.Judge)
	assert.Equal(t, int64(1), *c.Judge.Calls)
	assert.Equal(t, int64(1), *c.Judge.CallsWithoutUsage)
	assert.Nil(t, c.Judge.Prompt, "unknown, not 0")
	assert.Nil(t, c.Judge.Completion, "unknown, not 0")
	assert.Nil(t, c.Judge.CostUSD, "unknown, not 0")
	require.NotNil(t, c.Judge.CostUnknown)
	assert.Contains(t, *c.Judge.CostUnknown, "1 of 1 call(s) reported no usage")
	assert.Nil(t, c.User.CostUSD)
	require.NotNil(t, c.User.CostUnknown)
	assert.Equal(t, `model "user-m" is not in the price table`, *c.User.CostUnknown)
	assert.NotNil(t, c.User.Prompt, "the user's tokens are known, only their price is not")
	assert.NotNil(t, c.Agent.CostUSD)
	assert.Nil(t, c.CostUSD)
	require.NotNil(t, c.CostUnknown)
	assert.Contains(t, *c.CostUnknown, "user: model")
	assert.Contains(t, *c.CostUnknown, "judge: 1 of 1")

	text, err := os.ReadFile(filepath.Join(dir, "cost_summary.txt"))
	require.NoError(t, err)
	assert.Contains(t, string(text), "Run: unknown over 1 scenario(s)")
	assert.Contains(t, string(text), name+": user: model \"user-m\" is not in the price table")
}
