// Package telecom is the tau2-bench telecom domain as NVIDIA NeMo's
// labs-Voice-Agent has it: 43 tools (13 for the agent, 30 for the simulated
// user's phone), 20 initialisation functions, 6 DB-state predicates and the
// cross-side sync, hash-compatible with the Python original, task for task.
//
// What it gives:
//
//   - Two DBs: the agent DB (tau2's db.json: plans, customers, lines, bills,
//     devices) and the user DB (user_db.json: the phone's device and
//     surroundings). Agent tools work on the first, user tools on the second.
//   - One snake_case name per tool: model-facing name, registry key and gold
//     action name at once; the two sides' names are disjoint
//     ([AgentToolNames], [UserToolNames]).
//   - [Register] adds all 43 tools and the [Hooks] set to a registry under
//     [Domain]; a bot of either side builds the ones its scenario names.
//   - [Tools] builds them for a gold replay (agent tools on the agent state,
//     user tools on the user's); [Scenario] builds a task's whole replay,
//     [ScenarioAt] on another day.
//   - [Hooks]: the initialisation functions and predicates by their tau2
//     names ([InitFuncNames], [PredicateNames]), taking a task's keyword
//     arguments; [SyncState] carries line status, roaming, data allowance
//     and payments between the sides after every action; [ApplySyncDelta]
//     applies its deltas and re-derives the phone's network state.
//
// What it guarantees:
//
//   - Results are the raw shapes of the Python tools: copies of DB records,
//     a sentence or a small envelope ([LineResult], [RefuelResult]); user
//     tools answer in sentences, failures too. Refusals are values
//     {"status": "error", "error_type", "message"}; a missing or empty DB
//     gives db_not_initialized.
//   - Writes record {"action_type", "name", "arguments", "result"} with the
//     side's action types ([AgentActionTypes], [UserActionTypes]).
//   - Arguments are checked in pydantic's lax mode; bad ones give
//     invalid_arguments with pydantic's own message text.
//   - The model sees exactly the Python tools' descriptions, properties and
//     required lists, read as data from tau2data's tool_schemas.jsonl.
//   - Time and ids come from the injected clock and id source (replay.Env,
//     registry.Deps), the real ones only when none is injected; "today" is
//     the clock's calendar day in its own location. [Scenario] pins the clock
//     to tau2tools.ReferenceDate (2025-02-25), the reference hashes' date.
//   - A write that fails leaves no trace: nothing written, nothing recorded
//     (the applier, like Python's, keeps the paths applied before a failure).
//   - Hook failures read "<Type>: <message>", Python's exception and text.
//   - Conformance (tests): the 74 train tasks reproduce the Python
//     reference's hashes of both DBs, every result and every record; the
//     hashes depend on the injected clock only.
//
// Parity notes (the original's behaviour, the quirks reproduced, the
// deliberate differences and why): docs/parity/domains-tau2-telecom.md.
package telecom
