package rtvi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/voiceeval/schematools/internal/pyjson"
	"github.com/voiceeval/schematools/internal/pyvalue"
	"github.com/voiceeval/schematools/internal/rtviwire"
	"github.com/voiceeval/schematools/registry"
	"github.com/voiceeval/schematools/state"
)

// Defaults of [Config].
const (
	defaultSystemRole      = "system"
	defaultHistoryWait     = 3 * time.Second
	defaultHistoryPoll     = 50 * time.Millisecond
	defaultMaxMessageBytes = rtviwire.MaxMessageBytes
)

// Config wires a [Dispatcher] to a bot. Every field is optional; the zero
// Config gives a dispatcher with its own state, the default tool registry,
// no conversation and tool calling turned off.
type Config struct {
	// State is the bot's shared state: the one its tools were built with.
	// Nil gives the dispatcher a state of its own (see [Dispatcher.State]).
	State *state.Shared
	// Tools builds the scenario's tools on update_system_prompt, and holds
	// the domains' hooks: the initialisation functions apply_initialization
	// runs and the sync appliers of apply_sync_delta (a domain without
	// one uses dotted paths). Nil means an empty registry of the
	// dispatcher's own: a scenario that names a tool is refused, the log
	// saying that Config.Tools is nil.
	Tools *registry.Tools
	// Conversation is the bot's LLM context. Nil means the bot has none:
	// reset only resets Services and get_context_history returns "[]".
	Conversation Conversation
	// Installer installs each scenario's tools. Nil turns tool calling off.
	Installer ToolInstaller
	// Services are reset, in order, by reset and update_system_prompt.
	Services []Resetter
	// InFlight tells get_context_history whether tool calls are still
	// running. Nil means Conversation, when it implements [InFlight].
	InFlight InFlight
	// SystemRole is the role of the prompt message; "" means "system".
	SystemRole string
	// PromptSuffix is appended to every prompt ("\n" + suffix) unless the
	// request sets add_suffix to false.
	PromptSuffix string
	// DataRoot is the directory db_path values are relative to. "" means
	// $EVAL_DATA_ROOT, read at each request.
	DataRoot string
	// Sources, when not nil, holds the DBs db_path values load, decoded
	// once and shared copy-on-write: apply_initialization installs the
	// cached [state.Source] of the path ([state.Shared.Share]) instead
	// of decoding the file for the scenario, so that every scenario of
	// every bot given the same cache starts from one decoded DB, pays
	// only for what it writes, and hashes unwritten tables from the
	// Source's text. Nil decodes the file at each apply_initialization.
	// A Source a tool changed (a write under View) is restored before it
	// is used again, and the dispatcher logs a warning.
	Sources *state.SourceCache
	// Send sends an unsolicited message (JSON) to the harness: the
	// action-applied, exit and final-response messages of tools, each
	// wrapped in a server-message by the notifier update_system_prompt
	// installs in the state (a message that cannot be encoded is an error,
	// never a panic). It must be safe for concurrent use. Nil drops them.
	// The harness connects more than once per scenario, so Send should
	// write to the connection the message belongs to (cmd/rtvibot carries
	// it in the tool call's context). The handshake sends through
	// it too: the error-response warning a client-ready whose version is
	// missing or incompatible gets, before the bot-ready.
	Send func(ctx context.Context, msg []byte) error
	// SendText receives the content of a send-text message (the harness's
	// opening "Hello"). Nil answers send-text with an error-response.
	SendText func(ctx context.Context, content string) error
	// About describes the bot in bot-ready; nil means {"library":
	// "schematools"}.
	About map[string]any
	// InitialMessages are the conversation reset restores before the first
	// update_system_prompt (the bot's start-up prompt). Nil means none.
	InitialMessages []ChatMessage
	// HistoryWait bounds how long get_context_history waits for tool calls
	// in flight, polling every HistoryPoll. Zero means the defaults, 3 s
	// and 50 ms; a negative HistoryWait means no wait at all.
	HistoryWait time.Duration
	HistoryPoll time.Duration
	// MaxMessageBytes is the largest message Handle reads, and
	// MaxReplyBytes the largest message the dispatcher writes, counted as
	// the message frame that carries it (the JSON and its protobuf
	// framing, see [MessageFrameBytes]), so that the Python bridge's
	// WebSocket never drops one or closes the connection over it. Zero
	// means 1 MiB (1 << 20 bytes, the limit that WebSocket lives with); a
	// negative MaxReplyBytes means no limit.
	//
	// MaxReplyBytes holds for every reply of Handle and HandleFrame —
	// server-responses, bot-ready, error-responses and the error event of
	// a malformed message — and for the handshake warning sent through
	// Send (not for the messages tools and the [Emitter] send):
	//
	//   - a server-response or bot-ready over it becomes an error-response
	//     saying so ("ValueError: the reply of N bytes is larger than the
	//     L-byte limit");
	//   - an error-response's text is at most 1000 bytes as written (JSON
	//     escapes counted: "é" takes 6), clipped in the middle ("ab...yz")
	//     when it echoes more (an unknown type or t, a handler's error);
	//   - an error-response echoes the request id exactly when it fits;
	//     when it does not, a short id (half of the room left or less) is
	//     kept and the text clipped further, and a longer id is clipped to
	//     1000 bytes or to the room the text leaves, or sent as "";
	//   - under a limit too small for any error-response (an empty one is
	//     an 83-byte frame) the request gets no reply at all, and the
	//     dispatcher logs it.
	MaxMessageBytes int
	MaxReplyBytes   int
	// Logger receives the dispatcher's logs; nil means [slog.Default].
	Logger *slog.Logger
}

