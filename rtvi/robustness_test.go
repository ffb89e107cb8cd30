package rtvi_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/voiceeval/schematools/hooks"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/rtvi"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

// panicky panics when marshalled.
type panicky struct{}

func (panicky) MarshalJSON() ([]byte, error) { panic("marshal boom") }

func handle(t *testing.T, d *rtvi.Dispatcher, msg string) map[string]any {
	t.Helper()
	reply, err := d.Handle(context.Background(), []byte(msg))
	require.NoError(t, err)
	require.NotNil(t, reply)
	return decode(t, reply)
}

// Whatever the bot plugs in panics, Handle answers.
func TestPanicsBecomeErrorResponses(t *testing.T) {
	b := newBot(t, func(c *rtvi.Config) {
		c.About = map[string]any{"x": panicky{}}
		c.SendText = func(context.Context, string) error { panic("send-text boom") }
	})
	b.d.Register("bad_reply", func(context.Context, json.RawMessage) (any, error) {
		return map[string]any{"x": panicky{}}, nil
	})
	for _, tt := range []struct{ msg, want string }{
		{`{"label":"rtvi-ai","type":"client-message","id":"a","data":{"t":"bad_reply"}}`, "RuntimeError: panic while answering client-message: marshal boom"},
		{`{"label":"rtvi-ai","type":"client-ready","id":"b","data":{"version":"1.0.0"}}`, "RuntimeError: panic while answering client-ready: marshal boom"},
		{`{"label":"rtvi-ai","type":"send-text","id":"c","data":{"content":"hi"}}`, "RuntimeError: panic while answering send-text: send-text boom"},
	} {
		m := handle(t, b.d, tt.msg)
		assert.Equal(t, "error-response", m["type"])
		assert.Equal(t, tt.want, m["data"].(map[string]any)["error"])
	}
}

func TestOversizedRepliesAreRefused(t *testing.T) {
	b := newBot(t, func(c *rtvi.Config) { c.MaxReplyBytes = 300 })
	b.st.SetDB(map[string]any{"blob": strings.Repeat("x", 1000)})
	m := b.request(t, "get_scenario_summary", map[string]any{"include_db": true})
	assert.Equal(t, "error-response", m["type"])
	assert.Contains(t, m["data"].(map[string]any)["error"], "ValueError: the reply of ")
	assert.Contains(t, m["data"].(map[string]any)["error"], "larger than the 300-byte limit")
	assert.Equal(t, "server-response", b.request(t, "get_scenario_summary", nil)["type"], "the hash alone fits")

	unlimited := newBot(t, func(c *rtvi.Config) { c.MaxReplyBytes = -1 })
	unlimited.st.SetDB(map[string]any{"blob": strings.Repeat("x", 2<<20)})
	assert.Equal(t, "server-response", unlimited.request(t, "get_scenario_summary", map[string]any{"include_db": true})["type"])
}

func TestHandleFrame(t *testing.T) {
	b := newBot(t)
	ctx := context.Background()

	reply, err := b.d.HandleFrame(ctx, rtvi.MessageFrameBytes([]byte(`{"label":"rtvi-ai","type":"client-message","id":"r","data":{"t":"reset"}}`)))
	require.NoError(t, err)
	data, err := rtvi.MessageData(reply)
	require.NoError(t, err)
	assert.JSONEq(t, `{"label":"rtvi-ai","type":"server-response","id":"r","data":{"t":"reset","d":true}}`, string(data))

	text, err := rtvi.Frame{Text: &rtvi.TextFrame{Text: "hello"}}.Marshal()
	require.NoError(t, err)
	reply, err = b.d.HandleFrame(ctx, text)
	assert.ErrorIs(t, err, rtvi.ErrNotMessage)
	assert.Nil(t, reply)

	for _, bad := range [][]byte{{0x22, 0x05, 0x0a}, {0xff}} {
		reply, err = b.d.HandleFrame(ctx, bad)
		assert.ErrorIs(t, err, rtvi.ErrMalformedFrame)
		assert.Nil(t, reply)
	}
	reply, err = b.d.HandleFrame(ctx, nil)
	assert.ErrorIs(t, err, rtvi.ErrEmptyFrame)
	assert.Nil(t, reply)

	reply, err = b.d.HandleFrame(ctx, rtvi.MessageFrameBytes([]byte(`{"label":"other"}`)))
	assert.NoError(t, err)
	assert.Nil(t, reply, "not RTVI: ignored")

	reply, err = b.d.HandleFrame(ctx, rtvi.MessageFrameBytes([]byte(`{nope`)))
	assert.ErrorIs(t, err, rtvi.ErrMalformed)
	data, derr := rtvi.MessageData(reply)
	require.NoError(t, derr)
	assert.Contains(t, string(data), `"type": "error"`)

	big := rtvi.MessageFrameBytes([]byte(`{"label":"rtvi-ai","type":"client-message","id":"x","data":{"t":"reset","d":{"pad":"` + strings.Repeat("a", 10<<20) + `"}}}`))
	_, err = b.d.HandleFrame(ctx, big)
	assert.ErrorIs(t, err, rtvi.ErrMalformed, "a 10 MB message is refused unread")
}

