// Package telecom ports the tau2-bench telecom domain as NVIDIA NeMo's
// labs-Voice-Agent has it: the 43 tools of its tau2_telecom scenarios (13 for
// the agent, 30 for the simulated user's phone), its 20 initialisation
// functions, 6 DB-state predicates and its cross-side sync — hash-compatible
// with the Python original, task for task.
//
// # Two DBs
//
// A telecom scenario has two sides, each with its own DB:
//
//   - the agent DB (tau2's db.json): lists of plans, customers, lines, bills
//     and devices, which the agent-side tools look up and change (suspend a
//     line, enable roaming, ask for a payment, add data);
//   - the user DB (user_db.json): the user's phone — a "device" (settings and
//     the connection state derived from them) and its "surroundings" (the
//     signal where the user is, whether they are abroad, whether their line
//     is active, a payment request from the agent) — which the user-side
//     tools read and change (toggle airplane mode, reseat the SIM, pay).
//
// Each tool has one name, snake_case, which is at once the name the model
// sees, the registry key and the name gold actions use; the names of the
// two sides are disjoint (AgentToolNames, UserToolNames). Register adds all
// 43 to a registry under Domain; a bot of either side builds the ones its
// scenario names, on its own state. Tools builds them for a gold replay,
// agent tools on the agent state and user tools on the user's, and Scenario
// builds the whole replay of a task in one call.
//
// # Results
//
// Results are the raw shapes of the Python tools. Agent-side lookups return
// copies of DB records; writes return a sentence or a small envelope
// (LineResult, RefuelResult); refusals are {"status": "error",
// "error_type": "tool_error", "message": …} values. User-side tools answer
// in sentences, as the Python tools do — failures too ("Cannot change Wi-Fi
// settings while Airplane Mode is ON.") — and most writes end with the
// phone's status bar. A missing or empty DB gives db_not_initialized.
// Writes record {"action_type", "name", "arguments", "result"} with the
// side's action types (AgentActionTypes, UserActionTypes).
//
// Arguments are checked in pydantic's lax mode (tool.Options.Lax). Bad ones give
// {"status": "error", "error_type": "invalid_arguments", "message": …} where
// the message is pydantic's own text ("1 validation error for
// GetCustomerByIdParams\ncustomer_id\n  Field required [type=missing, …"),
// rebuilt from the SDK's issues and the raw arguments; there are no
// "details", as in the Python original.
//
// The model sees exactly what the Python tools present: each tool's
// description, properties (types and texts) and required list are data,
// read from tau2data's tool_schemas.jsonl (tau2orig.Original), never Go
// sentences. The parameter structs declare what is checked; a test shows
// they agree with that data in names, order, types and required lists.
// Where the original's text names allowed values (set_network_mode_preference's
// mode, grant_app_permission's permission), it offers no enum and checks
// nothing: the tool answers an unknown value itself, as the Python one does.
//
// # Clock and ids
//
// Three things read the date: suspend_line (the suspension start),
// refuel_data (the charge's date, and a new bill's period) and get_data_usage
// (the cycle's end), plus the initialisation function
// suspend_line_for_overdue_bill. They read it from the injected clock —
// replay.Env.Clock in a replay, registry.Deps.Clock in a bot — and from the
// real clock only when none was injected. "Today" is the clock's calendar day
// in the clock's own location. The one id minted at random, that of a draft
// bill refuel_data creates when the customer has none, comes from the
// injected id source ("B" + the next id), or is eight random hex digits
// without one. Scenario pins the clock to tau2tools.ReferenceDate()
// (2025-02-25), the date the Python reference's hashes were produced on;
// ScenarioAt takes another.
//
// # Initialisation, predicates, sync
//
// Hooks returns what the domain plugs in besides its tools, as a hooks.Set:
// the 20 initialisation functions (set_user_info, turn_airplane_mode_on,
// suspend_line_for_overdue_bill, …, each with the tables it may change) and
// the 6 DB-state predicates (assert_mobile_data_status,
// assert_internet_speed, …), both keyed by their tau2 names and taking a
// task's keyword arguments as the Python functions take them
// (InitFuncNames, PredicateNames list them); SyncState, the domain's
// hooks.Set.Sync, which after every action carries the line's status,
// roaming and data allowance to the phone, and payments both ways; and
// ApplySyncDelta, the applier of the deltas it returns, which re-derives
// the phone's network state when its surroundings change. Register
// registers the Set under Domain next to the tools; Scenario puts it in a
// gold replay.
//
// # Deliberate differences
//
//   - A write that fails leaves no trace: where the Python code would raise
//     half-way (only on a DB of the wrong shape), nothing stays written and
//     nothing is recorded — agent-side writes and the sync check everything
//     first, phone changes are undone. The same holds for initialisation
//     functions. The applier, like Python's, keeps the paths it applied
//     before one failed.
//   - Results taken from the DB are deep copies (Python returns shallow ones);
//     set_apn_settings records a copy of the new settings, where Python
//     records the live dict, which later calls may change.
//   - A Go map keeps no order. The DB's tables are lists and keep theirs;
//     texts that print a dict's keys (the installed apps, an app's
//     permissions, VPN details) use the order in which the Python data model
//     creates them, then any others sorted; the dicts quoted in
//     invalid_arguments messages, and unknown argument keys, come sorted;
//     sync deltas are applied in sorted path order.
//   - Pydantic's text ends each issue with a link carrying pydantic's version;
//     it is fixed at 2.13, the reference's. gb_amount refuses NaN and
//     infinities (the SDK's finite_number), which pydantic would let
//     through: a deliberate difference of every typed tool, as a model
//     never means NaN and a NaN amount would reach the DB, where strict
//     JSON cannot encode it and it compares unequal to itself.
//   - Initialisation functions, predicates, the sync and the applier fail
//     with errors reading "<Type>: <message>" (Python's exception class and
//     text), so hooks.Set.ApplyInit and replay.Evaluate report them as Python's
//     dispatchers do. A sync that cannot read the DBs is an error the replay
//     records (Python's sync would raise, its applier log and swallow).
//   - Tools builds each of a replay's tools at its first call (a replay calls
//     a handful of the 43); the schemas come from prototypes built once.
//
// # Conformance
//
// TestConformanceTrain replays the 74 tasks of the train split and requires
// the Python reference's post-initialisation and final hashes of both DBs,
// every action's raw result and records; TestSameOnAnyDay shows the hashes
// depend on the injected clock only. The tau2 data and the reference replay
// are in the repository (domains/tau2/tau2data,
// internal/conformance/testdata).
package telecom
