// Package tau2data embeds the tau2-bench domain data that the tau2 replay
// CLI uses when it is given no data directory: airline/ (db/ sharded as
// flights.json, reservations.json, users.json), retail/ (db.json) and
// telecom/ (db.json, user_db.json), each with tasks.json and
// split_tasks.json, exactly as NVIDIA NeMo labs-Voice-Agent vendors them
// from Sierra Research's tau2-bench (MIT; see the NOTICE file beside this
// package), and tool_schemas.jsonl, the LLM-visible schema of each of the
// 73 tau2 tools as the Python original presents it.
//
//   - FS holds everything, in the layout of a tau2 data directory.
//   - Schemas holds tool_schemas.jsonl alone: the tau2 ports read their
//     tools' texts from it, so that a binary serving the tools does not
//     carry the databases (the linker drops an embedded FS nothing reads).
//
// Embedding costs nothing at startup: the files are bytes in the binary,
// and only what a caller reads is parsed.
package tau2data

import "embed"

// FS holds airline/, retail/, telecom/ and tool_schemas.jsonl at its root: the layout that a
// tau2 data directory has on disk, so that state.LoadDBFS(FS, "airline/db")
// loads what state.LoadDB(dir, "airline/db") loads.
//
//go:embed airline retail telecom tool_schemas.jsonl
var FS embed.FS

// SchemaFile is the path of the tool schemas in FS and in Schemas.
const SchemaFile = "tool_schemas.jsonl"

// Schemas holds SchemaFile alone, the same bytes as in FS.
//
//go:embed tool_schemas.jsonl
var Schemas embed.FS
