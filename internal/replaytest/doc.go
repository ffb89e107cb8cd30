// Package replaytest proves that a port of a Python benchmark domain
// replays gold actions as the Python reference does, and holds the test
// helpers such a port's tests share.
//
// # The contract
//
//   - Gold lines: [ParseGold] reads the reference's gold replay (one JSON
//     object a line, gold_replay_<domain>.train.jsonl of the conformance
//     vectors) with exact numbers, 1.0 kept apart from 1. A line that is
//     not JSON, or lacks task_id, final_db_hash or per_action, is an error
//     naming the line; the fields of the user side, the post-init hashes
//     and the final DBs are set only where the line has them.
//   - Conformance: [RequireGold] replays, for every line, as a subtest
//     named task_<id>, the scenario the caller builds for the line's task
//     with [replay.Gold], and requires what the line says — the initial
//     and post-init hashes, every action's raw result as a JSON tree with
//     exact numbers (error results included) and the records it appended,
//     the replay errors, the reference_actions, the final DB hash(es) and
//     the structured diff from the initial DB; the user side's hashes too,
//     for a two-sided domain — and that the scenario's Sources are
//     unchanged afterwards. On a mismatch it names the first differing
//     action, and for a wrong hash the first action after which the DB
//     hash differs.
//   - Shared DBs: [ReplayAllShared] replays many tasks with
//     [replay.GoldAll] on one Source, as a replay CLI would, and fails if a
//     tool changed the Source or if any task's hash differs from the hash
//     of its final DB computed from scratch; it returns a [Summary].
//   - Bodies: [Benchmark] and [FuzzTools] are the bodies of a port's
//     replay benchmark and tool fuzz test; in the fuzz test a refused call
//     (validation or domain error, Go error) must leave the DB and the
//     action log alone.
//   - Unit tests: a [Fixture] holds a [replay.ToolBuilder]'s tools bound
//     to a state ([DecodeDB] reads a DB as Python's json.loads would);
//     [Fixture.Call] runs a tool on the replay path (ordered dicts made
//     maps, [Plain]), [Fixture.At] reads the DB. [Canon] and [RequireJSON]
//     compare results as Python would print them: ints and floats told
//     apart, key order free.
//   - Key order: [ResultText] is a result as a model reads it (pipecat's
//     json.dumps(result, ensure_ascii=False) in the tool message, the
//     agent's context: [agent.ResultContent]); [GoldAction] carries the
//     reference's, written from the line in its key order;
//     [RequireResultTexts] replays every line on the replay path and on
//     the live path (liveTools) and requires the texts equal byte for
//     byte ([ResultTextDiffs] for one task and path).
//   - No data is found for the caller: paths, DBs and tasks come in as
//     arguments, so the package depends on no repository layout.
package replaytest
