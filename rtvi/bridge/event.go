package bridge

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/voiceeval/schematools/internal/pyjson"
	"github.com/voiceeval/schematools/internal/pyvalue"
	"github.com/voiceeval/schematools/internal/rtviwire"
	"github.com/voiceeval/schematools/rtvi"
)

// Kind is what an [Event] is.
type Kind int

// The kinds of events, as NeMo's bridge tells them apart.
const (
	// KindMalformed: a frame or message the bridge cannot read; Err says why.
	KindMalformed Kind = iota
	// KindFrame: a frame that is not a message (audio, text, transcription,
	// interruption), in Frame.
	KindFrame
	// KindBotReady: the bot-ready answer to client-ready.
	KindBotReady
	// KindStartedSpeaking: bot-started-speaking, which opens a turn.
	KindStartedSpeaking
	// KindTTSText: bot-tts-text, Text being str() of data.text.
	KindTTSText
	// KindStoppedSpeaking: bot-stopped-speaking, which closes a turn.
	KindStoppedSpeaking
	// KindMetrics: metrics; Tokens holds its tokens entries.
	KindMetrics
	// KindActionApplied: a server-message {"type": "action-applied"}, in
	// Action.
	KindActionApplied
	// KindExit: a server-message whose text is "<exit>…</exit>"; Text is
	// what is between the tags.
	KindExit
	// KindFinalResponse: a server-message whose text is
	// "<final_response>…</final_response>"; Text is between the tags.
	KindFinalResponse
	// KindServerMessage: any other server-message; Text is str() of its
	// data.text ("" without one).
	KindServerMessage
	// KindServerResponse: a server-response, with ID, T and D.
	KindServerResponse
	// KindErrorResponse: an error-response, with ID and Error.
	KindErrorResponse
	// KindError: an RTVI error message ({"type": "error"}), Error being its
	// data.error.
	KindError
	// KindOther: any other message type (bot-llm-*, user-transcription, …),
	// passed through in Type and Message.
	KindOther
)

var kindNames = [...]string{"malformed", "frame", "bot-ready", "bot-started-speaking", "bot-tts-text",
	"bot-stopped-speaking", "metrics", "action-applied", "exit", "final-response", "server-message",
	"server-response", "error-response", "error", "other"}

