package replaytest

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/dbhash"
	"github.com/voiceeval/schematools/internal/pyjson"
	"github.com/voiceeval/schematools/replay"
	"github.com/voiceeval/schematools/state"
)

// requireTask replays sc (one task, on the DB(s) the reference started
// from) and requires what the Python reference produced for it, g, and
// returns the replay's result:
//
//   - the initial and post-initialisation DB hashes, where the line has
//     them (the initial ones are the hashes of sc.DB and sc.UserDB);
//   - every action's raw result, compared as JSON trees with exact numbers
//     — an int where Python had a float fails, and error results must
//     carry the same status, error_type and message — and the records it
//     appended, exactly;
//   - the replay errors (missing tools, exceptions, error results), the
//     reference_actions records, the final DB hash(es) and the structured
//     diff of the agent DB from the initial one.
//
// On a mismatch it reports the first differing action and, for a wrong
// agent hash, the first action after which the DB hash differs, both diffs
// from the initial DB and, where the line has the reference's final DB,
// the diff from it. sc.HashesOnly is ignored: the diff needs the final DB.
func requireTask(t *testing.T, g GoldTask, sc replay.Scenario) replay.Result {
	t.Helper()
	if g.InitialDBHash != "" {
		require.Equal(t, g.InitialDBHash, sourceHash(t, sc.DB), "initial DB hash")
	}
	if g.InitialUserDBHash != "" {
		require.Equal(t, g.InitialUserDBHash, sourceHash(t, sc.UserDB), "initial user DB hash")
	}
	initial := map[string]any{}
	if sc.DB != nil {
		st := state.New()
		st.Share(sc.DB)
		initial = st.Snapshot()
	}
	sc.HashesOnly = false
	res, err := replay.Gold(context.Background(), sc)
	require.NoError(t, err)
	require.Len(t, res.Steps, len(g.PerAction))

	records, _ := tree(t, res.Actions).([]any)
	appended := 0
	for _, step := range res.Steps {
		appended += step.RecordsAppended
	}
	require.LessOrEqual(t, appended, len(records), "the steps appended more records than the replay holds")
	records = records[len(records)-appended:] // the initialisation's come first
	for i, step := range res.Steps {
		want := g.PerAction[i]
		got := tree(t, step.Result)
		mine := records[:step.RecordsAppended]
		records = records[step.RecordsAppended:]
		if !exactEqual(want.Result, got) || !exactEqual(want.Records, mine) || step.Err != "" {
			t.Errorf("first differing action: #%d %s(%s)\nwant result: %s\n got result: %s (error %q)\nwant records: %s\n got records: %s",
				want.Index, want.Name, pretty(want.Arguments), pretty(want.Result), pretty(got), step.Err, pretty(want.Records), pretty(mine))
			break
		}
	}
	errs := res.Errors
	if errs == nil {
		errs = []replay.ReplayError{}
	}
	require.Equal(t, g.Errors, tree(t, errs), "replay errors")
	reference := tree(t, res.Actions)
	require.True(t, exactEqual(g.Reference, reference), "reference_actions:\nwant %s\n got %s", pretty(g.Reference), pretty(reference))
	if g.PostInitDBHash != "" {
		require.Equal(t, g.PostInitDBHash, res.PostInitDBHash, "post-init DB hash")
	}
	if g.PostInitUserDBHash != "" {
		require.Equal(t, g.PostInitUserDBHash, res.PostInitUserDBHash, "post-init user DB hash")
	}
	if g.FinalUserDBHash != "" && res.UserDBHash != g.FinalUserDBHash {
		t.Errorf("final user DB hash: want %s, got %s\ndiff from the reference's final user DB: %s",
			g.FinalUserDBHash, res.UserDBHash, pretty(tree(t, dbhash.Compare(g.FinalUserDB, res.UserDB))))
	}

	if res.DBHash != g.FinalDBHash {
		sc.TraceHashes = true
		traced, err := replay.Gold(context.Background(), sc)
		require.NoError(t, err)
		for i, step := range traced.Steps {
			if step.DBHash != g.PerAction[i].HashAfter {
				t.Logf("DB hash first differs after action #%d %s(%s)", i, step.Name, pretty(step.Arguments))
				break
			}
		}
		if g.FinalDB != nil {
			t.Logf("diff from the reference's final DB: %s", pretty(tree(t, dbhash.Compare(g.FinalDB, res.DB))))
		}
		ours := tree(t, dbhash.Compare(initial, res.DB))
		t.Fatalf("final DB hash: want %s, got %s\nreference diff from the initial DB: %s\nour diff from the initial DB:       %s",
			g.FinalDBHash, res.DBHash, pretty(g.DiffFromInit), pretty(ours))
	}
	require.Equal(t, g.DiffFromInit, tree(t, dbhash.Compare(initial, res.DB)), "diff from the initial DB")
	return res
}

// sourceHash is the hash of src's DB (of an empty one for nil).
func sourceHash(t *testing.T, src *state.Source) string {
	t.Helper()
	st := state.New()
	if src != nil {
		st.Share(src)
	}
	h, err := st.Hash()
	require.NoError(t, err)
	return h
}

