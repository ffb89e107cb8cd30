package rtvi_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/dynamicpb"

	"github.com/voiceeval/schematools/rtvi"
)

// FuzzDecodeFrame checks that DecodeFrame never panics, that whatever it
// accepts re-encodes to a stable canonical form that decodes back to the
// same Frame, and that it agrees with protobuf-go reading the same bytes
// through the protoc-compiled schema (testdata/frames/frames.desc) as a
// dynamic message.
func FuzzDecodeFrame(f *testing.F) {
	bins, err := filepath.Glob(filepath.Join(frameGoldenDir, "*.bin"))
	require.NoError(f, err)
	require.NotEmpty(f, bins)
	for _, name := range bins {
		b, err := os.ReadFile(name)
		require.NoError(f, err)
		f.Add(b)
	}
	for _, b := range [][]byte{
		{},
		{0x80},                         // truncated tag
		{0x0a, 0x05, 0x08, 0x01},       // length past the end
		{0x08, 0x01},                   // member with the wrong wire type
		{0x0b, 0x0c},                   // group
		{0x0a, 0x03, 0x1a, 0x01, 0xff}, // invalid UTF-8 in text.text
		{0x12, 0x02, 0x30, 0x00, 0x0a, 0x02, 0x08, 0x01, 0x12, 0x02, 0x28, 0x02}, // replace, then merge
		{0x4d, 0x01, 0x02, 0x03, 0x04, 0x2a, 0x00},                               // unknown fixed32, interruption
	} {
		f.Add(b)
	}
	frameDesc := loadFrameDescriptor(f)

	f.Fuzz(func(t *testing.T, b []byte) {
		ref := dynamicpb.NewMessage(frameDesc)
		refErr := proto.Unmarshal(b, ref)

		got, err := rtvi.DecodeFrame(b)
		if err != nil {
			require.True(t, strings.HasPrefix(err.Error(), "rtvi: "), err.Error())
			switch {
			case errors.Is(err, rtvi.ErrEmptyFrame):
				require.NoError(t, refErr, "protobuf-go rejects what DecodeFrame found empty")
				require.Nil(t, ref.WhichOneof(frameDesc.Oneofs().ByName("frame")))
			case errors.Is(err, rtvi.ErrMalformedFrame):
				// DecodeFrame is stricter than protobuf-go only about a
				// known field with the wrong wire type and about groups,
				// which protobuf-go keeps as unknown fields (and drops
				// silently with a oneof member that a later one replaces,
				// so they need not show in ref). DecodeFrame stops at the
				// first problem, so when protobuf-go accepts the input,
				// that problem must be one of the two.
				if refErr == nil {
					msg := err.Error()
					require.True(t, strings.Contains(msg, ", want ") || strings.Contains(msg, "group wire type"),
						"rejected what protobuf-go accepts: %v", err)
				}
			default:
				t.Fatalf("unexpected error: %v", err)
			}
			return
		}

		enc, err := got.Marshal()
		require.NoError(t, err)
		again, err := rtvi.DecodeFrame(enc)
		require.NoError(t, err)
		require.Equal(t, got, again)
		enc2, err := again.Marshal()
		require.NoError(t, err)
		require.Equal(t, enc, enc2)

		require.NoError(t, refErr, "protobuf-go rejects what DecodeFrame accepts")
		dropFrameUnknown(ref)
		refEnc, err := proto.MarshalOptions{Deterministic: true}.Marshal(ref)
		require.NoError(t, err)
		require.Equal(t, refEnc, enc, "protobuf-go re-encodes differently")
	})
}

// loadFrameDescriptor returns pipecat.Frame from the descriptor set protoc
// wrote for testdata/frames/frames.proto.
func loadFrameDescriptor(tb testing.TB) protoreflect.MessageDescriptor {
	raw, err := os.ReadFile(filepath.Join(frameGoldenDir, "frames.desc"))
	require.NoError(tb, err)
	var set descriptorpb.FileDescriptorSet
	require.NoError(tb, proto.Unmarshal(raw, &set))
	files, err := protodesc.NewFiles(&set)
	require.NoError(tb, err)
	d, err := files.FindDescriptorByName("pipecat.Frame")
	require.NoError(tb, err)
	md, ok := d.(protoreflect.MessageDescriptor)
	require.True(tb, ok)
	return md
}

// dropFrameUnknown removes the unknown fields of m and of the messages
// inside it, which rtvi's codec does not keep.
func dropFrameUnknown(m protoreflect.Message) {
	m.SetUnknown(nil)
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		if fd.Message() != nil {
			dropFrameUnknown(v.Message())
		}
		return true
	})
}
