package main

import (
	"fmt"
	"os"
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

// llmFlags are the in-process bots' model settings (-llm-*).
type llmFlags struct {
	modelFlags
	timeout     time.Duration // bound of each request attempt
	maxTokens   int           // max_completion_tokens; 0: none sent
	temperature float64       // sent when not negative
	seed        int           // sent when not negative
	textCalls   string        // "keep" (pipecat's: spoken as text) or "repair" (agent.RepairTextCalls)
	toolSteps   int           // agent.Loop.ToolSteps of each bot turn; 0: no bound
}

// The -llm-text-calls values.
const (
	textCallsKeep   = "keep"
	textCallsRepair = "repair"
)

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
// official openai-go SDK (provider/openai), each request bounded by
// -llm-timeout and, when -llm-max-tokens is set, by max_completion_tokens.
// -llm-temperature and -llm-seed are sent when set (a real model in a
// test is then reproducible); with -llm-text-calls repair, a call the
// model writes as JSON text is made a call (agent.RepairTextCalls).
func llmModel(f llmFlags) agent.Model {
	var ro []option.RequestOption
	if f.temperature >= 0 {
		ro = append(ro, option.WithJSONSet("temperature", f.temperature))
	}
	if f.seed >= 0 {
		ro = append(ro, option.WithJSONSet("seed", f.seed))
	}
	var m agent.Model = openai.New(f.model, &openai.Options{BaseURL: baseURL(f.url), APIKey: apiKey(f.keyEnv),
		Timeout: timeoutOption(f.timeout), MaxTokens: f.maxTokens, RequestOptions: ro})
	if f.textCalls == textCallsRepair {
		m = agent.RepairTextCalls(m)
	}
	return m
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
	m := openai.New(f.model, &openai.Options{
		BaseURL:     baseURL(f.url),
		APIKey:      apiKey(f.keyEnv),
		Timeout:     timeoutOption(f.timeout),
		NoStreaming: true,
		RequestOptions: []option.RequestOption{
			option.WithJSONSet("temperature", f.temperature),
			option.WithJSONSet("top_p", f.topP),
			option.WithJSONSet("seed", f.seed),
			option.WithJSONSet("max_tokens", f.maxTokens),
			option.WithJSONSet("chat_template_kwargs", map[string]any{"enable_thinking": true}),
		},
	})
	return harness.ModelJudge(m)
}

// apiKey is the key the variable env names holds, or "EMPTY" when it is
// unset or empty, or env is "" — what NeMo's vLLM configs send, and what
// this command has always sent then (never OPENAI_API_KEY in its place).
func apiKey(env string) string {
	if k := os.Getenv(env); env != "" && k != "" {
		return k
	}
	return "EMPTY"
}

// timeoutOption is openai.Options.Timeout for a -llm-timeout or
// -judge-timeout value: 0 or less is no bound (negative), as the flags
// have always meant.
func timeoutOption(d time.Duration) time.Duration {
	if d <= 0 {
		return -1
	}
	return d
}

// checkModelFlags reports a -llm or -judge setting given without its
// pair, or out of range.
func checkModelFlags(llm llmFlags, j judgeFlags) error {
	switch {
	case (llm.url == "") != (llm.model == ""):
		return fmt.Errorf("give both -llm-url and -llm-model, or neither")
	case (j.url == "") != (j.model == ""):
		return fmt.Errorf("give both -judge-url and -judge-model, or neither")
	case llm.timeout <= 0:
		return fmt.Errorf("-llm-timeout must be positive, not %v", llm.timeout)
	case llm.maxTokens < 0:
		return fmt.Errorf("-llm-max-tokens must be positive, or 0 to send none, not %d", llm.maxTokens)
	case llm.toolSteps < 0:
		return fmt.Errorf("-llm-tool-steps must be positive, or 0 for no bound, not %d", llm.toolSteps)
	case llm.textCalls != textCallsKeep && llm.textCalls != textCallsRepair:
		return fmt.Errorf("-llm-text-calls is keep or repair, not %q", llm.textCalls)
	case j.timeout <= 0 || j.maxTokens <= 0:
		return fmt.Errorf("-judge-timeout and -judge-max-tokens must be positive")
	}
	return nil
}
