package gemini

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"math"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"google.golang.org/genai"

	"github.com/voiceeval/schematools/agent"
	"github.com/voiceeval/schematools/tool"
	"github.com/voiceeval/schematools/tool/schema"
)

// nativeKey is the key of this adapter's data in agent.Message.Native:
// the response's parts as the API sent them (thought signatures
// included).
const nativeKey = "gemini"

// madeUpIDPrefix starts the call ids the adapter makes up for calls the
// API sent without one; such ids are never sent to the API.
const madeUpIDPrefix = "gemini-call-"

// Defaults of a [Model]: what the zero [Options] fields mean.
const (
	defaultMaxRetries = 2
	defaultRetryDelay = time.Second
	defaultTimeout    = 60 * time.Second
)

// Options configures a [Model]. The zero value (or a nil *Options) is
// the defaults.
type Options struct {
	// BaseURL is the API's base URL (e.g. "http://127.0.0.1:8089";
	// requests go to its /v1beta/models/{model}:generateContent); "":
	// the SDK's.
	BaseURL string
	// APIKey is the API key; "": GEMINI_API_KEY or GOOGLE_API_KEY, as the
	// SDK reads them.
	APIKey string
	// MaxRetries is how often a failed request is retried: 0 is 2,
	// negative is none.
	MaxRetries int
	// RetryDelay is the delay before the first retry, doubled for each
	// next one: 0 is 1 s, negative is none (the SDK does not
	// read Retry-After).
	RetryDelay time.Duration
	// Timeout bounds each request, a stream included: 0 is 60 s,
	// negative is none.
	Timeout time.Duration
	// MaxTokens bounds each response's output tokens
	// (generationConfig.maxOutputTokens, over Config's); less than 1
	// leaves Config's, else the model's, limit (the default).
	MaxTokens int
	// NoStreaming sends non-streaming requests.
	NoStreaming bool
	// HTTPClient is the HTTP client; nil: the SDK's.
	HTTPClient *http.Client
	// Config is the generation settings (temperature, thinking, …); its
	// SystemInstruction and Tools are replaced by the context's and the
	// set's.
	Config *genai.GenerateContentConfig
}

// config is the Options a Model runs with, defaults applied.
type config struct {
	baseURL, apiKey string
	maxRetries      int
	retryDelay      time.Duration
	timeout         time.Duration
	maxTokens       int32
	noStream        bool
	httpClient      *http.Client
	genConfig       *genai.GenerateContentConfig
}

// configOf applies the defaults to opts.
func configOf(opts *Options) config {
	var o Options
	if opts != nil {
		o = *opts
	}
	cfg := config{baseURL: o.BaseURL, apiKey: o.APIKey, maxRetries: o.MaxRetries, retryDelay: o.RetryDelay, timeout: o.Timeout,
		maxTokens: int32(min(max(o.MaxTokens, 0), math.MaxInt32)), noStream: o.NoStreaming, httpClient: o.HTTPClient, genConfig: o.Config}
	switch {
	case cfg.maxRetries == 0:
		cfg.maxRetries = defaultMaxRetries
	case cfg.maxRetries < 0:
		cfg.maxRetries = 0
	}
	switch {
	case cfg.retryDelay == 0:
		cfg.retryDelay = defaultRetryDelay
	case cfg.retryDelay < 0:
		cfg.retryDelay = 0
	}
	if cfg.timeout == 0 {
		cfg.timeout = defaultTimeout
	}
	return cfg
}

// Model is an [agent.Model] calling one Gemini model. It is safe for
// concurrent use.
type Model struct {
	model  string
	client *genai.Client
	cfg    config

	mu    sync.Mutex
	tools map[*tool.Set]*exported
}

// exported is a set's declarations and its tools by name.
type exported struct {
	tool   *genai.Tool
	byName map[string]tool.Tool
}

var _ agent.Model = (*Model)(nil)

// New returns a Model for the named model, on the Gemini API backend;
// opts may be nil.
func New(ctx context.Context, model string, opts *Options) (*Model, error) {
	cfg := configOf(opts)
	attempts := int32(cfg.maxRetries + 1)
	delay := cfg.retryDelay.Seconds()
	cc := &genai.ClientConfig{APIKey: cfg.apiKey, Backend: genai.BackendGeminiAPI, HTTPClient: cfg.httpClient,
		HTTPOptions: genai.HTTPOptions{BaseURL: cfg.baseURL, RetryOptions: &genai.HTTPRetryOptions{Attempts: &attempts, InitialDelay: &delay}}}
	if cfg.timeout > 0 {
		cc.HTTPOptions.Timeout = &cfg.timeout
	}
	client, err := genai.NewClient(ctx, cc)
	if err != nil {
		return nil, fmt.Errorf("gemini: %w", err)
	}
	return &Model{model: model, client: client, cfg: cfg, tools: map[*tool.Set]*exported{}}, nil
}