// Seeding and starting scenarios while summaries and tool calls run: no
// summary ever pairs one seed's DB with another seed's action log.
func TestScenarioChangesAreAtomic(t *testing.T) {
	b := newBot(t)
	ctx := context.Background()
	var wg sync.WaitGroup
	stop := make(chan struct{})
	wg.Go(func() {
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			b.startScenario(t)
			init := map[string]any{"db": map[string]any{"gen": i, "flags": map[string]any{}}, "actions": []any{map[string]any{"action_type": "seed", "gen": i}}}
			raw, _ := json.Marshal(init)
			b.result(t, "apply_initialization", map[string]any{"shared_state_init": string(raw)})
		}
	})
	wg.Go(func() {
		set, _ := b.installer.current()
		for {
			select {
			case <-stop:
				return
			default:
			}
			if s, _ := b.installer.current(); s != nil {
				set = s
			}
			if set != nil {
				_ = set.Call(ctx, "set_flag", map[string]any{"name": "f", "value": true}, func(any) error { return nil }, nil)
			}
		}
	})
	for range 300 {
		got := b.result(t, "get_scenario_summary", map[string]any{"include_db": true}).(map[string]any)
		db, _ := got["db"].(map[string]any)
		actions := got["actions"].([]any)
		if db == nil || len(actions) == 0 {
			continue
		}
		first := actions[0].(map[string]any)
		require.Equal(t, "seed", first["action_type"])
		require.Equal(t, db["gen"], first["gen"], "DB and log come from the same seed")
	}
	close(stop)
	wg.Wait()
}

func TestApplyInitializationRecords(t *testing.T) {
	funcs := hooks.Set{Init: map[string]hooks.Init{}}
	funcs.Init["set_count"] = hooks.Init{Func: func(db, args map[string]any, _ func() time.Time) error {
		db["count"] = args["value"]
		return nil
	}}
	b := newBot(t, withHooks(t, "synthetic", funcs))
	b.st.SetDB(map[string]any{})

	got := b.result(t, "apply_initialization", map[string]any{"domain": "synthetic", "actions": []any{
		map[string]any{"arguments": map[string]any{}},
		map[string]any{"func_name": "set_count", "arguments": []any{1}},
		map[string]any{"func_name": "set_count", "arguments": map[string]any{"value": 5}},
	}}).(map[string]any)
	assert.Equal(t, false, got["success"])
	assert.Equal(t, []any{
		"[action 0] No initialization function 'None' registered under domain='synthetic'. Available: ['set_count'].",
		"[action 1] 'set_count' raised: TypeError: set_count() argument after ** must be a mapping, not list",
	}, got["errors"], "records Python can read but not run fail one by one")
	assert.Equal(t, json.Number("5"), b.st.Snapshot()["count"], "and the others still run")

	got = b.result(t, "apply_initialization", map[string]any{"domain": "synthetic", "actions": []any{"set_count"}}).(map[string]any)
	assert.Equal(t, []any{"AttributeError: 'str' object has no attribute 'get'"}, got["errors"])
}

func TestApplyInitializationPythonTexts(t *testing.T) {
	b := newBot(t)
	for _, tt := range []struct{ init, want string }{
		{`{"db_path": `, "Invalid shared_state_init JSON: Expecting value: line 1 column 13 (char 12)"},
		{`{"a": 1} x`, "Invalid shared_state_init JSON: Extra data: line 1 column 10 (char 9)"},
		{"{\n  \"é\": 1,\n}", "Invalid shared_state_init JSON: Expecting property name enclosed in double quotes: line 3 column 1 (char 12)"},
	} {
		got := b.result(t, "apply_initialization", map[string]any{"shared_state_init": tt.init}).(map[string]any)
		assert.Equal(t, []any{tt.want}, got["errors"])
	}
}

// shared_state_init may set what Python keeps under "__tool_domain__" and
// "_call_counts".
func TestApplyInitializationSentinelKeys(t *testing.T) {
	b := newBot(t)
	b.startScenario(t)
	got := b.result(t, "apply_initialization", map[string]any{
		"shared_state_init": `{"db": {}, "__tool_domain__": "other", "_call_counts": {"refund": 2}, "__rtvi__": "ignored"}`,
	})
	assert.Equal(t, map[string]any{"success": true, "errors": []any{}}, got)
	assert.Equal(t, "other", b.st.Domain())
	assert.Equal(t, 3, b.st.NextCallIndex("refund"))
	assert.Empty(t, b.st.Values())
	got = b.result(t, "apply_initialization", map[string]any{"shared_state_init": `{"_call_counts": {"refund": "x"}}`})
	assert.Contains(t, got.(map[string]any)["errors"].([]any)[0], "TypeError: shared_state_init _call_counts['refund'] must be an integer, got str")
}

