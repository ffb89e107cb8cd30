package tau2test

import (
	"testing"

	"github.com/voiceeval/schematools/replay"
	"github.com/voiceeval/schematools/replay/replaytest"
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

// Scenarios returns the gold replays of tasks on one Source of db, hashes
// only, as the replay CLI builds them: what a replay benchmark runs.
func Scenarios(domain string, db map[string]any, tasks []replay.Task, tools replay.ToolBuilder) []replay.Scenario {
	src := state.NewSource(db)
	out := make([]replay.Scenario, len(tasks))
	for i, task := range tasks {
		out[i] = replay.Scenario{Domain: domain, Task: task, DB: src, Tools: tools, HashesOnly: true}
	}
	return out
}
