package rtvi_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/voiceeval/schematools/hooks"
	"log/slog"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/registry"
	"github.com/voiceeval/schematools/rtvi"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

// fakeConversation records what the dispatcher does to the bot's context.
type fakeConversation struct {
	mu       sync.Mutex
	messages []any
	resets   [][]rtvi.ChatMessage
	readErr  error
	resetErr error
}

func (c *fakeConversation) Reset(_ context.Context, msgs []rtvi.ChatMessage) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.resetErr != nil {
		return c.resetErr
	}
	c.resets = append(c.resets, msgs)
	c.messages = c.messages[:0]
	for _, m := range msgs {
		c.messages = append(c.messages, m)
	}
	return nil
}

func (c *fakeConversation) Messages(context.Context) ([]any, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.readErr != nil {
		return nil, c.readErr
	}
	return append([]any(nil), c.messages...), nil
}

func (c *fakeConversation) add(m any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.messages = append(c.messages, m)
}

func (c *fakeConversation) lastReset() []rtvi.ChatMessage {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.resets) == 0 {
		return nil
	}
	return c.resets[len(c.resets)-1]
}

// orderedMsg is a message as an LLM client's structs hold it: the
// transcript lists its members in field order.
type orderedMsg struct {
	Role    string `json:"role"`
	Content any    `json:"content"`
}

// fakeInstaller keeps the last tool set installed.
type fakeInstaller struct {
	mu    sync.Mutex
	set   *tool.Set
	calls int
}

func (i *fakeInstaller) InstallTools(_ context.Context, set *tool.Set) error {
	i.mu.Lock()
	defer i.mu.Unlock()
	i.set, i.calls = set, i.calls+1
	return nil
}

func (i *fakeInstaller) current() (*tool.Set, int) {
	i.mu.Lock()
	defer i.mu.Unlock()
	return i.set, i.calls
}

// fakeService counts resets.
type fakeService struct {
	mu sync.Mutex
	n  int
}

func (s *fakeService) Reset(context.Context) error {
	s.mu.Lock()
	s.n++
	s.mu.Unlock()
	return nil
}

func (s *fakeService) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.n
}

// outbox collects unsolicited messages.
type outbox struct {
	mu   sync.Mutex
	msgs []map[string]any
}

func (o *outbox) send(_ context.Context, b []byte) error {
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	o.mu.Lock()
	o.msgs = append(o.msgs, m)
	o.mu.Unlock()
	return nil
}

func (o *outbox) all() []map[string]any {
	o.mu.Lock()
	defer o.mu.Unlock()
	return append([]map[string]any(nil), o.msgs...)
}

// flagParams are the arguments of the test domain's one write tool.
type flagParams struct {
	Name  string `json:"name"`
	Value bool   `json:"value"`
}

const testDomain = "flags"

// testTools registers a tiny domain: set_flag writes db.flags[name] and
// records a set_flag action; read_flags reads them.
func testTools(t *testing.T) *registry.Tools {
	t.Helper()
	reg := &registry.Tools{Logger: quiet}
	rec := tool.Recorder{ActionTypes: []string{"set_flag"}}
	require.NoError(t, reg.Register(testDomain, "set_flag", registry.Plain(func(d registry.Deps) (tool.Tool, error) {
		return tool.New("set_flag", "Set a flag.", func(ctx context.Context, st *state.Shared, p flagParams) (any, error) {
			err := st.UpdateTables(nil, func(db map[string]any) error {
				flags, ok := db["flags"].(map[string]any)
				if !ok {
					return errors.New("no flags table")
				}
				flags[p.Name] = p.Value
				return nil
			})
			if err != nil {
				return nil, err
			}
			rec.Record(ctx, st, state.NewAction("set_flag", map[string]any{"name": p.Name, "value": p.Value}, map[string]any{"ok": true}))
			return map[string]any{"ok": true}, nil
		}, &tool.Options{State: d.State})
	})))
	require.NoError(t, reg.Register(testDomain, "read_flags", registry.Plain(func(d registry.Deps) (tool.Tool, error) {
		return tool.New("read_flags", "Read the flags.", func(ctx context.Context, st *state.Shared, _ struct{}) (any, error) {
			return st.Snapshot()["flags"], nil
		}, &tool.Options{State: d.State})
	})))
	require.NoError(t, registry.RegisterHarness(reg))
	return reg
}