// Complete makes one generateContent request (streaming:
// streamGenerateContent?alt=sse).
func (m *Model) Complete(ctx context.Context, req agent.Request) (agent.Response, error) {
	system, contents, err := contentsOf(req.Messages)
	if err != nil {
		return agent.Response{}, err
	}
	ex, err := m.export(req.Tools)
	if err != nil {
		return agent.Response{}, err
	}
	gc := &genai.GenerateContentConfig{}
	if m.cfg.genConfig != nil {
		c := *m.cfg.genConfig
		gc = &c
	}
	gc.SystemInstruction, gc.Tools = system, nil
	if m.cfg.maxTokens > 0 {
		gc.MaxOutputTokens = m.cfg.maxTokens
	}
	if ex != nil && len(ex.tool.FunctionDeclarations) > 0 {
		gc.Tools = []*genai.Tool{ex.tool}
		if req.NoCalls {
			gc.ToolConfig = &genai.ToolConfig{FunctionCallingConfig: &genai.FunctionCallingConfig{Mode: genai.FunctionCallingConfigModeNone}}
		}
	}
	var seq iter.Seq2[*genai.GenerateContentResponse, error]
	if m.cfg.noStream {
		res, err := m.client.Models.GenerateContent(ctx, m.model, contents, gc)
		if err != nil {
			return agent.Response{}, fmt.Errorf("gemini: %w", err)
		}
		seq = func(yield func(*genai.GenerateContentResponse, error) bool) { yield(res, nil) }
	} else {
		seq = m.client.Models.GenerateContentStream(ctx, m.model, contents, gc)
	}
	var byName map[string]tool.Tool
	if ex != nil {
		byName = ex.byName
	}
	return readResponses(seq, req.OnText, byName, len(req.Messages))
}

// export returns the set's declarations (tool/schema.GeminiGo, read into
// the SDK's Tool), exported once per set.
func (m *Model) export(set *tool.Set) (*exported, error) {
	if set == nil {
		return nil, nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if ex, ok := m.tools[set]; ok {
		return ex, nil
	}
	ex := &exported{tool: &genai.Tool{}, byName: map[string]tool.Tool{}}
	tools := set.Tools()
	for _, t := range tools {
		ex.byName[t.Name()] = t
	}
	if len(tools) > 0 {
		raw, _, err := schema.GeminiGo(tools)
		if err != nil {
			return nil, fmt.Errorf("gemini: exporting the tools: %w", err)
		}
		if err := json.Unmarshal(raw, ex.tool); err != nil {
			return nil, fmt.Errorf("gemini: reading the exported tools: %w", err)
		}
	}
	m.tools[set] = ex
	return ex, nil
}

// ErrIncomplete means a stream ended before a finishReason.
var ErrIncomplete = errors.New("gemini: the stream ended before the response finished")

// readResponses reads a stream of responses (one for a non-streaming
// answer) into a Response: the text of the first candidate's parts that
// are not thoughts (each to onText), its calls (ids made up from
// nMessages when absent, arguments through schema.GeminiArguments for the
// tools in byName), the usage of the last response that has one (Missing
// when none has), and the parts as received in Native.
func readResponses(seq iter.Seq2[*genai.GenerateContentResponse, error], onText func(string), byName map[string]tool.Tool, nMessages int) (agent.Response, error) {
	var (
		resp  agent.Response
		text  strings.Builder
		parts []*genai.Part
		err   error
	)
	resp.Usage.Missing = true // until a response carries usageMetadata
	for r, e := range seq {
		if e != nil {
			err = e
			break
		}
		if r == nil {
			continue
		}
		if r.UsageMetadata != nil {
			resp.Usage = usageOf(r.UsageMetadata)
		}
		if len(r.Candidates) == 0 {
			if r.PromptFeedback != nil && r.PromptFeedback.BlockReason != "" {
				return agent.Response{}, fmt.Errorf("gemini: the prompt was blocked: %s", r.PromptFeedback.BlockReason)
			}
			continue
		}
		c := r.Candidates[0]
		if c == nil {
			continue
		}
		if c.Content != nil {
			for _, p := range c.Content.Parts {
				if p == nil {
					continue
				}
				parts = append(parts, p)
				if p.Text != "" && !p.Thought {
					text.WriteString(p.Text)
					if onText != nil {
						onText(p.Text)
					}
				}
			}
		}
		if c.FinishReason != "" {
			resp.FinishReason = string(c.FinishReason)
		}
	}
	if err != nil {
		return agent.Response{}, fmt.Errorf("gemini: %w", err)
	}
	if resp.FinishReason == "" {
		return agent.Response{}, ErrIncomplete
	}
	for _, p := range parts {
		fc := p.FunctionCall
		if fc == nil {
			continue
		}
		args, err := json.Marshal(fc.Args)
		if err != nil {
			return agent.Response{}, fmt.Errorf("gemini: call %s: %w", fc.Name, err)
		}
		if fc.Args == nil {
			args = []byte("{}")
		}
		a := string(args)
		if t, ok := byName[fc.Name]; ok {
			if d, err := schema.GeminiArguments(t, a); err == nil {
				a = d
			}
		}
		id := fc.ID
		if id == "" {
			id = madeUpIDPrefix + strconv.Itoa(nMessages) + "-" + strconv.Itoa(len(resp.Calls)+1)
		}
		resp.Calls = append(resp.Calls, tool.ModelCall{ID: id, Name: fc.Name, Arguments: a})
	}
	native, err := json.Marshal(parts)
	if err != nil {
		return agent.Response{}, fmt.Errorf("gemini: %w", err)
	}
	resp.Text = text.String()
	resp.Native = map[string]json.RawMessage{nativeKey: native}
	return resp, nil
}

// usageOf maps usageMetadata as pipecat's Google service does:
// PromptTokens = promptTokenCount (which includes the cached tokens),
// CompletionTokens = candidatesTokenCount, TotalTokens =
// totalTokenCount (which counts the thoughts too), CacheReadInputTokens =
// cachedContentTokenCount, ReasoningTokens = thoughtsTokenCount.
func usageOf(u *genai.GenerateContentResponseUsageMetadata) agent.Usage {
	cached, thoughts := int(u.CachedContentTokenCount), int(u.ThoughtsTokenCount)
	return agent.Usage{PromptTokens: int(u.PromptTokenCount), CompletionTokens: int(u.CandidatesTokenCount), TotalTokens: int(u.TotalTokenCount),
		CacheReadInputTokens: &cached, ReasoningTokens: &thoughts}
}
