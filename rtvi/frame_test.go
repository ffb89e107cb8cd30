package rtvi_test

import (
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/encoding/protowire"

	"github.com/voiceeval/schematools/rtvi"
)

// Helpers that write raw protobuf fields, so tests can build encodings the
// codec itself would never produce (unknown fields, repeats, bad framing).

func pbVarint(num protowire.Number, v uint64) []byte {
	return protowire.AppendVarint(protowire.AppendTag(nil, num, protowire.VarintType), v)
}

func pbLen(num protowire.Number, parts ...[]byte) []byte {
	return protowire.AppendBytes(protowire.AppendTag(nil, num, protowire.BytesType), bytes.Join(parts, nil))
}

func pbStr(num protowire.Number, s string) []byte { return pbLen(num, []byte(s)) }

func pbFixed32(num protowire.Number, v uint32) []byte {
	return protowire.AppendFixed32(protowire.AppendTag(nil, num, protowire.Fixed32Type), v)
}

func pbFixed64(num protowire.Number, v uint64) []byte {
	return protowire.AppendFixed64(protowire.AppendTag(nil, num, protowire.Fixed64Type), v)
}

func pbCat(parts ...[]byte) []byte { return bytes.Join(parts, nil) }

// pbUnknown is one unknown field of every non-group wire type, including
// a field number at the top of the valid range.
func pbUnknown() []byte {
	return pbCat(
		pbVarint(99, 12345),
		pbFixed32(100, 0xdeadbeef),
		pbFixed64(101, 1),
		pbStr(102, "ignored"),
		pbLen(protowire.MaxValidNumber, []byte{0xff, 0xfe}), // not UTF-8, but unknown, so unchecked
		pbLen(103),                                          // empty
	)
}

func TestFrameRoundTrip(t *testing.T) {
	tests := []struct {
		name  string
		frame rtvi.Frame
		want  []byte // the encoding, when checked literally
	}{
		{name: "text", frame: rtvi.Frame{Text: &rtvi.TextFrame{ID: 1, Name: "TextFrame#1", Text: "hello"}}},
		{name: "text empty member", frame: rtvi.Frame{Text: &rtvi.TextFrame{}}, want: []byte{0x0a, 0x00}},
		{
			name:  "text id only",
			frame: rtvi.Frame{Text: &rtvi.TextFrame{ID: 300}},
			want:  []byte{0x0a, 0x03, 0x08, 0xac, 0x02},
		},
		{name: "text non-ASCII", frame: rtvi.Frame{Text: &rtvi.TextFrame{Text: "naïve 日本語 🎙️"}}},
		{
			name: "audio",
			frame: rtvi.Frame{Audio: &rtvi.AudioRawFrame{
				ID: 2, Name: "OutputAudioRawFrame#2", Audio: []byte{0, 1, 2, 3},
				SampleRate: 16000, NumChannels: 1, PTS: new(uint64(99)),
			}},
		},
		{
			name:  "audio maxima",
			frame: rtvi.Frame{Audio: &rtvi.AudioRawFrame{ID: math.MaxUint64, SampleRate: math.MaxUint32, NumChannels: math.MaxUint32, PTS: new(uint64(math.MaxUint64))}},
		},
		{name: "audio empty member", frame: rtvi.Frame{Audio: &rtvi.AudioRawFrame{}}, want: []byte{0x12, 0x00}},
		{
			name: "transcription",
			frame: rtvi.Frame{Transcription: &rtvi.TranscriptionFrame{
				ID: 3, Name: "TranscriptionFrame#0", Text: "book a table", UserID: "u1", Timestamp: "2025-01-02T03:04:05Z",
			}},
		},
		{name: "transcription empty member", frame: rtvi.Frame{Transcription: &rtvi.TranscriptionFrame{}}, want: []byte{0x1a, 0x00}},
		{
			name:  "message",
			frame: rtvi.Frame{Message: &rtvi.MessageFrame{Data: `{"label":"rtvi-ai","type":"client-ready","id":"1"}`}},
		},
		{
			name:  "message short",
			frame: rtvi.Frame{Message: &rtvi.MessageFrame{Data: "{}"}},
			want:  []byte{0x22, 0x04, 0x0a, 0x02, '{', '}'},
		},
		{name: "message empty member", frame: rtvi.Frame{Message: &rtvi.MessageFrame{}}, want: []byte{0x22, 0x00}},
		{name: "interruption", frame: rtvi.Frame{Interruption: &rtvi.InterruptionFrame{ID: 4, Name: "InterruptionFrame#4"}}},
		{name: "interruption empty member", frame: rtvi.Frame{Interruption: &rtvi.InterruptionFrame{}}, want: []byte{0x2a, 0x00}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := tt.frame.Marshal()
			require.NoError(t, err)
			if tt.want != nil {
				assert.Equal(t, tt.want, b)
			}
			got, err := rtvi.DecodeFrame(b)
			require.NoError(t, err)
			assert.Equal(t, tt.frame, got)
			again, err := got.Marshal()
			require.NoError(t, err)
			assert.Equal(t, b, again)
		})
	}
}

