package anthropic

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/anthropics/anthropic-sdk-go/v2/packages/ssestream"

	"github.com/voiceeval/schematools/agent"
	"github.com/voiceeval/schematools/provider/anthropic/internal/blocks"
	"github.com/voiceeval/schematools/tool"
	"github.com/voiceeval/schematools/tool/schema"
)

// nativeKey is the key of this adapter's data in agent.Message.Native:
// the response's content blocks as the Messages API sent them.
const nativeKey = "anthropic"

// Defaults of a [Model]: what the zero [Options] fields mean.
const (
	defaultMaxRetries = 2
	defaultTimeout    = 60 * time.Second
	defaultMaxTokens  = 4096
)

// Options configures a [Model]. The zero value (or a nil *Options) is
// the defaults.
type Options struct {
	// BaseURL is the API's base URL (e.g. "http://127.0.0.1:8089";
	// requests go to its /v1/messages); "": ANTHROPIC_BASE_URL, else
	// Anthropic's.
	BaseURL string
	// APIKey is the API key; "": ANTHROPIC_API_KEY.
	APIKey string
	// MaxRetries is how often a failed request is retried: 0 is 2,
	// negative is none.
	MaxRetries int
	// Timeout bounds each attempt: 0 is 60 s, negative is
	// none.
	Timeout time.Duration
	// MaxTokens is max_tokens, which the API requires; less than 1 is 4096.
	MaxTokens int
	// NoStreaming sends non-streaming requests.
	NoStreaming bool
	// HTTPClient is the HTTP client; nil: the SDK's.
	HTTPClient *http.Client
	// RequestOptions are SDK request options added to every request
	// (extended thinking: option.WithJSONSet("thinking",
	// map[string]any{"type": "enabled", "budget_tokens": 2048})).
	RequestOptions []option.RequestOption
}

// config is the Options a Model runs with, defaults applied.
type config struct {
	baseURL, apiKey string
	maxRetries      int
	maxTokens       int64
	timeout         time.Duration
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
	cfg := config{baseURL: o.BaseURL, apiKey: o.APIKey, maxRetries: o.MaxRetries, maxTokens: int64(o.MaxTokens),
		timeout: o.Timeout, noStream: o.NoStreaming, httpClient: o.HTTPClient, extra: slices.Clone(o.RequestOptions)}
	switch {
	case cfg.maxRetries == 0:
		cfg.maxRetries = defaultMaxRetries
	case cfg.maxRetries < 0:
		cfg.maxRetries = 0
	}
	if cfg.timeout == 0 {
		cfg.timeout = defaultTimeout
	}
	if cfg.maxTokens < 1 {
		cfg.maxTokens = defaultMaxTokens
	}
	return cfg
}

