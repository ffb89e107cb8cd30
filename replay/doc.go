// Package replay runs tools synchronously for harnesses: the raw-result
// invoke path, gold replay of benchmark tasks, initialisation functions,
// cross-side sync, DB-state predicates and action matching.
//
// # Two paths through one tool
//
// Every tool has one Execute. Two paths call it:
//
//	live: tool.Call(ctx, t, args, deliver)     replay: replay.Invoke(ctx, t, args)
//	  argument checks (typed tools)              the same argument checks
//	  error or panic -> {"error": msg}           error or panic -> Go error
//	  [] -> {"status": "success", ...}           [] stays []
//	  delivered exactly once                     returned, never delivered
//	  after-result hook (e.g. <exit>)            no hook
//
// The expected DB of a scenario is computed on the replay path, and hashes
// must not depend on envelopes meant for a model.
//
// # Gold replay
//
// [Gold] replays a task's gold actions through the same tools the agent
// uses, on copy-on-write copies of the DB(s) (a task that only reads costs
// no copy), in the Python reference's order:
// initialisation actions (agent side, then user side), one sync, then per
// action: invoke by name, stamp "side" on the records it appended, sync.
// Missing tools, tool errors and error results are recorded in the
// [Result] and the replay goes on. Time and ids come from the scenario's
// [Clock] and [IDSource] (by default the tau2 reference date, 2025-02-25,
// and a counter), so a replay hashes the same on every day. [GoldAll]
// replays many tasks in parallel.
//
// # Domain hooks
//
// Three per-domain registries, all [registry.Registry] values, plug a
// domain in: [InitFuncs] (initialisation functions, applied by
// [ApplyInit]), [Appliers] (sync appliers, applied by [ApplyDelta], with
// [ApplyDottedPaths] as the default) and [Predicates] (DB-state
// predicates, checked by [Evaluate]). A two-sided domain also supplies a
// [SyncFunc] that computes the deltas between its sides.
//
// # Action matching
//
// [MatchCompareArgs] applies tau2's compare_args to one call;
// [MatchRecords] scores whole action logs the way the NeMo runner does.
// Both say why something did not match.
package replay
