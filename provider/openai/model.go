package openai

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/ssestream"

	"github.com/voiceeval/schematools/agent"
	"github.com/voiceeval/schematools/provider/openai/internal/deltas"
	"github.com/voiceeval/schematools/tool"
	"github.com/voiceeval/schematools/tool/schema"
)

// Defaults of a [Model]: what the zero [Options] fields mean.
const (
	defaultMaxRetries = 2
	defaultTimeout    = 60 * time.Second
)

// Options configures a [Model]. The zero value (or a nil *Options) is
// the defaults.
type Options struct {
	// BaseURL is the API's base URL (e.g. "http://127.0.0.1:8089/v1");
	// "": OPENAI_BASE_URL, else OpenAI's.
	BaseURL string
	// APIKey is the API key; "": APIKeyEnv's, else OPENAI_API_KEY.
	APIKey string
	// APIKeyEnv, when APIKey is "", names the environment variable to take
	// the key from, read by New: its value, or "EMPTY" when it is unset or
	// empty — what NeMo's vLLM configs send (api_key: "EMPTY"), and what
	// an OpenAI-compatible server without authentication accepts.
	APIKeyEnv string
	// MaxRetries is how often a failed request is retried: 0 is 2,
	// negative is none.
	MaxRetries int
	// Timeout bounds each attempt: 0 is 60 s, negative is
	// none.
	Timeout time.Duration
	// MaxTokens bounds each response's output tokens (reasoning included)
	// with max_completion_tokens, which NeMo's agent configs and pipecat
	// send and OpenAI-compatible servers (llama.cpp, vLLM) read; less than
	// 1 sends none, leaving the server's limit (the default).
	MaxTokens int
	// Strict exports the tools in OpenAI's strict mode (schema.Strict).
	Strict bool
	// NoStreaming sends non-streaming requests.
	NoStreaming bool
	// HTTPClient is the HTTP client; nil: the SDK's.
	HTTPClient *http.Client
	// RequestOptions are SDK request options added to every request (a
	// temperature: option.WithJSONSet("temperature", 0)).
	RequestOptions []option.RequestOption
}

// config is the Options a Model runs with, defaults applied.
type config struct {
	baseURL, apiKey string
	maxRetries      int
	maxTokens       int64
	timeout         time.Duration
	strict          bool
	noStream        bool
	httpClient      *http.Client
	extra           []option.RequestOption
}

// configOf applies the defaults to opts.
func configOf(opts *Options) config {
	var o Options
	if opts != nil {
		o = *opts
	}
	cfg := config{baseURL: o.BaseURL, apiKey: o.APIKey, maxRetries: o.MaxRetries, maxTokens: int64(max(o.MaxTokens, 0)),
		timeout: o.Timeout, strict: o.Strict, noStream: o.NoStreaming, httpClient: o.HTTPClient, extra: slices.Clone(o.RequestOptions)}
	if cfg.apiKey == "" && o.APIKeyEnv != "" {
		cfg.apiKey = os.Getenv(o.APIKeyEnv)
		if cfg.apiKey == "" {
			cfg.apiKey = "EMPTY"
		}
	}
	switch {
	case cfg.maxRetries == 0:
		cfg.maxRetries = defaultMaxRetries
	case cfg.maxRetries < 0:
		cfg.maxRetries = 0
	}
	if cfg.timeout == 0 {
		cfg.timeout = defaultTimeout
	}
	return cfg
}

// Model is an [agent.Model] calling one model of a Chat Completions API.
// It is safe for concurrent use.
type Model struct {
	model  string
	client sdk.Client
	cfg    config

	mu    sync.Mutex
	tools map[*tool.Set][]json.RawMessage // exports, per (immutable) set
}

var _ agent.Model = (*Model)(nil)

// New returns a Model for the named model; opts may be nil.
func New(model string, opts *Options) *Model {
	cfg := configOf(opts)
	ro := []option.RequestOption{option.WithMaxRetries(cfg.maxRetries)}
	if cfg.baseURL != "" {
		ro = append(ro, option.WithBaseURL(cfg.baseURL))
	}
	if cfg.apiKey != "" {
		ro = append(ro, option.WithAPIKey(cfg.apiKey))
	}
	if cfg.timeout > 0 {
		ro = append(ro, option.WithRequestTimeout(cfg.timeout))
	}
	if cfg.httpClient != nil {
		ro = append(ro, option.WithHTTPClient(cfg.httpClient))
	}
	ro = append(ro, cfg.extra...)
	return &Model{model: model, client: sdk.NewClient(ro...), cfg: cfg, tools: map[*tool.Set][]json.RawMessage{}}
}

// Complete makes one Chat Completions request.
func (m *Model) Complete(ctx context.Context, req agent.Request) (agent.Response, error) {
	opts, err := m.body(req)
	if err != nil {
		return agent.Response{}, err
	}
	params := sdk.ChatCompletionNewParams{Model: m.model}
	if m.cfg.maxTokens > 0 {
		params.MaxCompletionTokens = sdk.Int(m.cfg.maxTokens)
	}
	if m.cfg.noStream {
		res, err := m.client.Chat.Completions.New(ctx, params, opts...)
		if err != nil {
			return agent.Response{}, fmt.Errorf("openai: %w", err)
		}
		return fromCompletion(res, req.OnText)
	}
	params.StreamOptions = sdk.ChatCompletionStreamOptionsParam{IncludeUsage: sdk.Bool(true)}
	stream := m.client.Chat.Completions.NewStreaming(ctx, params, opts...)
	return readStream(stream, req.OnText)
}

