package rtvi

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"

	"google.golang.org/protobuf/encoding/protowire"
)

// This file is a hand-written codec for the protobuf frames pipecat's
// websocket serializer exchanges (schema package "pipecat", proto3), whose
// Frame message is a oneof of the five kinds below. The codec follows the
// protobuf parsing rules that matter for interoperability: unknown fields
// are skipped, the last occurrence of a scalar wins, a later oneof member
// replaces an earlier one and a repeated message member is merged. It is
// stricter than the reference implementations in two places: a known field
// with the wrong wire type is an error rather than an unknown field, and
// group wire types are rejected everywhere.

// The three ways a frame can be wrong. Each wraps [ErrMalformed] (so
// errors.Is(err, ErrMalformed) holds for all of them) and keeps its own
// text, which tells them apart in a log:
//
//   - errMalformedFrame: bytes that are not a valid encoding of a frame: a
//     truncated varint or value, a length running past the end of its
//     message, an invalid field number, a wrong wire type for a known
//     field, a group or reserved wire type, or invalid UTF-8 in a string
//     field. The message tells the offset and field.
//   - errEmptyFrame: a frame without any of its oneof members (this
//     includes empty input), decoded or marshalled.
//   - errInvalidFrame: a Frame [Frame.Marshal] cannot encode: more than one
//     member set, or a string field that is not valid UTF-8.
var (
	errMalformedFrame error = malformedKind("rtvi: malformed frame")
	errEmptyFrame     error = malformedKind("rtvi: empty frame")
	errInvalidFrame   error = malformedKind("rtvi: invalid frame")
)

// malformedKind is a kind of malformed input: its own text, and
// errors.Is(k, ErrMalformed).
type malformedKind string

func (k malformedKind) Error() string { return string(k) }

func (k malformedKind) Is(target error) bool { return target == ErrMalformed }

// ErrNotMessage is wrapped by the error [Dispatcher.HandleFrame] returns
// for a well-formed frame whose member is not a [MessageFrame] (audio,
// text, ...): a frame for the bot to route elsewhere, not a failure.
var ErrNotMessage = errors.New("rtvi: not a message frame")

// Frame is the envelope of every protobuf frame: a oneof of five members.
// Exactly one field is non-nil in a valid Frame.
type Frame struct {
	// Text is oneof member 1 (field "text").
	Text *TextFrame
	// Audio is oneof member 2 (field "audio").
	Audio *AudioRawFrame
	// Transcription is oneof member 3 (field "transcription").
	Transcription *TranscriptionFrame
	// Message is oneof member 4 (field "message").
	Message *MessageFrame
	// Interruption is oneof member 5 (field "interruption").
	Interruption *InterruptionFrame
}

// TextFrame carries text, for example the bot's words for a TTS service.
type TextFrame struct {
	// ID is the frame id (field 1).
	ID uint64
	// Name is the frame name (field 2).
	Name string
	// Text is the text itself (field 3).
	Text string
}

// AudioRawFrame carries raw PCM audio.
type AudioRawFrame struct {
	// ID is the frame id (field 1).
	ID uint64
	// Name is the frame name (field 2).
	Name string
	// Audio holds the samples (field 3). Decoding copies them out of the
	// input and leaves Audio nil when they are empty.
	Audio []byte
	// SampleRate is the sample rate in Hz (field 4).
	SampleRate uint32
	// NumChannels is the number of interleaved channels (field 5).
	NumChannels uint32
	// PTS is the presentation timestamp (field 6). The field has explicit
	// presence: nil means absent, which is not the same as a pointer to 0.
	PTS *uint64
}

// TranscriptionFrame carries the text a speech-to-text service heard.
type TranscriptionFrame struct {
	// ID is the frame id (field 1).
	ID uint64
	// Name is the frame name (field 2).
	Name string
	// Text is the transcribed text (field 3).
	Text string
	// UserID identifies the speaker (field 4).
	UserID string
	// Timestamp is when the text was heard, as the sender wrote it (field 5).
	Timestamp string
}

