package main

import (
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
)

// userReply is what the scripted user simulator says to every agent turn.
const userReply = "Yes, that's right. Please go ahead."

// pair is one agent bot and one user bot; a scenario has the pair to
// itself while it runs.
type pair struct {
	agentURL, userURL string
	// agent and user are the in-process bots' models (nil for external
	// bots): armed with the scenario's scripts before each run.
	agent, user *agenttest.Model
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
type mutator func(name string, trial int, gold scripts) scripts

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
	brain := &rtviws.AgentBrain{Model: model, Logger: logger}
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
