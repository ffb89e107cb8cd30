package rtvi

import (
	"context"
	"slices"
	"strconv"
	"sync"

	"github.com/voiceeval/schematools/internal/pyjson"
	"github.com/voiceeval/schematools/internal/rtviwire"
)

// plainEvent returns a server event without payload: {"label": "rtvi-ai",
// "type": typ}, as pipecat writes bot-started-speaking and its kin.
func plainEvent(typ string) []byte { return append(envelopeHead(nil, typ), '}') }

// textEvent returns a server event whose data is {"text": text}:
// bot-tts-text, bot-llm-text, bot-transcription.
func textEvent(typ, text string) []byte {
	b := envelopeStart(nil, typ, "", false)
	b = append(b, `"data": {"text": `...)
	b = appendString(b, text)
	return append(b, "}}"...)
}

// userTranscriptionEvent returns the user-transcription event of t: data
// {"text", "user_id", "timestamp", "final"}, all always present (t's ID
// and Name are not sent).
func userTranscriptionEvent(t TranscriptionFrame, final bool) []byte {
	b := envelopeStart(nil, rtviwire.TypeUserTranscription, "", false)
	b = append(b, `"data": {"text": `...)
	b = appendString(b, t.Text)
	b = append(b, `, "user_id": `...)
	b = appendString(b, t.UserID)
	b = append(b, `, "timestamp": `...)
	b = appendString(b, t.Timestamp)
	b = append(b, `, "final": `...)
	b = strconv.AppendBool(b, final)
	return append(b, "}}"...)
}

// metrics is the payload of one metrics event. pipecat sends one event per
// measurement, so usually one list holds one entry; empty lists are left
// out. A bot sends only tokens ([Emitter.LLMResponse]): NeMo logs ttfb and
// ignores processing and characters.
type metrics struct {
	TTFB       []metric // time to first byte, seconds
	Processing []metric // processing time, seconds
	Characters []metric // characters sent to speech synthesis (Value is a count)
	Tokens     []Usage  // one entry per LLM response; entries with Missing set are left out
}

// metric is one measurement of a pipeline stage: the processor's name
// ("OpenAILLMService#0"), its model ("" leaves "model" out) and the value.
type metric struct {
	Processor string
	Model     string
	Value     float64
}

// Usage is the token count of one LLM response. The optional counts
// are written only when set. pipecat writes no processor or model for
// them. Its fields are those of agent.Usage, so Usage(u) converts
// one; the zero Usage is a reported count of zero tokens.
type Usage struct {
	PromptTokens, CompletionTokens, TotalTokens int
	CacheReadInputTokens                        *int
	CacheCreationInputTokens                    *int
	ReasoningTokens                             *int
	InputAudioTokens                            *int
	OutputAudioTokens                           *int
	CacheReadInputAudioTokens                   *int
	// Missing says the model reported no usage for the response: there is
	// no tokens entry to send, as pipecat sends none when its LLM service
	// got no usage.
	Missing bool
}

