// Package replaytest proves that a port of a Python benchmark domain
// replays gold actions as the Python reference does, and holds the test
// helpers such a port's tests share.
//
// # The contract
//
//   - Gold lines: [ParseGold] and [LoadGold] read the reference's gold
//     replay (one JSON object a line, gold_replay_<domain>.train.jsonl of
//     the conformance vectors) with exact numbers, 1.0 kept apart from 1.
//     A line that is not JSON, or lacks task_id, final_db_hash or
//     per_action, is an error naming the line; the fields of the user
//     side, the post-init hashes and the final DBs are set only where the
//     line has them.
//   - Conformance: [RequireTask] replays one scenario with [replay.Gold]
//     and requires what its gold line says — the initial and post-init
//     hashes, every action's raw result as a JSON tree with exact numbers
//     (error results included) and the records it appended, the replay
//     errors, the reference_actions, the final DB hash(es) and the
//     structured diff from the initial DB; the user side's hashes too,
//     for a two-sided domain. On a mismatch it names the first differing
//     action, and for a wrong hash the first action after which the DB
//     hash differs. [RequireGold] does so for every line, as subtests
//     named task_<id>, on the scenarios the caller builds.
//   - Shared DBs: [ReplayAllShared] replays many tasks on one DB shared
//     copy-on-write, as a replay CLI would, and fails if the source DB
//     changed (by hash and under [dbhash.Cache.Verify]) or if any task's
//     hash differs from a plain replay's; it returns a [Summary].
//   - Bodies: [BenchmarkReplay] (or [BenchmarkScenarios], for scenarios
//     a port builds itself) and [FuzzTools] are the bodies of a port's
//     replay benchmark and tool fuzz test; in the fuzz test a refused call
//     (validation or domain error, Go error) must leave the DB and the
//     action log alone.
//   - Unit tests: [NewFixture] binds a [replay.ToolBuilder] to a fresh
//     state holding a DB ([DecodeDB] reads one as Python's json.loads
//     would); [Fixture.Call] runs a tool on the replay path. [Canon],
//     [RequireJSON], [Tree] and [ExactEqual] compare results as Python
//     would print them: ints and floats told apart, key order free.
//   - No data is found for the caller: paths, DBs and tasks come in as
//     arguments, so the package depends on no repository layout.
package replaytest
