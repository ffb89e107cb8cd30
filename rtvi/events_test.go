package rtvi_test

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/rtvi"
)

func intp(n int) *int { return &n }

// Every server event, byte for byte as pipecat 1.6.0 writes it.
func TestEventsMatchPipecat(t *testing.T) {
	build := map[string][]byte{
		"bot-started-speaking":     rtvi.Event("bot-started-speaking"),
		"bot-stopped-speaking":     rtvi.Event("bot-stopped-speaking"),
		"bot-tts-started":          rtvi.Event("bot-tts-started"),
		"bot-tts-stopped":          rtvi.Event("bot-tts-stopped"),
		"bot-llm-started":          rtvi.Event("bot-llm-started"),
		"bot-llm-stopped":          rtvi.Event("bot-llm-stopped"),
		"user-started-speaking":    rtvi.Event("user-started-speaking"),
		"user-stopped-speaking":    rtvi.Event("user-stopped-speaking"),
		"bot-tts-text":             rtvi.TextEvent("bot-tts-text", " How can I help you today?"),
		"bot-tts-text non-ASCII":   rtvi.TextEvent("bot-tts-text", "Café ☕ 😀 \"q\"\n"),
		"bot-llm-text":             rtvi.TextEvent("bot-llm-text", " Sure"),
		"bot-transcription":        rtvi.TextEvent("bot-transcription", "Sure, I can help with that."),
		"user-transcription final": rtvi.UserTranscription(rtvi.TranscriptionFrame{Text: "I want to change my flight", Timestamp: "2026-08-21T12:34:56.789+00:00"}, true),
		"user-transcription partial": rtvi.UserTranscription(rtvi.TranscriptionFrame{ID: 7, Name: "TranscriptionFrame#0", Text: "I want", UserID: "user-1",
			Timestamp: "2026-08-21T12:34:56.000+00:00"}, false),
		"metrics ttfb":               rtvi.MetricsEvent(rtvi.Metrics{TTFB: []rtvi.Metric{{Processor: "OpenAILLMService#0", Model: "gpt-4o", Value: 0.412}}}),
		"metrics ttfb without model": rtvi.MetricsEvent(rtvi.Metrics{TTFB: []rtvi.Metric{{Processor: "OpenAILLMService#0", Value: 1}}}),
		"metrics processing":         rtvi.MetricsEvent(rtvi.Metrics{Processing: []rtvi.Metric{{Processor: "NemoTTSService#0", Model: "tts-1", Value: 8.7e-05}}}),
		"metrics characters":         rtvi.MetricsEvent(rtvi.Metrics{Characters: []rtvi.Metric{{Processor: "NemoTTSService#0", Model: "tts-1", Value: 27}}}),
		"metrics tokens":             rtvi.MetricsEvent(rtvi.Metrics{Tokens: []rtvi.Usage{{PromptTokens: 1830, CompletionTokens: 42, TotalTokens: 1872}}}),
		"metrics tokens zero":        rtvi.MetricsEvent(rtvi.Metrics{Tokens: []rtvi.Usage{{}}}),
		"metrics tokens with optional counts": rtvi.MetricsEvent(rtvi.Metrics{Tokens: []rtvi.Usage{{PromptTokens: 10, CompletionTokens: 5, TotalTokens: 15,
			CacheReadInputTokens: intp(4), ReasoningTokens: intp(2), OutputAudioTokens: intp(0)}}}),
		"metrics ttfb, processing and tokens": rtvi.MetricsEvent(rtvi.Metrics{
			TTFB:       []rtvi.Metric{{Processor: "a#0", Model: "m", Value: 0.25}},
			Processing: []rtvi.Metric{{Processor: "a#0", Model: "m", Value: 0.5}},
			Characters: []rtvi.Metric{{Processor: "t#0", Value: 3}},
			Tokens:     []rtvi.Usage{{PromptTokens: 1, CompletionTokens: 2, TotalTokens: 3}},
		}),
		"error":       rtvi.ErrorMessage("LLM service failed: timeout", false),
		"error fatal": rtvi.ErrorMessage("pipeline stopped", true),
	}
	f, err := os.Open("testdata/events/pipecat_events.jsonl")
	require.NoError(t, err)
	defer f.Close()
	seen := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var c struct{ Name, JSON string }
		require.NoError(t, json.Unmarshal(sc.Bytes(), &c))
		got, ok := build[c.Name]
		require.True(t, ok, "no Go case for %q", c.Name)
		assert.Equal(t, c.JSON, string(got), c.Name)
		seen++
	}
	require.NoError(t, sc.Err())
	assert.Equal(t, len(build), seen, "every Go case has a pipecat line")
}

// recorder is a Send function that keeps what it was given.
type recorder struct {
	mu   sync.Mutex
	msgs []string
}

func (r *recorder) send(_ context.Context, msg []byte) error {
	r.mu.Lock()
	r.msgs = append(r.msgs, string(msg))
	r.mu.Unlock()
	return nil
}

func (r *recorder) types() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]string, len(r.msgs))
	for i, m := range r.msgs {
		var v struct{ Type string }
		_ = json.Unmarshal([]byte(m), &v)
		out[i] = v.Type
	}
	return out
}

