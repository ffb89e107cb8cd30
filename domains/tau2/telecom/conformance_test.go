package telecom

import (
	"context"
	"github.com/voiceeval/schematools/state"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/dbhash"
	"github.com/voiceeval/schematools/internal/conformance"
	"github.com/voiceeval/schematools/internal/replaytest"
	"github.com/voiceeval/schematools/replay"
	"github.com/voiceeval/schematools/tool"
)

// TestConformanceTrain replays the 74 tasks of the train split with
// Scenario (the reference date, 2025-02-25) on the DBs shared
// copy-on-write, and requires, task by task, what the Python reference
// produced (see replaytest.RequireGold: both sides' initial, post-init and
// final hashes, every action's raw result and records, the replay errors,
// the reference_actions, the diff from the initial agent DB). The shared
// DBs must come out untouched.
func TestConformanceTrain(t *testing.T) {
	t.Parallel()
	d := loadShared(t)
	conformance.RequireRecords(t, len(d.gold), "gold_replay_telecom.train.jsonl")
	agentHash, userHash := d.hashes(t)
	train, err := d.splits.Select("train", d.tasks)
	require.NoError(t, err)
	require.Len(t, train, 74)

	replaytest.RequireGold(t, d.gold, d.tasks, func(t *testing.T, g replaytest.GoldTask, task replay.Task) replay.Scenario {
		require.Equal(t, g.InitialDBHash, agentHash, "initial agent DB hash")
		require.Equal(t, g.InitialUserDBHash, userHash, "initial user DB hash")
		return Scenario(task, d.agentSrc, d.userSrc)
	})
	after, afterUser := d.hashes(t)
	require.Equal(t, agentHash, after, "a replay changed the agent DB")
	require.Equal(t, userHash, afterUser, "a replay changed the user DB")
	require.NoError(t, d.agentSrc.Verify(), "a replay changed the shared agent DB")
	require.NoError(t, d.userSrc.Verify(), "a replay changed the shared user DB")
}

// TestResultTextsTrain requires every result of the train split's gold
// replay to read, as a model reads it (json.dumps(result,
// ensure_ascii=False) in the tool message), byte for byte as the Python
// reference's — the same keys in the same order — on the replay path and
// on the live path, both sides' tools, on DBs decoded from their files.
func TestResultTextsTrain(t *testing.T) {
	t.Parallel()
	d := loadShared(t)
	conformance.RequireRecords(t, len(d.gold), "gold_replay_telecom.train.jsonl")
	n := replaytest.RequireResultTexts(t, d.gold, d.tasks, func(t *testing.T, _ replaytest.GoldTask, task replay.Task) replay.Scenario {
		return Scenario(task, d.agentFiles, d.userFiles)
	})
	require.NoError(t, d.agentFiles.Verify(), "a replay changed the shared agent DB")
	require.NoError(t, d.userFiles.Verify(), "a replay changed the shared user DB")
	t.Logf("%d results compared byte for byte (%d actions, each on both paths)", n, n/2)
}

// hashes returns the hashes of the shared agent and user DBs.
func (d *sharedData) hashes(t *testing.T) (agent, user string) {
	t.Helper()
	agent, err := dbhash.Hash(d.agentDB)
	require.NoError(t, err)
	user, err = dbhash.Hash(d.userDB)
	require.NoError(t, err)
	return agent, user
}

// scenarios builds the replay of every task on the shared DBs,
// copy-on-write, keeping only the hashes, as the replay CLI does.
func scenarios(d *sharedData, tasks []replay.Task, clock func() time.Time) []replay.Scenario {
	out := Scenarios(tasks, d.agentSrc, d.userSrc, clock)
	for i := range out {
		out[i].HashesOnly = true
	}
	return out
}

// TestReplayAllTasks replays all 114 tasks (train and the held-back test
// split) on the shared DBs and checks what the Python reference's replay
// of them is known to give: no missing tool, no exception, no error
// result; 516 gold actions and as many records; 71 agent DBs changed and
// 18 distinct final user DBs. Every hash equals that of a replay on
// Sources of its own, and the shared DBs come out untouched.
func TestReplayAllTasks(t *testing.T) {
	t.Parallel()
	d := loadShared(t)
	require.Len(t, d.tasks, 114)
	agentHash, userHash := d.hashes(t)

	shared, err := replay.GoldAll(context.Background(), scenarios(d, d.tasks, nil), 0, nil)
	require.NoError(t, err)
	plain := make([]replay.Scenario, len(d.tasks))
	for i, task := range d.tasks {
		plain[i] = Scenario(task, state.NewSource(d.agentDB), state.NewSource(d.userDB))
	}
	copied, err := replay.GoldAll(context.Background(), plain, 0, nil)
	require.NoError(t, err)

	actions, records, changed := 0, 0, 0
	users := map[string]bool{}
	for i, r := range shared {
		for _, e := range r.Errors {
			t.Errorf("task %s: %s error at action %d (%s): %s", r.TaskID, e.Kind, e.Index, e.Name, e.Message)
		}
		actions += len(r.Steps)
		records += len(r.Actions)
		if r.DBHash != agentHash {
			changed++
		}
		users[r.UserDBHash] = true
		require.Equal(t, copied[i].DBHash, r.DBHash, "task %s: shared and copied replays differ", r.TaskID)
		require.Equal(t, copied[i].UserDBHash, r.UserDBHash, "task %s: shared and copied replays differ", r.TaskID)
	}
	assert.Equal(t, 516, actions)
	assert.Equal(t, 516, records)
	assert.Equal(t, 71, changed, "tasks whose agent DB the replay changes")
	assert.Len(t, users, 18, "distinct final user DBs")

	after, afterUser := d.hashes(t)
	require.Equal(t, agentHash, after, "a replay changed the agent DB")
	require.Equal(t, userHash, afterUser, "a replay changed the user DB")
	require.NoError(t, d.agentSrc.Verify(), "a replay changed the shared agent DB")
	require.NoError(t, d.userSrc.Verify(), "a replay changed the shared user DB")
}

