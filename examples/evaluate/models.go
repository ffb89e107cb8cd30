package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/openai/openai-go/v3/option"
	"github.com/voiceeval/schematools/agent"
	"github.com/voiceeval/schematools/harness"
	"github.com/voiceeval/schematools/provider/openai"
)

// modelFlags are an OpenAI-compatible server's settings.
type modelFlags struct {
	url, model, keyEnv string
}

// judgeFlags are NeMo's judge settings (run_evaluation.py's --judge-*).
type judgeFlags struct {
	modelFlags
	timeout             time.Duration
	temperature, topP   float64
	seed, maxTokens     int
	threshold           float64
	includeConversation bool
}

// baseURL is the SDK's base URL for a server URL given as NeMo gives it:
// the chat completions endpoint (http://host:8000/v1/chat/completions) or
// its base (http://host:8000/v1).
func baseURL(u string) string {
	return strings.TrimSuffix(strings.TrimSuffix(u, "/"), "/chat/completions")
}

// llmModel is the model of the in-process bots with -llm-url (both roles:
// the agent and the user simulator, each on its own context), through the
// official openai-go SDK (provider/openai).
func llmModel(f modelFlags) agent.Model {
	return openai.New(f.model, openai.WithBaseURL(baseURL(f.url)), openai.WithAPIKeyFromEnv(f.keyEnv))
}

// judge returns the run's judge: nil without -judge-url and -judge-model
// (NeMo's --judge-url ""), else NeMo's LLMJudge settings on provider/openai
// — one non-streaming request per scenario with its sampling settings and
// chat_template_kwargs {"enable_thinking": true}, as run_evaluation.py
// sends them.
func judge(f judgeFlags) harness.Judge {
	if f.url == "" || f.model == "" {
		return nil
	}
	m := openai.New(f.model,
		openai.WithBaseURL(baseURL(f.url)),
		openai.WithAPIKeyFromEnv(f.keyEnv),
		openai.WithTimeout(f.timeout),
		openai.WithoutStreaming(),
		openai.WithRequestOptions(
			option.WithJSONSet("temperature", f.temperature),
			option.WithJSONSet("top_p", f.topP),
			option.WithJSONSet("seed", f.seed),
			option.WithJSONSet("max_tokens", f.maxTokens),
			option.WithJSONSet("chat_template_kwargs", map[string]any{"enable_thinking": true}),
		))
	return harness.ModelJudge(m)
}

// checkModelFlags reports a -llm or -judge setting given without its
// pair.
func checkModelFlags(llm modelFlags, j judgeFlags) error {
	switch {
	case (llm.url == "") != (llm.model == ""):
		return fmt.Errorf("give both -llm-url and -llm-model, or neither")
	case (j.url == "") != (j.model == ""):
		return fmt.Errorf("give both -judge-url and -judge-model, or neither")
	case j.timeout <= 0 || j.maxTokens <= 0:
		return fmt.Errorf("-judge-timeout and -judge-max-tokens must be positive")
	}
	return nil
}
