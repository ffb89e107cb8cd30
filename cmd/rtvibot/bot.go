package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"strings"
	"sync"
	"time"

	"github.com/voiceeval/schematools/internal/pyvalue"
	"github.com/voiceeval/schematools/internal/rtviwire"
	"github.com/voiceeval/schematools/registry"
	"github.com/voiceeval/schematools/rtvi"
	"github.com/voiceeval/schematools/rtvi/rtviws"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

// Bot is a voice bot reduced to what an evaluation harness talks to: the
// WebSocket server of rtvi/rtviws (pipecat protobuf frames, an RTVI
// dispatcher for the harness's client messages, one scenario owner, an
// Emitter and a write deadline per connection), the tools of every domain
// it serves (every domain of domains, and the harness tools),
// and — in place of an LLM — a scripted brain that runs "/call <tool>
// <json arguments>" commands from the user's text, or with a gold agent,
// plays a benchmark task's gold actions on the kickoff.
//
// Like a pipecat bot, it has one shared state and one conversation for its
// whole life: a harness connects once to prepare a scenario and again to
// run it, and both connections see the same scenario (rtviws runs one
// scenario at a time).
type Bot struct {
	*rtviws.Server
	st      *state.Shared
	conv    *conversation
	tracker rtvi.CallTracker
	gold    *goldAgent    // plays a task's gold actions on the kickoff, when set
	cfg     rtviws.Config // the server's, for setTimeouts
	logger  *slog.Logger

	mu    sync.Mutex
	tools *tool.Set
	calls int
}

// maxMessageBytes is the WebSocket message limit the Python bridge lives
// with, and the dispatcher's default Config.MaxMessageBytes.
const maxMessageBytes = rtviwire.MaxMessageBytes

// Timeouts are the server's (rtviws.Timeouts).
type Timeouts = rtviws.Timeouts

// DefaultTimeouts are the bot's timeouts unless flags say otherwise: the
// server's defaults, and an idle timeout of 20 min (NeMo's bridge holds a
// run connection open up to 900 s).
var DefaultTimeouts = rtviws.Timeouts{Write: 10 * time.Second, Idle: 20 * time.Minute, RunWait: 10 * time.Second, Grace: 2 * time.Second}

// NewBot returns a bot whose db_path values are relative to dataRoot.
func NewBot(dataRoot string, logger *slog.Logger) (*Bot, error) {
	reg := &registry.Tools{Logger: logger}
	if err := registerDomains(reg); err != nil {
		return nil, err
	}
	b := &Bot{st: state.New(), conv: &conversation{}, logger: logger, tools: &tool.Set{}}
	b.cfg = rtviws.Config{
		Dispatcher: rtvi.Config{
			State:        b.st,
			Tools:        reg,
			Conversation: b.conv,
			Installer:    b,
			InFlight:     &b.tracker,
			DataRoot:     dataRoot,
			Sources:      &state.SourceCache{}, // each DB file decoded once, shared copy-on-write by the scenarios
			About:        map[string]any{"library": "schematools-rtvibot"},
			Logger:       logger,
		},
		Brain:  rtviws.BrainFunc(b.userText),
		Logger: logger,
	}
	srv, err := rtviws.New(b.cfg)
	if err != nil {
		return nil, err
	}
	b.Server = srv
	return b, nil
}

// InstallTools makes set the tools of the scripted agent (rtvi.ToolInstaller).
// The gold agent, if any, plays its task once per scenario (the server
// numbers them: rtviws.Turn.Scenario).
func (b *Bot) InstallTools(_ context.Context, set *tool.Set) error {
	b.mu.Lock()
	b.tools = set
	b.mu.Unlock()
	return nil
}

// setTimeouts sets the bot's timeouts: it replaces the server by one
// configured with them (rtviws takes its timeouts from its Config only);
// call it before the first connection.
func (b *Bot) setTimeouts(t Timeouts) {
	b.cfg.Timeouts = t
	srv, err := rtviws.New(b.cfg)
	if err != nil {
		panic(err) // b.cfg was accepted by NewBot
	}
	b.Server = srv
}

// openConnections is the number of connections being served.
func (b *Bot) openConnections() int { return b.OpenConnections() }

// listen listens on addr, which must be a loopback address unless remote.
func listen(addr string, remote bool) (net.Listener, error) {
	if remote {
		return net.Listen("tcp", addr)
	}
	return listenLoopback(addr)
}