// Model is an [agent.Model] calling one model of the Messages API. It is
// safe for concurrent use.
type Model struct {
	model  string
	client sdk.Client
	cfg    config

	mu    sync.Mutex
	tools map[*tool.Set][]json.RawMessage
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

// Complete makes one Messages request.
func (m *Model) Complete(ctx context.Context, req agent.Request) (agent.Response, error) {
	system, msgs, err := messagesOf(req.Messages)
	if err != nil {
		return agent.Response{}, err
	}
	opts := []option.RequestOption{option.WithJSONSet("messages", msgs)}
	if system != nil {
		opts = append(opts, option.WithJSONSet("system", system))
	}
	tools, err := m.export(req.Tools)
	if err != nil {
		return agent.Response{}, err
	}
	if len(tools) > 0 {
		opts = append(opts, option.WithJSONSet("tools", tools))
		if req.NoCalls {
			opts = append(opts, option.WithJSONSet("tool_choice", map[string]string{"type": "none"}))
		}
	}
	params := sdk.MessageNewParams{Model: sdk.Model(m.model), MaxTokens: m.cfg.maxTokens}
	if m.cfg.noStream {
		res, err := m.client.Messages.New(ctx, params, opts...)
		if err != nil {
			return agent.Response{}, fmt.Errorf("anthropic: %w", err)
		}
		return fromMessage(res, req.OnText)
	}
	return readStream(m.client.Messages.NewStreaming(ctx, params, opts...), req.OnText)
}

// export returns the set's Messages API tools, exported once per set.
func (m *Model) export(set *tool.Set) ([]json.RawMessage, error) {
	if set == nil {
		return nil, nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if t, ok := m.tools[set]; ok {
		return t, nil
	}
	t, err := schema.Anthropic(set.Tools(), nil)
	if err != nil {
		return nil, fmt.Errorf("anthropic: exporting the tools: %w", err)
	}
	m.tools[set] = t
	return t, nil
}

// ErrIncomplete means a stream ended before its message_delta (stop
// reason and output usage) and message_stop.
var ErrIncomplete = errors.New("anthropic: the stream ended before the message finished")

// readStream reads a stream into a Response.
func readStream(stream *ssestream.Stream[sdk.MessageStreamEventUnion], onText func(string)) (agent.Response, error) {
	defer stream.Close()
	var (
		resp             agent.Response
		acc              blocks.Accumulator
		text             strings.Builder
		started, stopped bool
		u                sdk.MessageDeltaUsage
		reported         bool // a usage object came, in message_start or message_delta
	)
	for stream.Next() {
		ev := stream.Current()
		var err error
		switch ev.Type {
		case "message_start":
			started = true
			reported = reported || ev.Message.JSON.Usage.Valid()
			mu := ev.Message.Usage
			u = sdk.MessageDeltaUsage{InputTokens: mu.InputTokens, OutputTokens: mu.OutputTokens,
				CacheReadInputTokens: mu.CacheReadInputTokens, CacheCreationInputTokens: mu.CacheCreationInputTokens}
		case "content_block_start":
			cb := ev.ContentBlock
			var input json.RawMessage
			if cb.JSON.Input.Valid() {
				input = json.RawMessage(cb.JSON.Input.Raw())
			}
			err = acc.Start(ev.Index, blocks.Start{Type: cb.Type, ID: cb.ID, Name: cb.Name, Text: cb.Text, Thinking: cb.Thinking,
				Signature: cb.Signature, Data: cb.Data, Input: input, Raw: json.RawMessage(cb.RawJSON())})
		case "content_block_delta":
			d := ev.Delta
			var v string
			switch d.Type {
			case "text_delta":
				v = d.Text
				text.WriteString(v)
				if onText != nil && v != "" {
					onText(v)
				}
			case "input_json_delta":
				v = d.PartialJSON
			case "thinking_delta":
				v = d.Thinking
			case "signature_delta":
				v = d.Signature
			}
			err = acc.Delta(ev.Index, d.Type, v)
		case "content_block_stop":
			err = acc.Stop(ev.Index)
		case "message_delta":
			resp.FinishReason = string(ev.Delta.StopReason)
			reported = reported || ev.JSON.Usage.Valid()
			// Output tokens come here; input and cache counts came in
			// message_start, and are taken from here only when sent
			// (they are cumulative).
			u.OutputTokens = ev.Usage.OutputTokens
			if ev.Usage.JSON.InputTokens.Valid() && ev.Usage.InputTokens > 0 {
				u.InputTokens = ev.Usage.InputTokens
			}
			if ev.Usage.JSON.CacheReadInputTokens.Valid() && ev.Usage.CacheReadInputTokens > 0 {
				u.CacheReadInputTokens = ev.Usage.CacheReadInputTokens
			}
			if ev.Usage.JSON.CacheCreationInputTokens.Valid() && ev.Usage.CacheCreationInputTokens > 0 {
				u.CacheCreationInputTokens = ev.Usage.CacheCreationInputTokens
			}
		case "message_stop":
			stopped = true
		}
		if err != nil {
			return agent.Response{}, fmt.Errorf("anthropic: stream: %w", err)
		}
	}
	if err := stream.Err(); err != nil {
		return agent.Response{}, fmt.Errorf("anthropic: stream: %w", err)
	}
	if !started || !stopped || resp.FinishReason == "" {
		return agent.Response{}, ErrIncomplete
	}
	for _, b := range acc.Blocks() {
		if b.Type == "tool_use" {
			resp.Calls = append(resp.Calls, tool.ModelCall{ID: b.ID, Name: b.Name, Arguments: b.Arguments()})
		}
	}
	native, err := acc.Native()
	if err != nil {
		return agent.Response{}, fmt.Errorf("anthropic: %w", err)
	}
	resp.Text, resp.Usage = text.String(), usageOf(u.InputTokens, u.OutputTokens, u.CacheReadInputTokens, u.CacheCreationInputTokens)
	resp.Usage.Missing = !reported
	resp.Native = map[string]json.RawMessage{nativeKey: native}
	return resp, nil
}

// fromMessage reads a non-streaming answer.
func fromMessage(res *sdk.Message, onText func(string)) (agent.Response, error) {
	resp := agent.Response{FinishReason: string(res.StopReason)}
	var text strings.Builder
	native := make([]json.RawMessage, 0, len(res.Content))
	for _, b := range res.Content {
		raw := json.RawMessage(b.RawJSON())
		switch b.Type {
		case "text":
			text.WriteString(b.Text)
		case "tool_use":
			args := string(b.Input)
			if strings.TrimSpace(args) == "" || args == "null" {
				args = "{}"
			}
			resp.Calls = append(resp.Calls, tool.ModelCall{ID: b.ID, Name: b.Name, Arguments: args})
		}
		if json.Valid(raw) {
			native = append(native, raw)
		}
	}
	resp.Text = text.String()
	u := res.Usage
	resp.Usage = usageOf(u.InputTokens, u.OutputTokens, u.CacheReadInputTokens, u.CacheCreationInputTokens)
	resp.Usage.Missing = !res.JSON.Usage.Valid()
	nb, err := json.Marshal(native)
	if err != nil {
		return agent.Response{}, fmt.Errorf("anthropic: %w", err)
	}
	resp.Native = map[string]json.RawMessage{nativeKey: nb}
	if resp.Text != "" && onText != nil {
		onText(resp.Text)
	}
	return resp, nil
}

// usageOf maps usage as pipecat's Anthropic service reports it: the
// prompt is every input token, input_tokens (which excludes the cache)
// plus the cache reads and writes. A response that carried no usage
// object is marked Missing by the caller.
func usageOf(input, output, cacheRead, cacheCreation int64) agent.Usage {
	prompt := int(input + cacheRead + cacheCreation)
	r, c := int(cacheRead), int(cacheCreation)
	return agent.Usage{PromptTokens: prompt, CompletionTokens: int(output), TotalTokens: prompt + int(output),
		CacheReadInputTokens: &r, CacheCreationInputTokens: &c}
}
