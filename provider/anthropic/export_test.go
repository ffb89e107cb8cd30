package anthropic

import (
	"bytes"
	"io"
	"net/http"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/packages/ssestream"

	"github.com/voiceeval/schematools/agent"
)

// ReadStreamBytes reads an SSE body as a stream answer, for the tests.
func ReadStreamBytes(body []byte) (agent.Response, error) {
	res := &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"text/event-stream"}}, Body: io.NopCloser(bytes.NewReader(body))}
	return readStream(ssestream.NewStream[sdk.MessageStreamEventUnion](ssestream.NewDecoder(res), nil), nil)
}

// Messages renders a context as the Messages API takes it, for the tests.
var Messages = messagesOf

// NativeKey is the key of the adapter's data in agent.Message.Native.
const NativeKey = nativeKey

// DefaultMaxTokens is what a zero Options.MaxTokens sends.
const DefaultMaxTokens = defaultMaxTokens