// body returns the options that set the request's messages and tools as
// raw JSON: the context's messages as pipecat keeps them, the tools as
// tool/schema exports them.
func (m *Model) body(req agent.Request) ([]option.RequestOption, error) {
	msgs := make([]json.RawMessage, len(req.Messages))
	for i, msg := range req.Messages {
		b, err := msg.MarshalJSON()
		if err != nil {
			return nil, fmt.Errorf("openai: message %d: %w", i, err)
		}
		msgs[i] = b
	}
	opts := []option.RequestOption{option.WithJSONSet("messages", msgs)}
	tools, err := m.export(req.Tools)
	if err != nil {
		return nil, err
	}
	if len(tools) > 0 {
		opts = append(opts, option.WithJSONSet("tools", tools))
		if req.NoCalls {
			opts = append(opts, option.WithJSONSet("tool_choice", "none"))
		}
	}
	return opts, nil
}

// export returns the set's OpenAI tool definitions, exported once per set.
func (m *Model) export(set *tool.Set) ([]json.RawMessage, error) {
	if set == nil {
		return nil, nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if t, ok := m.tools[set]; ok {
		return t, nil
	}
	t, err := schema.OpenAI(set.Tools(), &schema.Options{Strict: m.cfg.strict})
	if err != nil {
		return nil, fmt.Errorf("openai: exporting the tools: %w", err)
	}
	m.tools[set] = t
	return t, nil
}

// ErrIncomplete means a stream ended before its finish_reason.
var ErrIncomplete = errors.New("openai: the stream ended before the response finished")

// readStream reads a stream into a Response.
func readStream(stream *ssestream.Stream[sdk.ChatCompletionChunk], onText func(string)) (agent.Response, error) {
	defer stream.Close()
	var (
		resp     agent.Response
		text     strings.Builder
		acc      deltas.Accumulator
		finished bool
	)
	resp.Usage.Missing = true // until a chunk carries usage
	for stream.Next() {
		ch := stream.Current()
		if ch.JSON.Usage.Valid() {
			resp.Usage = usageOf(ch.Usage)
		}
		if len(ch.Choices) == 0 {
			continue
		}
		c := ch.Choices[0]
		if c.Delta.Content != "" {
			text.WriteString(c.Delta.Content)
			if onText != nil {
				onText(c.Delta.Content)
			}
		}
		for _, tc := range c.Delta.ToolCalls {
			acc.Add(tc.Index, tc.JSON.Index.Valid(), tc.ID, tc.Function.Name, tc.Function.Arguments)
		}
		if c.FinishReason != "" {
			resp.FinishReason, finished = c.FinishReason, true
		}
	}
	if err := stream.Err(); err != nil {
		return agent.Response{}, fmt.Errorf("openai: stream: %w", err)
	}
	if !finished {
		return agent.Response{}, ErrIncomplete
	}
	resp.Text, resp.Calls = text.String(), acc.Calls()
	return resp, nil
}

// fromCompletion reads a non-streaming answer.
func fromCompletion(res *sdk.ChatCompletion, onText func(string)) (agent.Response, error) {
	if len(res.Choices) == 0 {
		return agent.Response{}, errors.New("openai: the answer has no choices")
	}
	c := res.Choices[0]
	resp := agent.Response{Text: c.Message.Content, FinishReason: c.FinishReason, Usage: agent.Usage{Missing: true}}
	if res.JSON.Usage.Valid() {
		resp.Usage = usageOf(res.Usage)
	}
	for _, tc := range c.Message.ToolCalls {
		resp.Calls = append(resp.Calls, tool.ModelCall{ID: tc.ID, Name: tc.Function.Name, Arguments: tc.Function.Arguments})
	}
	if resp.Text != "" && onText != nil {
		onText(resp.Text)
	}
	return resp, nil
}

// usageOf maps usage as pipecat's OpenAI service does (base_llm.py:
// cached_tokens and reasoning_tokens when their details are present). A
// usage object without prompt_tokens or completion_tokens is no usage
// (Missing): its zeros would read as counts.
func usageOf(u sdk.CompletionUsage) agent.Usage {
	if !u.JSON.PromptTokens.Valid() || !u.JSON.CompletionTokens.Valid() {
		return agent.Usage{Missing: true}
	}
	out := agent.Usage{PromptTokens: int(u.PromptTokens), CompletionTokens: int(u.CompletionTokens), TotalTokens: int(u.TotalTokens)}
	if u.JSON.PromptTokensDetails.Valid() {
		n := int(u.PromptTokensDetails.CachedTokens)
		out.CacheReadInputTokens = &n
	}
	if u.JSON.CompletionTokensDetails.Valid() {
		n := int(u.CompletionTokensDetails.ReasoningTokens)
		out.ReasoningTokens = &n
	}
	return out
}
