package rtvi_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/rtvi"
)

func TestDispatcherEnvelopes(t *testing.T) {
	b := newBot(t)
	b.d.Register("explode", func(context.Context, json.RawMessage) (any, error) { panic("boom") })
	b.d.Register("fail", func(context.Context, json.RawMessage) (any, error) {
		return nil, &rtvi.Error{Kind: "ValueError", Message: "bad value"}
	})
	b.d.Register("plain_fail", func(context.Context, json.RawMessage) (any, error) { return nil, errors.New("went wrong") })
	b.d.Register("nothing", func(context.Context, json.RawMessage) (any, error) { return nil, nil })
	b.d.Register("echo", func(_ context.Context, d json.RawMessage) (any, error) { return json.RawMessage(d), nil })

	tests := []struct {
		name, in string
		want     string // the reply, compared as JSON; "" means no reply
		wantErr  bool
	}{
		{"unknown t", `{"label":"rtvi-ai","type":"client-message","id":"r1","data":{"t":"nope","d":{}}}`,
			`{"label":"rtvi-ai","type":"error-response","id":"r1","data":{"error":"unknown message type: nope"}}`, false},
		{"handler panic", `{"label":"rtvi-ai","type":"client-message","id":"r2","data":{"t":"explode"}}`,
			`{"label":"rtvi-ai","type":"error-response","id":"r2","data":{"error":"RuntimeError: handler explode panicked: boom"}}`, false},
		{"typed handler error", `{"label":"rtvi-ai","type":"client-message","id":"r3","data":{"t":"fail"}}`,
			`{"label":"rtvi-ai","type":"error-response","id":"r3","data":{"error":"ValueError: bad value"}}`, false},
		{"plain handler error", `{"label":"rtvi-ai","type":"client-message","id":"r4","data":{"t":"plain_fail"}}`,
			`{"label":"rtvi-ai","type":"error-response","id":"r4","data":{"error":"RuntimeError: went wrong"}}`, false},
		{"nil result leaves d out", `{"label":"rtvi-ai","type":"client-message","id":"r5","data":{"t":"nothing"}}`,
			`{"label":"rtvi-ai","type":"server-response","id":"r5","data":{"t":"nothing"}}`, false},
		{"absent d is {}", `{"label":"rtvi-ai","type":"client-message","id":"r6","data":{"t":"echo"}}`,
			`{"label":"rtvi-ai","type":"server-response","id":"r6","data":{"t":"echo","d":{}}}`, false},
		{"falsy d is {}", `{"label":"rtvi-ai","type":"client-message","id":"r7","data":{"t":"echo","d":0}}`,
			`{"label":"rtvi-ai","type":"server-response","id":"r7","data":{"t":"echo","d":{}}}`, false},
		{"d passed through", `{"label":"rtvi-ai","type":"client-message","id":"r8","data":{"t":"echo","d":[1,"x"]}}`,
			`{"label":"rtvi-ai","type":"server-response","id":"r8","data":{"t":"echo","d":[1,"x"]}}`, false},
		{"missing t", `{"label":"rtvi-ai","type":"client-message","id":"r9","data":{"d":{}}}`,
			`{"label":"rtvi-ai","type":"error-response","id":"r9","data":{"error":"Invalid message: \"t\" must be a string, got NoneType"}}`, false},
		{"missing data", `{"label":"rtvi-ai","type":"client-message","id":"r10"}`,
			`{"label":"rtvi-ai","type":"error-response","id":"r10","data":{"error":"Invalid message: client-message data must be an object with a string \"t\""}}`, false},
		{"unsupported type", `{"label":"rtvi-ai","type":"ui-event","id":"r11","data":{}}`,
			`{"label":"rtvi-ai","type":"error-response","id":"r11","data":{"error":"Unsupported type ui-event"}}`, false},
		{"other label ignored", `{"label":"something-else","type":"client-message","id":"r12","data":{"t":"reset"}}`, "", false},
		{"no label ignored", `{"type":"client-message","id":"r13","data":{"t":"reset"}}`, "", false},
		{"handshake, 1.x client", `{"label":"rtvi-ai","type":"client-ready","id":"c1","data":{"version":"1.1.0","about":{"library":"evaluation-bridge"}}}`,
			`{"label":"rtvi-ai","type":"bot-ready","id":"c1","data":{"version":"1.1.0","about":{"library":"schematools"}}}`, false},
		{"handshake, 2.x client", `{"label":"rtvi-ai","type":"client-ready","id":"c2","data":{"version":"2.0.0"}}`,
			`{"label":"rtvi-ai","type":"bot-ready","id":"c2","data":{"version":"2.1.0","about":{"library":"schematools"}}}`, false},
		{"send-text without a hook", `{"label":"rtvi-ai","type":"send-text","id":"s1","data":{"content":"Hello"}}`,
			`{"label":"rtvi-ai","type":"error-response","id":"s1","data":{"error":"Unsupported type send-text"}}`, false},
		{"invalid JSON", `{"label":"rtvi-ai",`, `{"label":"rtvi-ai","type":"error"}`, true},
		{"not an object", `[1,2]`, `{"label":"rtvi-ai","type":"error"}`, true},
		{"missing id", `{"label":"rtvi-ai","type":"client-message","data":{"t":"reset"}}`, `{"label":"rtvi-ai","type":"error"}`, true},
		{"numeric id", `{"label":"rtvi-ai","type":"client-message","id":7,"data":{"t":"reset"}}`, `{"label":"rtvi-ai","type":"error"}`, true},
		{"missing type", `{"label":"rtvi-ai","id":"x","data":{"t":"reset"}}`, `{"label":"rtvi-ai","type":"error"}`, true},
		{"data not an object", `{"label":"rtvi-ai","type":"client-message","id":"x","data":"reset"}`, `{"label":"rtvi-ai","type":"error"}`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reply, err := b.d.Handle(context.Background(), []byte(tt.in))
			if tt.wantErr {
				require.ErrorIs(t, err, rtvi.ErrMalformed)
				got := decode(t, reply)
				assert.Equal(t, "error", got["type"])
				assert.Equal(t, false, got["data"].(map[string]any)["fatal"])
				assert.True(t, strings.HasPrefix(got["data"].(map[string]any)["error"].(string), "Invalid RTVI transport message: "))
				return
			}
			require.NoError(t, err)
			if tt.want == "" {
				assert.Nil(t, reply)
				return
			}
			assert.JSONEq(t, tt.want, string(reply))
		})
	}
}

