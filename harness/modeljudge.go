package harness

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/voiceeval/schematools/agent"
)

// ModelJudge is a Judge on any agent.Model (provider/openai for an
// OpenAI-compatible server, as NeMo's LLMJudge posts to one): each
// request is one model call with the two messages NeMo's _get_payload
// sends — JudgeRequest.SystemPrompt as the system message and
// JudgeRequest.UserContent as the user's — and no tools; the verdict is
// found in the answer's text as LLMJudge._parse_response finds it (the
// text as JSON, else the first ```json fenced object, else the first flat
// object with a numeric "score"). Sampling settings (NeMo's
// --judge-temperature, --judge-top-p, --judge-seed, --judge-max-tokens)
// are the model's to send. A model error, or an answer with no verdict,
// is the Judge's error, which scores 0 as NeMo's judge_scenario does.
// Each call's usage goes to the scenario's cost.json (judge), unknown
// when the call failed or its response reported none.
func ModelJudge(m agent.Model) Judge {
	return JudgeFunc(func(ctx context.Context, req JudgeRequest) (json.RawMessage, error) {
		if m == nil {
			return nil, errors.New("harness: ModelJudge has no model")
		}
		resp, err := m.Complete(ctx, agent.Request{Messages: []agent.Message{
			{Role: agent.RoleSystem, Content: req.SystemPrompt},
			{Role: agent.RoleUser, Content: req.UserContent},
		}})
		judgeMeterOf(ctx).add(resp.Usage, err) // cost.json's judge tokens
		if err != nil {
			return nil, err
		}
		return parseVerdict(resp.Text)
	})
}