// MessageFrame carries one RTVI message.
type MessageFrame struct {
	// Data is the JSON text of the RTVI message (field 1). The codec does
	// not parse or validate the JSON; it only requires valid UTF-8.
	Data string
}

// InterruptionFrame tells the other side that the user interrupted the bot.
type InterruptionFrame struct {
	// ID is the frame id (field 1).
	ID uint64
	// Name is the frame name (field 2).
	Name string
}

// Field numbers of Frame's oneof members.
const (
	frameFieldText          protowire.Number = 1
	frameFieldAudio         protowire.Number = 2
	frameFieldTranscription protowire.Number = 3
	frameFieldMessage       protowire.Number = 4
	frameFieldInterruption  protowire.Number = 5
)

// DecodeFrame parses the protobuf encoding of a Frame. The result has
// exactly one member set. Errors wrap [ErrMalformed]: the bytes are not a
// valid encoding, or hold no member (their text says which). DecodeFrame never retains b: strings and audio are
// copied.
func DecodeFrame(b []byte) (Frame, error) {
	var f Frame
	err := decodeFields("Frame", b, 0, func(fd frameField) error {
		name, m := f.memberFor(fd.num)
		if m == nil {
			return nil // a field this schema does not know: skipped, as protobuf does
		}
		v, err := fd.message(name)
		if err != nil {
			return err
		}
		return m.unmarshal(v, fd.valOff)
	})
	if err != nil {
		return Frame{}, err
	}
	if f.members() == nil {
		return Frame{}, fmt.Errorf("%w: %d bytes hold no oneof member", errEmptyFrame, len(b))
	}
	return f, nil
}

// frameMember is a oneof member of Frame, as the decoder fills it.
type frameMember interface {
	unmarshal(b []byte, off int) error
}

// memberFor returns the name of the oneof member numbered num and the
// member to merge its next occurrence into: the one f holds, or a fresh one
// that replaces whatever other member f held (the last member seen wins,
// as protobuf merges a oneof). An unknown number gives a nil member.
func (f *Frame) memberFor(num protowire.Number) (string, frameMember) {
	switch num {
	case frameFieldText:
		if f.Text == nil {
			*f = Frame{Text: new(TextFrame)}
		}
		return "text", f.Text
	case frameFieldAudio:
		if f.Audio == nil {
			*f = Frame{Audio: new(AudioRawFrame)}
		}
		return "audio", f.Audio
	case frameFieldTranscription:
		if f.Transcription == nil {
			*f = Frame{Transcription: new(TranscriptionFrame)}
		}
		return "transcription", f.Transcription
	case frameFieldMessage:
		if f.Message == nil {
			*f = Frame{Message: new(MessageFrame)}
		}
		return "message", f.Message
	case frameFieldInterruption:
		if f.Interruption == nil {
			*f = Frame{Interruption: new(InterruptionFrame)}
		}
		return "interruption", f.Interruption
	}
	return "", nil
}

// Marshal returns the protobuf encoding of f, with fields in field-number
// order and zero-valued proto3 scalars left out, as protoc and Python's
// SerializeToString write them. It fails, wrapping [ErrMalformed], unless exactly one member is set and every string is
// valid UTF-8.
func (f Frame) Marshal() ([]byte, error) {
	return appendFrame(nil, f)
}

