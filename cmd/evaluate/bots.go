package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/voiceeval/schematools/agent"
	"github.com/voiceeval/schematools/agent/agenttest"
	"github.com/voiceeval/schematools/domains"
	"github.com/voiceeval/schematools/domains/evascript"
	"github.com/voiceeval/schematools/domains/tau2script"
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
	// agent and user are the in-process bots' models (nil for external
	// bots): armed with the scenario's scripts before each run.
	agent, user *scriptModel
}

// scriptModel is an agent.Model that answers with a script's turns in
// order (agenttest's turns, served in-process), then with its fallback —
// or, when armed to stall, never: it waits until the call's context ends
// or the next scenario arms it.
type scriptModel struct {
	fallback agent.Response
	mu       sync.Mutex
	turns    []agenttest.Turn
	next     int
	stall    bool
	released chan struct{} // closed when the next scenario arms
}

// arm sets the script of the next scenario.
func (m *scriptModel) arm(turns []agenttest.Turn, stall bool) {
	m.mu.Lock()
	if m.released != nil {
		close(m.released)
	}
	m.turns, m.next, m.stall, m.released = turns, 0, stall, make(chan struct{})
	m.mu.Unlock()
}

// Complete returns the script's next turn.
func (m *scriptModel) Complete(ctx context.Context, _ agent.Request) (agent.Response, error) {
	m.mu.Lock()
	if m.next >= len(m.turns) {
		stall, released := m.stall, m.released
		m.mu.Unlock()
		if !stall {
			return m.fallback, nil
		}
		select {
		case <-ctx.Done():
			return agent.Response{}, ctx.Err()
		case <-released:
			return agent.Response{}, errors.New("evaluate: stalled model released by the next scenario")
		}
	}
	defer m.mu.Unlock()
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

// scripts are one scenario's scripts for the in-process bots.
type scripts struct {
	agent, user []agenttest.Turn
	// stall makes the agent's model wait forever once its script is
	// played (a broken variant; gold scripts never stall).
	stall bool
}

// mutator turns a scenario's gold scripts into the scripts to run (tests
// use it to break them); nil runs the gold scripts.
type mutator func(name string, gold scripts) scripts

// The fallbacks: the agent's goodbye once its script is played, and the
// scripted user simulator's answer to every turn its script does not
// cover.
var (
	agentFallback = agent.Response{Text: "Goodbye.", Usage: agent.Usage{PromptTokens: 1, CompletionTokens: 1, TotalTokens: 2}, FinishReason: "stop"}
	userFallback  = agent.Response{Text: userReply, Usage: agent.Usage{PromptTokens: 50, CompletionTokens: 8, TotalTokens: 58}, FinishReason: "stop"}
)

// golds holds the tau2 domains' scripts, loaded once.
type golds struct {
	mu      sync.Mutex
	domains map[string]*tau2script.Domain
}

// goldDomains are the scenario groups the in-process bots have gold
// scripts for: every tau2 task (telecom's played on both sides) and every
// eva_airline scenario with a gold path.
var goldDomains = []string{"tau2_airline", "tau2_retail", "tau2_telecom", "eva_airline"}

// scripts returns the gold scripts of a scenario (<group>__<id>): the
// agent's, and the user simulator's (nil: it only answers userReply).
func (g *golds) scripts(name string) (agentTurns, userTurns []agenttest.Turn, err error) {
	group, id, ok := strings.Cut(name, "__")
	if !ok || !slices.Contains(goldDomains, group) {
		return nil, nil, fmt.Errorf("no gold stand-in for %s (in-process bots play %s; give -agent-url and -user-url for others)", name, strings.Join(goldDomains, ", "))
	}
	if group == "eva_airline" {
		t, err := evascript.Script(name)
		if err != nil {
			return nil, nil, fmt.Errorf("no gold stand-in for %s: %w", name, err)
		}
		return t, nil, nil
	}
	d, err := g.domain(group)
	if err != nil {
		return nil, nil, err
	}
	task, err := d.TaskByScenario(id)
	if err != nil {
		return nil, nil, err
	}
	if group == "tau2_telecom" {
		return d.Dual(task)
	}
	t, err := d.Script(task, tau2script.Options{})
	return t, nil, err
}

// domain returns the loaded tau2 domain called name.
func (g *golds) domain(name string) (*tau2script.Domain, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.domains == nil {
		g.domains = map[string]*tau2script.Domain{}
	}
	d := g.domains[name]
	if d == nil {
		var err error
		if d, err = tau2script.Load(name); err != nil {
			return nil, err
		}
		g.domains[name] = d
	}
	return d, nil
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

// dbSources holds the DBs every in-process bot loads from db_path:
// decoded once, shared copy-on-write by all scenarios.
var dbSources = &state.SourceCache{}

// serveBot serves an AgentBrain on model over a loopback WebSocket, with
// every domain of domains and db_path values under dataRoot;
// toolSteps is its loop's agent.Loop.ToolSteps.
func serveBot(model agent.Model, toolSteps int, dataRoot string, logger *slog.Logger) (*botServer, error) {
	reg := &registry.Tools{Logger: logger}
	if err := domains.Register(reg); err != nil {
		return nil, err
	}
	brain := rtviws.NewAgentBrain(model, logger)
	brain.ToolSteps = toolSteps
	srv, err := rtviws.New(rtviws.Config{
		Dispatcher: brain.Wire(rtvi.Config{State: state.New(), Tools: reg, DataRoot: dataRoot, Sources: dbSources, Logger: logger,
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
