package harness_test

import (
	"context"
	"fmt"
	"net"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/voiceeval/schematools/agent"
	"github.com/voiceeval/schematools/agent/agenttest"
	"github.com/voiceeval/schematools/harness"
	"github.com/voiceeval/schematools/tool"
)

// noteTaker is an agent model that notes "buy milk", then ends the call,
// and records the scenarios it served (each scenario's agent prompt ends
// with its name).
type noteTaker struct {
	mu  sync.Mutex
	ran []string
}

var scenarioName = regexp.MustCompile(`notes__\d+`)

func (m *noteTaker) Complete(_ context.Context, req agent.Request) (agent.Response, error) {
	noted := false
	for _, msg := range req.Messages {
		if msg.Role == "system" {
			if n := scenarioName.FindString(msg.Content); n != "" {
				m.mu.Lock()
				if !slices.Contains(m.ran, n) {
					m.ran = append(m.ran, n)
				}
				m.mu.Unlock()
			}
		}
		noted = noted || msg.Role == "tool"
	}
	if noted {
		return agent.Response{Text: "Noted. Goodbye!", Calls: []tool.ModelCall{{ID: "c2", Name: "EndConversationTool", Arguments: `{}`}}}, nil
	}
	return agent.Response{Calls: []tool.ModelCall{{ID: "c1", Name: "add_note", Arguments: `{"text": "buy milk"}`}}}, nil
}

func (m *noteTaker) served() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Sorted(slices.Values(m.ran))
}

// servePool serves n bots on one port, at 127.0.0.1 to 127.0.0.n (all
// loopback on Linux), as a Deployment's pods behind a headless Service
// are one port at n addresses; models[i] is the bot at 127.0.0.(i+1).
func servePool(t *testing.T, models []agent.Model) (port string) {
	t.Helper()
	for i, m := range models {
		addr := "127.0.0.1:0"
		if i > 0 {
			addr = fmt.Sprintf("127.0.0.%d:%s", i+1, port)
		}
		url, stop, err := serveBotAt(m, poolTimeouts, addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(stop)
		if i == 0 {
			_, port, _ = net.SplitHostPort(strings.TrimPrefix(url, "ws://"))
		}
	}
	return port
}

// Two shards of one evaluation given one name per pool (a headless
// Service's), with Resolve: each run dials one address of each pool for
// both its connections, the shards take disjoint bots (shard s, pair p:
// address 2s+p of the sorted list), no bot is found busy, and every
// scenario succeeds. Without Resolve each connection would dial the name.
func TestResolvedPoolsGiveEachRunOneBot(t *testing.T) {
	agents := make([]*noteTaker, 4)
	agentModels, userModels := make([]agent.Model, 4), make([]agent.Model, 4)
	for i := range agents {
		agents[i] = &noteTaker{}
		agentModels[i] = agents[i]
		userModels[i] = &agenttest.Model{Fallback: agent.Response{Text: "Please note: buy milk.", FinishReason: "stop"}}
	}
	agentPort, userPort := servePool(t, agentModels), servePool(t, userModels)
	// The resolver answers in no particular order, as DNS does.
	pool := []string{"127.0.0.3", "127.0.0.1", "127.0.0.4", "127.0.0.2"}
	defer harness.SetLookupHost(func(_ context.Context, host string) ([]string, error) {
		switch host {
		case "agent-bots.pool", "user-bots.pool":
			return slices.Clone(pool), nil
		}
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	})()

	var queue []*harness.Scenario
	for i := 1; i <= 8; i++ {
		sc := notesScenario(t, fmt.Sprintf("notes__%d", i))
		sc.AgentPrompt += " (" + sc.Name + ")"
		queue = append(queue, sc)
	}
	out := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	pair := harness.BotPair{AgentURL: "ws://agent-bots.pool:" + agentPort, UserURL: "ws://user-bots.pool:" + userPort}
	type shard struct {
		ev       *harness.Evaluation
		err      error
		progress []string
	}
	shards := make([]shard, 2)
	var wg sync.WaitGroup
	for s := range shards {
		wg.Go(func() {
			o, progress := poolOptions(filepath.Join(out, strconv.Itoa(s)))
			o.Bots = []harness.BotPair{pair, pair}
			o.Shard, o.Shards, o.Resolve = s, 2, true
			shards[s].ev, shards[s].err = harness.Evaluate(ctx, queue, o)
			shards[s].progress = progressLines(progress)
		})
	}
	wg.Wait()
	var all []string
	for s, sh := range shards {
		if sh.err != nil {
			t.Fatalf("shard %d: %v", s, sh.err)
		}
		if sh.ev.NotSuccessful != 0 {
			t.Errorf("shard %d: %d not successful\n%s", s, sh.ev.NotSuccessful, strings.Join(sh.progress, "\n"))
		}
		for _, l := range sh.progress {
			if strings.Contains(l, "busy") {
				t.Errorf("shard %d: %s", s, l)
			}
		}
		// Shard s's runs were on bots 2s and 2s+1 only.
		var ran []string
		for _, a := range agents[2*s : 2*s+2] {
			if len(a.served()) == 0 {
				t.Errorf("shard %d: a bot of its own served nothing", s)
			}
			ran = append(ran, a.served()...)
		}
		slices.Sort(ran)
		if len(ran) != 4 {
			t.Errorf("shard %d's bots served %v, want its 4 scenarios", s, ran)
		}
		all = append(all, ran...)
	}
	slices.Sort(all)
	var want []string
	for _, sc := range queue {
		want = append(want, sc.Name)
	}
	slices.Sort(want)
	if !slices.Equal(all, want) {
		t.Errorf("the pool served %v, want %v once each", all, want)
	}
}

// A pool name that does not resolve fails its runs as bot failures, with
// the resolver's error (the evaluation goes on); a wss:// URL is refused
// before anything runs.
func TestResolveRefusals(t *testing.T) {
	defer harness.SetLookupHost(func(_ context.Context, host string) ([]string, error) {
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	})()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	o, _ := poolOptions(t.TempDir())
	o.Resolve = true
	o.Bots = []harness.BotPair{{AgentURL: "ws://agent-bots.pool:8765", UserURL: "ws://user-bots.pool:8766"}}
	ev, err := harness.Evaluate(ctx, []*harness.Scenario{notesScenario(t, "notes__1"), notesScenario(t, "notes__2")}, o)
	if err != nil {
		t.Fatal(err)
	}
	if ev.NotSuccessful != 2 {
		t.Errorf("NotSuccessful %d, want 2", ev.NotSuccessful)
	}
	var m map[string]any
	readJSON(t, filepath.Join(ev.Dir, "notes__2", "metrics.json"), &m)
	if he, _ := m["harness_error"].(string); he != "failed: agent bot: resolving the bot pool agent-bots.pool: lookup agent-bots.pool: no such host" || m["stop_reason"] != "[BOT_FAILED]" {
		t.Errorf("harness_error %q, stop_reason %v", m["harness_error"], m["stop_reason"])
	}

	o.Bots[0].UserURL = "wss://user-bots.pool:8766"
	_, err = harness.Evaluate(ctx, []*harness.Scenario{notesScenario(t, "notes__1")}, o)
	if err == nil || !strings.Contains(err.Error(), `Resolve needs ws://host:port URLs, not "wss://user-bots.pool:8766"`) {
		t.Errorf("wss:// pool: %v", err)
	}
}