// appendFrame appends the encoding [Frame.Marshal] produces to dst and
// returns the extended slice. On error it returns dst unchanged.
func appendFrame(dst []byte, f Frame) ([]byte, error) {
	switch members := f.members(); len(members) {
	case 0:
		return dst, fmt.Errorf("%w: no oneof member set", errEmptyFrame)
	case 1:
	default:
		return dst, fmt.Errorf("%w: %d oneof members set (%s), want one",
			errInvalidFrame, len(members), strings.Join(members, ", "))
	}
	var (
		num  protowire.Number
		size int
		body func([]byte) []byte
	)
	switch {
	case f.Text != nil:
		m := f.Text
		if err := checkFrameStrings("text", "name", m.Name, "text", m.Text); err != nil {
			return dst, err
		}
		num, size, body = frameFieldText, m.size(), m.appendTo
	case f.Audio != nil:
		m := f.Audio
		if err := checkFrameStrings("audio", "name", m.Name); err != nil {
			return dst, err
		}
		num, size, body = frameFieldAudio, m.size(), m.appendTo
	case f.Transcription != nil:
		m := f.Transcription
		if err := checkFrameStrings("transcription", "name", m.Name, "text", m.Text,
			"user_id", m.UserID, "timestamp", m.Timestamp); err != nil {
			return dst, err
		}
		num, size, body = frameFieldTranscription, m.size(), m.appendTo
	case f.Message != nil:
		m := f.Message
		if err := checkFrameStrings("message", "data", m.Data); err != nil {
			return dst, err
		}
		num, size, body = frameFieldMessage, m.size(), m.appendTo
	default:
		m := f.Interruption
		if err := checkFrameStrings("interruption", "name", m.Name); err != nil {
			return dst, err
		}
		num, size, body = frameFieldInterruption, m.size(), m.appendTo
	}
	dst = slices.Grow(dst, protowire.SizeTag(num)+protowire.SizeBytes(size))
	dst = protowire.AppendTag(dst, num, protowire.BytesType)
	dst = protowire.AppendVarint(dst, uint64(size))
	return body(dst), nil
}

// MessageFrameBytes returns the encoding of a Frame whose member is a
// [MessageFrame] holding data, normally the JSON of an RTVI message. data
// is not checked: it must be valid UTF-8 (as JSON produced by
// encoding/json always is), or the receiver will reject the frame.
func MessageFrameBytes(data []byte) []byte {
	inner := 0
	if len(data) > 0 {
		inner = protowire.SizeTag(1) + protowire.SizeBytes(len(data))
	}
	b := make([]byte, 0, protowire.SizeTag(frameFieldMessage)+protowire.SizeBytes(inner))
	b = protowire.AppendTag(b, frameFieldMessage, protowire.BytesType)
	b = protowire.AppendVarint(b, uint64(inner))
	if len(data) > 0 {
		b = protowire.AppendTag(b, 1, protowire.BytesType)
		b = protowire.AppendBytes(b, data)
	}
	return b
}

// messageFrameSize is len(MessageFrameBytes(data)) for data of n bytes.
func messageFrameSize(n int) int {
	inner := 0
	if n > 0 {
		inner = protowire.SizeTag(1) + protowire.SizeBytes(n)
	}
	return protowire.SizeTag(frameFieldMessage) + protowire.SizeBytes(inner)
}

// messageData decodes the frame b and returns the data of its
// [MessageFrame] member: the JSON text of an RTVI message. The error wraps
// [ErrNotMessage] when the frame is of another kind, and otherwise any
// error of [DecodeFrame].
func messageData(b []byte) ([]byte, error) {
	f, err := DecodeFrame(b)
	if err != nil {
		return nil, err
	}
	if f.Message == nil {
		return nil, fmt.Errorf("%w: the frame holds %s", ErrNotMessage, f.members()[0])
	}
	return []byte(f.Message.Data), nil
}

// members names the oneof members set in f, in field-number order.
func (f Frame) members() []string {
	var names []string
	if f.Text != nil {
		names = append(names, "text")
	}
	if f.Audio != nil {
		names = append(names, "audio")
	}
	if f.Transcription != nil {
		names = append(names, "transcription")
	}
	if f.Message != nil {
		names = append(names, "message")
	}
	if f.Interruption != nil {
		names = append(names, "interruption")
	}
	return names
}

