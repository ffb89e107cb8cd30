// Package rtviwire is the RTVI wire vocabulary shared by the bot side
// (rtvi), the harness side (rtvi/bridge) and the server (rtvi/rtviws):
// the envelope label, message and event type names, the "t" of the six
// client messages, the text-signal tags and the frame size limit. Each is
// defined here once. The protobuf frame codec itself is public API and
// lives in package rtvi ([rtvi.Frame], [rtvi.DecodeFrame],
// [rtvi.MessageFrameBytes]); see docs/decisions.md, "v1 layout (issue #40): the redesign".
package rtviwire

// Label marks every RTVI message ({"label": "rtvi-ai", ...}); messages
// with another label are not RTVI.
const Label = "rtvi-ai"

// MaxMessageBytes is the largest WebSocket message either side exchanges:
// Python websockets' default max_size (2^20 bytes), which NeMo's bridge
// lives with; past it the connection is closed with status 1009.
const MaxMessageBytes = 1 << 20

// Message types (the envelope's "type") of requests and their answers.
const (
	TypeClientMessage  = "client-message"  // client → bot: a custom request {t, d}
	TypeClientReady    = "client-ready"    // client → bot: handshake
	TypeSendText       = "send-text"       // client → bot: text to put into the conversation
	TypeBotReady       = "bot-ready"       // bot → client: handshake answer
	TypeServerResponse = "server-response" // bot → client: the answer to a client-message
	TypeErrorResponse  = "error-response"  // bot → client: a failed request
	TypeServerMessage  = "server-message"  // bot → client: unsolicited, e.g. action-applied
	TypeError          = "error"           // bot → client: a message that could not be read at all
)

// Server event types a pipecat bot emits as its pipeline runs. None
// carries an "id"; the events without a payload carry no "data" either.
const (
	TypeBotStartedSpeaking  = "bot-started-speaking"  // the bot's first audio of a response went out
	TypeBotStoppedSpeaking  = "bot-stopped-speaking"  // its audio ended
	TypeBotTTSText          = "bot-tts-text"          // {text}: what the bot said, sentence by sentence (or word by word)
	TypeBotTTSStarted       = "bot-tts-started"       // a speech synthesis began
	TypeBotTTSStopped       = "bot-tts-stopped"       // and ended
	TypeBotLLMStarted       = "bot-llm-started"       // an LLM response began
	TypeBotLLMText          = "bot-llm-text"          // {text}: one streamed chunk of it
	TypeBotLLMStopped       = "bot-llm-stopped"       // the LLM response ended
	TypeBotTranscription    = "bot-transcription"     // {text}: a sentence of LLM text (deprecated by pipecat)
	TypeUserStartedSpeaking = "user-started-speaking" // the user's turn began
	TypeUserStoppedSpeaking = "user-stopped-speaking" // and ended
	TypeUserTranscription   = "user-transcription"    // {text, user_id, timestamp, final}
	TypeMetrics             = "metrics"               // {ttfb, processing, characters, tokens}: lists of entries
)

// ActionApplied is the "type" inside a server-message's data that a
// bot's write tool sends after it changed the DB.
const ActionApplied = "action-applied"

// The six client messages an evaluation harness sends (the "t" of a
// client-message).
const (
	Reset               = "reset"
	UpdateSystemPrompt  = "update_system_prompt"
	ApplyInitialization = "apply_initialization"
	ApplySyncDelta      = "apply_sync_delta"
	GetContextHistory   = "get_context_history"
	GetScenarioSummary  = "get_scenario_summary"
)

// The tags of the text signals a bot's tools send in a server-message
// {"text": ...} (NeMo's rtvi_control.py).
const (
	ExitStart          = "<exit>"
	ExitEnd            = "</exit>"
	FinalResponseStart = "<final_response>"
	FinalResponseEnd   = "</final_response>"
)

// Kickoff is the text NeMo's bridge sends the agent bot (send-text) to open
// the conversation, one second after the run connection's handshake.
const Kickoff = "Hello"

// BusyRefusal is what a bot that runs one scenario at a time (rtviws)
// says when it refuses a preparing message (reset, update_system_prompt,
// apply_initialization) because another connection's scenario is in
// progress: "<the scenario> is in progress on another connection;
// BusyRefusal (<t> refused)". The harness retries such a scenario on
// another bot of its pool instead of failing it.
const BusyRefusal = "this bot runs one scenario at a time"