func TestSyncErrorKinds(t *testing.T) {
	b := newBot(t)
	b.st.SetDB(map[string]any{"a": 1})
	got := b.result(t, "apply_sync_delta", map[string]any{"delta": map[string]any{"x.y": 1}}).(map[string]any)
	assert.True(t, strings.HasPrefix(got["errors"].([]any)[0].(string), "KeyError: "), got["errors"])
	got = b.result(t, "apply_sync_delta", map[string]any{"delta": map[string]any{"a.y": 1}}).(map[string]any)
	assert.True(t, strings.HasPrefix(got["errors"].([]any)[0].(string), "TypeError: "), got["errors"])
}

func TestInitialMessages(t *testing.T) {
	b := newBot(t, func(c *rtvi.Config) {
		c.InitialMessages = []rtvi.ChatMessage{{Role: "system", Content: "Waiting for a scenario."}}
	})
	assert.Equal(t, true, b.result(t, "reset", nil))
	assert.Equal(t, []rtvi.ChatMessage{{Role: "system", Content: "Waiting for a scenario."}}, b.conv.lastReset())
}

// A failing conversation reset refuses update_system_prompt without
// changing the prompt reset restores.
func TestPromptKeptWhenTheConversationFails(t *testing.T) {
	b := newBot(t)
	b.startScenario(t)
	b.conv.resetErr = errors.New("broken")
	assert.Equal(t, false, b.result(t, "update_system_prompt", map[string]any{"prompt": "new"}))
	b.conv.resetErr = nil
	assert.Equal(t, true, b.result(t, "reset", nil))
	assert.Equal(t, "You manage flags.", b.conv.lastReset()[0].Content)
}

// Tool messages are written as a summary writes DB values: 2.0 stays 2.0.
func TestNotifierWritesNumbersExactly(t *testing.T) {
	var got []byte
	n := rtvi.NewDispatcher(rtvi.Config{Send: func(_ context.Context, b []byte) error { got = b; return nil }}).Notifier()
	a := state.NewAction("refuel", map[string]any{"gb": 2.0}, map[string]any{"ok": true})
	require.NoError(t, n.Notify(context.Background(), tool.ActionApplied{Type: "action-applied", Action: a, ToolDomain: "d"}))
	assert.Contains(t, string(got), `"gb": 2.0`)
	require.NoError(t, n.Notify(context.Background(), tool.TextMessage{Text: "<exit>x</exit>"}))
	assert.Equal(t, `{"label": "rtvi-ai", "type": "server-message", "data": {"text": "<exit>x</exit>"}}`, string(got))
	assert.Error(t, n.Notify(context.Background(), panicky{}), "a panicking message is an error")
	assert.NoError(t, rtvi.NewDispatcher(rtvi.Config{}).Notifier().Notify(context.Background(), "dropped"), "a nil Send drops the message")
}

// A reply whose JSON is a few bytes under the limit still needs a message
// frame a few bytes over it, which a client with that frame limit drops
// (the Python bridge then waits its full timeout). The guard bounds the
// frame: every reply HandleFrame returns fits in MaxReplyBytes, or is an
// error-response at once. Failed before the guard counted the framing.
func TestReplyFramesFitTheLimit(t *testing.T) {
	for _, limit := range []int{300, 1 << 20} {
		b := newBot(t, func(c *rtvi.Config) {
			if limit != 1<<20 {
				c.MaxReplyBytes = limit
			}
		})
		var pad int
		b.d.Register("pad", func(context.Context, json.RawMessage) (any, error) { return strings.Repeat("a", pad), nil })
		req := rtvi.MessageFrameBytes([]byte(`{"label":"rtvi-ai","type":"client-message","id":"p","data":{"t":"pad"}}`))
		overhead := len(must(b.d.Handle(context.Background(), []byte(`{"label":"rtvi-ai","type":"client-message","id":"p","data":{"t":"pad"}}`))))
		for jsonSize := limit - 12; jsonSize <= limit+2; jsonSize++ {
			pad = jsonSize - overhead
			frame, err := b.d.HandleFrame(context.Background(), req)
			require.NoError(t, err)
			assert.LessOrEqual(t, len(frame), limit, "a reply of %d JSON bytes", jsonSize)
			data, err := rtvi.MessageData(frame)
			require.NoError(t, err)
			m := decode(t, data)
			if jsonSize <= limit-10 { // room for the framing
				assert.Equal(t, "server-response", m["type"], "a reply of %d JSON bytes", jsonSize)
			} else if m["type"] != "server-response" {
				assert.Equal(t, "error-response", m["type"], "a reply of %d JSON bytes", jsonSize)
				assert.Contains(t, m["data"].(map[string]any)["error"], fmt.Sprintf("larger than the %d-byte limit", limit))
			}
		}
	}
}
