// Package retail ports the tau2-bench retail domain as NVIDIA NeMo's
// labs-Voice-Agent has it: the 16 tools of its tau2_retail scenarios,
// hash-compatible with the Python tools, task for task.
//
// # Names
//
// Each tool has two names. The model sees, and the registry keys on, the
// Python class name (FindUserIdByNameZipTool, …); gold actions name tools
// by the tau2 method name (find_user_id_by_name_zip, …), which the write
// tools also record as their action type. Register adds the 16 tools to a
// registry under Domain by the first; Tools builds them for a gold replay
// keyed by the second. get_user_details, calculate and
// transfer_to_human_agents are the airline domain's tools too, built by
// package tau2tools.
//
// # Behaviour
//
// Every tool follows the Python original, including where it departs from
// upstream tau2-bench:
//
//   - ids are normalised as NeMo normalises spoken ids: user ids are
//     lower-cased, order ids upper-cased and given their leading '#'
//     ("w2378156" finds "#W2378156"); product and item ids are matched
//     exactly. Messages name the id as given ("Order w1 not found");
//   - results are the raw shapes of the Python tools: a copy of the DB
//     record (order, product, item, user), or an envelope such as
//     {"status": "success", "user_id": …}; list_all_product_types answers
//     with a JSON text, as Python's json.dumps(sort_keys=True) writes it.
//     Failures are {"status": "error", "error_type": "not_found" |
//     "value_error" | "db_not_initialized", "message": …} values, never Go
//     errors;
//   - a missing or empty DB is answered with db_not_initialized, except by
//     calculate and transfer_to_human_agents, which never read it;
//   - statuses: cancel_pending_order and modify_pending_order_items need
//     the status "pending" exactly; modify_pending_order_address and
//     modify_pending_order_payment any status containing "pending" (so
//     "pending (item modified)" passes); exchanges and returns "delivered";
//   - cancel_pending_order offers its two reasons to the model as an enum,
//     but checks the reason itself, after the order's checks ("Invalid
//     reason"), as NeMo does; it refunds every payment of the history and
//     credits gift cards at once;
//   - money: gift cards carry a "balance"; every balance the tools compute
//     and every price difference is Python's round(x, 2) of a float, so
//     the DB holds floats where Python's does; differences are sums of
//     float(new price) − float(old price) over the exchanged items;
//   - modify_pending_order_items gives each changed item the price and
//     options of its own new variant — NeMo's fix of tau2, which gave every
//     changed item the last variant's — and pays or refunds the rounded
//     difference; exchanges and returns only record the request;
//   - no tool mints an id.
//
// Each constructor documents its checks and messages, in the order the
// Python tool makes them.
//
// # Lookups that take the first match
//
// find_user_id_by_name_zip, find_user_id_by_email, get_item_details (which
// searches every product's variants) and list_all_product_types (where a
// later product would win a shared name) depend on the order they walk a
// table in. Python walks the data file's order; a Go map keeps none, and
// the loaded DB does not record it, so the port walks the tables in key
// order (user id, product id). On the tau2 data the two orders give the
// same answers, because no lookup there can see two candidates: no two
// users share a name and zip code, or an email; no item id belongs to two
// products; no two products share a name (TestFirstMatchLookupsAreUnambiguous
// checks the shipped DB). No tool changes names, emails, items or
// products; modify_user_address changes zip codes, so a conversation that
// gives a user the zip code of a namesake (100 names of the data belong
// to two users or more) and then looks a user up by name and zip gets the smaller
// user id, where Python would answer with the one listed first in the
// file. No gold task does that.
//
// # Deliberate choices
//
//   - Arguments are validated in pydantic's lax mode (tool.Options.Lax):
//     strings stay strict (7 is not "7"), a string is not a list, unknown
//     keys are refused.
//   - Writes check everything, then change the DB: a refused call changes
//     nothing. Where the Python tool would raise half-way through its
//     writes — only on a DB of the wrong shape — the port refuses before
//     writing, with the exception's text as a Go error.
//   - Writes copy the records they change, not whole tables
//     (tool.DB.WriteRecords): a gold replay shares the loaded DB between
//     tasks, and copying the 1,000 orders for each task that changes one
//     cost more than the rest of the replay.
//   - Results taken from the DB are deep copies (Python returns live
//     references); a gold replay discards them anyway.
//   - The model sees exactly what the Python tools present: each tool's
//     name, description, properties (types, enums, texts) and required
//     list are data, read from tau2data's tool_schemas.jsonl
//     (tau2orig.Original), never Go sentences. The parameter structs
//     declare what is checked, and a test shows they agree with that data
//     in names, order, types, enums and required lists, but for
//     cancel_pending_order's reason enum, which the original presents and
//     checks in the tool's body.
//
// # Conformance
//
// TestConformanceTrain replays the 74 tasks of the train split and
// requires the Python reference's final DB hash, every action's raw result
// (ints and floats told apart; the 13 domain errors of the split with the
// same status, error_type and message), every record and the reference's
// replay errors; TestReplayAllTasks replays all 114 tasks on one shared DB
// and requires what the reference reports for them (550 actions, 178
// records, the 18 domain errors, the 11 tasks that change nothing). The
// tau2 data and the reference replay are in the repository
// (domains/tau2/tau2data, internal/conformance/testdata).
package retail
