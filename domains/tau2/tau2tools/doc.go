// Package tau2tools holds what the tau2-bench ports (airline, retail,
// telecom) share: how a domain's tools are declared, registered and built
// for a replay, the tools two domains have in common (get_user_details,
// calculate, transfer_to_human_agents), the structured results, the tau2
// conventions of the DB access pattern, and the handful of Python
// behaviours the ports must reproduce to hash and answer as NVIDIA NeMo's
// Python tools do. Logic two ports need lives here, once; what any port of
// a Python tool needs lives in the library (tool.DB, tool.ModelDump,
// state.Writer).
//
// # Domains
//
// A port lists its tools as Specs (tau2 key, model-facing name,
// constructor); Register adds them to a registry and ToolMap builds them
// for a gold replay (a domain's replay.ToolBuilder). Tools are built with
// New — or NewReadTool, NewWriteTool or NewRecordWriteTool, whose work
// runs under DB(rec), the tau2 tool.DB: its Read, Write or WriteRecords —
// as typed tools validated in pydantic's lax mode (Lax).
//
// # What the model sees
//
// Every tau2 tool presents the Python original's schema, read as data
// from tau2data's tool_schemas.jsonl (parsed once): New gives
// the tool the original's description and, through tool.Options.Properties,
// its properties (types, enums, texts, nested items). Its checks stay
// those of its parameters struct, which must name exactly the original's
// properties; the ports' tests show the two agree.
//
// # Shared tools
//
// NewGetUserDetails builds get_user_details, the same tool in both
// domains (FindUser matches user ids lower-cased). NewCalculate builds
// calculate, a safe evaluator of Python arithmetic (see Calculate): no
// eval, the same results and the same error texts.
// NewTransferToHumanAgents builds the transfer tool: it records the
// transfer, answers {"status": "success", "message": "Transfer
// successful"} and, once that result is delivered on the live path, sends
// "<exit>Transfer complete.</exit>".
//
// # Results and DB access
//
// Domain failures are values, shaped {"status": "error", "error_type",
// "message"} (tool.FailureResult): NotFound, ValueError and
// DBNotInitialized; Found answers a lookup with the record or not_found.
// The read and write tools' results are copied in the DB's key order
// (state.Order.Copy): a record reads as the Python tool's json.dumps writes
// it, in its data file's order, and a write says the order of what it
// adds (state.Order.Keep, Set, Clone), as the Python tool's dict literals,
// pydantic models and assignments give it.
// DB(rec) is the tool.DB of the airline and retail tools: it runs a tool's
// work under the state's read or write lock, answers db_not_initialized
// for a missing or EMPTY DB (Python's "if not db"; Loaded), and records a
// write tool's action with rec once the lock is released. (Telecom's two
// sides have a tool.DB each, with their own not-loaded messages.) Write
// tools check everything before they change anything, so a refused call
// leaves the DB as it was.
//
// A gold replay shares the loaded DB between tasks, copy-on-write, so a
// write must say what it changes: NewWriteTool names the tables it
// changes (each is copied whole before the first write),
// NewRecordWriteTool the tables whose records it changes, copying just
// those records through a state.Writer: Own and Put for tables keyed by
// id (airline, retail), OwnRow and Append for list tables (telecom, whose
// initialisation functions use state.NewWriter). The ports all write
// record by record: copying a table of 2,000 reservations for every task
// cost more than the rest of a replay. A write that changed anything else
// would change the DB every other task starts from; the ports' tests
// replay all tasks on one DB and check it.
//
// Where a DB does not have the shape of the tau2 data model, Python would
// raise (AttributeError, TypeError, KeyError); the helpers GetDict,
// GetDictOr, GetListOr, SetDefaultList, AsDict, GetFolded and GetKey
// return that exception, a *pyvalue.Error made a tool error by Raise and
// Exception, which a tool returns as its Go error: the live path delivers
// {"error": str(exc)}, a gold replay records an exception.
//
// # Python behaviours
//
//   - Python's values — int and float arithmetic, float(), int(), str(),
//     repr(), len(), bool(), in, str.lower() and str.upper() — are the
//     kernel's, internal/pyvalue; the packs' DB numbers go through
//     domains/internal/pynum (a Num stored as the json.Number Python's
//     json.dumps would write: a gift card balance of 163.0 minus 50 is
//     113.0, not 113; d.get(key, 0) and (d.get(key) or 0) read as
//     numbers). PyIn is "…" in (v or "") for a DB value.
//   - SortedKeys gives the order the ports walk a table in, where Python
//     walks the data file's order (each port says when the two can
//     differ).
package tau2tools