// customHandler answers one client message registered with register
// (the tests' custom messages). d holds the request's arguments: the "d"
// of the client-message, or {} when it is absent, null or falsy
// (as the Python original's "d or {}"). The result becomes the "d" of the
// server-response (nil leaves it out); an error becomes an error-response
// with the text "<Kind>: <message>" (see pyError).
type customHandler func(ctx context.Context, d json.RawMessage) (any, error)

// handlerFunc is a built-in handler: it gets the decoded arguments.
type handlerFunc func(ctx context.Context, args any) (any, error)

// Dispatcher answers the RTVI messages of an evaluation harness on behalf
// of a bot: the handshake, the six client messages of a scenario's
// lifecycle. It has no goroutines and no socket: the bot reads
// a message, passes it to [Dispatcher.Handle] and sends back the reply.
//
// A Dispatcher is safe for concurrent use, but a connection's messages
// must be handled in arrival order (one Handle at a time per connection):
// a scenario's update_system_prompt has to clear the state before its
// apply_initialization seeds it.
type Dispatcher struct {
	cfg        Config
	noRegistry bool // Config.Tools was nil
	st         *state.Shared
	notifier   state.Notifier // wraps tool messages for Config.Send; installed in the state by update_system_prompt

	replyMax int // the longest reply JSON whose frame fits Config.MaxReplyBytes

	mu       sync.Mutex
	custom   map[string]customHandler
	original []ChatMessage // the last prompt; reset restores it
}

// NewDispatcher returns a dispatcher for the bot cfg describes.
func NewDispatcher(cfg Config) *Dispatcher {
	if cfg.State == nil {
		cfg.State = state.New()
	}
	noRegistry := cfg.Tools == nil
	if noRegistry {
		cfg.Tools = new(registry.Tools)
	}
	if cfg.SystemRole == "" {
		cfg.SystemRole = defaultSystemRole
	}
	if cfg.HistoryWait == 0 {
		cfg.HistoryWait = defaultHistoryWait
	}
	if cfg.HistoryPoll <= 0 {
		cfg.HistoryPoll = defaultHistoryPoll
	}
	if cfg.MaxMessageBytes <= 0 {
		cfg.MaxMessageBytes = defaultMaxMessageBytes
	}
	if cfg.MaxReplyBytes == 0 {
		cfg.MaxReplyBytes = defaultMaxMessageBytes
	}
	if cfg.InFlight == nil {
		if f, ok := cfg.Conversation.(InFlight); ok {
			cfg.InFlight = f
		}
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	d := &Dispatcher{cfg: cfg, noRegistry: noRegistry, st: cfg.State, replyMax: maxJSON(cfg.MaxReplyBytes), custom: map[string]customHandler{}, original: slices.Clone(cfg.InitialMessages)}
	d.notifier = &rtviNotifier{Send: cfg.Send}
	return d
}

// State returns the shared state the dispatcher manages.
func (d *Dispatcher) State() *state.Shared { return d.st }

// register adds a handler for the client message t, or replaces the one
// registered before (a later registration wins, as in the Python
// original). Registering one of the six built-in names overrides it; a nil
// h removes a custom handler.
func (d *Dispatcher) register(t string, h customHandler) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if h == nil {
		delete(d.custom, t)
		return
	}
	d.custom[t] = h
}

