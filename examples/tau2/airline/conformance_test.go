package airline_test

import (
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/examples/tau2/airline"
	"github.com/voiceeval/schematools/examples/tau2/tau2test"
	"github.com/voiceeval/schematools/internal/conformance"
	"github.com/voiceeval/schematools/replay"
	"github.com/voiceeval/schematools/replay/replaytest"
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