// metricsEvent returns the metrics event of m: data holds "ttfb",
// "processing", "characters" and "tokens", in that order, each only when
// it has entries (tokens entries with Missing set are none).
func metricsEvent(m metrics) []byte {
	b := envelopeStart(nil, rtviwire.TypeMetrics, "", false)
	b = append(b, `"data": {`...)
	first := true
	key := func(k string) {
		if !first {
			b = append(b, ", "...)
		}
		first = false
		b = append(b, `"`+k+`": [`...)
	}
	for _, kind := range []struct {
		name    string
		entries []metric
		count   bool
	}{{"ttfb", m.TTFB, false}, {"processing", m.Processing, false}, {"characters", m.Characters, true}} {
		if len(kind.entries) == 0 {
			continue
		}
		key(kind.name)
		for i, e := range kind.entries {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = append(b, `{"processor": `...)
			b = appendString(b, e.Processor)
			if e.Model != "" {
				b = append(b, `, "model": `...)
				b = appendString(b, e.Model)
			}
			b = append(b, `, "value": `...)
			if kind.count {
				b = strconv.AppendInt(b, int64(e.Value), 10)
			} else {
				b = pyjson.AppendFloat(b, e.Value)
			}
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	tokens := slices.DeleteFunc(slices.Clone(m.Tokens), func(u Usage) bool { return u.Missing })
	if len(tokens) > 0 {
		key("tokens")
		for i, u := range tokens {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = appendUsage(b, u)
		}
		b = append(b, ']')
	}
	return append(b, "}}"...)
}

func appendUsage(b []byte, u Usage) []byte {
	b = append(b, `{"prompt_tokens": `...)
	b = strconv.AppendInt(b, int64(u.PromptTokens), 10)
	b = append(b, `, "completion_tokens": `...)
	b = strconv.AppendInt(b, int64(u.CompletionTokens), 10)
	b = append(b, `, "total_tokens": `...)
	b = strconv.AppendInt(b, int64(u.TotalTokens), 10)
	for _, opt := range []struct {
		name string
		n    *int
	}{
		{"cache_read_input_tokens", u.CacheReadInputTokens},
		{"cache_creation_input_tokens", u.CacheCreationInputTokens},
		{"reasoning_tokens", u.ReasoningTokens},
		{"input_audio_tokens", u.InputAudioTokens},
		{"output_audio_tokens", u.OutputAudioTokens},
		{"cache_read_input_audio_tokens", u.CacheReadInputAudioTokens},
	} {
		if opt.n != nil {
			b = append(b, `, "`+opt.name+`": `...)
			b = strconv.AppendInt(b, int64(*opt.n), 10)
		}
	}
	return append(b, '}')
}

// Emitter sends the server events of a bot's pipeline through Send, the
// function that writes the bot's other RTVI messages (a dispatcher's
// Config.Send), so events and replies share one path. Its methods are the
// stages of a turn; each sends its events in order, and an Emitter is safe
// for concurrent use: one stage's events are never interleaved with
// another's.
//
// Like pipecat, it holds bot-tts-text that arrives while the bot is not
// speaking and sends it right after the next bot-started-speaking, since
// NeMo's bridge only counts text inside a speaking turn.
//
// An Emitter is one sink's: one connection, as pipecat has one RTVI
// processor per pipeline. Each method holds the Emitter while Send runs,
// so that one stage's events stay together and in order; so a bot with
// several connections gives each its own Emitter (its speaking state is
// that connection's too), and a slow peer then delays only its own
// stages. What Send must do:
//
//   - return within a bound: give each write a deadline (or enqueue
//     without blocking, on a bounded queue per connection);
//   - on a failed or timed-out write, return the error and close that
//     connection (its peer is gone or not reading), not retry;
//   - never call back into the Emitter.
//
// A Send error ends the stage; the events after it are not sent. Sharing
// one Emitter between connections whose Send routes by context lets one
// stalled peer hold every connection's events for its write deadline.
//
// The zero Emitter, or one with a nil Send, drops every event. Events it
// has no method for (the deprecated bot-transcription,
// user-started-speaking and user-stopped-speaking) are the bot's to
// write through its own Send.
type Emitter struct {
	Send func(ctx context.Context, msg []byte) error

	mu       sync.Mutex
	speaking bool
	held     [][]byte
}

func (e *Emitter) send(ctx context.Context, msgs ...[]byte) error {
	if e.Send == nil {
		return nil
	}
	for _, m := range msgs {
		if err := e.Send(ctx, m); err != nil {
			return err
		}
	}
	return nil
}

// StartSpeaking sends bot-started-speaking, then any text held for the
// turn.
func (e *Emitter) StartSpeaking(ctx context.Context) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.speaking = true
	msgs := append([][]byte{plainEvent(rtviwire.TypeBotStartedSpeaking)}, e.held...)
	e.held = nil
	return e.send(ctx, msgs...)
}

// StopSpeaking sends bot-stopped-speaking.
func (e *Emitter) StopSpeaking(ctx context.Context) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.speaking = false
	return e.send(ctx, plainEvent(rtviwire.TypeBotStoppedSpeaking))
}