func (d *Dispatcher) builtin(t string) handlerFunc {
	switch t {
	case rtviwire.Reset:
		return d.reset
	case rtviwire.UpdateSystemPrompt:
		return d.updateSystemPrompt
	case rtviwire.ApplyInitialization:
		return d.applyInitialization
	case rtviwire.ApplySyncDelta:
		return d.applySyncDelta
	case rtviwire.GetContextHistory:
		return d.getContextHistory
	case rtviwire.GetScenarioSummary:
		return d.getScenarioSummary
	}
	return nil
}

// Handle answers one RTVI message (JSON) and returns the reply to send, or
// nil when there is nothing to send (a message with another label, which
// pipecat ignores; a send-text message; a request under a
// [Config.MaxReplyBytes] too small for any error-response). Every reply
// fits in a message frame of MaxReplyBytes.
//
// Failures of a request are replies, never Go errors: an unknown client
// message, a handler error or a handler panic give an error-response that
// echoes the request id (clipped when it does not fit
// [Config.MaxReplyBytes], which every reply keeps); the five handlers that report soft failures
// answer {"success": false, ...} or false as the Python original does.
// Only input that is not an RTVI message at all — invalid JSON, a
// non-object, a missing "type" or "id", a message over
// [Config.MaxMessageBytes] — returns an error (wrapping [ErrMalformed]),
// and then reply is the RTVI error event pipecat would send.
func (d *Dispatcher) Handle(ctx context.Context, raw []byte) (reply []byte, err error) {
	if len(raw) > d.cfg.MaxMessageBytes {
		return d.malformed(fmt.Sprintf("message of %d bytes is larger than the %d-byte limit", len(raw), d.cfg.MaxMessageBytes))
	}
	v, err := pyjson.Decode(raw)
	if err != nil {
		return d.malformed(strings.TrimPrefix(err.Error(), "pyjson: "))
	}
	m, ok := v.(map[string]any)
	if !ok {
		return d.malformed("message is a " + pyvalue.TypeName(v) + ", not an object")
	}
	if m["label"] != rtviwire.Label {
		d.cfg.Logger.WarnContext(ctx, "rtvi: ignoring a message that is not RTVI", "label", m["label"])
		return nil, nil
	}
	typ, ok := m["type"].(string)
	if !ok {
		return d.malformed(`"type" must be a string, got ` + pyvalue.TypeName(m["type"]))
	}
	id, ok := m["id"].(string)
	if !ok {
		return d.malformed(`"id" must be a string, got ` + pyvalue.TypeName(m["id"]))
	}
	data, hasData := m["data"]
	if _, isObj := data.(map[string]any); hasData && data != nil && !isObj {
		return d.malformed(`"data" must be an object, got ` + pyvalue.TypeName(data))
	}
	dataObj, _ := data.(map[string]any)
	return d.dispatch(ctx, typ, id, dataObj), nil
}

// dispatch answers a well-formed message. Nothing the bot plugs in — a
// handler, a value's MarshalJSON, a SendText callback — can make it panic:
// a panic anywhere becomes an error-response.
func (d *Dispatcher) dispatch(ctx context.Context, typ, id string, data map[string]any) (reply []byte) {
	defer func() {
		if r := recover(); r != nil {
			d.cfg.Logger.ErrorContext(ctx, "rtvi: panic while answering a message", "type", typ, "id", id, "panic", r, "stack", string(debug.Stack()))
			reply = d.errorResponse(ctx, id, fmt.Sprintf("%s: panic while answering %s: %v", kindRuntimeError, typ, r))
		}
	}()
	switch typ {
	case rtviwire.TypeClientMessage:
		reply = d.clientMessage(ctx, id, data)
	case rtviwire.TypeClientReady:
		reply = d.clientReady(ctx, id, data)
	case rtviwire.TypeSendText:
		reply = d.sendText(ctx, id, data)
	default:
		reply = d.errorResponse(ctx, id, "Unsupported type "+typ)
	}
	return d.bound(ctx, typ, id, reply)
}