func (k Kind) String() string {
	if k >= 0 && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// Event is one frame received from a bot, decoded.
type Event struct {
	Kind Kind
	// At is when the frame was read.
	At time.Time
	// Type is the message's "type" ("" for a frame that is not a
	// message); ID its "id", when it has one.
	Type, ID string
	// Text: see the kinds.
	Text string
	// Tokens are the tokens entries of a metrics event, one per LLM call,
	// each the [Usage] of that one call: Calls 1, its prompt_tokens and
	// completion_tokens as the bridge sums them (Python's
	// int(entry.get(key) or 0)), and Partial 1 when either was absent or
	// null, which the bridge reads as 0 and we read as unknown.
	Tokens []Usage
	// Action is the payload of an action-applied server-message.
	Action *ActionApplied
	// T and D are a server-response's data.t and data.d (D decoded: nil,
	// bool, string, json.Number, float64, []any, map[string]any).
	T string
	D any
	// Error is the error text of an error-response or error message.
	Error string
	// Message is the message's JSON text as received.
	Message string
	// Frame is the frame of a KindFrame event.
	Frame *rtvi.Frame
	// Err is why a KindMalformed event could not be read.
	Err error

	hasD bool // a server-response's data has a "d", null or not
}

// ActionApplied is what a bot's write tool reports after it changed the
// DB: {"type": "action-applied", "action": <record>, "tool_domain": ...}.
type ActionApplied struct {
	// Action is the action record (data.action, {} when absent or null):
	// {"action_type", "name", "arguments", "result"}.
	Action map[string]any
	// Name and Arguments are the record's "name" and "arguments" (nil
	// when absent or null), what the bridge replays on its shadow DBs.
	Name      any
	Arguments any
	// ToolDomain is data.tool_domain, "" when absent.
	ToolDomain string
}

// ErrMalformed is wrapped by the Err of every KindMalformed event.
var ErrMalformed = errors.New("bridge: malformed message")

// decodeFrame decodes one binary WebSocket message from a bot (a pipecat
// protobuf frame) into an Event. It never fails: what it cannot read is a
// KindMalformed event.
func decodeFrame(frame []byte) Event {
	f, err := rtvi.DecodeFrame(frame)
	if err != nil {
		return Event{Kind: KindMalformed, Err: fmt.Errorf("%w: %w", ErrMalformed, err)}
	}
	if f.Message == nil {
		return Event{Kind: KindFrame, Frame: &f}
	}
	return decodeMessage([]byte(f.Message.Data))
}

// decodeMessage decodes the JSON text of one RTVI message into an Event,
// reading each field as NeMo's bridge reads it. It never fails: a message
// that is not a JSON object, or whose fields would make the bridge's
// Python raise (data.get on a list), is a KindMalformed event.
func decodeMessage(msg []byte) Event {
	e := Event{Message: string(msg)}
	tree, err := pyjson.Decode(msg)
	if err != nil {
		return e.malformed("invalid JSON: %v", err)
	}
	m, ok := tree.(map[string]any)
	if !ok {
		return e.malformed("message is a %s, not an object", pyvalue.TypeName(tree))
	}
	e.Type, _ = m["type"].(string) // another type compares equal to no type the bridge knows
	if id, ok := m["id"].(string); ok {
		e.ID = id
	}
	data, hasData := m["data"]
	switch e.Type {
	case rtviwire.TypeBotReady:
		e.Kind = KindBotReady
	case rtviwire.TypeBotStartedSpeaking:
		e.Kind = KindStartedSpeaking
	case rtviwire.TypeBotStoppedSpeaking:
		e.Kind = KindStoppedSpeaking
	case rtviwire.TypeBotTTSText:
		// str(data.get("data", {}).get("text", ""))
		if !hasData {
			data = map[string]any{}
		}
		d, ok := data.(map[string]any)
		if !ok {
			return e.malformed("bot-tts-text data is a %s", pyvalue.TypeName(data))
		}
		e.Kind, e.Text = KindTTSText, pyvalue.Str(orDefault(d, "text", ""))
	case rtviwire.TypeMetrics:
		return e.metrics(data)
	case rtviwire.TypeServerMessage:
		return e.serverMessage(data)
	case rtviwire.TypeServerResponse:
		if !hasData {
			data = map[string]any{}
		}
		d, ok := data.(map[string]any)
		if !ok {
			return e.malformed("server-response data is a %s", pyvalue.TypeName(data))
		}
		e.Kind = KindServerResponse
		e.T, _ = d["t"].(string)
		e.D, e.hasD = d["d"]
	case rtviwire.TypeErrorResponse, rtviwire.TypeError:
		e.Kind = KindErrorResponse
		if e.Type == rtviwire.TypeError {
			e.Kind = KindError
		}
		// (data.get("data") or {}).get("error")
		if d, ok := truthyMap(data); ok {
			if v, ok := d["error"]; ok && v != nil {
				e.Error = pyvalue.Str(v)
			}
		}
	default:
		e.Kind = KindOther
	}
	return e
}

func (e Event) malformed(format string, args ...any) Event {
	e.Kind = KindMalformed
	e.Err = fmt.Errorf("%w: %s", ErrMalformed, fmt.Sprintf(format, args...))
	return e
}

// orDefault is Python's m.get(key, def).
func orDefault(m map[string]any, key string, def any) any {
	if v, ok := m[key]; ok {
		return v
	}
	return def
}

// truthyMap is Python's "v or {}" for a value that must then be a dict:
// ok is false when v is truthy and not a dict.
func truthyMap(v any) (map[string]any, bool) {
	if !pyvalue.Truthy(v) {
		return map[string]any{}, true
	}
	m, ok := v.(map[string]any)
	return m, ok
}

// metrics reads body = data or {}; for tok in body.get("tokens") or []:
// int(tok.get("prompt_tokens") or 0), int(tok.get("completion_tokens") or 0),
// noting a count that is absent or null.
func (e Event) metrics(data any) Event {
	body, ok := truthyMap(data)
	if !ok {
		return e.malformed("metrics data is a %s", pyvalue.TypeName(data))
	}
	tokens := body["tokens"]
	if !pyvalue.Truthy(tokens) {
		e.Kind = KindMetrics
		return e
	}
	list, ok := tokens.([]any)
	if !ok {
		return e.malformed("metrics tokens is a %s, not a list", pyvalue.TypeName(tokens))
	}
	for i, t := range list {
		tok, ok := t.(map[string]any)
		if !ok {
			return e.malformed("metrics tokens[%d] is a %s", i, pyvalue.TypeName(t))
		}
		u := Usage{Calls: 1}
		for _, c := range []struct {
			key string
			n   *int64
		}{{"prompt_tokens", &u.Prompt}, {"completion_tokens", &u.Completion}} {
			v := tok[c.key]
			if v == nil { // absent or null
				u.Partial = 1
			}
			if !pyvalue.Truthy(v) {
				continue
			}
			n, err := pyvalue.Int(v)
			if err != nil {
				return e.malformed("metrics tokens[%d].%s: %v", i, c.key, err)
			}
			i64, ok := n.Int64()
			if !ok {
				return e.malformed("metrics tokens[%d].%s: %s does not fit in 64 bits", i, c.key, n)
			}
			*c.n = i64
		}
		e.Tokens = append(e.Tokens, u)
	}
	e.Kind = KindMetrics
	return e
}

// serverMessage reads inner = data or {}: an action-applied, or str() of
// inner.get("text", "") checked for the exit and final-response tags.
func (e Event) serverMessage(data any) Event {
	e.Kind = KindServerMessage
	if !pyvalue.Truthy(data) {
		return e
	}
	inner, ok := data.(map[string]any)
	if !ok {
		return e // a list or a string: the bridge reads no text from it
	}
	if inner["type"] == rtviwire.ActionApplied {
		a := &ActionApplied{Action: map[string]any{}}
		if rec := inner["action"]; pyvalue.Truthy(rec) {
			m, ok := rec.(map[string]any)
			if !ok {
				return e.malformed("action-applied action is a %s", pyvalue.TypeName(rec))
			}
			a.Action = m
		}
		a.Name, a.Arguments = a.Action["name"], a.Action["arguments"]
		if d, ok := inner["tool_domain"]; ok && d != nil {
			a.ToolDomain = pyvalue.Str(d)
		}
		e.Kind, e.Action = KindActionApplied, a
		return e
	}
	e.Text = pyvalue.Str(orDefault(inner, "text", ""))
	switch {
	case e.Text == "":
	case tagged(e.Text, rtviwire.FinalResponseStart, rtviwire.FinalResponseEnd):
		e.Kind, e.Text = KindFinalResponse, e.Text[len(rtviwire.FinalResponseStart):len(e.Text)-len(rtviwire.FinalResponseEnd)]
	case tagged(e.Text, rtviwire.ExitStart, rtviwire.ExitEnd):
		e.Kind, e.Text = KindExit, e.Text[len(rtviwire.ExitStart):len(e.Text)-len(rtviwire.ExitEnd)]
	}
	return e
}

// tagged is Python's s.startswith(start) and s.endswith(end) (for these
// tags the two cannot overlap).
func tagged(s, start, end string) bool {
	return strings.HasPrefix(s, start) && strings.HasSuffix(s, end) && len(s) >= len(start)+len(end)
}
