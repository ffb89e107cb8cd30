package harness

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/internal/pyvalue"
	"github.com/voiceeval/schematools/rtvi/bridge"
)

// n_calls counts the model calls, NeMo's when every call reported its
// usage; a response without a tokens entry, or an entry lacking a count,
// makes prompt and completion unknown.
func TestTokensOfUsage(t *testing.T) {
	tests := []struct {
		name  string
		usage bridge.Usage
		want  Usage
	}{
		{"every call reported", bridge.Usage{Calls: 3, Prompt: 300, Completion: 40}, Usage{NCalls: 3, Prompt: 300, Completion: 40}},
		{"reported zeros", bridge.Usage{Calls: 2}, Usage{NCalls: 2}},
		{"no call", bridge.Usage{}, Usage{}},
		{"no usage at all", bridge.Usage{Unreported: 4}, Usage{NCalls: 4, CallsWithoutUsage: 4}},
		{"one response unreported", bridge.Usage{Calls: 2, Prompt: 200, Completion: 20, Unreported: 1}, Usage{NCalls: 3, Prompt: 200, Completion: 20, CallsWithoutUsage: 1}},
		{"an entry lacking a count", bridge.Usage{Calls: 2, Prompt: 200, Completion: 20, Partial: 1}, Usage{NCalls: 2, Prompt: 200, Completion: 20, CallsWithoutUsage: 1}},
		{"both", bridge.Usage{Calls: 2, Prompt: 200, Unreported: 2, Partial: 2}, Usage{NCalls: 4, Prompt: 200, CallsWithoutUsage: 4}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tokensOfUsage(tt.usage)
			assert.Equal(t, tt.want, got)
			assert.Equal(t, tt.want.CallsWithoutUsage == 0, got.known())
		})
	}
}

// unknownRun is a run whose agent made three model calls, one of which
// reported no usage; the user's calls all reported theirs.
func unknownRun() *Run {
	return &Run{Scenario: Scenario{Name: "eva_airline__unknown_usage", SuccessSignals: []string{signalCleanExit}}, StopReason: stopReasonExit, ScenarioDuration: 10,
		Agent: Side{Tokens: tokensOfUsage(bridge.Usage{Calls: 2, Prompt: 120, Completion: 30, Unreported: 1})},
		User:  Side{Tokens: tokensOfUsage(bridge.Usage{Calls: 2, Prompt: 50, Completion: 5})}}
}

// metrics.json keeps NeMo's keys and order; unknown counts are null, and
// our calls_without_usage follows them. Read back, they are unknown.
func TestMetricsWriteUnknownUsageAsNull(t *testing.T) {
	m := score(t, unknownRun(), opts())
	got, err := m.MarshalJSON()
	require.NoError(t, err)
	assert.Contains(t, string(got), `  "token_usage": {
    "agent": {
      "n_calls": 3,
      "prompt": null,
      "completion": null,
      "calls_without_usage": 1
    },
    "user": {
      "n_calls": 2,
      "prompt": 50,
      "completion": 5
    }
  },
`)
	tree, err := pyvalue.Loads(got)
	require.NoError(t, err)
	d, ok := tree.(pyvalue.Dict)
	require.True(t, ok, "%T", tree)
	assert.Equal(t, Usage{NCalls: 3, CallsWithoutUsage: 1}, tokensOf(d, "agent"))
	assert.Equal(t, Usage{NCalls: 2, Prompt: 50, Completion: 5}, tokensOf(d, "user"))

	// Another writer's null without our key is one call without usage.
	assert.Equal(t, Usage{NCalls: 2, Completion: 3, CallsWithoutUsage: 1},
		tokensOfDict(pyvalue.Dict{{Key: "n_calls", Value: int64(2)}, {Key: "prompt", Value: nil}, {Key: "completion", Value: int64(3)}}))
	// An absent count is NeMo's 0.
	assert.Equal(t, Usage{NCalls: 2}, tokensOfDict(pyvalue.Dict{{Key: "n_calls", Value: int64(2)}}))
}

// The turn gate counts model calls: three responses without usage clear
// --min-agent-turns 3, where NeMo's bridge would count no call.
func TestTurnGateCountsModelCalls(t *testing.T) {
	o := opts()
	o.MinAgentTurns = 3
	for _, tt := range []struct {
		usage        bridge.Usage
		insufficient bool
	}{
		{bridge.Usage{Unreported: 3}, false},
		{bridge.Usage{Calls: 1, Unreported: 2}, false},
		{bridge.Usage{Unreported: 2}, true},
		{bridge.Usage{Calls: 2}, true},
	} {
		r := unknownRun()
		r.Agent.Tokens = tokensOfUsage(tt.usage)
		assert.Equal(t, tt.insufficient, score(t, r, o).InsufficientAgentTurns, "%+v", tt.usage)
	}
}

// all_summary.txt and report.html say "unknown" instead of summing a 0;
// the known side is summed as before.
func TestSummaryAndReportSayUnknown(t *testing.T) {
	res, err := Score(t.Context(), unknownRun(), opts())
	require.NoError(t, err)
	line, err := newResultLine(res, 0)
	require.NoError(t, err)
	known := unknownRun()
	known.Scenario.Name = "eva_airline__known_usage"
	known.Agent.Tokens = Usage{NCalls: 4, Prompt: 1000, Completion: 200}
	kres, err := Score(t.Context(), known, opts())
	require.NoError(t, err)
	kline, err := newResultLine(kres, 0)
	require.NoError(t, err)

	summary := string(allSummary([]*resultLine{line, kline}, 2, 3))
	assert.Contains(t, summary, "  agent: 7 call(s), prompt=unknown, completion=unknown, total=unknown (1 call(s) without usage)\n")
	assert.Contains(t, summary, "  user: 4 call(s), prompt=100, completion=10, total=110\n")
	assert.Contains(t, summary, "  Run total: unknown (1 call(s) without usage)\n")

	agg := newAggregator(3)
	agg.Add(line)
	agg.Add(kline)
	assert.Equal(t, Usage{NCalls: 7, Prompt: 1000, Completion: 200, CallsWithoutUsage: 1}, agg.Tokens.Agent)
	assert.False(t, agg.Tokens.Agent.known())
	assert.True(t, agg.Tokens.User.known())

	onlyKnown := string(allSummary([]*resultLine{kline}, 1, 3))
	assert.Contains(t, onlyKnown, "  agent: 4 call(s), prompt=1,000, completion=200, total=1,200\n")
	assert.NotContains(t, onlyKnown, "unknown")

	page, err := renderReport(reportInput{Title: "t", Lines: []*resultLine{line, kline}, Queued: 2, MinAgentTurns: 3})
	require.NoError(t, err)
	html := string(page)
	assert.Contains(t, html, "Agent tokens <b>3 calls, unknown prompt and completion (1 without usage)</b>")
	assert.Contains(t, html, "Agent tokens <b>4 calls, 1000 prompt, 200 completion</b>")
	assert.Equal(t, 2, strings.Count(html, "User tokens <b>2 calls, 50 prompt, 5 completion</b>"))
	assert.True(t, strings.HasPrefix(html, "<!DOCTYPE html>"), "the template's definitions leave nothing before the page")
}