func TestEmitterStages(t *testing.T) {
	ctx := context.Background()
	var r recorder
	e := &rtvi.Emitter{Send: r.send}
	require.NoError(t, e.LLMResponse(ctx, rtvi.Usage{PromptTokens: 3, CompletionTokens: 2, TotalTokens: 5}, "Hi", " there"))
	require.NoError(t, e.SpokenText(ctx, "held until the bot speaks"))
	require.NoError(t, e.StartSpeaking(ctx))
	require.NoError(t, e.SpokenText(ctx, " and more"))
	require.NoError(t, e.StopSpeaking(ctx))
	require.NoError(t, e.Say(ctx, "Goodbye."))
	require.NoError(t, e.UserTranscription(ctx, rtvi.TranscriptionFrame{Text: "bye", Timestamp: "1970-01-01T00:00:00.000+00:00"}, true))
	assert.Equal(t, []string{
		"bot-llm-started", "bot-llm-text", "bot-llm-text", "bot-llm-stopped", "metrics",
		"bot-started-speaking", "bot-tts-text", "bot-tts-text", "bot-stopped-speaking",
		"bot-tts-started", "bot-started-speaking", "bot-tts-text", "bot-stopped-speaking", "bot-tts-stopped",
		"user-transcription",
	}, r.types())
	assert.Equal(t, `{"label": "rtvi-ai", "type": "metrics", "data": {"tokens": [{"prompt_tokens": 3, "completion_tokens": 2, "total_tokens": 5}]}}`, r.msgs[4])
	assert.Contains(t, r.msgs[6], "held until the bot speaks")
	assert.Equal(t, `{"label": "rtvi-ai", "type": "user-transcription", "data": {"text": "bye", "user_id": "", "timestamp": "1970-01-01T00:00:00.000+00:00", "final": true}}`, r.msgs[14])

	var zero rtvi.Emitter // drops everything, and holds nothing
	assert.NoError(t, zero.SpokenText(ctx, "nobody hears"))
	assert.NoError(t, zero.Say(ctx, "nobody hears"))
}

// Say inside an open turn joins it: one started, one stopped, and the
// turn's later text stays in the turn.
func TestEmitterSayInsideATurn(t *testing.T) {
	ctx := context.Background()
	var r recorder
	e := &rtvi.Emitter{Send: r.send}
	require.NoError(t, e.StartSpeaking(ctx))
	require.NoError(t, e.Say(ctx, "Hello."))
	require.NoError(t, e.SpokenText(ctx, " How can I help?"))
	require.NoError(t, e.StopSpeaking(ctx))
	assert.Equal(t, []string{"bot-started-speaking", "bot-tts-started", "bot-tts-text", "bot-tts-stopped",
		"bot-tts-text", "bot-stopped-speaking"}, r.types())
	assert.Contains(t, r.msgs[4], "How can I help?")
}

// Stages sent from many goroutines never interleave.
func TestEmitterConcurrentStagesStayWhole(t *testing.T) {
	ctx := context.Background()
	var r recorder
	e := &rtvi.Emitter{Send: r.send}
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() { _ = e.Say(ctx, "x") })
		wg.Go(func() { _ = e.LLMResponse(ctx, rtvi.Usage{}) })
	}
	wg.Wait()
	types := strings.Join(r.types(), " ")
	say := "bot-tts-started bot-started-speaking bot-tts-text bot-stopped-speaking bot-tts-stopped"
	llm := "bot-llm-started bot-llm-stopped metrics"
	rest := strings.ReplaceAll(strings.ReplaceAll(types, say, ""), llm, "")
	assert.Empty(t, strings.TrimSpace(rest))
	assert.Equal(t, 20, strings.Count(types, say))
	assert.Equal(t, 20, strings.Count(types, llm))
}

// Error sends pipecat's error event, byte for byte as the dispatcher's own
// (the "error" line of testdata/events/pipecat_events.jsonl); the zero
// Emitter drops it.
func TestEmitterError(t *testing.T) {
	ctx := context.Background()
	var r recorder
	e := &rtvi.Emitter{Send: r.send}
	require.NoError(t, e.Error(ctx, "LLM service failed: timeout", false))
	require.NoError(t, e.Error(ctx, "pipeline stopped", true))
	assert.Equal(t, []string{string(rtvi.ErrorMessage("LLM service failed: timeout", false)), string(rtvi.ErrorMessage("pipeline stopped", true))}, r.msgs)
	var zero rtvi.Emitter
	assert.NoError(t, zero.Error(ctx, "nobody hears", false))
}

// A response whose usage the model did not report sends no metrics event,
// as pipecat's OpenAI service sends none without a usage chunk; a
// reported zero is still sent. The Missing entries of a metrics event are
// left out.
func TestEmitterMissingUsage(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name  string
		usage rtvi.Usage
		want  []string
	}{
		{"missing", rtvi.Usage{Missing: true}, []string{"bot-llm-started", "bot-llm-text", "bot-llm-stopped"}},
		{"reported zero", rtvi.Usage{}, []string{"bot-llm-started", "bot-llm-text", "bot-llm-stopped", "metrics"}},
		{"reported", rtvi.Usage{PromptTokens: 3, CompletionTokens: 2, TotalTokens: 5}, []string{"bot-llm-started", "bot-llm-text", "bot-llm-stopped", "metrics"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var r recorder
			e := &rtvi.Emitter{Send: r.send}
			require.NoError(t, e.LLMResponse(ctx, tt.usage, "Hi"))
			assert.Equal(t, tt.want, r.types())
		})
	}
	assert.Equal(t,
		string(rtvi.MetricsEvent(rtvi.Metrics{Tokens: []rtvi.Usage{{PromptTokens: 1, CompletionTokens: 2, TotalTokens: 3}}})),
		string(rtvi.MetricsEvent(rtvi.Metrics{Tokens: []rtvi.Usage{{Missing: true}, {PromptTokens: 1, CompletionTokens: 2, TotalTokens: 3}, {Missing: true}}})))
	assert.Equal(t, `{"label": "rtvi-ai", "type": "metrics", "data": {}}`, string(rtvi.MetricsEvent(rtvi.Metrics{Tokens: []rtvi.Usage{{Missing: true}}})))
}