// RequireGold replays every task of gold as a subtest named task_<id>,
// on the scenario that scenario builds for it — task is the one of tasks
// with the line's id (the zero Task when tasks is nil) — and requires
// what the reference produced (see the package doc), and that the replay
// left the scenario's Sources unchanged (state.Source.Verify). The
// scenario must name the domain of the gold line. Scenarios that share
// one Source, as a replay CLI's do, check that no tool changes what the
// tasks after it read. It returns the replays' results in gold's order
// (a zero Result where a subtest failed first); a Result keeps its final
// DBs, whatever the scenario's HashesOnly.
func RequireGold(t *testing.T, gold []GoldTask, tasks []replay.Task, scenario func(t *testing.T, g GoldTask, task replay.Task) replay.Scenario) []replay.Result {
	t.Helper()
	results := make([]replay.Result, len(gold))
	for i, g := range gold {
		t.Run("task_"+g.TaskID, func(t *testing.T) {
			var task replay.Task
			if tasks != nil {
				task = taskByID(t, tasks, g.TaskID)
			}
			sc := scenario(t, g, task)
			require.Equal(t, g.Domain, sc.Domain, "the gold line's domain")
			results[i] = requireTask(t, g, sc)
			for _, src := range []*state.Source{sc.DB, sc.UserDB} {
				if src != nil {
					require.NoError(t, src.Verify(), "a tool changed the shared DB")
				}
			}
		})
	}
	return results
}

// taskByID returns the task of tasks with the given id.
func taskByID(t testing.TB, tasks []replay.Task, id string) replay.Task {
	t.Helper()
	for _, task := range tasks {
		if task.ID == id {
			return task
		}
	}
	t.Fatalf("task %s is not among the tasks", id)
	return replay.Task{}
}

// exactEqual compares two JSON trees exactly: numbers must agree in value
// and in kind — 1.0 is not 1 — as their Python json.dumps texts would.
func exactEqual(a, b any) bool {
	ta, err1 := pyjson.Marshal(a, pyjson.Compact)
	tb, err2 := pyjson.Marshal(b, pyjson.Compact)
	return err1 == nil && err2 == nil && string(ta) == string(tb)
}

// pretty returns v as JSON text for a failure message, cut at 4000 bytes.
func pretty(v any) string {
	b, err := pyjson.Marshal(v, pyjson.Default)
	if err != nil {
		return fmt.Sprint(v)
	}
	if len(b) > 4000 {
		return string(b[:4000]) + "…"
	}
	return string(b)
}

// Summary is what the replays of many tasks add up to.
type Summary struct {
	Actions   int             // gold actions replayed
	Records   int             // action records appended
	Unchanged []string        // the tasks whose final DB is the initial one (by hash), in input order
	Results   []replay.Result // the replays, in input order (their DBs dropped): Errors, and the Steps they name
}

// ReplayAllShared replays tasks as the replay CLI does — every task on
// one Source of db, shared copy-on-write, each write copying only the
// tables it names or the records it owns, final hashes reusing the
// canonical text of unchanged tables — and sums the results up. It
// requires that every replay ran, that the shared DB is untouched
// afterwards (state.Source.Verify: a write tool that changed a table it
// did not name, or a record it did not own, would have changed it) and
// that every task's hash, which reuses what the Source computed, equals
// the hash of its final DB computed from scratch.
func ReplayAllShared(t *testing.T, domain string, db map[string]any, tasks []replay.Task, tools replay.ToolBuilder) Summary {
	t.Helper()
	src := state.NewSource(db)
	initialHash := sourceHash(t, src)
	shared := make([]replay.Scenario, len(tasks))
	for i, task := range tasks {
		shared[i] = replay.Scenario{Domain: domain, Task: task, DB: src, Tools: tools}
	}
	results, err := replay.GoldAll(context.Background(), shared, 0, nil)
	require.NoError(t, err)
	require.NoError(t, src.Verify(), "a write tool changed the shared DB: a table it did not name (WriteDB) or a record it did not Own (WriteRecords)")
	sum := Summary{Results: results}
	for i, r := range results {
		full, err := dbhash.Hash(r.DB)
		require.NoError(t, err)
		require.Equal(t, full, r.DBHash, "task %s: the shared replay's hash differs from the hash of its final DB", r.TaskID)
		sum.Actions += len(r.Steps)
		sum.Records += len(r.Actions)
		if r.DBHash == initialHash {
			sum.Unchanged = append(sum.Unchanged, r.TaskID)
		}
		results[i].DB = nil
	}
	return sum
}

// Benchmark replays scenarios with replay.GoldAll, on all cores, once
// outside the timer (what a first replay builds, later ones reuse) and
// then once per iteration, as a harness computing every expected DB hash
// would (and as the replay CLI does). The metric µs/task is the wall time
// per scenario.
func Benchmark(b *testing.B, scenarios []replay.Scenario) {
	if _, err := replay.GoldAll(context.Background(), scenarios, 0, nil); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := replay.GoldAll(context.Background(), scenarios, 0, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(scenarios))/1e3, "µs/task")
}