// SpokenText sends bot-tts-text for text the bot has said (held until the
// bot speaks). NeMo's bridge concatenates a turn's texts as they are:
// include the spaces between sentences or words.
func (e *Emitter) SpokenText(ctx context.Context, text string) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.Send == nil {
		return nil
	}
	msg := textEvent(rtviwire.TypeBotTTSText, text)
	if !e.speaking {
		e.held = append(e.held, msg)
		return nil
	}
	return e.send(ctx, msg)
}

// Say sends one whole spoken turn, text standing in for its audio:
// bot-tts-started, bot-started-speaking, bot-tts-text, bot-stopped-speaking,
// bot-tts-stopped. Inside a turn opened by [Emitter.StartSpeaking], the
// text joins that turn instead (bot-tts-started, bot-tts-text,
// bot-tts-stopped), which StopSpeaking closes.
func (e *Emitter) Say(ctx context.Context, text string) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.speaking {
		return e.send(ctx, plainEvent(rtviwire.TypeBotTTSStarted), textEvent(rtviwire.TypeBotTTSText, text), plainEvent(rtviwire.TypeBotTTSStopped))
	}
	held := e.held
	e.held = nil
	msgs := append([][]byte{plainEvent(rtviwire.TypeBotTTSStarted), plainEvent(rtviwire.TypeBotStartedSpeaking)}, held...)
	msgs = append(msgs, textEvent(rtviwire.TypeBotTTSText, text), plainEvent(rtviwire.TypeBotStoppedSpeaking), plainEvent(rtviwire.TypeBotTTSStopped))
	return e.send(ctx, msgs...)
}

// LLMResponse reports one LLM response: bot-llm-started, a bot-llm-text
// for each chunk of its text (none for a response that only calls tools),
// bot-llm-stopped, then a metrics event with its token usage. NeMo's
// runner counts the agent's responses by these token entries
// (--min-agent-turns): call it once per LLM call, tool-call rounds
// included, with zero counts when there is no real model.
//
// A usage with Missing set (the model reported none) sends no metrics
// event, as pipecat's OpenAI service reports usage only for a response
// that carried it; the harness then counts the response by its
// bot-llm-stopped and says its tokens are unknown.
func (e *Emitter) LLMResponse(ctx context.Context, usage Usage, chunks ...string) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	msgs := [][]byte{plainEvent(rtviwire.TypeBotLLMStarted)}
	for _, c := range chunks {
		msgs = append(msgs, textEvent(rtviwire.TypeBotLLMText, c))
	}
	msgs = append(msgs, plainEvent(rtviwire.TypeBotLLMStopped))
	if !usage.Missing {
		msgs = append(msgs, metricsEvent(metrics{Tokens: []Usage{usage}}))
	}
	return e.send(ctx, msgs...)
}

// UserTranscription sends the user-transcription event of what a
// speech-to-text service heard: {"text", "user_id", "timestamp", "final"}
// from t's Text, UserID and Timestamp as they are (pipecat stamps UTC
// with milliseconds, "2026-08-21T12:34:56.789+00:00"), final false for an
// interim (partial) transcription.
func (e *Emitter) UserTranscription(ctx context.Context, t TranscriptionFrame, final bool) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.send(ctx, userTranscriptionEvent(t, final))
}

// Error sends pipecat's RTVI error event: {"label": "rtvi-ai", "type":
// "error", "data": {"error": text, "fatal": fatal}}, the answer a bot has
// for a frame it will not act on and cannot answer by id (user text it
// refuses, say). fatal tells the client the session cannot go on.
func (e *Emitter) Error(ctx context.Context, text string, fatal bool) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.send(ctx, errorMessage(text, fatal))
}
