package main

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/coder/websocket"
	"github.com/voiceeval/schematools/rtvi"
)

// harness plays the NeMo evaluation bridge's side of one connection: it
// sends RTVI messages in pipecat message frames and reads the bot's
// frames until the answer it waits for, keeping the server-messages and
// text frames that arrive in between.
type harness struct {
	c      *websocket.Conn
	ids    int
	pushes []map[string]any // server-messages (action-applied, exit, ...)
	events []map[string]any // server events (bot-started-speaking, metrics, ...)
	texts  []string         // the bot's text frames
	log    []string         // every frame the bot sent, in order: "message <json>" or "text <text>"
	frames [][]byte         // and the frames themselves
}

// keep stores a message the bot sent on its own — a server-message or a
// server event, which carry no id — and reports whether m was one.
func (h *harness) keep(m map[string]any) bool {
	if _, answer := m["id"]; answer {
		return false
	}
	if m["type"] == "server-message" {
		h.pushes = append(h.pushes, m)
	} else {
		h.events = append(h.events, m)
	}
	return true
}

func dialHarness(ctx context.Context, url string) (*harness, error) {
	c, _, err := websocket.Dial(ctx, url, nil)
	if err != nil {
		return nil, err
	}
	// The bridge's limit: Python websockets' max_size, 1 MiB per frame.
	c.SetReadLimit(maxMessageBytes)
	return &harness{c: c}, nil
}

func (h *harness) close() { h.c.Close(websocket.StatusNormalClosure, "done") }

// ready performs the client-ready / bot-ready handshake.
func (h *harness) ready(ctx context.Context) (map[string]any, error) {
	return h.exchange(ctx, "client-ready", "client_ready", map[string]any{
		"version": "1.1.0", "about": map[string]any{"library": "evaluation-bridge", "library_version": "1.0.0"},
	})
}

// request sends the client message t with arguments d and returns the
// bot's answer (a server-response or an error-response).
func (h *harness) request(ctx context.Context, t string, d any) (map[string]any, error) {
	return h.exchange(ctx, "client-message", t, map[string]any{"t": t, "d": d})
}

func (h *harness) exchange(ctx context.Context, typ, prefix string, data any) (map[string]any, error) {
	h.ids++
	id := fmt.Sprintf("%s_%d", prefix, h.ids)
	msg, err := json.Marshal(map[string]any{"label": "rtvi-ai", "type": typ, "id": id, "data": data})
	if err != nil {
		return nil, err
	}
	if err := h.c.Write(ctx, websocket.MessageBinary, rtvi.MessageFrameBytes(msg)); err != nil {
		return nil, err
	}
	for {
		m, text, err := h.read(ctx)
		if err != nil {
			return nil, err
		}
		if m == nil {
			h.texts = append(h.texts, text)
			continue
		}
		if h.keep(m) {
			continue
		}
		if m["id"] == id {
			return m, nil
		}
		return nil, fmt.Errorf("unexpected message while waiting for %s: %v", id, m)
	}
}

// say sends user text in a text frame and returns the bot's text answer.
func (h *harness) say(ctx context.Context, text string) (string, error) {
	frame, err := rtvi.Frame{Text: &rtvi.TextFrame{Text: text}}.Marshal()
	if err != nil {
		return "", err
	}
	return h.send(ctx, frame, text)
}

// transcribe sends user speech as a transcription frame, as a speech
// client would, and returns the bot's text answer.
func (h *harness) transcribe(ctx context.Context, text string) (string, error) {
	frame, err := rtvi.Frame{Transcription: &rtvi.TranscriptionFrame{Text: text, UserID: "user-1", Timestamp: "2026-12-01T10:00:00.000+00:00"}}.Marshal()
	if err != nil {
		return "", err
	}
	return h.send(ctx, frame, text)
}

// sendText sends an RTVI send-text message, as the bridge opens a
// conversation, and returns the bot's text answer.
func (h *harness) sendText(ctx context.Context, content string) (string, error) {
	h.ids++
	msg, err := json.Marshal(map[string]any{"label": "rtvi-ai", "type": "send-text",
		"id": fmt.Sprintf("send_text_%d", h.ids), "data": map[string]any{"content": content, "options": map[string]any{}}})
	if err != nil {
		return "", err
	}
	return h.send(ctx, rtvi.MessageFrameBytes(msg), content)
}

func (h *harness) send(ctx context.Context, frame []byte, text string) (string, error) {
	if err := h.c.Write(ctx, websocket.MessageBinary, frame); err != nil {
		return "", err
	}
	for {
		m, answer, err := h.read(ctx)
		if err != nil {
			return "", err
		}
		if m == nil {
			return answer, nil
		}
		if _, hasID := m["id"]; !hasID && m["type"] == "error" {
			// The bot will not act on the text: it says why in an RTVI
			// error event (a text frame has no id to answer).
			return "", fmt.Errorf("the bot refused %q: %v", text, m["data"])
		}
		if !h.keep(m) {
			return "", fmt.Errorf("unexpected message while waiting for the answer to %q: %v", text, m)
		}
	}
}

// read returns the next RTVI message, or the text of a text frame.
func (h *harness) read(ctx context.Context) (map[string]any, string, error) {
	_, data, err := h.c.Read(ctx)
	if err != nil {
		return nil, "", err
	}
	f, err := rtvi.DecodeFrame(data)
	if err != nil {
		return nil, "", err
	}
	h.frames = append(h.frames, data)
	switch {
	case f.Text != nil:
		h.log = append(h.log, "text "+f.Text.Text)
		return nil, f.Text.Text, nil
	case f.Message != nil:
		h.log = append(h.log, "message "+f.Message.Data)
		var m map[string]any
		if err := json.Unmarshal([]byte(f.Message.Data), &m); err != nil {
			return nil, "", err
		}
		return m, "", nil
	}
	return nil, "", fmt.Errorf("unexpected frame %v", f)
}

// exitText is what the end tool pushes.
const exitText = "<exit>The task is finished.</exit>"

// waitExit reads the bot's frames until the <exit> push, as NeMo's bridge
// waits for it before it pulls (the bridge then settles 0.5 s: a pull
// sent between the goodbye and the end tool would read the scenario
// before its last call). It returns at once when the exit came already.
func (h *harness) waitExit(ctx context.Context) error {
	for {
		for _, p := range h.pushes {
			if d, ok := p["data"].(map[string]any); ok && d["text"] == exitText {
				return nil
			}
		}
		m, text, err := h.read(ctx)
		if err != nil {
			return fmt.Errorf("waiting for <exit>: %w", err)
		}
		if m == nil {
			h.texts = append(h.texts, text)
			continue
		}
		if !h.keep(m) {
			return fmt.Errorf("unexpected message while waiting for <exit>: %v", m)
		}
		if m["type"] == "error" {
			return fmt.Errorf("the bot reported an error while the scenario ran: %v", m["data"])
		}
	}
}