// checkFrameStrings reports the first of the (field name, value) pairs in
// kv whose value is not valid UTF-8; member names the oneof member.
func checkFrameStrings(member string, kv ...string) error {
	for i := 0; i+1 < len(kv); i += 2 {
		if !utf8.ValidString(kv[i+1]) {
			return fmt.Errorf("%w: %s.%s is not valid UTF-8", errInvalidFrame, member, kv[i])
		}
	}
	return nil
}

// Encoding helpers for the implicit-presence proto3 scalars: each writes
// nothing for the zero value.

func sizeFrameVarint(num protowire.Number, v uint64) int {
	if v == 0 {
		return 0
	}
	return protowire.SizeTag(num) + protowire.SizeVarint(v)
}

func sizeFrameBytes(num protowire.Number, n int) int {
	if n == 0 {
		return 0
	}
	return protowire.SizeTag(num) + protowire.SizeBytes(n)
}

func appendFrameVarint(b []byte, num protowire.Number, v uint64) []byte {
	if v == 0 {
		return b
	}
	b = protowire.AppendTag(b, num, protowire.VarintType)
	return protowire.AppendVarint(b, v)
}

func appendFrameString(b []byte, num protowire.Number, s string) []byte {
	if s == "" {
		return b
	}
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendString(b, s)
}

func (m *TextFrame) size() int { return sizeIDNameText(m.ID, m.Name, m.Text) }

func (m *TextFrame) appendTo(b []byte) []byte { return appendIDNameText(b, m.ID, m.Name, m.Text) }

func (m *TextFrame) unmarshal(b []byte, base int) error {
	return decodeFields("TextFrame", b, base, func(fd frameField) error {
		return fd.idNameText(&m.ID, &m.Name, &m.Text)
	})
}

// The text frames (TextFrame, TranscriptionFrame) open with the same three
// fields: id (1), name (2) and text (3).

func sizeIDNameText(id uint64, name, text string) int {
	return sizeFrameVarint(1, id) + sizeFrameBytes(2, len(name)) + sizeFrameBytes(3, len(text))
}

func appendIDNameText(b []byte, id uint64, name, text string) []byte {
	b = appendFrameVarint(b, 1, id)
	b = appendFrameString(b, 2, name)
	return appendFrameString(b, 3, text)
}

// idNameText decodes fd when it is one of the three; other fields are
// left alone (unknown to the caller, or its own).
func (fd frameField) idNameText(id *uint64, name, text *string) (err error) {
	switch fd.num {
	case 1:
		*id, err = fd.uint64("id")
	case 2:
		*name, err = fd.string("name")
	case 3:
		*text, err = fd.string("text")
	}
	return err
}

func (m *AudioRawFrame) size() int {
	n := sizeFrameVarint(1, m.ID) + sizeFrameBytes(2, len(m.Name)) + sizeFrameBytes(3, len(m.Audio)) +
		sizeFrameVarint(4, uint64(m.SampleRate)) + sizeFrameVarint(5, uint64(m.NumChannels))
	if m.PTS != nil {
		n += protowire.SizeTag(6) + protowire.SizeVarint(*m.PTS)
	}
	return n
}

func (m *AudioRawFrame) appendTo(b []byte) []byte {
	b = appendFrameVarint(b, 1, m.ID)
	b = appendFrameString(b, 2, m.Name)
	if len(m.Audio) > 0 {
		b = protowire.AppendTag(b, 3, protowire.BytesType)
		b = protowire.AppendBytes(b, m.Audio)
	}
	b = appendFrameVarint(b, 4, uint64(m.SampleRate))
	b = appendFrameVarint(b, 5, uint64(m.NumChannels))
	if m.PTS != nil {
		b = protowire.AppendTag(b, 6, protowire.VarintType)
		b = protowire.AppendVarint(b, *m.PTS)
	}
	return b
}