// bot is a dispatcher wired to fakes.
type bot struct {
	d         *rtvi.Dispatcher
	st        *state.Shared
	conv      *fakeConversation
	installer *fakeInstaller
	service   *fakeService
	out       *outbox
}

func newBot(t *testing.T, edit ...func(*rtvi.Config)) *bot {
	t.Helper()
	b := &bot{st: state.New(), conv: &fakeConversation{}, installer: &fakeInstaller{}, service: &fakeService{}, out: &outbox{}}
	cfg := rtvi.Config{
		State:        b.st,
		Tools:        testTools(t),
		Conversation: b.conv,
		Installer:    b.installer,
		Services:     []rtvi.Resetter{b.service},
		Send:         b.out.send,
		Logger:       quiet,
	}
	for _, e := range edit {
		e(&cfg)
	}
	b.d = rtvi.NewDispatcher(cfg)
	return b
}

// withHooks registers h as the hooks of domain in the bot's registry.
func withHooks(t *testing.T, domain string, h hooks.Set) func(*rtvi.Config) {
	return func(c *rtvi.Config) { require.NoError(t, c.Tools.SetHooks(domain, h)) }
}

// quiet swallows the logs of the bots under test.
var quiet = slog.New(slog.DiscardHandler)

var idCounter struct {
	sync.Mutex
	n int
}

// request sends the client message t with arguments d (nil: no "d") and
// returns the decoded reply.
func (b *bot) request(t *testing.T, name string, d any) map[string]any {
	t.Helper()
	idCounter.Lock()
	idCounter.n++
	id := fmt.Sprintf("%s_%d", name, idCounter.n)
	idCounter.Unlock()
	data := map[string]any{"t": name}
	if d != nil {
		data["d"] = d
	}
	raw, err := json.Marshal(map[string]any{"label": "rtvi-ai", "type": "client-message", "id": id, "data": data})
	require.NoError(t, err)
	reply, err := b.d.Handle(context.Background(), raw)
	require.NoError(t, err)
	require.NotNil(t, reply)
	m := decode(t, reply)
	require.Equal(t, id, m["id"], "the reply echoes the request id")
	require.Equal(t, "rtvi-ai", m["label"])
	if m["type"] == "server-response" {
		require.Equal(t, name, m["data"].(map[string]any)["t"], "the reply echoes t")
	}
	return m
}

// result sends a request that must succeed and returns its "d".
func (b *bot) result(t *testing.T, name string, d any) any {
	t.Helper()
	m := b.request(t, name, d)
	require.Equal(t, "server-response", m["type"], "reply: %v", m)
	return m["data"].(map[string]any)["d"]
}

func decode(t *testing.T, b []byte) map[string]any {
	t.Helper()
	var m map[string]any
	require.NoError(t, json.Unmarshal(b, &m), "reply %s", b)
	return m
}

// startScenario sends update_system_prompt for the test domain with both
// tools.
func (b *bot) startScenario(t *testing.T) {
	t.Helper()
	require.Equal(t, true, b.result(t, "update_system_prompt", map[string]any{
		"prompt": "You manage flags.", "tools": `{"set_flag": {}, "read_flags": {}, "EndConversationTool": {}}`,
		"add_suffix": false, "tool_domain": testDomain,
	}))
}

// countingInFlight reports no call in flight and counts how often it was
// asked.
type countingInFlight struct {
	mu sync.Mutex
	n  int
}

func (c *countingInFlight) CallsInProgress() bool {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
	return false
}

func (c *countingInFlight) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

// notifyFunc adapts a function to state.Notifier.
type notifyFunc func(ctx context.Context, msg any) error

func (f notifyFunc) Notify(ctx context.Context, msg any) error { return f(ctx, msg) }
