package rtviws

import (
	"context"

	"github.com/voiceeval/schematools/rtvi"
)

// Brain answers the user's turns: the LLM and its tool loop of a pipecat
// bot, or a scripted stand-in. Turns of one server never overlap: the
// scenario has one owner, which sends one frame at a time.
type Brain interface {
	// Turn answers one user turn: a send-text's content (the bridge's
	// "Hello" kickoff), a text frame's text or a transcription's. ctx
	// carries the turn's connection: pass it to tool calls, so that their
	// messages (action-applied, <exit>) go back there.
	Turn(ctx context.Context, t Turn) error
}

// A Turn's error is the server's to report: it sends the harness an RTVI
// error event with its text (as pipecat does for its LLM service's
// errors), so the harness ends the scenario at once instead of waiting
// out its duration. A panic in Turn is reported the same way.

// BrainFunc makes a function a Brain.
type BrainFunc func(ctx context.Context, t Turn) error

// Turn calls f.
func (f BrainFunc) Turn(ctx context.Context, t Turn) error { return f(ctx, t) }

// Turn is one user turn and where its answer goes.
type Turn struct {
	// Text is what the user said.
	Text string
	// Scenario is the number of the scenario the turn belongs to: the
	// server counts the scenarios it is prepared for, from 1. State a
	// brain keeps per scenario (a scripted agent's "already played")
	// belongs to this number, not to the brain.
	Scenario int
	// Events is the turn's connection's Emitter: one LLMResponse per model
	// call, the spoken text (Say, or StartSpeaking / SpokenText /
	// StopSpeaking while streaming).
	Events *rtvi.Emitter
	// Reply sends text to the harness as a pipecat text frame, as a
	// text-mode bot answers (a voice bot's TTS would speak it).
	Reply func(ctx context.Context, text string) error
}