func (m *AudioRawFrame) unmarshal(b []byte, base int) error {
	return decodeFields("AudioRawFrame", b, base, func(fd frameField) (err error) {
		switch fd.num {
		case 1:
			m.ID, err = fd.uint64("id")
		case 2:
			m.Name, err = fd.string("name")
		case 3:
			m.Audio, err = fd.bytes("audio")
		case 4:
			m.SampleRate, err = fd.uint32("sample_rate")
		case 5:
			m.NumChannels, err = fd.uint32("num_channels")
		case 6:
			var v uint64
			if v, err = fd.uint64("pts"); err == nil {
				m.PTS = &v
			}
		}
		return err
	})
}

func (m *TranscriptionFrame) size() int {
	return sizeIDNameText(m.ID, m.Name, m.Text) + sizeFrameBytes(4, len(m.UserID)) + sizeFrameBytes(5, len(m.Timestamp))
}

func (m *TranscriptionFrame) appendTo(b []byte) []byte {
	b = appendIDNameText(b, m.ID, m.Name, m.Text)
	b = appendFrameString(b, 4, m.UserID)
	return appendFrameString(b, 5, m.Timestamp)
}

func (m *TranscriptionFrame) unmarshal(b []byte, base int) error {
	return decodeFields("TranscriptionFrame", b, base, func(fd frameField) (err error) {
		switch fd.num {
		case 4:
			m.UserID, err = fd.string("user_id")
		case 5:
			m.Timestamp, err = fd.string("timestamp")
		default:
			err = fd.idNameText(&m.ID, &m.Name, &m.Text)
		}
		return err
	})
}

func (m *MessageFrame) size() int {
	return sizeFrameBytes(1, len(m.Data))
}

func (m *MessageFrame) appendTo(b []byte) []byte {
	return appendFrameString(b, 1, m.Data)
}

func (m *MessageFrame) unmarshal(b []byte, base int) error {
	return decodeFields("MessageFrame", b, base, func(fd frameField) (err error) {
		if fd.num == 1 {
			m.Data, err = fd.string("data")
		}
		return err
	})
}

func (m *InterruptionFrame) size() int {
	return sizeFrameVarint(1, m.ID) + sizeFrameBytes(2, len(m.Name))
}

func (m *InterruptionFrame) appendTo(b []byte) []byte {
	b = appendFrameVarint(b, 1, m.ID)
	return appendFrameString(b, 2, m.Name)
}

func (m *InterruptionFrame) unmarshal(b []byte, base int) error {
	return decodeFields("InterruptionFrame", b, base, func(fd frameField) (err error) {
		switch fd.num {
		case 1:
			m.ID, err = fd.uint64("id")
		case 2:
			m.Name, err = fd.string("name")
		}
		return err
	})
}

// frameField is one field read off the wire, known or not.
type frameField struct {
	msg    string           // name of the enclosing message, for errors
	num    protowire.Number // field number
	typ    protowire.Type   // wire type
	off    int              // offset of the tag in the whole input
	valOff int              // offset of a length-delimited payload in the whole input
	u      uint64           // the value of a varint field
	b      []byte           // the payload of a length-delimited field
}

// readFrameField reads the field at the start of b, which lies at offset
// off of the whole input, and returns it with its encoded length. It
// validates the tag and the framing of the value whatever the field
// number, so unknown fields are checked and skipped the same way.
// decodeFields calls fn with each field of the message msg encoded in b,
// which starts at offset base of the frame, and stops at the first error.
func decodeFields(msg string, b []byte, base int, fn func(fd frameField) error) error {
	for pos := 0; pos < len(b); {
		fd, n, err := readFrameField(msg, b[pos:], base+pos)
		if err != nil {
			return err
		}
		pos += n
		if err := fn(fd); err != nil {
			return err
		}
	}
	return nil
}

