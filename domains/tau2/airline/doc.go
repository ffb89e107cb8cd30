// Package airline is the tau2-bench airline domain as NVIDIA NeMo's
// labs-Voice-Agent has it: the 14 tools of its tau2_airline scenarios,
// hash-compatible with the Python tools, task for task.
//
// What it gives:
//
//   - Two names per tool: the model sees, and the registry keys on, the
//     Python class name (GetUserDetailsTool, the Name… constants); gold
//     actions name the tau2 method (get_user_details, the Key… constants),
//     which write tools also record as their action type ([ActionTypes]).
//   - [Register] adds the 14 tools to a registry under [Domain];
//     [Tools] builds them for a gold replay, keyed by method name.
//   - One constructor per tool (NewBookReservation, …); each documents its
//     checks and messages in the order the Python tool makes them.
//   - get_user_details, calculate and transfer_to_human_agents are shared
//     with the retail domain (package tau2tools).
//
// What it guarantees:
//
//   - Every tool follows NeMo's Python original, including where it departs
//     from upstream tau2-bench (case-insensitive ids, fixed new ids and
//     creation time, tau2's refund and seat quirks).
//   - Results are the raw shapes of the Python tools: a copy of a DB record
//     or a small envelope. Failures are values {"status": "error",
//     "error_type": "not_found" | "value_error" | "db_not_initialized",
//     "message"}, never Go errors; a missing or empty DB is
//     db_not_initialized (but for the tools that never read it).
//   - Prices, balances and refunds use Python's int and float arithmetic:
//     the DB holds a float wherever Python's would, an int elsewhere.
//   - Arguments are validated in pydantic's lax mode; flight_type, cabin and
//     insurance are enums, as the original's pydantic Enums.
//   - Writes check everything first: a refused call changes nothing. Where
//     Python would raise half-way, the tool refuses before writing, with the
//     exception's text as a Go error. Results from the DB are deep copies.
//   - Searches walk flights in flight-number order (the data file's order
//     in the tau2 data).
//   - The model sees exactly the Python tools' names, descriptions,
//     properties and required lists, read as data from tau2data's
//     tool_schemas.jsonl.
//   - Conformance (tests): the 30 train tasks reproduce the Python
//     reference's final DB hash, every raw result and record; all 50 tasks
//     replay as the reference reports.
//
// Parity notes (the original's behaviour, the quirks reproduced, the
// deliberate choices and why): docs/parity/domains-tau2-airline.md.
package airline