// bound keeps [Config.MaxReplyBytes] on reply. The limit bounds the
// message frame that carries the reply (the JSON and up to 10 bytes of
// protobuf framing): a WebSocket client limited to MaxReplyBytes drops a
// larger frame, and would wait for a reply. A larger reply becomes an
// error-response saying so. Error-responses are built to fit
// ([Dispatcher.errorResponse]); this catches the others (server-response,
// bot-ready), which echo the request id and t exactly or not at all.
func (d *Dispatcher) bound(ctx context.Context, typ, id string, reply []byte) []byte {
	if reply == nil || len(reply) <= d.replyMax {
		return reply
	}
	size, limit := messageFrameSize(len(reply)), d.cfg.MaxReplyBytes
	d.cfg.Logger.ErrorContext(ctx, "rtvi: reply too large to send", "type", typ, "id", id, "bytes", size, "limit", limit)
	return d.errorResponse(ctx, id, fmt.Sprintf("%s: the reply of %d bytes is larger than the %d-byte limit", kindValueError, size, limit))
}

// errorResponse returns the error-response to the request id with text,
// within [Config.MaxReplyBytes] (see [fitErrorResponse]): the text clipped
// to maxEcho bytes as written, the id exact when it fits and otherwise
// clipped, or empty. Nil, logged, when the limit is too small for any
// error-response.
func (d *Dispatcher) errorResponse(ctx context.Context, id, text string) []byte {
	reply := fitErrorResponse(id, text, d.replyMax)
	if reply == nil {
		d.cfg.Logger.ErrorContext(ctx, "rtvi: MaxReplyBytes is too small for an error-response: no reply", "limit", d.cfg.MaxReplyBytes, "error", text)
	}
	return reply
}

// HandleFrame is [Dispatcher.Handle] for a pipecat protobuf frame: it
// reads the RTVI message of a message frame and returns the reply wrapped
// in a message frame (nil when there is none). A frame of another kind
// (audio, text, ...) returns an error wrapping [ErrNotMessage], for the bot
// to route elsewhere; a frame that cannot be decoded returns the error of
// [DecodeFrame] (wrapping [ErrMalformed]) and no reply, as pipecat drops
// such frames.
func (d *Dispatcher) HandleFrame(ctx context.Context, frame []byte) ([]byte, error) {
	msg, err := messageData(frame)
	if err != nil {
		return nil, err
	}
	reply, err := d.Handle(ctx, msg)
	if reply == nil {
		return nil, err
	}
	return MessageFrameBytes(reply), err
}

func (d *Dispatcher) malformed(detail string) ([]byte, error) {
	return fitErrorMessage("Invalid RTVI transport message: "+detail, false, d.replyMax), fmt.Errorf("%w: %s", ErrMalformed, detail)
}

func (d *Dispatcher) clientMessage(ctx context.Context, id string, data map[string]any) []byte {
	t, ok := data["t"].(string)
	if !ok {
		if data == nil {
			return d.errorResponse(ctx, id, "Invalid message: client-message data must be an object with a string \"t\"")
		}
		return d.errorResponse(ctx, id, `Invalid message: "t" must be a string, got `+pyvalue.TypeName(data["t"]))
	}
	args := data["d"]
	if !pyvalue.Truthy(args) {
		args = map[string]any{}
	}

	d.mu.Lock()
	custom := d.custom[t]
	d.mu.Unlock()
	var h handlerFunc
	if custom != nil {
		h = func(ctx context.Context, args any) (any, error) {
			raw, err := pyjson.Marshal(args, pyjson.Compact)
			if err != nil {
				return nil, errorf(kindValueError, "arguments of %s: %w", t, err)
			}
			return custom(ctx, raw)
		}
	} else if h = d.builtin(t); h == nil {
		d.cfg.Logger.WarnContext(ctx, "rtvi: unknown client message", "t", t, "id", id)
		return d.errorResponse(ctx, id, "unknown message type: "+t)
	}

	result, err := d.call(ctx, t, h, args)
	if err != nil {
		d.cfg.Logger.ErrorContext(ctx, "rtvi: client message failed", "t", t, "id", id, "err", err)
		return d.errorResponse(ctx, id, describe(err))
	}
	reply, err := serverResponse(id, t, result)
	if err != nil {
		d.cfg.Logger.ErrorContext(ctx, "rtvi: reply cannot be encoded", "t", t, "id", id, "err", err)
		return d.errorResponse(ctx, id, describe(errorf(kindValueError, "reply to %s cannot be encoded: %w", t, err)))
	}
	return reply
}