func readFrameField(msg string, b []byte, off int) (frameField, int, error) {
	tag, n := protowire.ConsumeVarint(b)
	if n < 0 {
		return frameField{}, 0, malformedFrame(off, "%s: tag: %s", msg, frameVarintProblem(n))
	}
	num, typ := protowire.DecodeTag(tag)
	if !num.IsValid() {
		return frameField{}, 0, malformedFrame(off, "%s: invalid field number %d", msg, tag>>3)
	}
	fd := frameField{msg: msg, num: num, typ: typ, off: off}
	rest := b[n:]
	switch typ {
	case protowire.VarintType:
		v, m := protowire.ConsumeVarint(rest)
		if m < 0 {
			return frameField{}, 0, malformedFrame(off+n, "%s field %d: %s", msg, num, frameVarintProblem(m))
		}
		fd.u = v
		n += m
	case protowire.Fixed32Type, protowire.Fixed64Type:
		want := 4
		if typ == protowire.Fixed64Type {
			want = 8
		}
		if len(rest) < want {
			return frameField{}, 0, malformedFrame(off+n, "%s field %d: truncated %d-byte fixed value, %d bytes left",
				msg, num, want, len(rest))
		}
		n += want
	case protowire.BytesType:
		l, m := protowire.ConsumeVarint(rest)
		if m < 0 {
			return frameField{}, 0, malformedFrame(off+n, "%s field %d: length: %s", msg, num, frameVarintProblem(m))
		}
		if left := len(rest) - m; l > uint64(left) {
			return frameField{}, 0, malformedFrame(off+n, "%s field %d: length %d exceeds the %d bytes left",
				msg, num, l, left)
		}
		fd.valOff = off + n + m
		fd.b = rest[m : m+int(l)]
		n += m + int(l)
	case protowire.StartGroupType, protowire.EndGroupType:
		return frameField{}, 0, malformedFrame(off, "%s field %d: group wire type %d is not supported", msg, num, typ)
	default:
		return frameField{}, 0, malformedFrame(off, "%s field %d: reserved wire type %d", msg, num, typ)
	}
	return fd, n, nil
}

// want checks that a known field came with the wire type its declaration
// implies; name is the field's name in the schema.
func (fd *frameField) want(name string, typ protowire.Type) error {
	if fd.typ != typ {
		return malformedFrame(fd.off, "%s.%s (field %d): wire type %d, want %d", fd.msg, name, fd.num, fd.typ, typ)
	}
	return nil
}

func (fd *frameField) uint64(name string) (uint64, error) {
	if err := fd.want(name, protowire.VarintType); err != nil {
		return 0, err
	}
	return fd.u, nil
}

// uint32 keeps the low 32 bits of a wider varint, as protobuf parsers do.
func (fd *frameField) uint32(name string) (uint32, error) {
	v, err := fd.uint64(name)
	return uint32(v), err
}

func (fd *frameField) string(name string) (string, error) {
	if err := fd.want(name, protowire.BytesType); err != nil {
		return "", err
	}
	if !utf8.Valid(fd.b) {
		return "", malformedFrame(fd.valOff, "%s.%s (field %d): invalid UTF-8 in a string field", fd.msg, name, fd.num)
	}
	return string(fd.b), nil
}

// bytes returns a copy of the payload, nil when it is empty.
func (fd *frameField) bytes(name string) ([]byte, error) {
	if err := fd.want(name, protowire.BytesType); err != nil {
		return nil, err
	}
	if len(fd.b) == 0 {
		return nil, nil
	}
	return slices.Clone(fd.b), nil
}

func (fd *frameField) message(name string) ([]byte, error) {
	if err := fd.want(name, protowire.BytesType); err != nil {
		return nil, err
	}
	return fd.b, nil
}

func malformedFrame(off int, format string, args ...any) error {
	return fmt.Errorf("%w: offset %d: %s", errMalformedFrame, off, fmt.Sprintf(format, args...))
}

// frameVarintProblem describes the error code of protowire.ConsumeVarint.
func frameVarintProblem(n int) string {
	if errors.Is(protowire.ParseError(n), io.ErrUnexpectedEOF) {
		return "truncated varint"
	}
	return "varint overflows 64 bits"
}
