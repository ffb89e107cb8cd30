// Command mcpserver serves a domain's tool set over MCP (stdio), so any
// MCP-capable agent can be evaluated against the same tools and scored by
// the same DB hash. Every MCP tool call goes through the library's live
// path (argument checks, structured errors, empty-result envelopes, one
// delivery).
//
//	go run ./cmd/mcpserver [-domain NAME] [-summary]
//
// -domain names any domain of domains (coffee by default;
// tau2_airline, tau2_retail, tau2_telecom, …): the server lists that
// domain's own tools, plus EndConversationTool when the domain has none of
// its own, all working on one state that holds the domain's DB. With
// -summary, the action log and the DB hash are printed to stderr when the
// client disconnects.
//
// Three things the official go-sdk leaves to the server are added here:
// a malformed stdin line is answered with a JSON-RPC -32700 Parse error and
// the session goes on (guardedStdio; the SDK's stdio transport ends the
// session); a tool that refuses unknown keys lists an input schema with
// "additionalProperties": false (the model-facing tool.Schema is
// unchanged); and protocol errors are shortened like the library's results
// (clip.String), so an unknown 10 MiB tool name is not echoed in full.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/voiceeval/schematools/dbhash"
	"github.com/voiceeval/schematools/domains"
	"github.com/voiceeval/schematools/domains/coffee"
	"github.com/voiceeval/schematools/internal/clip"
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
	runErr := server.Run(context.Background(), guardedStdio(os.Stdin, os.Stdout))
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
	closed, err := refusingUnknownKeys(d.Name, spec)
	if err != nil {
		return nil, err
	}
	server := mcp.NewServer(&mcp.Implementation{Name: "schematools-" + d.Name, Version: "v0.1.0"}, nil)
	server.AddReceivingMiddleware(clipErrors)
	for _, t := range set.Tools() {
		schema, err := inputSchema(t, closed[t.Name()])
		if err != nil {
			return nil, err
		}
		server.AddTool(&mcp.Tool{Name: t.Name(), Description: t.Description(), InputSchema: schema}, handler(t))
	}
	return server, nil
}

// inputSchema is the input schema MCP's tools/list presents for t:
// tool.Schema's parameters object, properties in field order, and, when t
// refuses unknown keys, "additionalProperties": false, so that the schema
// says what the tool does. The model-facing schemas (tool.Schema, the
// provider exports) keep the original's text; this is MCP presentation
// only.
func inputSchema(t tool.Tool, closed bool) (json.RawMessage, error) {
	b, err := json.Marshal(tool.Schema(t).Parameters)
	if err != nil {
		return nil, fmt.Errorf("%s: input schema: %w", t.Name(), err)
	}
	if closed {
		b = append(b[:len(b)-1], `,"additionalProperties":false}`...)
	}
	return b, nil
}

// probeKey is an argument name no tool declares.
const probeKey = "mcpserver_unknown_key_probe"

// refusingUnknownKeys reports, by tool name, which tools of spec refuse an
// unknown top-level key. It asks each tool, on a scratch state of its own:
// a call with only probeKey answered by an error result that refuses
// probeKey in one of the two vocabularies of refusal — pydantic's
// "extra_forbidden" (a typed tool's issue, tau2's pydantic message) or
// Python's "unexpected keyword argument 'probeKey'" (NeMo's tools without
// **kwargs) — means the tool refuses unknown keys; none of them runs the
// tool. A tool that ignores extras (NeMo's eva_airline and
// customer_service tools, the harness's) runs on the scratch state, which
// is then dropped.
func refusingUnknownKeys(domain string, spec []registry.ToolSpec) (map[string]bool, error) {
	reg := new(registry.Tools)
	if err := domains.Register(reg); err != nil {
		return nil, err
	}
	scratch := state.New()
	scratch.StartScenario(domain, nil)
	set, err := reg.NewSet(domain, spec, registry.Deps{State: scratch})
	if err != nil {
		return nil, err
	}
	quiet := &tool.CallOptions{Logger: slog.New(slog.DiscardHandler)}
	closed := map[string]bool{}
	for _, t := range set.Tools() {
		var out any
		if err := tool.Call(context.Background(), t, map[string]any{probeKey: 0}, func(v any) error { out = v; return nil }, quiet); err != nil {
			continue // a failing hook: the tool ran, so it took the key
		}
		b, err := json.Marshal(out)
		closed[t.Name()] = err == nil && tool.IsError(out) && bytes.Contains(b, []byte(probeKey)) &&
			(bytes.Contains(b, []byte("extra_forbidden")) || bytes.Contains(b, []byte("unexpected keyword argument '"+probeKey+"'")))
	}
	return closed, nil
}

// clipErrors shortens the message of a protocol error the SDK answers
// (such as "unknown tool" with the name the client sent) to clip.Max
// bytes with clip.String, as the library's results are.
func clipErrors(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if err == nil {
			return res, nil
		}
		var we *jsonrpc.Error
		if errors.As(err, &we) {
			if len(we.Message) <= clip.Max {
				return res, err
			}
			short := *we
			short.Message = clip.String(we.Message)
			return res, &short
		}
		if len(err.Error()) > clip.Max {
			return res, errors.New(clip.String(err.Error()))
		}
		return res, err
	}
}

// handler runs one MCP call through the live path. Structured error
// results (validation, domain failures, Go errors) are tool results with
// IsError set, as MCP asks, not protocol errors.
func handler(t tool.Tool) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var out any
		if err := tool.CallJSON(ctx, t, req.Params.Arguments, func(v any) error { out = v; return nil }, nil); err != nil {
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
