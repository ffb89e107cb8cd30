package rtvi

import (
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/voiceeval/schematools/internal/pyvalue"
)

// The defaults the package doc and Config promise.
func TestDefaults(t *testing.T) {
	assert.Equal(t, 3*time.Second, defaultHistoryWait)
	assert.Equal(t, 50*time.Millisecond, defaultHistoryPoll)
	assert.Equal(t, 1<<20, defaultMaxMessageBytes)
	assert.Equal(t, "system", defaultSystemRole)
}

// Each kind of bad frame keeps its own text and is an ErrMalformed.
func TestFrameErrorKindsAreMalformed(t *testing.T) {
	for _, k := range []error{errMalformedFrame, errEmptyFrame, errInvalidFrame} {
		assert.True(t, errors.Is(k, ErrMalformed), k.Error())
		assert.False(t, errors.Is(ErrMalformed, k))
	}
	assert.False(t, errors.Is(errEmptyFrame, errMalformedFrame), "the kinds stay apart")
	assert.False(t, errors.Is(ErrNotMessage, ErrMalformed), "a frame of another kind is not malformed")
}

// A bot of this module may hold its messages as the kernel's ordered
// dict: they sanitise and print in their own order, like a struct's.
func TestTranscriptOfPyvalueDicts(t *testing.T) {
	msgs := []any{
		pyvalue.Dict{{Key: "role", Value: "user"}, {Key: "content", Value: "it's " + "\xed\xa0\x80"}},
		pyvalue.Dict{{Key: "role", Value: "assistant"}, {Key: "audio", Value: pyvalue.Dict{{Key: "data", Value: "UklGRg=="}}}, {Key: "role", Value: "tool"}},
	}
	got, err := pythonRepr(sanitizeContext(msgs))
	assert.NoError(t, err)
	assert.Equal(t, `[{'role': 'user', 'content': "it's \ud800"}, {'role': 'tool', 'audio': {'data': '<audio>'}}]`, got)
}

func TestMessageFrameSize(t *testing.T) {
	for _, n := range []int{0, 1, 100, 125, 126, 127, 128, 16381, 16382, 16383, 16384, 1<<20 - 8, 1 << 20, 2097149, 2097150, 2097151, 2097152} {
		if got, want := messageFrameSize(n), len(MessageFrameBytes(make([]byte, n))); got != want {
			t.Errorf("messageFrameSize(%d) = %d, want %d", n, got, want)
		}
	}
}

func TestProtocolMajor(t *testing.T) {
	parts, ok := versionParts(protocolVersion)
	assert.True(t, ok)
	assert.Equal(t, protocolMajor, parts[0])
}