func TestFramePTSPresence(t *testing.T) {
	tests := []struct {
		name    string
		pts     *uint64
		wantPTS []byte // the trailing pts field, nil when absent
	}{
		{name: "absent", pts: nil, wantPTS: nil},
		{name: "zero", pts: new(uint64(0)), wantPTS: []byte{0x30, 0x00}},
		{name: "set", pts: new(uint64(48000)), wantPTS: []byte{0x30, 0x80, 0xf7, 0x02}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := rtvi.Frame{Audio: &rtvi.AudioRawFrame{SampleRate: 8000, PTS: tt.pts}}
			b, err := in.Marshal()
			require.NoError(t, err)
			body := pbCat(pbVarint(4, 8000), tt.wantPTS)
			assert.Equal(t, pbLen(2, body), b)

			got, err := rtvi.DecodeFrame(b)
			require.NoError(t, err)
			require.NotNil(t, got.Audio)
			if tt.pts == nil {
				assert.Nil(t, got.Audio.PTS)
			} else {
				require.NotNil(t, got.Audio.PTS)
				assert.Equal(t, *tt.pts, *got.Audio.PTS)
			}
		})
	}
}

func TestDecodeFrameUnknownFields(t *testing.T) {
	u := pbUnknown()
	tests := []struct {
		name string
		in   []byte
		want rtvi.Frame
	}{
		{
			name: "frame level, before and after the member",
			in:   pbCat(u, pbLen(1, pbVarint(1, 5)), u),
			want: rtvi.Frame{Text: &rtvi.TextFrame{ID: 5}},
		},
		{
			name: "frame level, field numbers just past the oneof",
			in:   pbCat(pbStr(6, "x"), pbVarint(7, 1), pbLen(5, pbVarint(1, 9))),
			want: rtvi.Frame{Interruption: &rtvi.InterruptionFrame{ID: 9}},
		},
		{
			name: "inside text",
			in:   pbLen(1, u, pbVarint(1, 1), u, pbStr(3, "hi"), pbVarint(4, 7), u),
			want: rtvi.Frame{Text: &rtvi.TextFrame{ID: 1, Text: "hi"}},
		},
		{
			name: "inside audio",
			in:   pbLen(2, pbStr(3, "ab"), u, pbVarint(6, 10), pbVarint(7, 1), pbFixed64(8, 2)),
			want: rtvi.Frame{Audio: &rtvi.AudioRawFrame{Audio: []byte("ab"), PTS: new(uint64(10))}},
		},
		{
			name: "inside transcription",
			in:   pbLen(3, pbStr(4, "u"), u, pbStr(6, "extra")),
			want: rtvi.Frame{Transcription: &rtvi.TranscriptionFrame{UserID: "u"}},
		},
		{
			name: "inside message",
			in:   pbLen(4, pbVarint(2, 1), pbStr(1, "{}"), u),
			want: rtvi.Frame{Message: &rtvi.MessageFrame{Data: "{}"}},
		},
		{
			name: "inside interruption",
			in:   pbLen(5, u, pbStr(2, "n"), pbStr(3, "extra")),
			want: rtvi.Frame{Interruption: &rtvi.InterruptionFrame{Name: "n"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := rtvi.DecodeFrame(tt.in)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
			// Unknown fields are dropped: the re-encoding is canonical.
			b, err := got.Marshal()
			require.NoError(t, err)
			canonical, err := tt.want.Marshal()
			require.NoError(t, err)
			assert.Equal(t, canonical, b)
		})
	}
}

func TestDecodeFrameRepeatedFields(t *testing.T) {
	tests := []struct {
		name string
		in   []byte
		want rtvi.Frame
	}{
		{
			name: "later member replaces an earlier one",
			in:   pbCat(pbLen(1, pbStr(3, "first")), pbLen(2, pbVarint(4, 16000))),
			want: rtvi.Frame{Audio: &rtvi.AudioRawFrame{SampleRate: 16000}},
		},
		{
			name: "replaced member starts afresh when it comes back",
			in:   pbCat(pbLen(1, pbVarint(1, 1), pbStr(3, "first")), pbLen(5), pbLen(1, pbStr(2, "again"))),
			want: rtvi.Frame{Text: &rtvi.TextFrame{Name: "again"}},
		},
		{
			name: "same member twice is merged",
			in:   pbCat(pbLen(1, pbVarint(1, 1), pbStr(2, "n")), pbLen(1, pbStr(3, "t"))),
			want: rtvi.Frame{Text: &rtvi.TextFrame{ID: 1, Name: "n", Text: "t"}},
		},
		{
			name: "merge: a later scalar wins",
			in: pbCat(
				pbLen(3, pbVarint(1, 1), pbStr(3, "old"), pbStr(4, "u")),
				pbLen(3, pbVarint(1, 2), pbStr(3, "new")),
			),
			want: rtvi.Frame{Transcription: &rtvi.TranscriptionFrame{ID: 2, Text: "new", UserID: "u"}},
		},
		{
			name: "merge: pts survives a later occurrence without it",
			in:   pbCat(pbLen(2, pbVarint(6, 0), pbStr(3, "ab")), pbLen(2, pbVarint(5, 2))),
			want: rtvi.Frame{Audio: &rtvi.AudioRawFrame{Audio: []byte("ab"), NumChannels: 2, PTS: new(uint64(0))}},
		},
		{
			name: "merge: explicitly written empty bytes replace earlier audio",
			in:   pbCat(pbLen(2, pbStr(3, "ab")), pbLen(2, pbLen(3))),
			want: rtvi.Frame{Audio: &rtvi.AudioRawFrame{}},
		},
		{
			name: "merge: message data, last wins",
			in:   pbCat(pbLen(4, pbStr(1, `{"a":1}`)), pbLen(4, pbStr(1, `{"b":2}`))),
			want: rtvi.Frame{Message: &rtvi.MessageFrame{Data: `{"b":2}`}},
		},
		{
			name: "scalar repeated inside one message: last wins",
			in:   pbLen(5, pbVarint(1, 1), pbStr(2, "a"), pbVarint(1, 3), pbStr(2, "b")),
			want: rtvi.Frame{Interruption: &rtvi.InterruptionFrame{ID: 3, Name: "b"}},
		},
		{
			name: "non-minimal varints are accepted",
			in:   []byte{0x2a, 0x03, 0x08, 0x81, 0x00},
			want: rtvi.Frame{Interruption: &rtvi.InterruptionFrame{ID: 1}},
		},
		{
			name: "uint32 keeps the low 32 bits of a wider varint",
			in:   pbLen(2, pbVarint(4, 1<<32|44100)),
			want: rtvi.Frame{Audio: &rtvi.AudioRawFrame{SampleRate: 44100}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := rtvi.DecodeFrame(tt.in)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestDecodeFrameMalformed(t *testing.T) {
	tests := []struct {
		name    string
		in      []byte
		wantErr error
		detail  string // a substring of the message
	}{
		{name: "nil input", in: nil, wantErr: rtvi.ErrEmptyFrame},
		{name: "empty input", in: []byte{}, wantErr: rtvi.ErrEmptyFrame},
		{name: "only unknown fields", in: pbUnknown(), wantErr: rtvi.ErrEmptyFrame},
		{name: "truncated tag", in: []byte{0x80}, wantErr: rtvi.ErrMalformedFrame, detail: "offset 0: Frame: tag: truncated varint"},
		{name: "tag overflows", in: bytes.Repeat([]byte{0xff}, 11), wantErr: rtvi.ErrMalformedFrame, detail: "varint overflows 64 bits"},
		{name: "field number 0", in: []byte{0x02, 0x00}, wantErr: rtvi.ErrMalformedFrame, detail: "invalid field number 0"},
		{
			name:    "field number above the maximum",
			in:      protowire.AppendVarint(nil, protowire.EncodeTag(protowire.MaxValidNumber+1, protowire.VarintType)),
			wantErr: rtvi.ErrMalformedFrame, detail: "invalid field number 536870912",
		},
		{name: "truncated length", in: []byte{0x0a}, wantErr: rtvi.ErrMalformedFrame, detail: "offset 1: Frame field 1: length: truncated varint"},
		{name: "length past the end", in: []byte{0x0a, 0x05, 0x08, 0x01}, wantErr: rtvi.ErrMalformedFrame, detail: "length 5 exceeds the 2 bytes left"},
		{
			name:    "huge length",
			in:      protowire.AppendVarint([]byte{0x0a}, math.MaxUint64),
			wantErr: rtvi.ErrMalformedFrame, detail: "exceeds the 0 bytes left",
		},
		{name: "truncated varint value", in: []byte{0x0a, 0x02, 0x08, 0x80}, wantErr: rtvi.ErrMalformedFrame, detail: "offset 3: TextFrame field 1: truncated varint"},
		{name: "truncated unknown varint", in: []byte{0x48}, wantErr: rtvi.ErrMalformedFrame, detail: "Frame field 9: truncated varint"},
		{name: "truncated fixed32", in: []byte{0x4d, 0x01, 0x02}, wantErr: rtvi.ErrMalformedFrame, detail: "truncated 4-byte fixed value"},
		{name: "truncated fixed64", in: []byte{0x49, 1, 2, 3, 4, 5, 6, 7}, wantErr: rtvi.ErrMalformedFrame, detail: "truncated 8-byte fixed value"},
		{
			name:    "sub-message length past its end",
			in:      pbLen(2, []byte{0x1a, 0x03, 0x01}),
			wantErr: rtvi.ErrMalformedFrame, detail: "offset 3: AudioRawFrame field 3: length 3 exceeds the 1 bytes left",
		},
		{name: "member with varint wire type", in: pbVarint(1, 1), wantErr: rtvi.ErrMalformedFrame, detail: "offset 0: Frame.text (field 1): wire type 0, want 2"},
		{name: "member with fixed32 wire type", in: pbFixed32(4, 1), wantErr: rtvi.ErrMalformedFrame, detail: "Frame.message (field 4): wire type 5, want 2"},
		{name: "text.id as bytes", in: pbLen(1, pbStr(1, "1")), wantErr: rtvi.ErrMalformedFrame, detail: "offset 2: TextFrame.id (field 1): wire type 2, want 0"},
		{name: "text.text as varint", in: pbLen(1, pbVarint(3, 1)), wantErr: rtvi.ErrMalformedFrame, detail: "TextFrame.text (field 3): wire type 0, want 2"},
		{name: "audio.pts as fixed64", in: pbLen(2, pbFixed64(6, 1)), wantErr: rtvi.ErrMalformedFrame, detail: "AudioRawFrame.pts (field 6)"},
		{name: "audio.audio as varint", in: pbLen(2, pbVarint(3, 1)), wantErr: rtvi.ErrMalformedFrame, detail: "AudioRawFrame.audio (field 3)"},
		{name: "transcription.user_id as fixed32", in: pbLen(3, pbFixed32(4, 1)), wantErr: rtvi.ErrMalformedFrame, detail: "TranscriptionFrame.user_id (field 4)"},
		{name: "message.data as varint", in: pbLen(4, pbVarint(1, 1)), wantErr: rtvi.ErrMalformedFrame, detail: "MessageFrame.data (field 1)"},
		{name: "interruption.id as bytes", in: pbLen(5, pbLen(1)), wantErr: rtvi.ErrMalformedFrame, detail: "InterruptionFrame.id (field 1)"},
		{name: "start group at frame level", in: []byte{0x0b, 0x0c}, wantErr: rtvi.ErrMalformedFrame, detail: "group wire type 3"},
		{name: "unknown group", in: []byte{0x4b, 0x08, 0x01, 0x4c}, wantErr: rtvi.ErrMalformedFrame, detail: "Frame field 9: group wire type 3"},
		{name: "stray end group", in: []byte{0x0c}, wantErr: rtvi.ErrMalformedFrame, detail: "group wire type 4"},
		{name: "group inside a member", in: pbLen(5, []byte{0x1b, 0x1c}), wantErr: rtvi.ErrMalformedFrame, detail: "offset 2: InterruptionFrame field 3: group wire type 3"},
		{name: "reserved wire type 6", in: []byte{0x0e, 0x00}, wantErr: rtvi.ErrMalformedFrame, detail: "reserved wire type 6"},
		{name: "reserved wire type 7", in: pbLen(1, []byte{0x0f}), wantErr: rtvi.ErrMalformedFrame, detail: "TextFrame field 1: reserved wire type 7"},
		{name: "invalid UTF-8 in text.text", in: pbLen(1, pbLen(3, []byte{'a', 0xff})), wantErr: rtvi.ErrMalformedFrame, detail: "offset 4: TextFrame.text (field 3): invalid UTF-8"},
		{name: "invalid UTF-8 in text.name", in: pbLen(1, pbLen(2, []byte{0xc3})), wantErr: rtvi.ErrMalformedFrame, detail: "TextFrame.name (field 2): invalid UTF-8"},
		{name: "invalid UTF-8 in audio.name", in: pbLen(2, pbLen(2, []byte{0xed, 0xa0, 0x80})), wantErr: rtvi.ErrMalformedFrame, detail: "AudioRawFrame.name"},
		{name: "invalid UTF-8 in transcription.timestamp", in: pbLen(3, pbLen(5, []byte{0xfe})), wantErr: rtvi.ErrMalformedFrame, detail: "TranscriptionFrame.timestamp"},
		{name: "invalid UTF-8 in message.data", in: pbLen(4, pbLen(1, []byte(`{"a":"`), []byte{0x80}, []byte(`"}`))), wantErr: rtvi.ErrMalformedFrame, detail: "MessageFrame.data (field 1): invalid UTF-8"},
		{name: "invalid UTF-8 in interruption.name", in: pbLen(5, pbLen(2, []byte{0xf8, 0x88, 0x80, 0x80, 0x80})), wantErr: rtvi.ErrMalformedFrame, detail: "InterruptionFrame.name"},
		{
			name:    "error after a valid member",
			in:      pbCat(pbLen(1, pbStr(3, "ok")), []byte{0x12, 0x09}),
			wantErr: rtvi.ErrMalformedFrame, detail: "offset 7: Frame field 2: length 9 exceeds the 0 bytes left",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := rtvi.DecodeFrame(tt.in)
			require.Error(t, err)
			assert.ErrorIs(t, err, tt.wantErr)
			assert.Equal(t, rtvi.Frame{}, got)
			assert.True(t, strings.HasPrefix(err.Error(), "rtvi: "), err.Error())
			assert.Contains(t, err.Error(), tt.detail)
		})
	}
}

func TestDecodeFrameBytesAreAccepted(t *testing.T) {
	// audio is a bytes field: any content is fine, unlike a string field.
	in := pbLen(2, pbLen(3, []byte{0xff, 0xfe, 0x00}))
	got, err := rtvi.DecodeFrame(in)
	require.NoError(t, err)
	assert.Equal(t, rtvi.Frame{Audio: &rtvi.AudioRawFrame{Audio: []byte{0xff, 0xfe, 0x00}}}, got)
}

func TestDecodeFrameCopiesInput(t *testing.T) {
	in := pbLen(2, pbLen(3, []byte{1, 2, 3}))
	got, err := rtvi.DecodeFrame(in)
	require.NoError(t, err)
	for i := range in {
		in[i] = 0
	}
	assert.Equal(t, []byte{1, 2, 3}, got.Audio.Audio)
}

func TestFrameMarshalErrors(t *testing.T) {
	tests := []struct {
		name    string
		frame   rtvi.Frame
		wantErr error
		detail  string
	}{
		{name: "no member", frame: rtvi.Frame{}, wantErr: rtvi.ErrEmptyFrame, detail: "no oneof member set"},
		{
			name:    "two members",
			frame:   rtvi.Frame{Text: &rtvi.TextFrame{}, Message: &rtvi.MessageFrame{}},
			wantErr: rtvi.ErrInvalidFrame, detail: "2 oneof members set (text, message)",
		},
		{
			name: "all members",
			frame: rtvi.Frame{
				Text: &rtvi.TextFrame{}, Audio: &rtvi.AudioRawFrame{}, Transcription: &rtvi.TranscriptionFrame{},
				Message: &rtvi.MessageFrame{}, Interruption: &rtvi.InterruptionFrame{},
			},
			wantErr: rtvi.ErrInvalidFrame, detail: "5 oneof members set",
		},
		{name: "invalid UTF-8 text", frame: rtvi.Frame{Text: &rtvi.TextFrame{Text: "\xff"}}, wantErr: rtvi.ErrInvalidFrame, detail: "text.text is not valid UTF-8"},
		{name: "invalid UTF-8 audio name", frame: rtvi.Frame{Audio: &rtvi.AudioRawFrame{Name: "\xc3"}}, wantErr: rtvi.ErrInvalidFrame, detail: "audio.name"},
		{name: "invalid UTF-8 user id", frame: rtvi.Frame{Transcription: &rtvi.TranscriptionFrame{UserID: "\x80"}}, wantErr: rtvi.ErrInvalidFrame, detail: "transcription.user_id"},
		{name: "invalid UTF-8 data", frame: rtvi.Frame{Message: &rtvi.MessageFrame{Data: "{\xfe}"}}, wantErr: rtvi.ErrInvalidFrame, detail: "message.data"},
		{name: "invalid UTF-8 interruption name", frame: rtvi.Frame{Interruption: &rtvi.InterruptionFrame{Name: "\xed\xa0\x80"}}, wantErr: rtvi.ErrInvalidFrame, detail: "interruption.name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := tt.frame.Marshal()
			require.Error(t, err)
			assert.Nil(t, b)
			assert.ErrorIs(t, err, tt.wantErr)
			assert.True(t, strings.HasPrefix(err.Error(), "rtvi: "), err.Error())
			assert.Contains(t, err.Error(), tt.detail)

			prefix := []byte("prefix")
			out, err := rtvi.AppendFrame(prefix, tt.frame)
			require.ErrorIs(t, err, tt.wantErr)
			assert.Equal(t, []byte("prefix"), out)
		})
	}
}

func TestAppendFrame(t *testing.T) {
	f := rtvi.Frame{Interruption: &rtvi.InterruptionFrame{ID: 1}}
	b, err := rtvi.AppendFrame([]byte{0xaa}, f)
	require.NoError(t, err)
	assert.Equal(t, []byte{0xaa, 0x2a, 0x02, 0x08, 0x01}, b)
}

func TestMessageFrameBytes(t *testing.T) {
	tests := []struct {
		name string
		data string
	}{
		{name: "empty", data: ""},
		{name: "client-ready", data: `{"label": "rtvi-ai", "type": "client-ready", "id": "a1", "data": {"version": "1.0.0"}}`},
		{name: "non-ASCII", data: `{"label": "rtvi-ai", "type": "send-text", "data": {"content": "¿Dónde está? 🚉"}}`},
		{name: "length needs a two-byte varint", data: `{"pad": "` + strings.Repeat("x", 200) + `"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := rtvi.MessageFrameBytes([]byte(tt.data))
			want, err := rtvi.Frame{Message: &rtvi.MessageFrame{Data: tt.data}}.Marshal()
			require.NoError(t, err)
			assert.Equal(t, want, b)

			data, err := rtvi.MessageData(b)
			require.NoError(t, err)
			assert.Equal(t, tt.data, string(data))
		})
	}
}

func TestFrameMessageData(t *testing.T) {
	t.Run("message with unknown fields", func(t *testing.T) {
		data, err := rtvi.MessageData(pbCat(pbVarint(9, 1), pbLen(4, pbStr(1, `{"x":1}`), pbFixed32(2, 0))))
		require.NoError(t, err)
		assert.Equal(t, []byte(`{"x":1}`), data)
	})
	t.Run("empty message member", func(t *testing.T) {
		data, err := rtvi.MessageData([]byte{0x22, 0x00})
		require.NoError(t, err)
		assert.Empty(t, data)
	})

	tests := []struct {
		name    string
		in      []byte
		wantErr error
		detail  string
	}{
		{name: "text frame", in: pbLen(1, pbStr(3, "hi")), wantErr: rtvi.ErrNotMessage, detail: "the frame holds text"},
		{name: "audio frame", in: pbLen(2), wantErr: rtvi.ErrNotMessage, detail: "the frame holds audio"},
		{name: "transcription frame", in: pbLen(3), wantErr: rtvi.ErrNotMessage, detail: "transcription"},
		{name: "interruption frame", in: pbLen(5), wantErr: rtvi.ErrNotMessage, detail: "interruption"},
		{name: "message replaced by text", in: pbCat(pbLen(4, pbStr(1, "{}")), pbLen(1)), wantErr: rtvi.ErrNotMessage, detail: "text"},
		{name: "empty input", in: nil, wantErr: rtvi.ErrEmptyFrame},
		{name: "malformed", in: []byte{0x22, 0x03, 0x0a}, wantErr: rtvi.ErrMalformedFrame},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data, err := rtvi.MessageData(tt.in)
			require.ErrorIs(t, err, tt.wantErr)
			assert.Nil(t, data)
			assert.Contains(t, err.Error(), tt.detail)
			if !errors.Is(tt.wantErr, rtvi.ErrNotMessage) {
				assert.NotErrorIs(t, err, rtvi.ErrNotMessage)
			}
		})
	}
}

func TestMessageFrameLarge(t *testing.T) {
	const size = 10 << 20
	var sb strings.Builder
	sb.Grow(size + 128)
	sb.WriteString(`{"label": "rtvi-ai", "type": "server-response", "id": "big", "data": {"t": "get_context_history", "d": "`)
	for sb.Len() < size {
		sb.WriteString("0123456789abcdef ñ ")
	}
	sb.WriteString(`"}}`)
	data := sb.String()

	b := rtvi.MessageFrameBytes([]byte(data))
	got, err := rtvi.MessageData(b)
	require.NoError(t, err)
	require.True(t, string(got) == data, "payload differs after the round trip")

	f, err := rtvi.DecodeFrame(b)
	require.NoError(t, err)
	require.NotNil(t, f.Message)
	again, err := f.Marshal()
	require.NoError(t, err)
	require.True(t, bytes.Equal(b, again), "re-encoding differs")

	// A truncated copy is reported, not misread.
	_, err = rtvi.DecodeFrame(b[:len(b)-1])
	require.ErrorIs(t, err, rtvi.ErrMalformedFrame)
}

// frameGoldenDir holds the vectors protoc encoded from the .txtpb files
// (see regen.sh there).
const frameGoldenDir = "testdata/frames"

// frameGolden is the Go value of each testdata/frames/<name>.txtpb.
var frameGolden = map[string]rtvi.Frame{
	"text": {Text: &rtvi.TextFrame{ID: 42, Name: "TextFrame#3", Text: "Hello, how can I help you today?"}},
	"text_utf8": {Text: &rtvi.TextFrame{
		ID: 7, Name: "TextFrame#0", Text: "Grüß Gott — こんにちは 👋 مرحبا",
	}},
	"text_empty": {Text: &rtvi.TextFrame{}},
	"audio_pts": {Audio: &rtvi.AudioRawFrame{
		ID: 1001, Name: "OutputAudioRawFrame#12", Audio: []byte{0x00, 0x00, 0xff, 0x7f, 0x01, 0x80, 0x10, 0x00},
		SampleRate: 16000, NumChannels: 1, PTS: new(uint64(1234567890123)),
	}},
	"audio_pts_zero": {Audio: &rtvi.AudioRawFrame{
		Audio: []byte{0x01, 0x02}, SampleRate: 24000, NumChannels: 2, PTS: new(uint64(0)),
	}},
	"audio_no_pts": {Audio: &rtvi.AudioRawFrame{
		ID: math.MaxUint64, Name: "InputAudioRawFrame#1", Audio: []byte{0xde, 0xad, 0xbe, 0xef},
		SampleRate: math.MaxUint32, NumChannels: 1,
	}},
	"transcription": {Transcription: &rtvi.TranscriptionFrame{
		ID: 5150, Name: "TranscriptionFrame#8", Text: "What's the weather like in Paris?",
		UserID: "user-7f3a", Timestamp: "2025-06-01T14:03:27.512+00:00",
	}},
	"message": {Message: &rtvi.MessageFrame{
		Data: `{"label": "rtvi-ai", "type": "client-message", "id": "c5a1e9d2-7b44-4f0e-9a63-2d8e1f0b6c17", ` +
			`"data": {"t": "apply_sync_delta", "d": {"table": "orders", "rows": [{"id": 17, "status": "shipped", "note": "caf\u00e9 \"bleu\""}]}}}`,
	}},
	"interruption": {Interruption: &rtvi.InterruptionFrame{ID: 99, Name: "InterruptionFrame#2"}},
}

func TestFrameGoldenVectors(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(frameGoldenDir, "*.bin"))
	require.NoError(t, err)
	names := make(map[string]bool)
	for _, f := range files {
		names[strings.TrimSuffix(filepath.Base(f), ".bin")] = true
	}
	for name := range frameGolden {
		assert.True(t, names[name], "%s.bin is missing; run %s/regen.sh", name, frameGoldenDir)
	}

	for name := range names {
		t.Run(name, func(t *testing.T) {
			want, ok := frameGolden[name]
			require.True(t, ok, "no expected value declared for %s.bin", name)
			bin, err := os.ReadFile(filepath.Join(frameGoldenDir, name+".bin"))
			require.NoError(t, err)

			got, err := rtvi.DecodeFrame(bin)
			require.NoError(t, err)
			assert.Equal(t, want, got)

			enc, err := want.Marshal()
			require.NoError(t, err)
			assert.Equal(t, bin, enc, "Marshal differs from protoc's encoding")

			if want.Message != nil {
				data, err := rtvi.MessageData(bin)
				require.NoError(t, err)
				assert.JSONEq(t, want.Message.Data, string(data))
				assert.Equal(t, bin, rtvi.MessageFrameBytes(data))
			}
		})
	}
}
