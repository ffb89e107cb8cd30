// Command mcpserver serves a domain's tool set over MCP (stdio), so any
// MCP-capable agent can be evaluated against the same tools and scored by
// the same DB hash. Every MCP tool call goes through the library's live
// path (argument checks, structured errors, empty-result envelopes, one
// delivery).
//
//	go run ./examples/mcpserver [-domain NAME] [-summary]
//
// -domain names any domain of examples/domains (coffee by default;
// tau2_airline, tau2_retail, tau2_telecom, …): the server lists that
// domain's own tools, plus EndConversationTool when the domain has none of
// its own, all working on one state that holds the domain's DB. With
// -summary, the action log and the DB hash are printed to stderr when the
// client disconnects.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/voiceeval/schematools/dbhash"
	"github.com/voiceeval/schematools/examples/coffee"
	"github.com/voiceeval/schematools/examples/domains"
	"github.com/voiceeval/schematools/registry"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

func main() {
	domain := flag.String("domain", coffee.Domain, "the domain to serve: "+strings.Join(domains.Names(), ", "))
	scenario := flag.String("scenario", "", "for a domain whose scenarios each bring a DB (eva_airline): the scenario whose DB to serve (default: its first)")
	summary := flag.Bool("summary", false, "print the action log and the DB hash to stderr on exit")
	flag.Parse()
	d, err := domains.Find(*domain)
	if err != nil {
		fmt.Fprintln(os.Stderr, "mcpserver:", err)
		os.Exit(2)
	}
	st := state.New()
	server, err := newServer(st, d, *scenario)
	if err != nil {
		fmt.Fprintln(os.Stderr, "mcpserver:", err)
		os.Exit(1)
	}
	runErr := server.Run(context.Background(), &mcp.StdioTransport{})
	if *summary {
		if err := writeSummary(os.Stderr, st); err != nil {
			fmt.Fprintln(os.Stderr, "mcpserver:", err)
		}
	}
	if runErr != nil && !errors.Is(runErr, io.EOF) && !errors.Is(runErr, context.Canceled) {
		fmt.Fprintln(os.Stderr, "mcpserver:", runErr)
		os.Exit(1)
	}
}

// newServer builds an MCP server exposing the tools of domain d (and the
// harness's EndConversationTool when d has no tool of that name), all
// working on st, which gets the domain's DB: scenario's, for a domain
// whose scenarios each bring one ("" is the first).
func newServer(st *state.Shared, d domains.Domain, scenario string) (*mcp.Server, error) {
	reg := new(registry.Tools)
	if err := domains.Register(reg); err != nil {
		return nil, err
	}
	if d.ScenarioIDs != nil && scenario == "" {
		ids, err := d.ScenarioIDs()
		if err != nil || len(ids) == 0 {
			return nil, fmt.Errorf("%s has no scenarios: %v", d.Name, err)
		}
		scenario = ids[0]
	}
	db, err := d.LoadScenarioDB(scenario)
	if err != nil {
		return nil, err
	}
	st.StartScenario(d.Name, nil)
	if db != nil {
		st.SetDB(db)
	}
	spec := []registry.ToolSpec{}
	own := reg.Names(d.Name)
	for _, n := range own {
		spec = append(spec, registry.ToolSpec{Name: n})
	}
	if !slices.Contains(own, "EndConversationTool") {
		spec = append(spec, registry.ToolSpec{Name: "EndConversationTool"})
	}
	set, err := reg.NewSet(d.Name, spec, registry.Deps{State: st})
	if err != nil {
		return nil, err
	}
	server := mcp.NewServer(&mcp.Implementation{Name: "schematools-" + d.Name, Version: "v0.1.0"}, nil)
	for _, t := range set.Tools() {
		// tool.Schema's parameters object, properties in field order: the
		// input schema MCP's tools/list presents.
		server.AddTool(&mcp.Tool{Name: t.Name(), Description: t.Description(), InputSchema: tool.Schema(t).Parameters}, handler(t))
	}
	return server, nil
}

// handler runs one MCP call through the live path. Structured error
// results (validation, domain failures, Go errors) are tool results with
// IsError set, as MCP asks, not protocol errors.
func handler(t tool.Tool) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var out any
		if err := tool.CallJSON(ctx, t, req.Params.Arguments, func(v any) error { out = v; return nil }); err != nil {
			return nil, err
		}
		text, err := json.Marshal(out)
		if err != nil {
			return nil, err
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(text)}}, IsError: tool.IsError(out)}, nil
	}
}

// writeSummary prints the action log and the DB hash.
func writeSummary(w io.Writer, st *state.Shared) error {
	h, err := dbhash.Hash(st.Snapshot())
	if err != nil {
		return err
	}
	actions, err := json.Marshal(st.Actions())
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "actions: %s\ndb_hash: %s\n", actions, h)
	return err
}
