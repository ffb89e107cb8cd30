package main

import (
	"bufio"
	"crypto/sha1"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/voiceeval/schematools/rtvi"
)

// hostileBot is a bot pair (agent and user) that misbehaves in the first
// scenario of a run as its attack says and behaves in the others: it
// answers every RTVI message, and on the agent's kickoff says one line
// with three model calls' usage and sends <exit>. It speaks WebSocket
// itself, on the hijacked connection, so that it can send frames no
// library would (a header claiming 2^63 bytes).
type hostileBot struct {
	attack   string
	scenario atomic.Int32 // the agent's update_system_prompts: the scenario in progress
	release  chan struct{}
	once     sync.Once

	agentURL, userURL string
}

func newHostileBot(t *testing.T, attack string) *hostileBot {
	t.Helper()
	b := &hostileBot{attack: attack, release: make(chan struct{})}
	for _, side := range []struct {
		agent bool
		url   *string
	}{{true, &b.agentURL}, {false, &b.userURL}} {
		s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { b.serve(w, r, side.agent) }))
		t.Cleanup(s.Close)
		*side.url = "ws" + strings.TrimPrefix(s.URL, "http")
	}
	t.Cleanup(func() { b.once.Do(func() { close(b.release) }) })
	return b
}

// wsConn is the bot's end of one WebSocket connection.
type wsConn struct {
	c  net.Conn
	br *bufio.Reader
	mu sync.Mutex // one frame written at a time
}

