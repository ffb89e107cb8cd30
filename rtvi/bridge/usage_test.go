package bridge_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/rtvi"
	"github.com/voiceeval/schematools/rtvi/bridge"
)

// The recorder counts the model responses (bot-llm-stopped) that came
// without a tokens entry, and the tokens entries that lack a count, which
// NeMo's bridge reads as 0; a side whose every response was reported has
// the Usage NeMo's bridge counts.
func TestRecorderCountsUsageNotReported(t *testing.T) {
	started := `{"label": "rtvi-ai", "type": "bot-llm-started"}`
	stopped := `{"label": "rtvi-ai", "type": "bot-llm-stopped"}`
	metrics := func(tokens string) string {
		return `{"label": "rtvi-ai", "type": "metrics", "data": {"tokens": [` + tokens + `]}}`
	}
	tests := []struct {
		name string
		msgs []string
		want bridge.Usage
	}{
		{"responses without metrics", []string{started, stopped, started, stopped}, bridge.Usage{Unreported: 2}},
		{"every response reported", []string{started, stopped, metrics(`{"prompt_tokens": 10, "completion_tokens": 2, "total_tokens": 12}`), started, stopped, metrics(`{"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0}`)},
			bridge.Usage{Calls: 2, Prompt: 10, Completion: 2}},
		{"one of two reported", []string{started, stopped, metrics(`{"prompt_tokens": 10, "completion_tokens": 2}`), started, stopped},
			bridge.Usage{Calls: 1, Prompt: 10, Completion: 2, Unreported: 1}},
		{"entries lacking a count", []string{metrics(`{"prompt_tokens": 10}, {"prompt_tokens": null, "completion_tokens": 3}, {"prompt_tokens": 0, "completion_tokens": 0}, {}`)},
			bridge.Usage{Calls: 4, Prompt: 10, Completion: 3, Partial: 3}},
		{"metrics without bot-llm events", []string{metrics(`{"prompt_tokens": 5, "completion_tokens": 1}`)}, bridge.Usage{Calls: 1, Prompt: 5, Completion: 1}},
		{"a response cut before its stop", []string{started}, bridge.Usage{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &bridge.Recorder{Agent: true}
			for _, m := range tt.msgs {
				e := bridge.DecodeMessage([]byte(m))
				require.NotEqual(t, bridge.KindMalformed, e.Kind, m)
				r.Handle(e)
			}
			assert.Equal(t, tt.want, r.Usage())
		})
	}
}

// What a Go bot's Emitter sends for responses with and without usage is
// what the recorder counts.
func TestRecorderReadsTheEmitter(t *testing.T) {
	ctx := context.Background()
	r := &bridge.Recorder{Agent: true}
	em := &rtvi.Emitter{Send: func(_ context.Context, msg []byte) error {
		r.Handle(bridge.DecodeMessage(msg))
		return nil
	}}
	require.NoError(t, em.LLMResponse(ctx, rtvi.Usage{PromptTokens: 7, CompletionTokens: 3, TotalTokens: 10}, "Hi"))
	require.NoError(t, em.LLMResponse(ctx, rtvi.Usage{Missing: true}))
	require.NoError(t, em.LLMResponse(ctx, rtvi.Usage{}))
	assert.Equal(t, bridge.Usage{Calls: 2, Prompt: 7, Completion: 3, Unreported: 1}, r.Usage())
}
