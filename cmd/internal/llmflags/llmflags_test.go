package llmflags

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/agent"
	"github.com/voiceeval/schematools/agent/agenttest"
)

// Each provider's model goes to its dialect of the stand-in, with the
// model name, max tokens and the sampling settings given, in that API's
// fields; usage comes back.
func TestNewRoutesEachProvider(t *testing.T) {
	temp, topP, seed := 0.25, 0.5, 7
	for _, tt := range []struct {
		provider, dialect, path string
		seed                    bool
		// fields are the request body's settings, by JSON path.
		fields func(body map[string]any) []any
		want   []any
	}{
		{"", "openai", "/v1/chat/completions", true, func(b map[string]any) []any {
			return []any{b["max_completion_tokens"], b["temperature"], b["top_p"], b["seed"]}
		}, []any{99.0, 0.25, 0.5, 7.0}},
		{OpenAI, "openai", "/v1", true, func(b map[string]any) []any {
			return []any{b["max_completion_tokens"], b["temperature"], b["top_p"], b["seed"]}
		}, []any{99.0, 0.25, 0.5, 7.0}},
		{Anthropic, "anthropic", "", false, func(b map[string]any) []any {
			return []any{b["max_tokens"], b["temperature"], b["top_p"]}
		}, []any{99.0, 0.25, 0.5}},
		{Gemini, "gemini", "", true, func(b map[string]any) []any {
			gc, _ := b["generationConfig"].(map[string]any)
			return []any{gc["maxOutputTokens"], gc["temperature"], gc["topP"], gc["seed"]}
		}, []any{99.0, 0.25, 0.5, 7.0}},
	} {
		t.Run(tt.dialect+"/"+tt.provider, func(t *testing.T) {
			s := agenttest.New(agenttest.Turn{Text: "ok", Usage: &agenttest.Usage{PromptTokens: 11, CompletionTokens: 2, TotalTokens: 13}})
			s.Dialect = tt.dialect
			srv := httptest.NewServer(s)
			defer srv.Close()
			set := Settings{Provider: tt.provider, URL: srv.URL + tt.path, Model: "m-" + tt.dialect, APIKey: "k", Timeout: 5 * time.Second,
				MaxTokens: 99, Temperature: &temp, TopP: &topP, NoStreaming: true}
			if tt.seed {
				set.Seed = &seed
			}
			m, err := New(context.Background(), set)
			require.NoError(t, err)
			resp, err := m.Complete(context.Background(), agent.Request{Messages: []agent.Message{{Role: agent.RoleUser, Content: "hi"}}})
			require.NoError(t, err)
			assert.Equal(t, "ok", resp.Text)
			assert.Equal(t, 11, resp.Usage.PromptTokens)
			reqs := s.Requests()
			require.Len(t, reqs, 1)
			assert.Equal(t, "m-"+tt.dialect, reqs[0].Model)
			var body map[string]any
			require.NoError(t, json.Unmarshal(reqs[0].Body, &body))
			got := tt.fields(body)
			for i := range got {
				if f, ok := got[i].(float64); ok {
					got[i] = float64(float32(f)) // gemini sends float32s
				}
			}
			want := tt.want
			for i := range want {
				want[i] = float64(float32(want[i].(float64)))
			}
			assert.Equal(t, want, got)
		})
	}
}

// What the adapters cannot honour is refused, with the settings named.
func TestSettingsCheck(t *testing.T) {
	seed := 1
	assert.NoError(t, Settings{}.Check("-x"))
	assert.EqualError(t, Settings{Provider: "mistral"}.Check("-agent-llm"), `-agent-llm provider is openai, anthropic or gemini, not "mistral"`)
	assert.EqualError(t, Settings{Provider: Anthropic, Seed: &seed}.Check("-judge"), "-judge: anthropic's API takes no seed")
	_, err := New(context.Background(), Settings{Provider: Anthropic, Seed: &seed})
	assert.Error(t, err)
	assert.Equal(t, "ANTHROPIC_API_KEY", KeyEnv(Anthropic))
	assert.Empty(t, KeyEnv("x"))
	t.Setenv("LLMFLAGS_TEST_KEY", "sk-1")
	assert.Equal(t, "sk-1", APIKey("LLMFLAGS_TEST_KEY"))
	assert.Equal(t, "EMPTY", APIKey("LLMFLAGS_TEST_UNSET"))
	assert.Equal(t, "EMPTY", APIKey(""))
	assert.Equal(t, "http://h/v1", BaseURL("http://h/v1/chat/completions"))
}
