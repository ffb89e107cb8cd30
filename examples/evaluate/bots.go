package main

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/voiceeval/schematools/agent"
	"github.com/voiceeval/schematools/agent/agenttest"
	"github.com/voiceeval/schematools/examples/domains"
	"github.com/voiceeval/schematools/examples/standin/tau2script"
	"github.com/voiceeval/schematools/registry"
	"github.com/voiceeval/schematools/rtvi"
	"github.com/voiceeval/schematools/rtvi/rtviws"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

// userReply is what the scripted user simulator says to every agent turn.
const userReply = "Yes, that's right. Please go ahead."

// pair is one agent bot and one user bot; a scenario has the pair to
// itself while it runs.
type pair struct {
	agentURL, userURL string
	// gold is the in-process agent's model (nil for external bots): armed
	// with the scenario's script before each run.
	gold *scriptModel
}

// scriptModel is an agent.Model that answers with a script's turns in
// order (agenttest's turns, served in-process), then with a goodbye.
type scriptModel struct {
	mu    sync.Mutex
	turns []agenttest.Turn
	next  int
}

// arm sets the script of the next scenario.
func (m *scriptModel) arm(turns []agenttest.Turn) {
	m.mu.Lock()
	m.turns, m.next = turns, 0
	m.mu.Unlock()
}

// Complete returns the script's next turn.
func (m *scriptModel) Complete(context.Context, agent.Request) (agent.Response, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.next >= len(m.turns) {
		return agent.Response{Text: "Goodbye.", Usage: agent.Usage{PromptTokens: 1, CompletionTokens: 1, TotalTokens: 2}, FinishReason: "stop"}, nil
	}
	t := m.turns[m.next]
	m.next++
	r := agent.Response{Text: t.Text, FinishReason: "stop"}
	for _, c := range t.Calls {
		r.Calls = append(r.Calls, tool.ModelCall{ID: c.ID, Name: c.Name, Arguments: c.Arguments})
	}
	if len(r.Calls) > 0 {
		r.FinishReason = "tool_calls"
	}
	if t.Usage != nil {
		r.Usage = agent.Usage{PromptTokens: t.Usage.PromptTokens, CompletionTokens: t.Usage.CompletionTokens, TotalTokens: t.Usage.TotalTokens}
	}
	return r, nil
}

// userModel is the scripted user simulator: one text answer per turn.
var userModel = agent.ModelFunc(func(context.Context, agent.Request) (agent.Response, error) {
	return agent.Response{Text: userReply, Usage: agent.Usage{PromptTokens: 50, CompletionTokens: 8, TotalTokens: 58}, FinishReason: "stop"}, nil
})

// golds holds the tau2 domains' scripts, loaded once.
type golds struct {
	mu      sync.Mutex
	domains map[string]*tau2script.Domain
}

// goldDomains are the domains the in-process agent has gold scripts for.
// tau2_telecom is left out: its user-side gold actions would need a user
// simulator that performs them.
var goldDomains = []string{"tau2_airline", "tau2_retail"}

// script returns the gold script of a tau2 scenario (<domain>__<task id>).
func (g *golds) script(name string) ([]agenttest.Turn, error) {
	domain, id, ok := strings.Cut(name, "__")
	known := false
	for _, d := range goldDomains {
		known = known || d == domain
	}
	if !ok || !known {
		return nil, fmt.Errorf("no gold stand-in for %s (in-process bots play %s; give -agent-url and -user-url for others)", name, strings.Join(goldDomains, ", "))
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.domains == nil {
		g.domains = map[string]*tau2script.Domain{}
	}
	d := g.domains[domain]
	if d == nil {
		var err error
		if d, err = tau2script.Load(domain); err != nil {
			return nil, err
		}
		g.domains[domain] = d
	}
	task, err := d.Task(id)
	if err != nil {
		return nil, err
	}
	return d.Script(task, tau2script.Options{})
}

// botServer is one in-process bot served over loopback.
type botServer struct {
	srv *rtviws.Server
	hs  *http.Server
	url string
}

func (b *botServer) close() {
	b.srv.CloseConnections()
	b.hs.Close()
}

// serveBot serves an AgentBrain on model over a loopback WebSocket, with
// every domain of examples/domains and db_path values under dataRoot.
func serveBot(model agent.Model, dataRoot string, logger *slog.Logger) (*botServer, error) {
	reg := &registry.Tools{Logger: logger}
	if err := domains.Register(reg); err != nil {
		return nil, err
	}
	brain := rtviws.NewAgentBrain(model, logger)
	srv, err := rtviws.New(rtviws.Config{
		Dispatcher: brain.Wire(rtvi.Config{State: state.New(), Tools: reg, DataRoot: dataRoot, Logger: logger,
			About: map[string]any{"library": "schematools-evaluate"}}),
		Brain:  brain,
		Logger: logger,
	})
	if err != nil {
		return nil, err
	}
	ln, err := rtviws.ListenLoopback("127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 5 * time.Second}
	go hs.Serve(ln) //nolint:errcheck // ends with Close
	return &botServer{srv: srv, hs: hs, url: "ws://" + ln.Addr().String()}, nil
}
