package rtvi_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/rtvi"
)

// clientMessage is the JSON of a client-message; id and t are written as
// JSON string contents, already escaped.
func clientMessage(id, t string) string {
	return `{"label":"rtvi-ai","type":"client-message","id":"` + id + `","data":{"t":"` + t + `","d":{}}}`
}

// replyFrame passes msg to HandleFrame and returns the frame written back
// and its RTVI message.
func replyFrame(t *testing.T, d *rtvi.Dispatcher, msg string) ([]byte, map[string]any) {
	t.Helper()
	frame, err := d.HandleFrame(context.Background(), rtvi.MessageFrameBytes([]byte(msg)))
	require.NoError(t, err)
	require.NotNil(t, frame)
	data, err := rtvi.MessageData(frame)
	require.NoError(t, err)
	var m map[string]any
	require.NoError(t, json.Unmarshal(data, &m), "%.300s", data)
	return frame, m
}

// MaxReplyBytes bounds every reply frame, whatever the request echoes:
// error-responses echo the request id (escaped: "é" takes 6 bytes, a
// control character 6) and the unknown type or t. Failed before the
// bound covered every reply path and clipped what they echo: 3,000,165,
// 1,654 and 503 bytes.
func TestReplyBoundHoldsForEchoedText(t *testing.T) {
	for _, tt := range []struct {
		name  string
		limit int // 0 for the default
		msg   string
		error string // what the error text starts with
	}{
		{"default limit, an id of 500,000 é", 0,
			clientMessage(strings.Repeat("é", 500_000), "reset"), "ValueError: the reply of "},
		{"300 bytes, an id of 250 control characters", 300,
			clientMessage(strings.Repeat(`\u0001`, 250), "reset"), "ValueError: the reply of "},
		{"300 bytes, a type of 400 bytes", 300,
			`{"label":"rtvi-ai","type":"` + strings.Repeat("x", 400) + `","id":"a","data":{}}`, "Unsupported type xxx"},
		{"300 bytes, an unknown t of 400 bytes", 300,
			clientMessage("a", strings.Repeat("t", 400)), "unknown message type: ttt"},
		{"default limit, an unknown t of 500,000 é", 0,
			clientMessage("a", strings.Repeat("é", 500_000)), "unknown message type: éé"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			require.LessOrEqual(t, len(tt.msg), 1<<20, "the request fits the request limit")
			b := newBot(t, func(c *rtvi.Config) { c.MaxReplyBytes = tt.limit })
			limit := tt.limit
			if limit == 0 {
				limit = 1 << 20
			}
			frame, m := replyFrame(t, b.d, tt.msg)
			assert.LessOrEqual(t, len(frame), limit)
			assert.Equal(t, "error-response", m["type"])
			text, _ := m["data"].(map[string]any)["error"].(string)
			assert.True(t, strings.HasPrefix(text, tt.error), "error %.200q", text)
		})
	}
}

// An id that cannot be echoed in full is clipped to its first and last
// characters around "..."; one that fits is echoed exactly, even long.
func TestErrorResponsesClipTheID(t *testing.T) {
	b := newBot(t)
	_, m := replyFrame(t, b.d, clientMessage(strings.Repeat("é", 500_000), "reset"))
	id := m["id"].(string)
	assert.True(t, strings.HasPrefix(id, "éé"), "%.40q", id)
	assert.True(t, strings.HasSuffix(id, "éé"), "%.40q", id)
	assert.Contains(t, id, "...")
	assert.Less(t, len(id), 2000)

	long := strings.Repeat("i", 900_000)
	_, m = replyFrame(t, b.d, clientMessage(long, "nope"))
	assert.Equal(t, long, m["id"], "an id that fits is echoed as it is")
	assert.Equal(t, "unknown message type: nope", m["data"].(map[string]any)["error"])

	small := newBot(t, func(c *rtvi.Config) { c.MaxReplyBytes = 300 })
	_, m = replyFrame(t, small.d, `{"label":"rtvi-ai","type":"`+strings.Repeat("x", 400)+`","id":"short_1","data":{}}`)
	assert.Equal(t, "short_1", m["id"], "a short id is kept, the text clipped")
	text := m["data"].(map[string]any)["error"].(string)
	assert.True(t, strings.HasPrefix(text, "Unsupported type xxx") && strings.HasSuffix(text, "xxx") && strings.Contains(text, "x...x"), text)
}

// A limit too small for even an error-response without its id gets no
// reply rather than a frame over the limit.
func TestReplyBoundTinyLimits(t *testing.T) {
	for _, limit := range []int{1, 50, 100, 120, 150, 200} {
		b := newBot(t, func(c *rtvi.Config) { c.MaxReplyBytes = limit })
		for _, msg := range []string{
			clientMessage("r", "reset"),
			clientMessage(strings.Repeat("é", 100), "nope"),
			`{"label":"rtvi-ai","type":"` + strings.Repeat("x", 400) + `","id":"a","data":{}}`,
			`{"label":"rtvi-ai","type":"client-ready","id":"h","data":{"version":"1.1.0"}}`,
			`{"label":"rtvi-ai","type":"client-message","id":"a"`, // malformed: the error event
		} {
			frame, _ := b.d.HandleFrame(context.Background(), rtvi.MessageFrameBytes([]byte(msg)))
			assert.LessOrEqual(t, len(frame), limit, "limit %d, %.60s", limit, msg)
		}
	}
}

// The handshake warning a bad client-ready gets through Config.Send is a
// reply too: it echoes the client's version and id, and keeps the bound.
func TestClientReadyWarningKeepsTheBound(t *testing.T) {
	var sent [][]byte
	b := newBot(t, func(c *rtvi.Config) {
		c.MaxReplyBytes = 300
		c.Send = func(_ context.Context, msg []byte) error { sent = append(sent, msg); return nil }
	})
	frame, m := replyFrame(t, b.d, `{"label":"rtvi-ai","type":"client-ready","id":"`+strings.Repeat("é", 100)+`","data":{"version":"`+strings.Repeat(`\u0001`, 200)+`"}}`)
	assert.LessOrEqual(t, len(frame), 300)
	assert.Equal(t, "error-response", m["type"], "the bot-ready echoing the id does not fit")
	require.Len(t, sent, 1)
	assert.LessOrEqual(t, len(rtvi.MessageFrameBytes(sent[0])), 300, "%s", sent[0])
	var w map[string]any
	require.NoError(t, json.Unmarshal(sent[0], &w))
	assert.True(t, strings.HasPrefix(w["data"].(map[string]any)["error"].(string), "Invalid client version format ("), "%s", sent[0])
}
