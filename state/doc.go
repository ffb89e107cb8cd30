// Package state holds the per-scenario shared state every tool of a
// scenario reads and writes: a JSON DB, an ordered action log, free-form
// values, per-name call counters, the tool domain and the notifier.
// Python-parity notes: docs/parity/state.md.
//
// Concurrency:
//
//   - Every read and write of a [Shared] holds its lock: [Shared.View]
//     (read) and [Shared.UpdateTables] (write) hand the live DB to a
//     callback, which must not keep references past its return or call
//     the same Shared.
//   - UpdateTables does not roll back: check everything, then mutate.
//   - What leaves the state is a deep copy ([Shared.Actions],
//     [Shared.Snapshot], [Shared.Value]); [Shared.SetDB] and [Shared.Seed]
//     take ownership of the maps they are given.
//   - [Shared.StartScenario] and [Shared.Seed] change what belongs
//     together under one lock.
//
// Lifecycle:
//
//   - The zero value (or [New]) is an empty state in [DefaultDomain]; one
//     Shared lives as long as the bot.
//   - StartScenario clears it in place; Seed fills a scenario in one step
//     and may run a function on the resulting DB.
//   - Values never reach the DB hash; [Shared.NextCallIndex] counts calls
//     per name from 1.
//
// Sharing one DB (copy-on-write has one owner, this package):
//
//   - A [Source] is a DB loaded once, its hash and table texts computed
//     once: [NewSource] (a deep copy of a map), [LoadSource] and
//     [LoadSourceFS] (files, as [LoadDB] and [LoadDBFS] read them).
//   - [Shared.Share] installs a Source's DB copy-on-write; a write copies
//     the tables it names first, and a [Writer] copies only the records it
//     changes.
//   - [Shared.Hash] of an unwritten shared DB is the Source's hash, read
//     not computed.
//   - A [SourceCache] hands out one Source per DB file while the file is
//     unchanged; [Source.Verify] detects and undoes a tool that wrote
//     outside its tables (wrapping [ErrSourceChanged]).
//
// Key order:
//
//   - A DB loaded as a Source keeps its files' key order beside the maps;
//     [Order] is the handle ([Shared.ViewOrdered], [OrderOf] inside
//     UpdateTables, [Order.Writer]), and [Order.Copy] gives results in it.
//
// Loading:
//
//   - [LoadDB] reads one JSON file or a directory of shards under a root,
//     refusing escaping paths ([ErrPathEscape]); numbers stay exact
//     (json.Number). [LoadDBFS] reads from an fs.FS.
package state
