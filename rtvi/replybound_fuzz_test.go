package rtvi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/voiceeval/schematools/internal/pyjson"
	"github.com/voiceeval/schematools/rtvi"
)

// maxRequest is the default request limit ([rtvi.Config.MaxMessageBytes]).
const maxRequest = 1 << 20

// FuzzReplyBound feeds the dispatcher requests whose id, type and t are
// anything — any UTF-8, control characters, lone surrogates, raw JSON
// fragments, up to the request limit — under the default reply limit and
// small ones, and checks MaxReplyBytes: every frame the bot writes (the
// reply of HandleFrame, what the dispatcher sends through Config.Send) is
// at most the limit and one RTVI JSON message. Besides, under a limit of
// 300 bytes or more a well-formed request is always answered (but a
// send-text, which has no answer when it works), and a short id (at most
// 100 bytes as written) is echoed exactly.
//
// The arguments: id, typ and name (the t, the version of a client-ready,
// the content of a send-text, the argument of the custom handlers) are
// repeated 1+rep times (rep taken modulo 64, or, with the top bit set, up
// to the request limit); raw writes them between the quotes as they are
// (JSON escapes of their own, or a broken message) rather than encoded;
// limit picks the reply limit: the default, 300 bytes, or 1 to 1023.
func FuzzReplyBound(f *testing.F) {
	type seed struct {
		id       string
		idRep    uint32
		typ      string
		name     string
		nameRep  uint32
		raw      bool
		limitSel uint16
	}
	big := uint32(1 << 31)
	for _, s := range []seed{
		// The inputs of issue #30 item 1.
		{"é", big | 499_999, "client-message", "reset", 0, false, 0},
		{`\u0001`, 249, "client-message", "reset", 0, true, 1},
		{"a", 0, strings.Repeat("x", 400), "reset", 0, false, 1},
		// Each reply path.
		{"r_1", 0, "client-message", "nope", 0, false, 0},
		{"r_2", 0, "client-message", "get_scenario_summary", 0, false, 1},
		{"r_3", 0, "client-message", "echo", 40, false, 1},
		{"r_4", 0, "client-message", "fail", 300, false, 2 + 4*150},
		{"r_5", 0, "client-message", "panic", 100, false, 1},
		{"r_6", 0, "client-ready", "1.0.0", 0, false, 0},
		{"é", 200, "client-ready", "\x01", 300, false, 1},
		{"r_7", 0, "send-text", "hello", 0, false, 1},
		{"r_8", 0, "send-text", "🙂", big | 100_000, false, 0},
		{`\ud800`, 30, "client-message", `\udfff\ud83d\ude00`, 20, true, 3 + 4*400},
		{`"`, 0, "client-message", "reset", 0, true, 1}, // a broken message: the error event
		{"x", 0, "client-message", "reset", 0, false, 3 + 4*60},
		{"i", big | 1_000_000, "client-message", "reset", 0, false, 0}, // over the request limit
	} {
		f.Add(s.id, s.idRep, s.typ, s.name, s.nameRep, s.raw, s.limitSel)
	}
	f.Fuzz(func(t *testing.T, id string, idRep uint32, typ, name string, nameRep uint32, raw bool, limitSel uint16) {
		limit := 0
		switch limitSel % 3 {
		case 1:
			limit = 300
		case 2:
			limit = 1 + int(limitSel/3)%1023
		}
		effective := limit
		if effective == 0 {
			effective = 1 << 20
		}
		id = repeat(id, idRep, maxRequest)
		name = repeat(name, nameRep, maxRequest-len(id))
		msg := request(id, typ, name, raw)

		var mu sync.Mutex
		var sent [][]byte
		b := newBot(t, func(c *rtvi.Config) {
			c.MaxReplyBytes = limit
			c.Send = func(_ context.Context, m []byte) error {
				mu.Lock()
				sent = append(sent, m)
				mu.Unlock()
				return nil
			}
			c.SendText = func(_ context.Context, content string) error {
				if strings.HasPrefix(content, "hello") {
					return nil
				}
				return fmt.Errorf("refused %q", content)
			}
		})
		b.d.Register("echo", func(_ context.Context, d json.RawMessage) (any, error) {
			return map[string]any{"echo": string(d)}, nil
		})
		b.d.Register("fail", func(_ context.Context, d json.RawMessage) (any, error) {
			return nil, fmt.Errorf("lookup: %w", &rtvi.Error{Kind: "KeyError", Message: string(d)})
		})
		b.d.Register("panic", func(_ context.Context, d json.RawMessage) (any, error) { panic(string(d)) })

		frame, err := b.d.HandleFrame(context.Background(), rtvi.MessageFrameBytes(msg))
		reply := checkFrame(t, "reply", frame, effective)
		for _, m := range sent {
			checkFrame(t, "sent message", rtvi.MessageFrameBytes(m), effective)
		}
		if err != nil || limit > 0 && limit < 300 {
			return
		}
		if reply == nil {
			if typ != "send-text" {
				t.Fatalf("a well-formed %.40q request got no reply under a %d-byte limit", typ, effective)
			}
			return
		}
		if raw {
			return
		}
		var want string // the id as sent: encoding/json wrote each invalid byte as U+FFFD
		if json.Unmarshal(mustJSON(id), &want) != nil {
			t.Fatalf("id %q does not encode", id)
		}
		if w, _ := pyjson.AppendString(nil, want); len(w)-2 <= 100 {
			if got, _ := reply["id"].(string); got != want {
				t.Fatalf("a short id %q came back as %q", want, got)
			}
		}
	})
}

// repeat returns 1+n%64 copies of s, or with n's top bit set 1+n%(1<<31)
// copies, no more than fit in room bytes (at least one).
func repeat(s string, n uint32, room int) string {
	if s == "" {
		return s
	}
	count := 1 + int(n%64)
	if n>>31 == 1 {
		count = 1 + int(n&(1<<31-1))
	}
	return strings.Repeat(s, max(1, min(count, room/len(s))))
}

// request writes the RTVI message: name is the t, and the argument of
// each request kind that takes one.
func request(id, typ, name string, raw bool) []byte {
	str := func(s string) string {
		if raw {
			return `"` + s + `"`
		}
		return string(mustJSON(s))
	}
	n := str(name)
	return []byte(`{"label":"rtvi-ai","type":` + str(typ) + `,"id":` + str(id) +
		`,"data":{"t":` + n + `,"d":{"k":` + n + `},"version":` + n + `,"content":` + n + `}}`)
}

// mustJSON encodes s as a JSON string with raw UTF-8 where it can (no
// HTML escapes), the worst case for the reply's escaping.
func mustJSON(s string) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

// checkFrame fails unless frame (nil: none) is at most limit bytes and
// carries one RTVI JSON message, which it returns.
func checkFrame(t *testing.T, what string, frame []byte, limit int) map[string]any {
	t.Helper()
	if frame == nil {
		return nil
	}
	if len(frame) > limit {
		t.Fatalf("%s frame of %d bytes over the %d-byte limit: %.300s", what, len(frame), limit, frame)
	}
	data, err := rtvi.MessageData(frame)
	if err != nil {
		t.Fatalf("%s is not a message frame: %v", what, err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil || m["label"] != "rtvi-ai" {
		t.Fatalf("%s is not an RTVI JSON message (%v): %.300s", what, err, data)
	}
	return m
}