// call runs h, turning a panic into an error.
func (d *Dispatcher) call(ctx context.Context, t string, h handlerFunc, args any) (result any, err error) {
	defer func() {
		if r := recover(); r != nil {
			d.cfg.Logger.ErrorContext(ctx, "rtvi: handler panicked", "t", t, "panic", r, "stack", string(debug.Stack()))
			result, err = nil, &pyError{Kind: kindRuntimeError, Message: fmt.Sprintf("handler %s panicked: %v", t, r)}
		}
	}()
	return h(ctx, args)
}

// clientReady answers the handshake as pipecat's RTVI processor does. A
// 1.x client gets its own version echoed (legacy clients); others get
// protocolVersion ("2.1.0"). A version that is missing, not three integers
// or of another major version first gets pipecat's warning as an
// error-response, sent through [Config.Send] (the handshake still
// completes: the reply is the bot-ready).
func (d *Dispatcher) clientReady(ctx context.Context, id string, data map[string]any) []byte {
	version := protocolVersion
	raw, _ := data["version"].(string)
	var warning string
	if raw == "" {
		warning = "Client version unknown."
	} else if parts, ok := versionParts(raw); !ok {
		warning = fmt.Sprintf("Invalid client version format (%s).", raw)
	} else if parts[0] == legacyMajor {
		version = fmt.Sprintf("%d.%d.%d", parts[0], parts[1], parts[2])
	} else if parts[0] != protocolMajor {
		warning = fmt.Sprintf("RTVI version %s is not compatible with server protocol %s.", raw, protocolVersion)
	}
	if warning != "" {
		warning += " Compatibility issues may occur."
		d.cfg.Logger.WarnContext(ctx, "rtvi: client-ready: "+warning, "id", id)
		if msg := d.errorResponse(ctx, id, warning); d.cfg.Send != nil && msg != nil {
			if err := d.cfg.Send(ctx, msg); err != nil {
				d.cfg.Logger.WarnContext(ctx, "rtvi: client-ready: sending the warning failed", "err", err)
			}
		}
	}
	about := d.cfg.About
	if about == nil {
		about = map[string]any{"library": "schematools"}
	}
	reply, err := botReady(id, version, about)
	if err != nil {
		return d.errorResponse(ctx, id, describe(err))
	}
	return reply
}

// The major versions clientReady accepts: the protocol's own, and 1
// (legacy clients, still served).
const (
	protocolMajor = 2
	legacyMajor   = 1
)

// versionParts reads "major.minor.patch" as pipecat does ([int(v) for v in
// version.split(".")], three of them): each part is a Python int literal
// (surrounding whitespace, a sign and underscores between digits allowed).
func versionParts(v string) ([3]int, bool) {
	var out [3]int
	parts := strings.Split(v, ".")
	if len(parts) != 3 {
		return out, false
	}
	for i, p := range parts {
		n, ok := pyInt(p)
		if !ok {
			return out, false
		}
		out[i] = n
	}
	return out, true
}

// pyInt parses s as Python's int(s) does for ASCII decimal text.
func pyInt(s string) (int, bool) {
	s = strings.TrimSpace(s)
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		s = s[1:]
	}
	if s == "" || s[0] == '_' || s[len(s)-1] == '_' || strings.Contains(s, "__") {
		return 0, false
	}
	n, err := strconv.Atoi(strings.ReplaceAll(s, "_", ""))
	if err != nil || strings.ContainsAny(s, "+-") {
		return 0, false
	}
	if neg {
		n = -n
	}
	return n, true
}

func (d *Dispatcher) sendText(ctx context.Context, id string, data map[string]any) []byte {
	if d.cfg.SendText == nil {
		return d.errorResponse(ctx, id, "Unsupported type "+rtviwire.TypeSendText)
	}
	content, ok := data["content"].(string)
	if !ok {
		return d.errorResponse(ctx, id, `Invalid message: send-text "content" must be a string, got `+pyvalue.TypeName(data["content"]))
	}
	if err := d.cfg.SendText(ctx, content); err != nil {
		return d.errorResponse(ctx, id, "Exception processing message: "+err.Error())
	}
	return nil
}

// object returns the handler arguments as an object. Other JSON values
// fail as Python's dict methods fail on them.
func object(args any) (map[string]any, error) {
	m, ok := args.(map[string]any)
	if !ok {
		return nil, &pyError{Kind: kindAttributeError, Message: fmt.Sprintf("'%s' object has no attribute 'get'", pyvalue.TypeName(args))}
	}
	return m, nil
}

var errNoDataRoot = errors.New("no data root: set Config.DataRoot or EVAL_DATA_ROOT")
