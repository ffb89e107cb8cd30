package rtvi

import (
	"math"

	"github.com/voiceeval/schematools/internal/clip"
	"github.com/voiceeval/schematools/internal/rtviwire"
)

// This file keeps [Config.MaxReplyBytes]: every message the dispatcher
// writes to the harness (a reply of Handle, the handshake warning it sends
// through Config.Send) fits in a message frame of at most that many bytes.
// Replies echo client text — the request id in every reply, the type or t
// of an unknown message, a client-ready version, a handler's error that
// quotes its arguments — and JSON escaping can make that text six times
// longer than it came (a raw "é" of 2 bytes is written "\u00e9"), so the
// bound is kept on the text as written.

// maxEcho is the most bytes, as written in the JSON (escaped, without its
// quotes), of the text of an error-response or error event, and of a
// request id an error-response cannot echo whole. It is clip.Max, the
// bound of the tool package's error texts, counted after escaping.
const maxEcho = clip.Max

// ellipsis marks the middle of a clipped text.
const ellipsis = "..."

// maxJSON returns the largest JSON message whose message frame (see
// [MessageFrameBytes]) is at most limit bytes, or -1 when not even an
// empty one fits. A negative limit means none: math.MaxInt.
func maxJSON(limit int) int {
	if limit < 0 {
		return math.MaxInt
	}
	n := limit
	for n >= 0 && messageFrameSize(n) > limit {
		n--
	}
	return n
}

// escaped returns s as appendString writes it, without the quotes: ASCII
// only, each character escaped as Python's json.dumps escapes it.
func escaped(s string) []byte {
	b := appendString(nil, s)
	return b[1 : len(b)-1]
}

// clipEscaped returns the escaped text e when it is at most n bytes. A
// longer e becomes its first characters, "...", and its last characters,
// at most n bytes in all, with the head at most half of them; it is cut
// between escapes, never inside one (nor between the two halves of a
// surrogate pair), so it stays the contents of a valid JSON string. An n
// too small for "..." gives the empty text.
func clipEscaped(e []byte, n int) []byte {
	if len(e) <= n {
		return e
	}
	if n < len(ellipsis) {
		return nil
	}
	i := 0
	for headMax := (n - len(ellipsis)) / 2; i < len(e); {
		u := escapeLen(e, i)
		if i+u > headMax {
			break
		}
		i += u
	}
	head := i
	for tailStart := len(e) - (n - len(ellipsis) - head); i < tailStart; {
		i += escapeLen(e, i)
	}
	out := make([]byte, 0, head+len(ellipsis)+len(e)-i)
	out = append(out, e[:head]...)
	out = append(out, ellipsis...)
	return append(out, e[i:]...)
}

// escapeLen is the length of the written character at e[i:]: a plain
// ASCII byte, a two-byte escape (\n, \"), a \uXXXX escape, or the twelve
// bytes of a surrogate pair (\ud83d\ude00).
func escapeLen(e []byte, i int) int {
	switch {
	case e[i] != '\\':
		return 1
	case i+1 >= len(e) || e[i+1] != 'u':
		return 2
	case surrogateEscape(e[i:], "89ab") && surrogateEscape(e[i+6:], "cdef"):
		return 12
	}
	return 6
}

// surrogateEscape reports whether e opens with \udX.. for X in digits,
// the escape of a high (89ab) or low (cdef) surrogate.
func surrogateEscape(e []byte, digits string) bool {
	if len(e) < 6 || e[0] != '\\' || e[1] != 'u' || e[2] != 'd' {
		return false
	}
	for i := range len(digits) {
		if e[3] == digits[i] {
			return true
		}
	}
	return false
}

// fitErrorResponse returns the error-response to the request id with the
// given text, at most budget bytes. The text is clipped to maxEcho bytes as
// written; when the message still does not fit, something gives:
//
//   - an id that takes at most half of the room the envelope leaves is
//     echoed exactly (it is what the client matches the reply by), and the
//     text is clipped to the rest;
//   - a longer id cannot be echoed whole anyway: the text is clipped to the
//     room if need be, and the id to what is left, at most maxEcho bytes,
//     empty when nothing is.
//
// Nil means not even an error-response with an empty id and text fits in
// budget bytes.
func fitErrorResponse(id, text string, budget int) []byte {
	room := budget - len(renderErrorResponse(nil, nil))
	if room < 0 {
		return nil
	}
	etext, eid := clipEscaped(escaped(text), maxEcho), escaped(id)
	switch {
	case len(eid)+len(etext) <= room:
	case len(eid) <= room/2:
		etext = clipEscaped(etext, room-len(eid))
	default:
		etext = clipEscaped(etext, room)
		eid = clipEscaped(eid, min(maxEcho, room-len(etext)))
	}
	return renderErrorResponse(eid, etext)
}

// renderErrorResponse writes {"label": "rtvi-ai", "type":
// "error-response", "id": eid, "data": {"error": etext}} from the escaped
// id and text.
func renderErrorResponse(eid, etext []byte) []byte {
	b := envelopeHead(make([]byte, 0, 64+len(eid)+len(etext)), rtviwire.TypeErrorResponse)
	b = append(b, `, "id": "`...)
	b = append(b, eid...)
	b = append(b, `", "data": {"error": "`...)
	b = append(b, etext...)
	return append(b, `"}}`...)
}

// fitErrorMessage returns the RTVI error event of [errorMessage] in at
// most budget bytes, its text clipped to maxEcho bytes as written or to the
// room there is; nil when not even one with an empty text fits.
func fitErrorMessage(text string, fatal bool, budget int) []byte {
	room := budget - len(renderErrorMessage(nil, fatal))
	if room < 0 {
		return nil
	}
	return renderErrorMessage(clipEscaped(clipEscaped(escaped(text), maxEcho), room), fatal)
}
