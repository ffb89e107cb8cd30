// Package evaairline is NVIDIA NeMo's eva_airline evaluation domain in Go:
// the 16 tools of an airline customer-service scenario (NeMo's port of
// ServiceNow EVA 0.1.3's airline tools, MIT; GetReservationTool …
// TransferToAgentTool and the harness's EndConversationTool, [ToolNames]),
// with the scenario fixtures of package nemodata.
//
// What it gives:
//
//   - [Register] adds the tools to a registry under [Domain]; [New] and
//     [NewTools] build them on a state.
//   - [LoadScenarioDB] and [NewState] give a scenario's DB and state: the
//     fixture's whole content, _current_date included, as shared_state["db"].
//   - [Replay] runs a call script ([ParseCalls]) on a scenario's state and
//     reports each result and the DB hash after it, as a harness recomputes
//     a bot's final hash offline.
//
// What it guarantees:
//
//   - The model sees the original's names, descriptions, properties (in
//     order) and required lists, read from nemodata's tool_schemas.jsonl.
//   - A missing or empty DB is answered with db_not_initialized.
//   - Arguments are validated as pydantic v2 validates the original's
//     models; a failure gives eva's validation response, with the
//     original's message texts.
//   - Domain outcomes are values {"status": "error", "error_type",
//     "message"}; where the original raises, the tool returns the Python
//     exception as its Go error (the live path delivers {"error": str(exc)}).
//   - Write tools record their action once the DB lock is released: in the
//     state's action log and as an action-applied message; refund and
//     transfer ids are numbered per call as the original numbers them.
//     A successful transfer sends "<exit>Transfer complete.</exit>" after its
//     result.
//   - Numbers keep Python's int/float distinction, so results, actions and
//     the DB hash come out as the original's; ties walk the fixture file's
//     order.
//   - Every tool is safe for concurrent use; hostile arguments never panic.
//   - Conformance (tests): all 132 call scripts, the 33 gold paths and the
//     scenarios' initial and expected hashes match the Python original.
//
// Parity notes (the original's behaviour point by point, the one deliberate
// difference): docs/parity/domains-nemo-evaairline.md.
package evaairline
