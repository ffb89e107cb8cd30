// Package llmflags builds a command's model from its settings: the
// provider's adapter — provider/openai (any OpenAI-compatible Chat
// Completions server), provider/anthropic (the Messages API) or
// provider/gemini — with its URL, model, key, timeout, max tokens and
// sampling. cmd/rtvibot (-llm-provider) and cmd/evaluate (each role's
// -…-llm-provider, -judge-provider) choose their models through it.
package llmflags

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	anthropicoption "github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/openai/openai-go/v3/option"
	"github.com/voiceeval/schematools/agent"
	"github.com/voiceeval/schematools/provider/anthropic"
	"github.com/voiceeval/schematools/provider/gemini"
	"github.com/voiceeval/schematools/provider/openai"
	"google.golang.org/genai"
)

// The providers: the adapter a model goes through.
const (
	OpenAI    = "openai"
	Anthropic = "anthropic"
	Gemini    = "gemini"
)

// keyEnvs are each provider's API key variable.
var keyEnvs = map[string]string{
	OpenAI:    "OPENAI_API_KEY",
	Anthropic: "ANTHROPIC_API_KEY",
	Gemini:    "GEMINI_API_KEY",
}

// KeyEnv is the provider's API key variable (OPENAI_API_KEY,
// ANTHROPIC_API_KEY, GEMINI_API_KEY), "" for an unknown provider.
func KeyEnv(provider string) string { return keyEnvs[provider] }

// CheckProvider refuses a provider that is not openai, anthropic or
// gemini; flag names the flag that gave it.
func CheckProvider(flag, provider string) error {
	if keyEnvs[provider] == "" {
		return fmt.Errorf("%s is openai, anthropic or gemini, not %q", flag, provider)
	}
	return nil
}

// APIKey is the value of the variable env names, or "EMPTY" when it is
// unset or empty, or env is "" — what NeMo's vLLM configs send, and what a
// server without authentication accepts.
func APIKey(env string) string {
	if k := os.Getenv(env); env != "" && k != "" {
		return k
	}
	return "EMPTY"
}

// Settings are one model's.
type Settings struct {
	// Provider is the adapter: OpenAI ("" too), Anthropic or Gemini.
	Provider string
	// URL is the API's base URL: for openai the /v1 base or, as NeMo
	// gives it, the chat completions endpoint (the suffix is dropped);
	// for anthropic and gemini the server's root.
	URL, Model, APIKey string
	// Timeout bounds each request attempt: 0 is the adapter's 60 s,
	// negative is none.
	Timeout time.Duration
	// MaxTokens bounds each response's output tokens (openai:
	// max_completion_tokens; anthropic: max_tokens; gemini:
	// maxOutputTokens); 0 leaves the adapter's default.
	MaxTokens int
	// Temperature, TopP and Seed are sent when set; anthropic has no
	// seed, and New refuses one.
	Temperature, TopP *float64
	Seed              *int
	// NoStreaming sends non-streaming requests.
	NoStreaming bool
}

// Check refuses settings New would refuse: an unknown provider, a seed
// for anthropic. what names the settings in the message (a flag prefix).
func (s Settings) Check(what string) error {
	p := s.Provider
	if p == "" {
		p = OpenAI
	}
	if err := CheckProvider(what+" provider", p); err != nil {
		return err
	}
	if p == Anthropic && s.Seed != nil {
		return fmt.Errorf("%s: anthropic's API takes no seed", what)
	}
	return nil
}

// New returns the model of s on its provider's adapter.
func New(ctx context.Context, s Settings) (agent.Model, error) {
	if err := s.Check("model"); err != nil {
		return nil, err
	}
	switch s.Provider {
	case Anthropic:
		var ro []anthropicoption.RequestOption
		if s.Temperature != nil {
			ro = append(ro, anthropicoption.WithJSONSet("temperature", *s.Temperature))
		}
		if s.TopP != nil {
			ro = append(ro, anthropicoption.WithJSONSet("top_p", *s.TopP))
		}
		return anthropic.New(s.Model, &anthropic.Options{BaseURL: s.URL, APIKey: s.APIKey, Timeout: s.Timeout,
			MaxTokens: s.MaxTokens, NoStreaming: s.NoStreaming, RequestOptions: ro}), nil
	case Gemini:
		var gc *genai.GenerateContentConfig
		if s.Temperature != nil || s.TopP != nil || s.Seed != nil {
			gc = &genai.GenerateContentConfig{}
			if s.Temperature != nil {
				gc.Temperature = genai.Ptr(float32(*s.Temperature))
			}
			if s.TopP != nil {
				gc.TopP = genai.Ptr(float32(*s.TopP))
			}
			if s.Seed != nil {
				gc.Seed = genai.Ptr(int32(*s.Seed))
			}
		}
		m, err := gemini.New(ctx, s.Model, &gemini.Options{BaseURL: s.URL, APIKey: s.APIKey, Timeout: s.Timeout,
			MaxTokens: s.MaxTokens, NoStreaming: s.NoStreaming, Config: gc})
		if err != nil {
			return nil, err
		}
		return m, nil
	}
	var ro []option.RequestOption
	if s.Temperature != nil {
		ro = append(ro, option.WithJSONSet("temperature", *s.Temperature))
	}
	if s.TopP != nil {
		ro = append(ro, option.WithJSONSet("top_p", *s.TopP))
	}
	if s.Seed != nil {
		ro = append(ro, option.WithJSONSet("seed", *s.Seed))
	}
	return openai.New(s.Model, &openai.Options{BaseURL: BaseURL(s.URL), APIKey: s.APIKey, Timeout: s.Timeout,
		MaxTokens: s.MaxTokens, NoStreaming: s.NoStreaming, RequestOptions: ro}), nil
}

// BaseURL is the openai SDK's base URL for a server URL given as NeMo
// gives it: the chat completions endpoint
// (http://host:8000/v1/chat/completions) or its base (http://host:8000/v1).
func BaseURL(u string) string {
	return strings.TrimSuffix(strings.TrimSuffix(u, "/"), "/chat/completions")
}
