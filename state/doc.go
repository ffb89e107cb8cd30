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
// that holds its lock:
//
//   - [Shared.View] (read lock) and [Shared.UpdateTables] (write lock)
//     hand the live DB to a callback; [Shared.ViewAll] hands the DB and the
//     action log together, as of one moment. A callback must not keep
//     references past its return or call methods of the same Shared.
//   - UpdateTables does not roll back: a tool checks everything first and
//     mutates last, so a refused call leaves the DB as it was.
//   - What leaves the state is a deep copy ([Shared.Actions],
//     [Shared.Snapshot], [Shared.Value], [Shared.Values]); what enters it
//     through [Shared.AppendAction] is copied too, while [Shared.SetDB] and
//     [Shared.Seed] take ownership of the maps they are given.
//   - Changes that belong together happen under one lock, so no tool call
//     or reader sees a scenario half-way: [Shared.StartScenario] clears the
//     state and sets the new domain and notifier; [Shared.Seed] merges a
//     scenario's starting data and runs its initialisation on the DB.
//
// # Lifecycle
//
//   - One Shared lives as long as the bot; the zero value (or [New]) is an
//     empty, ready-to-use state in the domain [DefaultDomain].
//   - A new scenario calls [Shared.StartScenario]: it clears the DB, the
//     action log, the values and the call counters in place and sets the
//     domain and the notifier, so tools that already hold the pointer keep
//     seeing the same object.
//   - [Shared.Seed] fills a scenario in one step, setting only what its
//     [Seed] names: the DB (ReplaceDB), the action log (ReplaceLog), values
//     (merged key by key), call counters, the domain; then it runs an
//     optional function on the resulting DB under the same lock.
//   - Values are free-form data a scenario keeps beside the DB (set
//     through Seed, read with [Shared.Value] and [Shared.Values]); they
//     never reach the DB hash.
//   - [Shared.NextCallIndex] counts calls per name, from 1, for tools that
//     mint ids ("TRF-ABC123-001"); StartScenario resets the counters, and a
//     Seed with CallCounts replaces them.
//
// # Sharing one DB
//
// Copy-on-write has one owner, this package:
//
//   - A [Source] is a DB loaded once; its hash and table texts are
//     computed once. [NewSource] keeps two private deep copies of the
//     caller's DB — one that states share, one to restore it from — so the
//     caller's map is never shared. [NewSourceFunc] takes a loader instead
//     (say, one that decodes a file): it owns the DB the loader returns,
//     copies nothing, and calls the loader again only to restore the DB.
//     [LoadSource] and [LoadSourceFS] load a DB as [LoadDB] and
//     [LoadDBFS] do, taking its tables' fingerprints as its files are
//     decoded rather than reading it all once more.
//   - [Shared.Share] installs a Source's DB copy-on-write: a write copies
//     what it changes first — every table for UpdateTables(nil, …), only
//     the named tables otherwise. A [Writer] goes down to records: inside
//     UpdateTables with no table named, its Own, Put, OwnRow and Append
//     copy a table shallowly and just the records they change deeply, so
//     a table of thousands of records stays shared but for those.
//   - [Shared.Hash] of a state still sharing its Source unwritten is the
//     Source's hash, read not computed; a state that wrote some tables
//     hashes those and reuses the Source's text of the others.
//     [Shared.ViewHashed] gives that hash together with the DB and the
//     action log, under one lock.
//   - [Shared.Seed] with a [Seed.Source] shares it as Share does; a Seed
//     that runs a function on the DB first makes the tables it may change
//     ([Seed.Tables], as UpdateTables names them; nil: all) its own, so it
//     runs with a nil function when there is nothing to run.
//   - A [SourceCache] hands out one Source per DB file, so that many bots
//     (each with its own states) decode a DB once: [SourceCache.Load]
//     takes LoadDB's root and path, with LoadDB's rules and errors, and
//     returns the Source loaded before while the file, or the directory
//     and each of its shards, keeps its size and modification time (a
//     changed DB loads again; concurrent Loads decode once). Each reuse
//     calls [Source.Verify] first: a Source a tool changed is restored,
//     and returned with Verify's error (wrapping [ErrSourceChanged]) to
//     say that what was computed on it before may be wrong. It is safe
//     for concurrent use and keeps what it loaded as long as it lives.
//   - A tool that breaks the rules (writes under View, or outside the
//     tables it named) changes the Source's shared copy, never the
//     caller's DB: [Source.Verify] compares a fingerprint of each table
//     with the one taken when the Source was made (exact values: 1, 1.0
//     and json.Number("1") differ, as do "None" and null; a change goes
//     unnoticed with odds of about 2^-64), restores the DB and names the
//     changed tables, so a caller such as gold replay can compute again
//     what was computed on it. A fingerprint reads the DB without
//     allocating; no pristine copy is compared.
//
// Where the DB does not have the shape a Python tool expects, a Writer
// returns the exception Python would raise, whose text is str(exc).
//
// # Key order
//
// A Python tool returns its DB's dicts, and the tool message a model reads
// is json.dumps of them: a record in its data file's order, the keys a
// tool added after them in the order it added them. A Go map has no order,
// so the state keeps the order beside the DB (its maps, and so its hash,
// are untouched); [Order] is the handle:
//
//   - A DB decoded from files as a Source ([LoadSource], [LoadSourceFS],
//     [SourceCache]) and shared ([Shared.Share], [Seed.Source]) knows the
//     order of each of its objects: once per set of keys (the file's first
//     order for that set, which the records of a table share) and by
//     object for the few that differ. A DB given as a map ([Shared.SetDB],
//     [NewSource], what [LoadDB] returns) has lost it.
//   - [Shared.ViewOrdered] and [Shared.UpdateOrdered] hand a callback the
//     Order with the DB; [Order.Copy] copies what a tool returns from the
//     DB in that order (objects become ordered dicts), where [Clone] gives
//     maps that are written with sorted keys.
//   - Writes say what Python's assignments and literals do: [Order.Set]
//     (a new key goes last), [Order.Delete], [Order.Keep] (a record built
//     in a literal's order), [Order.Clone] (copy.deepcopy keeps a copied
//     object's order); a [Writer] made by [Order.Writer] copies records
//     and tables keeping their order, and the state keeps what the writes
//     noted for the rest of the scenario. Code that gets the DB and not
//     the Order inside a write (a hooks.Set's initialisation functions)
//     finds it with [OrderOf], and a [Clone] of that DB keeps the order.
//
// # Sentinels are fields
//
// The tool domain ([Shared.Domain]) and the notifier ([Shared.Notifier]) are
// struct fields, never keys of the DB map, so they can never reach a DB hash.
//
// # Loading DBs
//
// [LoadDB] reads a DB from a single JSON file or from a directory of JSON
// shards (one file per table, keyed by file stem, the tau2 airline layout;
// the shards are parsed side by side, on all cores).
// The path is resolved under a root and any path that escapes the root is
// refused with [ErrPathEscape]. Files are parsed as Python's json.loads
// parses them; numbers decode as [encoding/json.Number], so large integers
// and the int/float distinction survive exactly. [LoadDBFS] does the same
// from an [io/fs.FS], such as data embedded with go:embed.
package state
