package harness

import (
	"context"
	"errors"
	"testing"

	"github.com/voiceeval/schematools/agent"
)

func TestModelJudge(t *testing.T) {
	var got agent.Request
	answer := func(text string, err error) agent.Model {
		return agent.ModelFunc(func(_ context.Context, req agent.Request) (agent.Response, error) {
			got = req
			return agent.Response{Text: text}, err
		})
	}
	req := JudgeRequest{SystemPrompt: scenarioJudgePrompt, UserContent: "<reference>x</reference>"}
	tests := []struct {
		name, text string
		err        error
		want       string // the verdict; "" for an error
	}{
		{"plain JSON", `{"score": 1, "reason": "ok"}`, nil, `{"score": 1, "reason": "ok"}`},
		{"fenced after thinking", "Let me think.\n```json\n{\"score\": 0.5, \"reason\": \"half\"}\n```", nil, `{"score": 0.5, "reason": "half"}`},
		{"no verdict", "I cannot judge this.", nil, ""},
		{"model error", "", errors.New("429 rate limited"), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := ModelJudge(answer(tt.text, tt.err)).Judge(context.Background(), req)
			if tt.want == "" {
				if err == nil {
					t.Fatalf("verdict %s, want an error", v)
				}
				return
			}
			if err != nil || string(v) != tt.want {
				t.Fatalf("verdict %s (%v), want %s", v, err, tt.want)
			}
			if len(got.Messages) != 2 || got.Messages[0].Role != agent.RoleSystem || got.Messages[0].Content != scenarioJudgePrompt ||
				got.Messages[1].Role != agent.RoleUser || got.Messages[1].Content != req.UserContent || got.Tools != nil {
				t.Errorf("request %+v", got)
			}
		})
	}
	if _, err := ModelJudge(nil).Judge(context.Background(), req); err == nil {
		t.Error("no model: no error")
	}
}