func TestRepliesAreWrittenAsPythonJSONDumps(t *testing.T) {
	reply, err := rtvi.ServerResponse("id_1", "get_scenario_summary", map[string]any{"db_hash": nil, "actions": []any{}, "x": "é"})
	require.NoError(t, err)
	assert.Equal(t, `{"label": "rtvi-ai", "type": "server-response", "id": "id_1", "data": {"t": "get_scenario_summary", "d": {"actions": [], "db_hash": null, "x": "\u00e9"}}}`, string(reply))
	assert.Equal(t, `{"label": "rtvi-ai", "type": "error-response", "id": "x", "data": {"error": "boom"}}`, string(rtvi.ErrorResponse("x", "boom")))
	msg, err := rtvi.ServerMessage(map[string]any{"text": "<exit>bye</exit>"})
	require.NoError(t, err)
	assert.Equal(t, `{"label": "rtvi-ai", "type": "server-message", "data": {"text": "<exit>bye</exit>"}}`, string(msg))
}

func TestOversizedMessageIsRefused(t *testing.T) {
	b := newBot(t, func(c *rtvi.Config) { c.MaxMessageBytes = 1000 })
	big := `{"label":"rtvi-ai","type":"client-message","id":"big","data":{"t":"reset","d":{"x":"` + strings.Repeat("a", 2000) + `"}}}`
	reply, err := b.d.Handle(context.Background(), []byte(big))
	require.ErrorIs(t, err, rtvi.ErrMalformed)
	assert.Contains(t, decode(t, reply)["data"].(map[string]any)["error"], "larger than the 1000-byte limit")

	// The default limit is the 1 MiB the Python bridge lives with: a 10 MB
	// message is refused without being parsed.
	d := rtvi.NewDispatcher(rtvi.Config{})
	huge := []byte(`{"label":"rtvi-ai","type":"client-message","id":"h","data":{"t":"reset","d":{"x":"` + strings.Repeat("a", 10<<20) + `"}}}`)
	_, err = d.Handle(context.Background(), huge)
	require.ErrorIs(t, err, rtvi.ErrMalformed)
}

