// Package tau2tools is what the tau2-bench ports (airline, retail, telecom)
// share: how a domain's tools are declared, registered and built for a
// replay, the tools two domains have in common, the structured results and
// the tau2 conventions of DB access. Logic two ports need lives here once;
// what any port of a Python tool needs lives in the library (tool.DB,
// tool.ModelDump, state.Writer).
//
// What it gives:
//
//   - Declaring a domain: a port lists its tools as [Spec]s (tau2 key,
//     model-facing name, constructor); [Register] adds them to a registry,
//     [ToolMap] builds them for a gold replay.
//   - Building a tool: [New] (a typed tool validated in pydantic's lax mode,
//     [Lax]) and [NewReadTool], [NewWriteTool], [NewRecordWriteTool], whose
//     work runs under [DB].
//   - Shared tools: [NewGetUserDetails] (user ids matched lower-cased,
//     [FindUser]), [NewCalculate] (a safe evaluator of Python arithmetic,
//     [Calculate]: no eval, the same results and error texts) and
//     [NewTransferToHumanAgents].
//   - Results: [NotFound], [ValueError] and [DBNotInitialized] failures
//     ({"status": "error", "error_type", "message"}); [Found] answers a
//     lookup with the record or not_found.
//   - DB-shape helpers ([GetDict], [GetDictOr], [GetListOr],
//     [SetDefaultList], [AsDict], [GetFolded], [GetKey]) that return the
//     exception Python would raise on a DB of the wrong shape; [Raise] and
//     [Exception] make it a tool error.
//   - Python behaviours the ports reproduce: [PyIn], [SortedKeys] (the order
//     the ports walk a table in). [ReferenceDate] is the day the Python
//     reference's hashes were made on.
//
// What it guarantees:
//
//   - Every tool presents the Python original's schema (description and
//     properties), read as data from tau2data's tool_schemas.jsonl; its
//     checks are its parameters struct's, which names exactly the
//     original's properties.
//   - [DB] runs a tool's work under the state's read or write lock, answers
//     db_not_initialized for a missing or empty DB ([Loaded]), and records a
//     write's action once the lock is released.
//   - Results read as the Python tool's json.dumps writes them: records in
//     their data file's key order, additions in the order the Python code
//     gives them.
//   - Writes check everything before they change anything: a refused call
//     leaves the DB as it was.
//   - A write names what it changes (whole tables, or records through a
//     state.Writer), so a gold replay can share the loaded DB between tasks,
//     copy-on-write.
//   - The transfer tool records the transfer, answers {"status": "success",
//     "message": "Transfer successful"} and, once that is delivered on the
//     live path, sends "<exit>Transfer complete.</exit>".
//
// Parity notes (the Python behaviours reproduced, the DB access pattern and
// why): docs/parity/domains-tau2-tau2tools.md.
package tau2tools
