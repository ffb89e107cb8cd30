// Package schematools is an embeddable Go SDK for the tools that voice and
// LLM agents call during evaluation scenarios, and for the harnesses that
// score those scenarios. It re-implements the evaluation tool system of
// NVIDIA NeMo labs-Voice-Agent (Python, on pipecat) wire- and
// hash-compatibly, as a library with no process of its own: Go bots and Go
// harnesses import its packages, and unit tests build its tools with zero
// arguments.
//
// This root package holds only documentation; the API lives in the
// packages below.
//
// # Packages
//
//   - [github.com/voiceeval/schematools/state]: the per-scenario shared
//     state every tool of a scenario reads and writes — a JSON DB, an
//     ordered action log, call counters, the tool domain and the notifier —
//     safe for concurrent use, plus DB loading that refuses paths escaping
//     the data root.
//   - [github.com/voiceeval/schematools/tool]: the Tool contract; typed
//     tools whose parameters are one Go struct (JSON Schema and validation
//     from the same struct); the live call path that delivers each result
//     exactly once, wraps empty results and turns errors into structured
//     results (agent.Loop runs a model turn's tool calls through it);
//     write-tool recording; and the
//     harness tools (end the conversation, transfer to a human, send the
//     final response).
//   - [github.com/voiceeval/schematools/tool/schema]: the tool set in the
//     OpenAI (incl. strict mode), Anthropic and Gemini dialects.
//   - [github.com/voiceeval/schematools/hooks]: what a domain plugs into
//     scenarios besides its tools, declared once as a hooks.Set —
//     initialisation functions (with the tables each writes), the
//     cross-side sync and its applier, DB-state predicates — and run the
//     same way by bots and by gold replay.
//   - [github.com/voiceeval/schematools/registry]: registry.Tools, the one
//     registry: tool factories and each domain's hooks.Set by (domain,
//     name), with a default-domain fallback and duplicate detection; it
//     builds a scenario's tool set from its spec.
//   - [github.com/voiceeval/schematools/dbhash]: the canonical DB hash and
//     structured diff, byte-identical to the Python original's, and fast.
//   - [github.com/voiceeval/schematools/replay]: the raw-result invoke
//     path, gold replay of benchmark tasks (running a domain's hooks.Set),
//     evaluation of DB-state assertions and action matching.
//   - [github.com/voiceeval/schematools/internal/replaytest]: gold-replay
//     conformance for a port's tests — gold lines, per-task and shared-DB
//     replay checks, fixtures, benchmark and fuzz bodies.
//   - [github.com/voiceeval/schematools/calltest]: tool-call tests —
//     expected and forbidden calls, argument checks, ElevenLabs-compatible.
//   - [github.com/voiceeval/schematools/rtvi]: what a Go bot needs to be
//     driven over RTVI by NeMo's evaluation bridge — the pipecat protobuf
//     frame codec, the dispatcher and the six client-message handlers
//     (reset, update_system_prompt, apply_initialization, apply_sync_delta,
//     get_context_history, get_scenario_summary), and the context sanitiser.
//   - examples/: a coffee-shop domain with a runnable quickstart
//     (go run ./examples/quickstart), an MCP server, a WebSocket bot driven
//     over RTVI (go run ./cmd/rtvibot -demo), and the tau2-bench
//     ports (airline, retail, telecom) with their replay CLI, which
//     carries the tau2 data (go run ./cmd/evalreplay replay
//     -domain tau2_airline).
//
// # A tool in a few lines
//
//	type params struct {
//		OrderID string `json:"order_id" jsonschema_description:"The order id."`
//	}
//	st := state.New()
//	status, err := tool.New("order_status", "Get an order's status.",
//		func(ctx context.Context, st *state.Shared, p params) (any, error) {
//			return map[string]any{"order_id": p.OrderID, "status": "placed"}, nil
//		}, &tool.Options{State: st})
//	if err != nil {
//		return err
//	}
//	// The live path: one delivery, structured errors, no panics.
//	err = tool.CallJSON(ctx, status, []byte(`{"order_id": "ORD-001"}`), func(result any) error {
//		return send(result) // to the model
//	})
package schematools
