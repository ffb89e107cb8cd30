package airline_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/domains/tau2/airline"
	"github.com/voiceeval/schematools/domains/tau2/internal/tau2test"
	"github.com/voiceeval/schematools/internal/conformance"
	"github.com/voiceeval/schematools/internal/pyjson"
	"github.com/voiceeval/schematools/internal/pyvalue"
	"github.com/voiceeval/schematools/internal/replaytest"
	"github.com/voiceeval/schematools/replay"
)

// The conformance data lives in the shared directory and is read in place.

// airlineDB is the tau2 airline DB (three shards keyed by file stem),
// loaded once per test binary. Replays never modify it.
func airlineDB(t testing.TB) map[string]any { return tau2test.SharedDB(t, "airline/db") }

func airlineTasks(t testing.TB) []replay.Task { return tau2test.Tasks(t, "airline") }

// TestConformanceTrain replays every task of the train split's gold file and
// requires, task by task, what the Python reference produced: the final DB
// hash, every action's raw result, the number of records each action
// appended, the whole record list, and the structured diff from the
// initial DB (see replaytest.RequireGold). Results and records are compared
// as JSON trees with exact numbers, and an int/float difference counts.
func TestConformanceTrain(t *testing.T) {
	t.Parallel()
	gold := tau2test.RequireTrainSplit(t, airline.Domain, "airline", airlineDB(t), airline.Tools)
	conformance.RequireRecords(t, len(gold), "gold_replay_airline.train.jsonl")
}

// TestReplayAllTasks replays all 50 tasks (train and the held-back test
// split) on one shared DB (replaytest.ReplayAllShared) and checks what the
// Python reference's replay of them is known to give: no missing tool, no
// exception, no error result; 142 gold actions, 50 records; 26 DBs
// changed, the others exactly those listed.
func TestReplayAllTasks(t *testing.T) {
	t.Parallel()
	tasks := airlineTasks(t)
	require.Len(t, tasks, 50)
	sum := replaytest.ReplayAllShared(t, airline.Domain, airlineDB(t), tasks, airline.Tools)
	for _, r := range sum.Results {
		for _, e := range r.Errors {
			t.Errorf("task %s: %s error at action %d (%s): %s", r.TaskID, e.Kind, e.Index, e.Name, e.Message)
		}
	}
	require.Equal(t, 142, sum.Actions)
	require.Equal(t, 50, sum.Records)
	want := []string{"0", "1", "2", "3", "4", "5", "6", "9", "10", "13", "26", "27", "28", "31", "34", "36", "38", "41", "43", "45", "46", "47", "48", "49"}
	require.ElementsMatch(t, want, sum.Unchanged, "tasks whose DB the replay leaves unchanged")
}

// TestResultTextsTrain requires every result of the train split's gold
// replay to read, as a model reads it (json.dumps(result,
// ensure_ascii=False) in the tool message), byte for byte as the Python
// reference's: the same keys in the same order — a reservation in the
// data file's order, what a tool adds in the order it adds it — on the
// replay path and on the live path.
func TestResultTextsTrain(t *testing.T) {
	t.Parallel()
	gold, n := tau2test.RequireTrainTexts(t, airline.Domain, "airline", "airline/db", airline.Tools)
	conformance.RequireRecords(t, len(gold), "gold_replay_airline.train.jsonl")
	t.Logf("%d results compared byte for byte (%d actions, each on both paths)", n, n/2)
}

// TestResultTextsSeeKeyOrder shows that the byte comparison of
// TestResultTextsTrain is one of key order, not of values: with the first
// two keys of one reference result swapped in memory (the same values,
// another order), the task's results differ at exactly that action, on
// both paths.
func TestResultTextsSeeKeyOrder(t *testing.T) {
	t.Parallel()
	gold := tau2test.LoadGold(t, "airline")
	src := tau2test.SharedSource(t, "airline/db")
	tasks := tau2test.Tasks(t, "airline")
	g, i := firstObjectResult(t, gold)
	task := tasks[slices.IndexFunc(tasks, func(tk replay.Task) bool { return tk.ID == g.TaskID })]
	sc := replay.Scenario{Domain: airline.Domain, Task: task, DB: src, Tools: airline.Tools}

	mutated := g
	mutated.PerAction = slices.Clone(g.PerAction)
	mutated.PerAction[i].ResultText = swapFirstKeys(t, g.PerAction[i].ResultText)
	require.NotEqual(t, g.PerAction[i].ResultText, mutated.PerAction[i].ResultText)
	for _, live := range []bool{false, true} {
		n, diffs := replaytest.ResultTextDiffs(t, g, sc, live)
		require.Equal(t, len(g.PerAction), n)
		require.Empty(t, diffs, "the reference as it is")
		_, diffs = replaytest.ResultTextDiffs(t, mutated, sc, live)
		require.Len(t, diffs, 1, "one result with two keys swapped")
		require.Contains(t, diffs[0], fmt.Sprintf("action #%d ", g.PerAction[i].Index))
	}
}

// firstObjectResult returns the first gold task with an action whose
// result is an object of two keys or more, and that action's position.
func firstObjectResult(t *testing.T, gold []replaytest.GoldTask) (replaytest.GoldTask, int) {
	t.Helper()
	for _, g := range gold {
		for i, a := range g.PerAction {
			if v, err := pyvalue.Loads([]byte(a.ResultText)); err == nil {
				if d, ok := v.(pyvalue.Dict); ok && len(d) >= 2 {
					return g, i
				}
			}
		}
	}
	t.Fatal("no result is an object of two keys")
	return replaytest.GoldTask{}, 0
}

// swapFirstKeys returns the JSON object text with its first two members
// swapped, written as the reference texts are (json.dumps,
// ensure_ascii=False).
func swapFirstKeys(t *testing.T, text string) string {
	t.Helper()
	v, err := pyvalue.Loads([]byte(text))
	require.NoError(t, err)
	d := slices.Clone(v.(pyvalue.Dict))
	d[0], d[1] = d[1], d[0]
	out, err := pyvalue.AppendJSON(nil, d, pyjson.Unicode, false)
	require.NoError(t, err)
	return string(out)
}