// TestSameOnAnyDay shows that a replay's hashes depend on the injected
// clock only. The real clock — what a tool without an injected clock would
// read — is replaced by two different days in turn and must never be read:
// the hashes of all 114 tasks are the same under both, and those of the
// train split are the reference's. Moving the injected clock instead
// changes exactly the tasks the reference marks as depending on "today".
func TestSameOnAnyDay(t *testing.T) {
	d := loadShared(t)
	saved := wallClock
	t.Cleanup(func() { wallClock = saved })

	hashes := func(clock func() time.Time) map[string][4]string {
		results, err := replay.GoldAll(context.Background(), scenarios(d, d.tasks, clock), 0, nil)
		require.NoError(t, err)
		out := make(map[string][4]string, len(results))
		for _, r := range results {
			require.Empty(t, r.Errors, "task %s", r.TaskID)
			out[r.TaskID] = [4]string{r.PostInitDBHash, r.PostInitUserDBHash, r.DBHash, r.UserDBHash}
		}
		return out
	}
	var byDay []map[string][4]string
	for _, day := range []func() time.Time{fixedAt(2019, time.January, 1), fixedAt(2031, time.July, 15)} {
		var reads atomic.Int64
		wallClock = func() time.Time { reads.Add(1); return day() }
		byDay = append(byDay, hashes(nil))
		require.Zero(t, reads.Load(), "a tool read the real clock")
	}
	require.Equal(t, byDay[0], byDay[1], "the hashes depend on the real date")
	for _, g := range d.gold {
		want := [4]string{g.PostInitDBHash, g.PostInitUserDBHash, g.FinalDBHash, g.FinalUserDBHash}
		require.Equal(t, want, byDay[0][g.TaskID], "task %s", g.TaskID)
	}

	moved := hashes(fixedAt(2026, time.November, 30))
	for _, g := range d.gold {
		same := moved[g.TaskID] == byDay[0][g.TaskID]
		require.Equal(t, !g.DependsOnToday, same, "task %s: depends on today: %v", g.TaskID, g.DependsOnToday)
	}
}

// An initialisation function builds its records in the Python literals'
// order, which is not always the data file's: the overdue bill that
// suspend_line_for_overdue_bill adds has "status" before "line_items", the
// file's bills the other way round. Read back through the agent's tool on
// the live path, each bill keeps its own.
func TestInitRecordsKeepTheirOrder(t *testing.T) {
	d := loadInputs(t)
	agent, user := state.New(), state.New()
	agent.Share(d.agentFiles)
	user.Share(d.userFiles)
	f, ok := Hooks().Init["suspend_line_for_overdue_bill"]
	require.True(t, ok)
	require.NoError(t, agent.UpdateTables(f.Tables, func(db map[string]any) error {
		return f.Func(db, map[string]any{"customer_id": "C1001", "line_id": "L1001", "new_bill_id": "B_OVERDUE"}, replay.FixedClock(testDate))
	}))
	m, err := Tools(replay.Env{Domain: Domain, Agent: agent, User: user, Clock: replay.FixedClock(testDate), IDs: replay.CounterIDs("X")})
	require.NoError(t, err)
	var got any
	require.NoError(t, tool.Call(context.Background(), m[NameGetBillsForCustomer], map[string]any{"customer_id": "C1001"},
		func(v any) error { got = v; return nil }, nil))
	text := replaytest.ResultText(t, got)
	assert.Contains(t, text, `{"bill_id": "B_OVERDUE", "customer_id": "C1001", "period_start": "2025-01-01", "period_end": "2025-01-31", "issue_date": "2025-01-01", "total_due": `)
	assert.Regexp(t, `"bill_id": "B_OVERDUE"[^}]*"status": "Overdue", "line_items": \[\{"description": `, text)
	assert.Regexp(t, `"bill_id": "B1001"[^\]]*\], "status": `, text, "a bill of the file: line_items, then status")
	require.NoError(t, d.agentFiles.Verify())
}
