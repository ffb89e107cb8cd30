// Package retail is the tau2-bench retail domain as NVIDIA NeMo's
// labs-Voice-Agent has it: the 16 tools of its tau2_retail scenarios,
// hash-compatible with the Python tools, task for task.
//
// What it gives:
//
//   - Two names per tool: the model sees, and the registry keys on, the
//     Python class name (FindUserIdByNameZipTool, the Name… constants); gold
//     actions name the tau2 method (find_user_id_by_name_zip, the Key…
//     constants), which write tools also record as their action type
//     ([ActionTypes]).
//   - [Register] adds the 16 tools to a registry under [Domain];
//     [Tools] builds them for a gold replay, keyed by method name.
//   - One constructor per tool (NewGetOrderDetails, …); each documents its
//     checks and messages in the order the Python tool makes them.
//   - get_user_details, calculate and transfer_to_human_agents are shared
//     with the airline domain (package tau2tools).
//
// What it guarantees:
//
//   - Every tool follows NeMo's Python original, including where it departs
//     from upstream tau2-bench (spoken-id normalisation, statuses, money
//     rounding, modify_pending_order_items' per-item variant fix).
//   - Results are the raw shapes of the Python tools: a copy of a DB record
//     or a small envelope. Failures are values {"status": "error",
//     "error_type": "not_found" | "value_error" | "db_not_initialized",
//     "message"}, never Go errors; a missing or empty DB is
//     db_not_initialized (but for calculate and transfer_to_human_agents).
//   - No tool mints an id; money follows Python's float arithmetic and
//     round(x, 2), so the DB holds floats where Python's does.
//   - Arguments are validated in pydantic's lax mode: strings stay strict,
//     unknown keys are refused.
//   - Writes check everything first: a refused call changes nothing. Where
//     Python would raise half-way (a DB of the wrong shape), the tool
//     refuses before writing, with the exception's text as a Go error.
//   - Writes copy only the records they change, so a gold replay can share
//     the loaded DB between tasks; results from the DB are deep copies.
//   - The model sees exactly the Python tools' names, descriptions,
//     properties and required lists, read as data from tau2data's
//     tool_schemas.jsonl.
//   - Lookups that take the first match walk tables in key order; on the
//     tau2 data this gives Python's answers (a test checks no lookup there
//     sees two candidates).
//   - Conformance (tests): the 74 train tasks reproduce the Python
//     reference's final DB hash, every raw result and record; all 114 tasks
//     replay on one shared DB as the reference reports.
//
// Parity notes (the original's behaviour, the quirks reproduced, the
// first-match lookups, the deliberate choices and why):
// docs/parity/domains-tau2-retail.md.
package retail
