package rtvi

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"

	"github.com/voiceeval/schematools/internal/pyjson"
	"github.com/voiceeval/schematools/internal/rtviwire"
	"github.com/voiceeval/schematools/state"
)

// protocolVersion is the RTVI protocol version bot-ready announces.
const protocolVersion = "2.1.0"

// serverResponse returns the answer to the client-message id whose name was
// t: {"label": "rtvi-ai", "type": "server-response", "id": id, "data": {"t":
// t, "d": d}}. A nil d leaves "d" out, as pipecat does for a handler that
// returns None. The JSON is written as Python's json.dumps writes it, so
// numbers and strings of a DB reach a Python harness exactly.
func serverResponse(id, t string, d any) ([]byte, error) {
	b := envelopeStart(nil, rtviwire.TypeServerResponse, id, true)
	b = append(b, `"data": {"t": `...)
	b = appendString(b, t)
	if d != nil {
		var err error
		b = append(b, `, "d": `...)
		if b, err = appendPayload(b, d); err != nil {
			return nil, fmt.Errorf("rtvi: server-response %q: %w", t, err)
		}
	}
	return append(b, "}}"...), nil
}

// errorResponse returns the failure answer to the request id:
// {"label": "rtvi-ai", "type": "error-response", "id": id, "data": {"error": text}},
// the text clipped to maxEcho bytes as written (see [fitErrorResponse],
// which the dispatcher uses to keep its reply bound too).
func errorResponse(id, text string) []byte {
	return fitErrorResponse(id, text, math.MaxInt)
}

// serverMessage returns an unsolicited message carrying data:
// {"label": "rtvi-ai", "type": "server-message", "data": data}.
func serverMessage(data any) ([]byte, error) {
	b := envelopeStart(nil, rtviwire.TypeServerMessage, "", false)
	b = append(b, `"data": `...)
	b, err := appendPayload(b, data)
	if err != nil {
		return nil, fmt.Errorf("rtvi: server-message: %w", err)
	}
	return append(b, '}'), nil
}

// errorMessage returns the RTVI error event pipecat sends for a message it
// could not read at all: {"label": "rtvi-ai", "type": "error", "data":
// {"error": text, "fatal": fatal}}.
func errorMessage(text string, fatal bool) []byte {
	return renderErrorMessage(escaped(text), fatal)
}

// renderErrorMessage writes the error event of errorMessage from its
// escaped text.
func renderErrorMessage(etext []byte, fatal bool) []byte {
	b := envelopeStart(make([]byte, 0, 80+len(etext)), rtviwire.TypeError, "", false)
	b = append(b, `"data": {"error": "`...)
	b = append(b, etext...)
	if fatal {
		return append(b, `", "fatal": true}}`...)
	}
	return append(b, `", "fatal": false}}`...)
}

// botReady returns the handshake answer to the client-ready message id.
// about describes the bot (nil leaves it out).
func botReady(id, version string, about map[string]any) ([]byte, error) {
	b := envelopeStart(nil, rtviwire.TypeBotReady, id, true)
	b = append(b, `"data": {"version": `...)
	b = appendString(b, version)
	if about != nil {
		var err error
		b = append(b, `, "about": `...)
		if b, err = appendPayload(b, about); err != nil {
			return nil, fmt.Errorf("rtvi: bot-ready: %w", err)
		}
	}
	return append(b, "}}"...), nil
}

// envelopeHead writes the opening of an RTVI message up to its type:
// {"label": "rtvi-ai", "type": "<typ>".
func envelopeHead(b []byte, typ string) []byte {
	b = append(b, `{"label": "`+rtviwire.Label+`", "type": `...)
	return appendString(b, typ)
}

func envelopeStart(b []byte, typ, id string, withID bool) []byte {
	b = append(envelopeHead(b, typ), ", "...)
	if withID {
		b = append(b, `"id": `...)
		b = appendString(b, id)
		b = append(b, ", "...)
	}
	return b
}

// appendString writes s as Python's json.dumps does. Strings that are not
// valid UTF-8 (they can only come from a client's own bytes, which were
// JSON) are written with U+FFFD replacements rather than failing.
func appendString(b []byte, s string) []byte {
	out, err := pyjson.AppendString(b, s)
	if err != nil {
		out, _ = pyjson.AppendString(b, toValidUTF8(s))
	}
	return out
}

// appendPayload writes v as Python's json.dumps(v) writes the equivalent
// Python value (", " and ": " separators, ASCII only, exact numbers).
// JSON trees are written directly; other values (structs, named maps) are
// first turned into JSON trees through encoding/json.
func appendPayload(b []byte, v any) ([]byte, error) {
	out, err := pyjson.Append(b, v, pyjson.Default)
	if err == nil {
		return out, nil
	}
	if !errors.Is(err, pyjson.ErrUnsupported) {
		return b, err
	}
	p, err := plain(v, 0)
	if err != nil {
		return b, err
	}
	return pyjson.Append(b, p, pyjson.Default)
}

// plain turns v into a JSON tree pyjson can write: maps, slices and
// scalars of the tree types are kept (containers are copied only when a
// member needs converting), state actions become plain maps, and anything
// else goes through encoding/json and back with exact numbers.
func plain(v any, depth int) (any, error) {
	if depth > pyjson.MaxDepth {
		return nil, pyjson.ErrDepth
	}
	switch x := v.(type) {
	case nil, bool, string, float64, json.Number:
		return v, nil
	case state.Action:
		return plain(map[string]any(x), depth)
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			p, err := plain(e, depth+1)
			if err != nil {
				return nil, err
			}
			out[k] = p
		}
		return out, nil
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			p, err := plain(e, depth+1)
			if err != nil {
				return nil, err
			}
			out[i] = p
		}
		return out, nil
	case []state.Action:
		out := make([]any, len(x))
		for i, e := range x {
			p, err := plain(map[string]any(e), depth+1)
			if err != nil {
				return nil, err
			}
			out[i] = p
		}
		return out, nil
	}
	if _, ok := pyjson.AppendInteger(nil, v); ok {
		return v, nil
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return pyjson.Decode(raw)
}