// listenLoopback listens on addr, which must be a loopback address.
func listenLoopback(addr string) (net.Listener, error) {
	ln, err := rtviws.ListenLoopback(addr)
	if err != nil && strings.Contains(err.Error(), "loopback") {
		return nil, errors.New("-addr must be a loopback address, e.g. 127.0.0.1:8765 (any address with -remote)")
	}
	return ln, err
}

// userText is the scripted agent's turn: it records the user's message,
// runs a "/call" command through the tool set and answers with the tool's
// result. Each answer is what an LLM response would be: its events
// (bot-llm-*, a metrics event with zero token counts) go out as a pipecat
// bot's do, a tool call costing one response more.
func (b *Bot) userText(ctx context.Context, t rtviws.Turn) error {
	text := t.Text
	b.conv.add(pyvalue.Dict{{Key: "role", Value: "user"}, {Key: "content", Value: text}})
	name, args, ok := strings.Cut(strings.TrimPrefix(text, "/call "), " ")
	if !strings.HasPrefix(text, "/call ") {
		if b.gold != nil {
			played, err := b.goldTurn(ctx, t)
			if err != nil && !played {
				// No task to play (an unknown id, unreadable data): say so
				// rather than leave the harness waiting.
				b.logger.Warn("gold agent", "err", err)
				return b.respond(ctx, t, "The gold agent cannot play this scenario: "+err.Error())
			}
			if played {
				return err
			}
		}
		answer := "Send /call <tool> <json arguments> to call a tool."
		b.conv.add(pyvalue.Dict{{Key: "role", Value: "assistant"}, {Key: "content", Value: answer}})
		return b.respond(ctx, t, answer)
	}
	if !ok {
		args = "{}"
	}
	answer, err := b.callTool(ctx, t, name, args)
	if err != nil {
		return err
	}
	return b.respond(ctx, t, answer)
}

// callTool is one LLM response that calls a tool: it reports the
// response, records the call in the conversation, runs it through the
// tool set and returns the result delivered, as JSON.
func (b *Bot) callTool(ctx context.Context, t rtviws.Turn, name, args string) (string, error) {
	if err := t.Events.LLMResponse(ctx, rtvi.Usage{}); err != nil {
		return "", err
	}

	b.mu.Lock()
	b.calls++
	callID := fmt.Sprintf("call_%d", b.calls)
	set := b.tools
	b.mu.Unlock()

	end := b.tracker.Begin()
	defer end()
	b.conv.add(pyvalue.Dict{{Key: "role", Value: "assistant"}, {Key: "tool_calls", Value: []any{pyvalue.Dict{
		{Key: "id", Value: callID}, {Key: "type", Value: "function"},
		{Key: "function", Value: pyvalue.Dict{{Key: "name", Value: name}, {Key: "arguments", Value: args}}},
	}}}})
	var answer string
	err := set.CallJSON(ctx, name, []byte(args), func(result any) error {
		out, err := json.Marshal(result)
		if err != nil {
			return err
		}
		answer = string(out)
		b.conv.add(pyvalue.Dict{{Key: "role", Value: "tool"}, {Key: "tool_call_id", Value: callID}, {Key: "content", Value: answer}})
		return nil
	}, &tool.CallOptions{Logger: b.logger})
	return answer, err
}

// respond is the LLM response that answers the user: its events, the
// spoken turn (text standing in for audio: bot-started-speaking,
// bot-tts-text, bot-stopped-speaking) and a text frame.
func (b *Bot) respond(ctx context.Context, t rtviws.Turn, text string) error {
	if err := t.Events.LLMResponse(ctx, rtvi.Usage{}, text); err != nil {
		return err
	}
	if err := t.Events.Say(ctx, text); err != nil {
		return err
	}
	return t.Reply(ctx, text)
}

// conversation is the bot's LLM context (rtvi.Conversation). It holds its
// messages as the Python bot holds dicts, pyvalue.Dict values whose keys
// keep their order (role first) in get_context_history's transcript; a bot
// outside this module would use its LLM client's message structs.
type conversation struct {
	mu   sync.Mutex
	msgs []any
}

func (c *conversation) Reset(_ context.Context, msgs []rtvi.ChatMessage) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.msgs = c.msgs[:0]
	for _, m := range msgs {
		c.msgs = append(c.msgs, pyvalue.Dict{{Key: "role", Value: m.Role}, {Key: "content", Value: m.Content}})
	}
	return nil
}

func (c *conversation) Messages(context.Context) ([]any, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]any(nil), c.msgs...), nil
}

func (c *conversation) add(m any) {
	c.mu.Lock()
	c.msgs = append(c.msgs, m)
	c.mu.Unlock()
}
