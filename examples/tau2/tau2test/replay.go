package tau2test

import (
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/dbhash"
	"github.com/voiceeval/schematools/replay"
	"github.com/voiceeval/schematools/replay/replaytest"
)

// RequireTrainSplit replays every task of the Python reference's gold
// replay of a tau2 domain's train split (LoadGold(dir)) on db, with the
// tasks of Tasks(dir), and requires what the reference produced
// (replaytest.RequireGold: subtests named task_<id>); it returns the
// reference's tasks. db is shared by the replays copy-on-write, as the
// replay CLI shares it, so a tool that changed it would also fail the
// tasks after.
func RequireTrainSplit(t *testing.T, domain, dir string, db map[string]any, tools replay.ToolBuilder) []replaytest.GoldTask {
	t.Helper()
	gold := LoadGold(t, dir)
	initialHash, err := dbhash.Hash(db)
	require.NoError(t, err)
	tasks := Tasks(t, dir)
	replaytest.RequireGold(t, gold, func(t *testing.T, g replaytest.GoldTask) replay.Scenario {
		return replay.Scenario{Domain: domain, Task: replaytest.TaskByID(t, tasks, g.TaskID), DB: db, Tools: tools,
			ShareDB: true, SourceDBHash: initialHash}
	})
	return gold
}