func TestSendTextHook(t *testing.T) {
	var got []string
	b := newBot(t, func(c *rtvi.Config) {
		c.SendText = func(_ context.Context, s string) error { got = append(got, s); return nil }
	})
	reply, err := b.d.Handle(context.Background(), []byte(`{"label":"rtvi-ai","type":"send-text","id":"s1","data":{"content":"Hello","options":{}}}`))
	require.NoError(t, err)
	assert.Nil(t, reply)
	assert.Equal(t, []string{"Hello"}, got)
	reply, err = b.d.Handle(context.Background(), []byte(`{"label":"rtvi-ai","type":"send-text","id":"s2","data":{"content":5}}`))
	require.NoError(t, err)
	assert.Contains(t, string(reply), "Invalid message")
}

func TestRegisterOverridesAndRemoves(t *testing.T) {
	b := newBot(t)
	b.d.Register("reset", func(context.Context, json.RawMessage) (any, error) { return "custom", nil })
	assert.Equal(t, "custom", b.result(t, "reset", nil))
	b.d.Register("reset", nil)
	assert.Equal(t, true, b.result(t, "reset", nil))
}

// A client-ready whose version is missing, unreadable or of another major
// version gets pipecat's warning as an error-response (sent through
// Config.Send, before the bot-ready Handle returns), and the handshake
// still completes. Failed before: no error-response was sent.
func TestClientReadyVersionWarnings(t *testing.T) {
	const suffix = " Compatibility issues may occur."
	for _, tt := range []struct{ data, warning, version string }{
		{`{"version":"2.0.0"}`, "", "2.1.0"},
		{`{"version":"2.7.1","about":{"library":"x"}}`, "", "2.1.0"},
		{`{"version":"1.1.0"}`, "", "1.1.0"},
		{`{"version":"01.2.3"}`, "", "1.2.3"},
		{`{"version":"3.0.0"}`, "RTVI version 3.0.0 is not compatible with server protocol 2.1.0.", "2.1.0"},
		{`{"version":"0.3.0"}`, "RTVI version 0.3.0 is not compatible with server protocol 2.1.0.", "2.1.0"},
		{`{"version":" +2.0_1.0 "}`, "", "2.1.0"},
		{`{"version":"1_0.0.0"}`, "RTVI version 1_0.0.0 is not compatible with server protocol 2.1.0.", "2.1.0"},
		{`{"version":"2.0.-"}`, "Invalid client version format (2.0.-).", "2.1.0"},
		{`{"version":"2.0__1.0"}`, "Invalid client version format (2.0__1.0).", "2.1.0"},
		{`{"version":"2.x"}`, "Invalid client version format (2.x).", "2.1.0"},
		{`{"version":"2.0"}`, "Invalid client version format (2.0).", "2.1.0"},
		{`{"version":""}`, "Client version unknown.", "2.1.0"},
		{`{"version":2}`, "Client version unknown.", "2.1.0"},
		{`{}`, "Client version unknown.", "2.1.0"},
		{`null`, "Client version unknown.", "2.1.0"},
	} {
		t.Run(tt.data, func(t *testing.T) {
			b := newBot(t)
			m := handle(t, b.d, `{"label":"rtvi-ai","type":"client-ready","id":"h1","data":`+tt.data+`}`)
			assert.Equal(t, "bot-ready", m["type"])
			assert.Equal(t, "h1", m["id"])
			assert.Equal(t, tt.version, m["data"].(map[string]any)["version"])
			sent := b.out.all()
			if tt.warning == "" {
				assert.Empty(t, sent)
				return
			}
			require.Len(t, sent, 1)
			assert.Equal(t, map[string]any{"label": "rtvi-ai", "type": "error-response", "id": "h1",
				"data": map[string]any{"error": tt.warning + suffix}}, sent[0])
		})
	}
}
