// Package tau2tools holds what the tau2-bench ports share (airline now,
// retail next): the calculate and transfer_to_human_agents tools, the
// structured results, the DB access pattern of every tau2 tool, and the
// handful of Python behaviours the ports must reproduce to hash and
// answer as NVIDIA NeMo's Python tools do.
//
// # Tools
//
// NewCalculate builds calculate, a safe evaluator of Python arithmetic
// (see Calculate): no eval, the same results and the same error texts.
// NewTransferToHumanAgents builds the transfer tool: it records the
// transfer, answers {"status": "success", "message": "Transfer
// successful"} and, once that result is delivered on the live path, sends
// "<exit>Transfer complete.</exit>". Both validate their arguments in
// pydantic's lax mode (tool.WithLax), as the Python tools do.
//
// # Results and DB access
//
// Domain failures are values, shaped {"status": "error", "error_type",
// "message"} (tool.FailureResult): NotFound, ValueError and
// DBNotInitialized. ReadDB and WriteDB run a tool's work under the state's
// read or write lock, answer db_not_initialized for a missing or EMPTY DB
// (Python's "if not db"), and record a write tool's action once the lock
// is released. Write tools check everything before they change anything,
// so a refused call leaves the DB as it was.
//
// Where a DB does not have the shape of the tau2 data model, Python would
// raise (AttributeError, TypeError, KeyError); the helpers GetDict,
// GetDictOr, GetListOr, SetDefaultList, AsDict and GetFolded return that
// exception as a *PyError, which a tool returns as its Go error: the live
// path delivers {"error": message}, a gold replay records an exception.
//
// # Python behaviours
//
//   - Num keeps Python's int and float apart through DB arithmetic (a gift
//     card balance of 163.0 minus 50 is 113.0, not 113) and compares them
//     exactly; Num.Value stores a result as the json.Number Python's
//     json.dumps would write, so it hashes and encodes as in Python.
//   - Round2 is round(x, 2) and FloatRepr is str() of a float.
//   - PyLower and PyUpper are str.lower() and str.upper(), full Unicode
//     case mapping included ("ß".upper() is "SS"); the ports match ids
//     case-insensitively with them.
//   - PyInt is int() of a string; PyRepr, PyStr, PyTypeName, PyLen and
//     Truthy give the texts and tests Python error messages and "or"
//     defaults rely on.
//   - ModelDump is pydantic's model_dump() of a parameters struct: what a
//     write tool records as its arguments.
package tau2tools
