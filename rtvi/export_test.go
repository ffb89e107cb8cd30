package rtvi

import "github.com/voiceeval/schematools/state"

// Internals the black-box tests check against pipecat's golden vectors
// and the Python original's checklist. They are no part of the API.
var (
	// Message and event builders.
	ServerResponse    = serverResponse
	ErrorResponse     = errorResponse
	ServerMessage     = serverMessage
	ErrorMessage      = errorMessage
	Event             = plainEvent
	TextEvent         = textEvent
	UserTranscription = userTranscriptionEvent
	MetricsEvent      = metricsEvent

	// The frame codec's details.
	MessageData       = messageData
	AppendFrame       = appendFrame
	ErrMalformedFrame = errMalformedFrame
	ErrEmptyFrame     = errEmptyFrame
	ErrInvalidFrame   = errInvalidFrame

	// What get_context_history does to a transcript.
	SanitizeContext = sanitizeContext
	PythonRepr      = pythonRepr
)

// The custom client messages and the Python-kinded handler error, which
// only the tests use.
type (
	Handler = customHandler
	Error   = pyError

	// The metrics event's payload (the Emitter sends tokens only).
	Metrics = metrics
	Metric  = metric
)

// Notifier returns the notifier update_system_prompt installs in the
// state (d.notifier).
func (d *Dispatcher) Notifier() state.Notifier { return d.notifier }

// Register adds a custom handler (see register).
func (d *Dispatcher) Register(t string, h Handler) { d.register(t, h) }
