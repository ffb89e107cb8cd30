// Package replay runs tools synchronously for harnesses: the raw-result
// invoke path, gold replay of benchmark tasks (running a domain's
// [hooks.Set]: initialisation functions, cross-side sync), evaluation of
// DB-state assertions with its predicates, and action matching. The hooks
// themselves live in package hooks.
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
// uses, in the Python reference's order: initialisation actions (agent
// side, then user side), one sync, then per action: invoke by name, stamp
// "side" on the records it appended, sync. Missing tools, tool errors and
// error results are recorded in the [Result] and the replay goes on.
//
//   - A [Scenario] names its DBs as [state.Source] values: loaded once,
//     shared copy-on-write by every replay (a task that only reads costs
//     no copy, a write copies what it changes), hashed once. There is no
//     switch to turn sharing on or off, nor hashes or caches to pass in.
//   - A domain plugs in through [Scenario].Hooks, a [hooks.Set]: its
//     initialisation functions (with the tables each may write), its
//     cross-side sync and applier, and its DB-state predicates, checked by
//     [Evaluate]. Bots find the same Set in their registry
//     (registry.Tools.Hooks), so both run the same functions.
//   - Time and ids come from the scenario's Clock and IDs (by default
//     the tau2 reference date, 2025-02-25, and a counter: [FixedClock],
//     [CounterIDs]), so a replay hashes the same on every day.
//   - [GoldAll] replays many tasks in parallel and then checks every
//     Source it shared ([state.Source.Verify]). A tool that wrote into the
//     shared DB (under View, or outside the tables it named) changes its
//     own task's result only: the tasks that shared the changed Source are
//     replayed again, each on its own copy, and GoldAll reports the change
//     (errors.Is [state.ErrSourceChanged]). [Gold] alone does not check.
//   - What a replay tolerates is recorded, not returned: each
//     [ReplayError] has a Kind — "missing_tool" (no tool of the action's
//     name; the step runs nothing), "exception" (the tool returned a Go
//     error or panicked), "error_result" (it returned an error result,
//     tool.IsError), "init" (an initialisation action failed), "sync" (the
//     sync or its applier failed) — and the replay goes on. Python only
//     logs the last two. Gold returns an error only for what stops a
//     replay: no tool builder, a builder that fails, a DB that does not
//     hash, ctx done.
//
// # Tasks and evaluation
//
//   - [DecodeTasks] reads a tau2 tasks.json array; a [Task] keeps every
//     field it was read with (Raw), so it writes back unchanged.
//   - [Splits] is a split_tasks.json file, read with json.Unmarshal;
//     [Splits.Select] returns a split's tasks in the split's order and
//     names what exists when a split or id is unknown.
//   - [Evaluate] checks a task's env_assertions against final DBs with the
//     predicates of a [hooks.Set], in order, and never fails: one
//     [Verdict] per [Assertion]. A Verdict passes when the predicate ran
//     and returned the assertion's assert_value (true when absent) by
//     Python's ==; Error says why it could not run (unknown side, no DB
//     for the side, unknown predicate, the predicate's error or panic),
//     and Passed is then false.
package replay
