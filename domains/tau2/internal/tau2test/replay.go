package tau2test

import (
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/internal/replaytest"
	"github.com/voiceeval/schematools/replay"
	"github.com/voiceeval/schematools/state"
)

// RequireTrainSplit replays every task of the Python reference's gold
// replay of a tau2 domain's train split (LoadGold(dir)) on db, with the
// tasks of Tasks(dir), and requires what the reference produced
// (replaytest.RequireGold: subtests named task_<id>); it returns the
// reference's tasks. The replays share one Source of db copy-on-write, as
// the replay CLI shares it, and each must leave it unchanged.
func RequireTrainSplit(t *testing.T, domain, dir string, db map[string]any, tools replay.ToolBuilder) []replaytest.GoldTask {
	t.Helper()
	gold := LoadGold(t, dir)
	src := state.NewSource(db)
	tasks := Tasks(t, dir)
	replaytest.RequireGold(t, gold, tasks, func(t *testing.T, _ replaytest.GoldTask, task replay.Task) replay.Scenario {
		return replay.Scenario{Domain: domain, Task: task, DB: src, Tools: tools}
	})
	return gold
}

// RequireTrainTexts replays every task of the reference's gold replay of
// a tau2 domain's train split (LoadGold(dir)) on the DB rel names, loaded
// with its key order (SharedSource), on the replay path and on the live
// path, and requires every action's result to read, as a model reads it,
// byte for byte as the reference's (replaytest.RequireResultTexts). It
// returns the gold lines and how many results it compared.
func RequireTrainTexts(t *testing.T, domain, dir, rel string, tools replay.ToolBuilder) ([]replaytest.GoldTask, int) {
	t.Helper()
	gold := LoadGold(t, dir)
	src := SharedSource(t, rel)
	n := replaytest.RequireResultTexts(t, gold, Tasks(t, dir), func(t *testing.T, _ replaytest.GoldTask, task replay.Task) replay.Scenario {
		return replay.Scenario{Domain: domain, Task: task, DB: src, Tools: tools}
	})
	require.NoError(t, src.Verify(), "a replay changed the shared DB")
	return gold, n
}

// SourceScenarios returns the gold replays of tasks on src, hashes only,
// as the replay CLI builds them (its Sources are decoded from the files,
// with their key order: SharedSource): what a replay benchmark runs.
func SourceScenarios(domain string, src *state.Source, tasks []replay.Task, tools replay.ToolBuilder) []replay.Scenario {
	out := make([]replay.Scenario, len(tasks))
	for i, task := range tasks {
		out[i] = replay.Scenario{Domain: domain, Task: task, DB: src, Tools: tools, HashesOnly: true}
	}
	return out
}

// Scenarios returns the gold replays of tasks on one Source of db, hashes
// only: SourceScenarios on a Source made from the map (state.NewSource),
// which has no key order.
func Scenarios(domain string, db map[string]any, tasks []replay.Task, tools replay.ToolBuilder) []replay.Scenario {
	src := state.NewSource(db)
	out := make([]replay.Scenario, len(tasks))
	for i, task := range tasks {
		out[i] = replay.Scenario{Domain: domain, Task: task, DB: src, Tools: tools, HashesOnly: true}
	}
	return out
}
