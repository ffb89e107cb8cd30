// Package replay runs tools synchronously for harnesses: the raw-result
// invoke path, gold replay of benchmark tasks (running a domain's
// [hooks.Set]: initialisation functions, cross-side sync), and evaluation
// of DB-state assertions with its predicates. Python-parity notes:
// docs/parity/replay.md.
//
// Two paths through one tool:
//
//   - live, tool.Call: checks, error or panic → {"error": msg}, empty
//     results enveloped, delivered once, after-result hook.
//   - replay, [Invoke]: the same checks, error or panic → Go error, the
//     raw result returned, no hook. Expected DBs are computed on this
//     path, so hashes never depend on envelopes meant for a model.
//
// Gold replay:
//
//   - [Gold] replays a task's gold actions through the agent's own tools
//     in the reference's order: initialisation (agent side, then user
//     side), one sync, then per action invoke, stamp the side, sync.
//   - A [Scenario] names its DBs as state.Source values, shared
//     copy-on-write by every replay and hashed once; its Hooks are the
//     domain's [hooks.Set], the same a bot finds in its registry.
//   - Time and ids come from the scenario's Clock and IDs ([FixedClock],
//     [CounterIDs] by default), so a replay hashes the same every day.
//   - What a replay tolerates is recorded in the [Result] as a
//     [ReplayError] with a Kind (missing_tool, exception, error_result,
//     init, sync) and the replay goes on; Gold returns an error only for
//     what stops a replay (no tool builder, a failing builder, a DB that
//     does not hash, ctx done).
//   - [GoldAll] replays many tasks in parallel, then verifies every shared
//     Source: tasks that shared a Source a tool wrote into are replayed on
//     their own copies and the change is reported (state.ErrSourceChanged).
//
// Tasks and evaluation:
//
//   - [DecodeTasks] reads a tau2 tasks.json array; a [Task] keeps every
//     field it was read with, so it writes back unchanged.
//   - [Splits] is a split_tasks.json file; [Splits.Select] returns a
//     split's tasks in its order.
//   - [Evaluate] checks env_assertions against final DBs and never fails:
//     one [Verdict] per [Assertion]; Passed when the predicate returned
//     assert_value (true when absent) by Python's ==; Error says why it
//     could not run.
package replay
