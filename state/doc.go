// Package state holds the per-scenario shared state that every tool of a
// scenario reads and writes: a JSON "DB", an ordered action log, free-form
// values, per-name call counters, and two typed fields that the Python
// original kept as sentinel keys inside its state dict (the tool domain and
// the notifier that carries server messages to the harness).
//
// # Concurrency
//
// A Go voice bot may run tool calls and harness requests on different
// goroutines, so every read and write of a [Shared] goes through a method
// that holds its lock. [Shared.View] and [Shared.UpdateTables] hand the
// live DB to a callback while the lock is held; values that leave the
// state ([Shared.Actions], [Shared.Snapshot], [Shared.Value]) are deep
// copies. Changes that belong together happen under one lock:
// [Shared.StartScenario] clears the state and sets the new domain and
// notifier, [Shared.Seed] merges a scenario's starting data and runs its
// initialisation.
//
// # Lifecycle
//
// One Shared lives as long as the bot. A new scenario calls
// [Shared.StartScenario], which clears the scenario data in place, so
// tools that already hold the pointer keep seeing the same object. The
// zero value is an empty, ready-to-use state.
//
// # Sharing one DB
//
// Copy-on-write has one owner, this package:
//
//   - A [Source] is a DB loaded once. It keeps two private deep copies of
//     the caller's DB — one that states share, one no tool ever sees — so
//     the caller's map is never shared, and its hash and table texts are
//     computed once.
//   - [Shared.Share] installs a Source's DB copy-on-write: a write copies
//     what it changes first — every table for UpdateTables(nil, …), only
//     the named tables otherwise. A [Writer] goes down to records: inside
//     UpdateTables with no table named, its Own, Put, OwnRow and Append
//     copy a table shallowly and just the records they change deeply, so
//     a table of thousands of records stays shared but for those.
//   - [Shared.Hash] of a state still sharing its Source unwritten is the
//     Source's hash, read not computed; a state that wrote some tables
//     hashes those and reuses the Source's text of the others.
//   - A tool that breaks the rules (writes under View, or outside the
//     tables it named) changes the Source's shared copy, never the
//     caller's DB: [Source.Verify] compares the shared copy with the
//     pristine one, restores it and names the changed tables, so a caller
//     such as gold replay can compute again what was computed on it.
//
// Where the DB does not have the shape a Python tool expects, a Writer
// returns the exception Python would raise, whose text is str(exc).
//
// # Sentinels are fields
//
// The tool domain ([Shared.Domain]) and the notifier ([Shared.Notifier]) are
// struct fields, never keys of the DB map, so they can never reach a DB hash.
//
// # Loading DBs
//
// [LoadDB] reads a DB from a single JSON file or from a directory of JSON
// shards (one file per table, keyed by file stem, the tau2 airline layout).
// The path is resolved under a root and any path that escapes the root is
// refused with [ErrPathEscape]. Files are parsed as Python's json.loads
// parses them; numbers decode as [encoding/json.Number], so large integers
// and the int/float distinction survive exactly. [LoadDBFS] does the same
// from an [io/fs.FS], such as data embedded with go:embed.
package state
