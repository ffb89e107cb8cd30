// Package hooks holds what a domain plugs into scenarios besides its
// tools: initialisation functions, the cross-side sync and its applier,
// DB-state predicates, and the tables each of them may write. A domain
// declares them once, as a [Set]; a bot finds them in its tool registry
// (registry.Tools.Hooks) and gold replay in its scenario (replay.Scenario),
// so both run the same functions.
//
//   - [Set.ApplyInit] runs initialisation actions in order, as the Python
//     original does: an unknown function, or one that fails or panics, is
//     an error for that action and the rest still run; nothing is rolled
//     back. Names are looked up in the set only.
//   - [Set.ApplyDelta] applies a sync delta with the set's applier, or
//     [ApplyDottedPaths] when it has none; an empty delta does nothing, a
//     panic is an error.
//   - The tables an [Init] names, and a Set's SyncChanges, AgentSyncTables
//     and UserSyncTables, are speed hints for DBs shared copy-on-write: they
//     must name every table the function can write. Leaving them out is
//     always correct, only slower.
//   - A Set is a value: the zero Set has no functions, and sync deltas
//     then use ApplyDottedPaths.
package hooks
