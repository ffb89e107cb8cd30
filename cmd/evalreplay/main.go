// Command evalreplay replays the evaluation domains ported onto
// schematools offline, printing the DB hashes NeMo's Python runner scores.
//
//	go run ./cmd/evalreplay replay --domain tau2_airline|all [--data DIR] [--split base|train|test|all] [--tasks ID,ID] [--workers N] [--json] [--cpuprofile FILE]
//	go run ./cmd/evalreplay calls --domain eva_airline --scenario 1.1.2 [--script FILE]
//	go run ./cmd/evalreplay scenarios --domain eva_airline
//
// scenarios prints one JSON line per scenario of a domain whose scenarios
// each bring a DB: {"scenario_id", "initial_db_hash", "expected_db_hash"},
// the hashes NeMo's runner scores a bot's final DB against.
//
// calls replays a call script — JSON lines, each a call {"tool" (or
// "name"), "arguments"} or an object with a "calls" list, such as a bot's
// action log or a line of eva_airline_gold_paths.jsonl — against a fresh
// scenario of any domain, through the live path a bot uses, and prints one
// JSON line per call, {"i", "tool", "result", "db_hash"}, then the final
// hash on stderr: a harness engineer recomputes a bot's final DB hash
// offline.
//
// The tau2 data (airline, retail and telecom, as NVIDIA NeMo vendors it
// from Sierra Research's tau2-bench, MIT) is built into the command by
// package tau2data, and only the domain asked for is read. --data DIR
// replays from a directory laid out the same way instead (DIR/airline/,
// DIR/retail/, DIR/telecom/), such as domains/tau2/tau2data or newer data.
//
// replay loads a domain's data once, replays the gold actions of every
// selected task through the Go tools (replay.GoldAll, on all cores) and
// prints one line per task, in task-file order: a table row, or with
// --json one JSON object
//
//	{"domain", "task_id", "n_actions", "initial_db_hash", "post_init_db_hash", "final_db_hash", "errors": [{"index", "name", "kind", "message"}]}
//
// then a summary on stderr. The hashes are the ones NeMo's Python runner
// computes, so they can be compared with a Python replay line for line.
// --domain all replays every domain (278 tasks with --split all) in one
// process and one pool of workers, printing the domains' lines in turn,
// as the domains replayed one by one print them; --tasks then does not
// apply, and --predicates evaluates the domains that have predicates.
//
// The command loads each DB once (its shards side by side), owns it
// without a copy (state.LoadSource, state.LoadSourceFS), and runs with the collector off up
// to a 1 GiB heap unless GOGC or GOMEMLIMIT is set: a batch run's memory
// is live until its end. --cpuprofile FILE writes a CPU profile of the
// replay command.
//
// Exit status: 0 when every replay ran (tool results that are domain
// errors, such as "not found", are part of a replay, not failures); 1 when
// a replay crashed (its line then carries an error of kind "crash") or a
// tool modified the DB the replays share; 2 for bad flags or unusable data;
// 130 when interrupted.
package main

import (
	"fmt"
	"io"
	"os"
	"runtime/debug"
)

func main() {
	batchGC()
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// batchMemoryLimit is the heap size at which the collector runs for a
// command run with batchGC.
const batchMemoryLimit = 1 << 30

// batchGC sets the collector up for a short batch run: a replay allocates
// a few dozen MiB per domain, most of it live until the end (the loaded
// DBs and their canonical text), so collecting as it goes only costs time
// (a fifth of a replay's CPU). The collector is switched off and runs
// only when the heap nears batchMemoryLimit. A GOGC or GOMEMLIMIT in the
// environment is kept as it is.
func batchGC() {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(batchMemoryLimit)
}

const usage = `usage: evalreplay <command> [flags]

commands:
  replay   replay the gold actions of a domain's tasks and print their DB hashes
  calls    replay a JSON-lines call script against a scenario and print each result and the DB hash after it
  scenarios print each scenario's initial and expected DB hashes (domains whose scenarios bring their own DB)

run "evalreplay replay -h" or "evalreplay calls -h" for the flags of replay.
`

// run executes the command line args and returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	switch args[0] {
	case "replay":
		return runReplay(args[1:], stdout, stderr)
	case "calls":
		return runCalls(args[1:], stdout, stderr)
	case "scenarios":
		return runScenarios(args[1:], stdout, stderr)
	case "-h", "-help", "--help", "help":
		fmt.Fprint(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "evalreplay: unknown command %q\n%s", args[0], usage)
	return 2
}