// serve upgrades the request by hand and answers its messages.
func (b *hostileBot) serve(w http.ResponseWriter, r *http.Request, agent bool) {
	key := r.Header.Get("Sec-WebSocket-Key")
	hj, ok := w.(http.Hijacker)
	if key == "" || !ok {
		http.Error(w, "a WebSocket, please", http.StatusBadRequest)
		return
	}
	c, brw, err := hj.Hijack()
	if err != nil {
		return
	}
	defer c.Close()
	sum := sha1.Sum([]byte(key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"))
	fmt.Fprintf(c, "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: %s\r\n\r\n", base64.StdEncoding.EncodeToString(sum[:]))
	ws := &wsConn{c: c, br: brw.Reader}
	for {
		op, payload, err := ws.read()
		if err != nil {
			return
		}
		switch op {
		case 0x8: // close: answer it and end
			_ = ws.frame(0x8, payload)
			return
		case 0x9:
			_ = ws.frame(0xA, payload)
			continue
		case 0x2:
		default:
			continue
		}
		f, err := rtvi.DecodeFrame(payload)
		if err != nil || f.Message == nil {
			continue
		}
		var m struct {
			Type string `json:"type"`
			ID   string `json:"id"`
			Data struct {
				T string `json:"t"`
			} `json:"data"`
		}
		if json.Unmarshal([]byte(f.Message.Data), &m) != nil {
			continue
		}
		if err := b.answer(ws, agent, m.Type, m.ID, m.Data.T); err != nil {
			return
		}
	}
}

// hostile says whether this scenario is the attacked one.
func (b *hostileBot) hostile() bool { return b.scenario.Load() == 1 }

// answer answers one message, as a good bot or, in the attacked scenario,
// as the attack says.
func (b *hostileBot) answer(ws *wsConn, agent bool, typ, id, t string) error {
	respond := func(d string) error {
		return ws.json(`{"label": "rtvi-ai", "type": "server-response", "id": "` + id + `", "data": {"t": "` + t + `", "d": ` + d + `}}`)
	}
	switch {
	case typ == "client-ready":
		return ws.json(`{"label": "rtvi-ai", "type": "bot-ready", "id": "` + id + `", "data": {"version": "1.1.0"}}`)
	case typ == "send-text" && agent:
		if b.hostile() {
			if done, err := b.attackKickoff(ws); done || err != nil {
				return err
			}
		}
		return b.goodTurn(ws)
	case typ == "send-text":
		return nil // the user says nothing
	}
	switch t {
	case "reset":
		return respond("true")
	case "update_system_prompt":
		if agent {
			b.scenario.Add(1)
		}
		return respond("true")
	case "apply_initialization", "apply_sync_delta":
		return respond(`{"success": true, "errors": []}`)
	case "get_context_history":
		if agent && b.hostile() {
			if done, err := b.attackPull(ws, id, t, true); done || err != nil {
				return err
			}
		}
		ctx := `[]`
		if agent {
			ctx = `[{'role': 'user', 'content': 'Hello'}]`
		}
		return respond(`{"context": ` + quote(ctx) + `}`)
	case "get_scenario_summary":
		if agent && b.hostile() {
			if done, err := b.attackPull(ws, id, t, false); done || err != nil {
				return err
			}
		}
		return respond(`{"actions": [], "db_hash": null}`)
	}
	return nil
}

// goodTurn is one spoken line, three model calls' usage and <exit>.
func (b *hostileBot) goodTurn(ws *wsConn) error {
	return ws.json(
		`{"label": "rtvi-ai", "type": "bot-started-speaking"}`,
		`{"label": "rtvi-ai", "type": "bot-tts-text", "data": {"text": "All done, goodbye."}}`,
		`{"label": "rtvi-ai", "type": "bot-stopped-speaking"}`,
		`{"label": "rtvi-ai", "type": "metrics", "data": {"tokens": [{"prompt_tokens": 10, "completion_tokens": 2}, {"prompt_tokens": 12, "completion_tokens": 3}, {"prompt_tokens": 14, "completion_tokens": 4}]}}`,
		`{"label": "rtvi-ai", "type": "server-message", "data": {"text": "<exit>The task is finished.</exit>"}}`,
	)
}

// attackKickoff runs the attacks that answer the kickoff; done says the
// turn is over (nothing good follows).
func (b *hostileBot) attackKickoff(ws *wsConn) (done bool, err error) {
	switch b.attack {
	case "50 MB message", "200 MB message":
		n := int64(50 << 20)
		if b.attack == "200 MB message" {
			n = 200 << 20
		}
		return true, ws.huge(n)
	case "2^63-byte frame header":
		var h [10]byte
		h[0], h[1] = 0x82, 127
		binary.BigEndian.PutUint64(h[2:], 1<<63)
		_, err := ws.c.Write(h[:])
		return true, err
	case "one endless turn":
		if err := ws.json(`{"label": "rtvi-ai", "type": "bot-started-speaking"}`); err != nil {
			return true, err
		}
		word := `{"label": "rtvi-ai", "type": "bot-tts-text", "data": {"text": "` + strings.Repeat("la ", 300) + `"}}`
		for {
			if err := ws.json(word); err != nil {
				return true, err
			}
		}
	case "100,000 turns":
		msgs := make([]string, 0, 3*1000)
		for i := 0; i < 100000; i += 1000 {
			msgs = msgs[:0]
			for range 1000 {
				msgs = append(msgs, `{"label": "rtvi-ai", "type": "bot-started-speaking"}`,
					`{"label": "rtvi-ai", "type": "bot-tts-text", "data": {"text": "Mm."}}`,
					`{"label": "rtvi-ai", "type": "bot-stopped-speaking"}`)
			}
			if err := ws.json(msgs...); err != nil {
				return true, err
			}
		}
		return false, nil // then the good turn and <exit>
	case "streamed action messages":
		action := `{"label": "rtvi-ai", "type": "server-message", "data": {"type": "action-applied", "action": {"action_type": "write", "name": "noop", "arguments": {"pad": "` + strings.Repeat("a", 1000000) + `"}}, "tool_domain": "tau2_retail"}}`
		for {
			if err := ws.json(action); err != nil {
				return true, err
			}
		}
	case "token overflow":
		return false, ws.json(`{"label": "rtvi-ai", "type": "metrics", "data": {"tokens": [{"prompt_tokens": 9223372036854775807, "completion_tokens": 1}, {"prompt_tokens": 9223372036854775807, "completion_tokens": 1}]}}`)
	case "lone surrogates":
		return true, ws.json(
			`{"label": "rtvi-ai", "type": "bot-started-speaking"}`,
			`{"label": "rtvi-ai", "type": "bot-tts-text", "data": {"text": "bad \ud800 text \udfff"}}`,
			`{"label": "rtvi-ai", "type": "bot-stopped-speaking"}`,
			`{"label": "rtvi-ai", "type": "metrics", "data": {"tokens": [{"prompt_tokens": 1, "completion_tokens": 1}]}}`,
			`{"label": "rtvi-ai", "type": "server-message", "data": {"text": "<exit>\udbff</exit>"}}`,
		)
	case "stalls after the handshake":
		<-b.release
		return true, nil
	}
	return false, nil
}

// attackPull runs the attacks on the pulls; done says the pull is
// answered (or will never be).
func (b *hostileBot) attackPull(ws *wsConn, id, t string, history bool) (done bool, err error) {
	respond := func(d string) error {
		return ws.json(`{"label": "rtvi-ai", "type": "server-response", "id": "` + id + `", "data": {"t": "` + t + `", "d": ` + d + `}}`)
	}
	switch {
	case b.attack == "nesting bomb in the context" && history:
		return true, respond(`{"context": ` + quote(`'`+strings.Repeat("[", 10000)+strings.Repeat("]", 10000)+`'`) + `}`)
	case b.attack == "nesting bomb in the summary" && !history:
		return true, respond(`{"actions": ` + strings.Repeat("[", 10000) + strings.Repeat("]", 10000) + `, "db_hash": null}`)
	case b.attack == "indent bomb in the context" && history:
		nest := strings.Repeat("[", 890) + strings.Repeat("]", 890)
		return true, respond(`{"context": ` + quote(`'[`+strings.Repeat(nest+",", 500)+nest+`]'`) + `}`)
	case b.attack == "indent bomb in the summary" && !history:
		nest := strings.Repeat("[", 850) + strings.Repeat("]", 850)
		return true, respond(`{"actions": [` + strings.Repeat(nest+", ", 500) + nest + `], "db_hash": null}`)
	case b.attack == "malformed pull answer" && history:
		return true, ws.frame(0x2, []byte{0xff, 0xff, 0xff})
	case b.attack == "text message as the pull answer" && history:
		return true, ws.frame(0x1, []byte(`{"label": "rtvi-ai", "type": "server-response"}`))
	case b.attack == "bad length prefix" && history:
		good := rtvi.MessageFrameBytes([]byte(`{"label": "rtvi-ai", "type": "server-response", "id": "x", "data": {"t": "get_context_history", "d": {}}}`))
		bad := append([]byte(nil), good...)
		bad[1] = 0x7f // the frame's length says more than there is
		return true, ws.frame(0x2, bad)
	}
	return false, nil
}

// quote is a JSON string of s.
func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// read reads one frame from the client (masked, as clients send them).
func (ws *wsConn) read() (op byte, payload []byte, err error) {
	var h [2]byte
	if _, err := io.ReadFull(ws.br, h[:]); err != nil {
		return 0, nil, err
	}
	op = h[0] & 0x0f
	n := uint64(h[1] & 0x7f)
	switch n {
	case 126:
		var x [2]byte
		if _, err := io.ReadFull(ws.br, x[:]); err != nil {
			return 0, nil, err
		}
		n = uint64(binary.BigEndian.Uint16(x[:]))
	case 127:
		var x [8]byte
		if _, err := io.ReadFull(ws.br, x[:]); err != nil {
			return 0, nil, err
		}
		n = binary.BigEndian.Uint64(x[:])
	}
	if n > 8<<20 {
		return 0, nil, errors.New("frame too large for the test bot")
	}
	var mask [4]byte
	if h[1]&0x80 != 0 {
		if _, err := io.ReadFull(ws.br, mask[:]); err != nil {
			return 0, nil, err
		}
	}
	payload = make([]byte, n)
	if _, err := io.ReadFull(ws.br, payload); err != nil {
		return 0, nil, err
	}
	for i := range payload {
		payload[i] ^= mask[i%4]
	}
	return op, payload, nil
}

// frame writes one unmasked frame.
func (ws *wsConn) frame(op byte, payload []byte) error {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	_, err := ws.c.Write(append(header(op, uint64(len(payload))), payload...))
	return err
}

func header(op byte, n uint64) []byte {
	h := []byte{0x80 | op}
	switch {
	case n < 126:
		h = append(h, byte(n))
	case n < 1<<16:
		h = append(h, 126, byte(n>>8), byte(n))
	default:
		h = append(h, 127)
		h = binary.BigEndian.AppendUint64(h, n)
	}
	return h
}

// json writes each message as a pipecat message frame.
func (ws *wsConn) json(msgs ...string) error {
	for _, m := range msgs {
		if err := ws.frame(0x2, rtvi.MessageFrameBytes([]byte(m))); err != nil {
			return err
		}
	}
	return nil
}

// huge writes one binary message of n bytes, a MiB at a time, until the
// peer stops reading it.
func (ws *wsConn) huge(n int64) error {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	if _, err := ws.c.Write(header(0x2, uint64(n))); err != nil {
		return err
	}
	chunk := make([]byte, 1<<20)
	for sent := int64(0); sent < n; sent += int64(len(chunk)) {
		if _, err := ws.c.Write(chunk); err != nil {
			return err
		}
	}
	return nil
}
