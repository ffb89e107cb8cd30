package calltest_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/agent"
	"github.com/voiceeval/schematools/calltest"
)

func TestParseVerdict(t *testing.T) {
	tests := []struct {
		text   string
		pass   bool
		reason string
		bad    string // a part of the error, "" when it parses
	}{
		{text: `{"verdict": "pass", "reason": "the reason is the user's"}`, pass: true, reason: "the reason is the user's"},
		{text: `{"reason": "no", "verdict": "fail"}`, reason: "no"},
		{text: "  \n{\"verdict\":\"pass\",\"reason\":\"\"}\n", pass: true},
		{text: "```json\n{\"verdict\": \"pass\", \"reason\": \"ok\"}\n```", pass: true, reason: "ok"},
		{text: "```\n{\"verdict\": \"fail\", \"reason\": \"no\"}\n```", reason: "no"},
		{text: "```python\n{\"verdict\": \"pass\", \"reason\": \"ok\"}\n```", bad: "not a JSON object"},
		{text: ``, bad: "not a JSON object"},
		{text: `pass`, bad: "not a JSON object"},
		{text: `["pass"]`, bad: "not a JSON object"},
		{text: `Verdict: {"verdict": "pass", "reason": "ok"}`, bad: "not a JSON object"},
		{text: `{"verdict": "pass", "reason": "ok"} but really fail`, bad: "text after the object"},
		{text: `{"verdict": "pass", "reason": "ok"}{"verdict": "fail", "reason": "x"}`, bad: "text after the object"},
		{text: `{"verdict": "pass", "reason": "ok"`, bad: "malformed JSON"},
		{text: `{"verdict": "PASS", "reason": "ok"}`, bad: `verdict "PASS"`},
		{text: `{"verdict": "yes", "reason": "ok"}`, bad: `verdict "yes"`},
		{text: `{"verdict": true, "reason": "ok"}`, bad: `"verdict" missing or not a string`},
		{text: `{"verdict": null, "reason": "ok"}`, bad: `"verdict" missing or not a string`},
		{text: `{"reason": "ok"}`, bad: `"verdict" missing or not a string`},
		{text: `{"verdict": "pass"}`, bad: `"reason" missing or not a string`},
		{text: `{"verdict": "pass", "reason": null}`, bad: `"reason" missing or not a string`},
		{text: `{"verdict": "pass", "reason": ["ok"]}`, bad: `"reason" missing or not a string`},
		{text: `{"verdict": "fail", "verdict": "pass", "reason": "ok"}`, bad: `key "verdict" given twice`},
		{text: `{"verdict": "pass", "reason": "ok", "confidence": 0.2}`, bad: `unexpected key "confidence"`},
	}
	for _, tc := range tests {
		t.Run(tc.text, func(t *testing.T) {
			pass, reason, err := calltest.ParseVerdict(tc.text)
			if tc.bad != "" {
				require.ErrorIs(t, err, calltest.ErrVerdict)
				assert.ErrorContains(t, err, tc.bad)
				assert.False(t, pass)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.pass, pass)
			assert.Equal(t, tc.reason, reason)
		})
	}
}

func TestJudgePromptIsOurs(t *testing.T) {
	assert.True(t, strings.HasPrefix(calltest.JudgePrompt, "This prompt is schematools' own"))
	assert.Contains(t, calltest.JudgePrompt, `{"verdict": "pass", "reason":`)
}

// The judge sends the prompt and the question; pass, fail, an unreadable
// answer and a model error give pass, fail (mismatch) and Unknown.
func TestModelJudge(t *testing.T) {
	test := calltest.Test{
		Name:    "reason",
		History: []calltest.Turn{{Role: "user", Message: "Cancel ORD-001, it took too long."}},
		Expect:  []calltest.Expectation{{Tool: "cancel_order", Params: []calltest.ParamCheck{calltest.Judged("reason", "the reason the user gave")}}},
	}
	step := calltest.Step{Calls: []calltest.Call{{Name: "cancel_order", Arguments: map[string]any{"order_id": "ORD-001", "reason": "took too long"}}}}
	tests := []struct {
		name   string
		answer string
		err    error
		status calltest.Status
		code   string
	}{
		{"pass", `{"verdict": "pass", "reason": "it is the user's reason"}`, nil, calltest.Pass, "ok"},
		{"fail", `{"verdict": "fail", "reason": "not what the user said"}`, nil, calltest.Fail, "mismatch"},
		{"unparseable", `Yes, it passes.`, nil, calltest.Unknown, "judge_error"},
		{"model error", "", errors.New("HTTP 500"), calltest.Unknown, "judge_error"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got agent.Request
			m := agent.ModelFunc(func(_ context.Context, req agent.Request) (agent.Response, error) {
				got = req
				return agent.Response{Text: tc.answer}, tc.err
			})
			res, err := calltest.Check(context.Background(), test, step, &calltest.Options{Judge: calltest.ModelJudge(m, nil)})
			require.NoError(t, err)
			assert.Equal(t, tc.status, res.Status)
			require.Len(t, res.Expectations[0].Params, 1)
			assert.Equal(t, tc.code, res.Expectations[0].Params[0].Code)

			require.Len(t, got.Messages, 2)
			assert.Nil(t, got.Tools)
			assert.Equal(t, agent.Message{Role: "system", Content: calltest.JudgePrompt}, got.Messages[0])
			var q map[string]any
			require.NoError(t, json.Unmarshal([]byte(got.Messages[1].Content), &q))
			assert.Equal(t, map[string]any{
				"criterion":    "the reason the user gave",
				"path":         "reason",
				"value":        "took too long",
				"call":         map[string]any{"name": "cancel_order", "arguments": map[string]any{"order_id": "ORD-001", "reason": "took too long"}},
				"conversation": []any{map[string]any{"role": "user", "message": "Cancel ORD-001, it took too long."}},
			}, q)
		})
	}
}

func TestModelJudgePrompt(t *testing.T) {
	var sys string
	m := agent.ModelFunc(func(_ context.Context, req agent.Request) (agent.Response, error) {
		sys = req.Messages[0].Content
		return agent.Response{Text: `{"verdict": "pass", "reason": "ok"}`}, nil
	})
	pass, _, err := calltest.ModelJudge(m, &calltest.JudgeOptions{Prompt: "Judge."}).Judge(context.Background(), calltest.Question{Criterion: "c"})
	require.NoError(t, err)
	assert.True(t, pass)
	assert.Equal(t, "Judge.", sys)
}
