package gemini_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/genai"

	"github.com/voiceeval/schematools/agent"
	"github.com/voiceeval/schematools/agent/agenttest"
	"github.com/voiceeval/schematools/provider/gemini"
)

// A response none of whose chunks carried usageMetadata has
// Usage.Missing; one that did, zeros included, has not.
func TestUsageNotSentIsMissing(t *testing.T) {
	chunk := func(text string, finish genai.FinishReason, u *genai.GenerateContentResponseUsageMetadata) *genai.GenerateContentResponse {
		return &genai.GenerateContentResponse{Candidates: []*genai.Candidate{{Content: &genai.Content{Role: "model", Parts: []*genai.Part{{Text: text}}}, FinishReason: finish}},
			UsageMetadata: u}
	}
	tests := []struct {
		name    string
		chunks  []*genai.GenerateContentResponse
		missing bool
		prompt  int
	}{
		{"no usageMetadata", []*genai.GenerateContentResponse{chunk("H", "", nil), chunk("i", genai.FinishReasonStop, nil)}, true, 0},
		{"usageMetadata on the first chunk only", []*genai.GenerateContentResponse{chunk("H", "", &genai.GenerateContentResponseUsageMetadata{PromptTokenCount: 9}), chunk("i", genai.FinishReasonStop, nil)}, false, 9},
		{"zero usageMetadata", []*genai.GenerateContentResponse{chunk("Hi", genai.FinishReasonStop, &genai.GenerateContentResponseUsageMetadata{})}, false, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			seq := func(yield func(*genai.GenerateContentResponse, error) bool) {
				for _, c := range tt.chunks {
					if !yield(c, nil) {
						return
					}
				}
			}
			resp, err := gemini.ReadResponses(seq, nil, nil, 1)
			require.NoError(t, err)
			assert.Equal(t, "Hi", resp.Text)
			assert.Equal(t, tt.missing, resp.Usage.Missing)
			assert.Equal(t, tt.prompt, resp.Usage.PromptTokens)
		})
	}
}

// Options.MaxTokens sends generationConfig.maxOutputTokens, over Config's;
// by default none is sent.
func TestMaxTokensSent(t *testing.T) {
	for _, tt := range []struct {
		opts gemini.Options
		want any
	}{
		{gemini.Options{}, nil},
		{gemini.Options{MaxTokens: 0}, nil},
		{gemini.Options{MaxTokens: 128}, float64(128)},
		{gemini.Options{Config: &genai.GenerateContentConfig{MaxOutputTokens: 64}}, float64(64)},
		{gemini.Options{Config: &genai.GenerateContentConfig{MaxOutputTokens: 64}, MaxTokens: 128}, float64(128)},
	} {
		s, url := standIn(t, agenttest.Turn{Text: "ok"})
		_, err := newModel(t, url, tt.opts).Complete(context.Background(), agent.Request{Messages: user})
		require.NoError(t, err)
		reqs := s.Requests()
		require.Len(t, reqs, 1)
		var body struct {
			GenerationConfig map[string]any `json:"generationConfig"`
		}
		require.NoError(t, json.Unmarshal(reqs[0].Body, &body))
		got, ok := body.GenerationConfig["maxOutputTokens"]
		assert.Equal(t, tt.want != nil, ok, "%s", reqs[0].Body)
		if tt.want != nil {
			assert.Equal(t, tt.want, got)
		}
	}
}
