// Package airline ports the tau2-bench airline domain as NVIDIA NeMo's
// labs-Voice-Agent has it: the 14 tools of its tau2_airline scenarios,
// hash-compatible with the Python tools, task for task.
//
// # Names
//
// Each tool has two names. The model sees, and the registry keys on, the
// Python class name (GetUserDetailsTool, …); gold actions name tools by
// the tau2 method name (get_user_details, …), which the write tools also
// record as their action type. Register adds the 14 tools to a registry
// under Domain by the first; Tools builds them for a gold replay keyed by
// the second. get_user_details, calculate and transfer_to_human_agents
// are the retail domain's tools too, built by package tau2tools.
//
// # Behaviour
//
// Every tool follows the Python original, including where it departs from
// upstream tau2-bench:
//
//   - ids are matched case-insensitively (user ids lower-cased,
//     reservation ids and flight numbers upper-cased); messages name the id
//     as given, and book_reservation stores the user id as given;
//   - results are the raw shapes of the Python tools: a copy of the DB
//     record (user, reservation), or an envelope such as {"status":
//     "success", "flights": [...]}; failures are {"status": "error",
//     "error_type": "not_found" | "value_error" | "db_not_initialized",
//     "message": …} values, never Go errors;
//   - a missing or empty DB is answered with db_not_initialized, except
//     by list_all_airports, calculate and transfer_to_human_agents, which
//     never read it;
//   - new reservations take the first free id of HATHAT, HATHAU, HATHAV
//     and are created at 2024-05-15T15:00:00 with "status": null; new
//     certificates take the first free id of certificate_3221322 to
//     certificate_3221324 and a float amount;
//   - prices, balances and refunds are computed with Python's int and
//     float arithmetic (pyvalue.Num), so the DB holds a float wherever
//     Python's would, an int elsewhere;
//   - search_onestop_flight keeps tau2's next-day rule, which does not
//     zero-pad the day ("2024-05-6");
//   - cancel_reservation refunds every payment-history entry, releases no
//     seat and restores no balance; update_reservation_flights touches no
//     seat; certificates are removed when used for a booking, even in part.
//
// Each constructor documents its checks and messages, in the order the
// Python tool makes them.
//
// # Deliberate choices
//
//   - Arguments are validated in pydantic's lax mode (tool.Options.Lax):
//     "12" is accepted for an integer and recorded as 12, nested unknown
//     keys are dropped, unknown top-level keys refused. The three
//     enumerated arguments (flight_type, cabin, insurance) carry a
//     validate:"oneof=…" rule, as they are pydantic Enums; the rule also
//     gives the schema its enum.
//   - Writes check everything, then change the DB: a refused call changes
//     nothing. Where the Python tool would raise half-way through its
//     writes — possible only on a DB of the wrong shape, or when a booking
//     names the same certificate twice — the port refuses before writing,
//     with the exception's text as a Go error.
//   - Results taken from the DB are deep copies (Python returns live
//     references); a gold replay discards them anyway.
//   - Searches walk the flights in flight-number order. Python walks them
//     in the order of the data file, which is that order in the tau2 data;
//     a Go map keeps none.
//   - The model sees exactly what the Python tools present: each tool's
//     name, description, properties (types, enums, texts, nested items)
//     and required list are data, read from tau2data's tool_schemas.jsonl
//     (tau2orig.Original), never Go sentences. The parameter structs
//     declare what is checked, and a test shows they agree with that data
//     in names, order, types, enums and required lists.
//
// # Conformance
//
// TestConformanceTrain replays the 30 tasks of the train split and
// requires the Python reference's final DB hash, every action's raw result
// (ints and floats told apart) and every record; TestReplayAllTasks
// replays all 50 tasks and requires what the reference reports for them.
// The tau2 data and the reference replay are in the repository
// (domains/tau2/tau2data, internal/conformance/testdata).
package airline
