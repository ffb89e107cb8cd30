// Package evaairline is NVIDIA NeMo's eva_airline evaluation domain in Go:
// the 16 tools of an airline customer-service scenario (NeMo's port of
// ServiceNow EVA 0.1.3's airline tools, MIT) — GetReservationTool,
// GetFlightStatusTool, GetDisruptionInfoTool, SearchRebookingOptionsTool,
// RebookFlightTool, CancelReservationTool, ProcessRefundTool,
// AssignSeatTool, AddBaggageAllowanceTool, AddMealRequestTool,
// AddToStandbyTool, IssueTravelCreditTool, IssueHotelVoucherTool,
// IssueMealVoucherTool, TransferToAgentTool and the harness's
// EndConversationTool — with the scenario fixtures of package nemodata.
//
// Contract:
//
//   - What the model sees is the original's: each tool's name,
//     description, properties (in order) and required list come from
//     nemodata's tool_schemas.jsonl, never from Go text.
//   - The scenario DB is the state's DB: the fixture's whole content,
//     _current_date included, as the original puts it in
//     shared_state["db"] ([LoadScenarioDB], [NewState]). A missing or
//     empty DB is answered with db_not_initialized.
//   - Arguments are validated as pydantic v2 validates the original's
//     parameter models (lax mode, unknown keys ignored, every field in
//     order), and the result of a failure is eva's validation response: the
//     first error whose field is in eva's field table ("Invalid
//     confirmation_number 'ABC12': must be 6 alphanumeric characters"),
//     else invalid_parameter for the first error. A missing field's message
//     embeds the argument dict as Python prints it: the model's fields in
//     the model's order, then the other keys sorted (a Go map has no order;
//     every vector sends the properties in schema order).
//   - Domain outcomes are values {"status": "error", "error_type",
//     "message"}; where the original raises — AssignSeatTool's
//     int(passenger_id[-3:]) on "PAX1", a DB of another shape — the tool
//     returns the Python exception as its Go error, and the live path
//     (tool.Call) delivers {"error": str(exc)}.
//   - An empty last_name skips GetReservationTool's authentication.
//   - Write tools record their action with tool.Recorder once the DB lock
//     is released: appended to the state's action log and announced as an
//     action-applied message through its notifier, with the state's domain.
//     ProcessRefundTool and TransferToAgentTool number their ids
//     (REF-<conf>-001, TRF-<conf>-001) with state.Shared.NextCallIndex
//     ("process_refund", "transfer_to_agent"), counted only once the call's
//     checks passed, as in the original. A successful transfer sends
//     "<exit>Transfer complete.</exit>" after its result is delivered.
//   - Numbers keep Python's int/float distinction (computed ones are
//     json.Number in Python's repr), so results, actions and the DB hash
//     come out as the original's.
//   - GetFlightStatusTool's fallback and SearchRebookingOptionsTool's ties
//     walk the journeys in the fixture file's order, recovered from the
//     shipped fixtures (a journeys table that no fixture has is walked in
//     sorted id order).
//   - Every tool is safe for concurrent use; hostile arguments never panic.
//
// [Register] adds the tools to a registry under [Domain]; [Replay] runs a
// call script (a bot's tool calls, [ParseCalls]) on a scenario's state and
// reports each result and the DB hash after it, the way a harness
// recomputes a bot's final hash offline.
//
// Conformance (tests): all 132 call scripts of eva_airline_calls.jsonl
// (1,875 calls: result, actions, RTVI messages, DB hash after each, final
// actions, call counters and hash), the 33 gold paths of
// eva_airline_gold_paths.jsonl and the initial and expected hashes of
// eva_airline_scenarios.jsonl match the Python original. One difference is
// deliberate: for a successful transfer the original's action-applied push
// is a scheduled task, which the generator ran after the exit message; Go
// sends action-applied first (tool.Recorder's order).
package evaairline
