package main

import (
	"context"
	"encoding/json"
	"io/fs"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/domains"
	"github.com/voiceeval/schematools/domains/tau2script"
	"github.com/voiceeval/schematools/replay"
	"github.com/voiceeval/schematools/state"
)

// startGoldBot serves a bot with a gold agent on a free loopback port.
func startGoldBot(t *testing.T) (*Bot, string) {
	t.Helper()
	return serveBot(t, &goldAgent{})
}

// goldExpectations replays every task of a domain as the replay CLI does
// (replay.GoldAll on the embedded data) and returns each task's final DB
// hash, the tasks, and the tool spec NeMo sends for the domain: every tool
// by the name the model sees, and EndConversationTool. The replay is the
// same for every test: it runs once per domain (goldReplays), and its
// results are read-only.
func goldExpectations(t *testing.T, d domains.Domain) (map[string]string, []replay.Task, string) {
	t.Helper()
	r, err := goldReplays.get(d.Name, func() (domainReplay, error) {
		data, err := fs.ReadFile(d.Files, "tasks.json")
		if err != nil {
			return domainReplay{}, err
		}
		tasks, err := replay.DecodeTasks(data)
		if err != nil {
			return domainReplay{}, err
		}
		return replayTasks(d, tasks)
	})
	require.NoError(t, err)
	return r.want, r.tasks, r.tools
}

// goldReplays are the domains' gold replays of tasks.json, by name.
var goldReplays memo[domainReplay]

// domainReplay is a replay of tasks of a domain: each task's final DB
// hash, the tasks, and the tool spec NeMo sends for the domain.
type domainReplay struct {
	want  map[string]string
	tasks []replay.Task
	tools string
}

// replayTasks replays tasks on d's DB as the replay CLI does
// (replay.GoldAll, evalreplay's reference).
func replayTasks(d domains.Domain, tasks []replay.Task) (domainReplay, error) {
	db, err := d.LoadDB()
	if err != nil {
		return domainReplay{}, err
	}
	source := state.NewSource(db)
	scenarios := make([]replay.Scenario, len(tasks))
	for i, task := range tasks {
		scenarios[i] = replay.Scenario{Domain: d.Name, Task: task, DB: source, Tools: d.Replay, HashesOnly: true}
	}
	results, err := replay.GoldAll(context.Background(), scenarios, 0, nil)
	if err != nil {
		return domainReplay{}, err
	}
	want := make(map[string]string, len(results))
	for _, r := range results {
		want[r.TaskID] = r.DBHash
	}
	tools, err := d.Replay(replay.Env{Domain: d.Name, Agent: state.New()})
	if err != nil {
		return domainReplay{}, err
	}
	spec := map[string]any{tau2script.EndTool: map[string]any{}}
	for _, tl := range tools {
		spec[tl.Name()] = map[string]any{}
	}
	text, err := json.Marshal(spec)
	if err != nil {
		return domainReplay{}, err
	}
	return domainReplay{want: want, tasks: tasks, tools: string(text)}, nil
}

// prepareGold prepares one scenario as NeMo's bridge does: a prepare
// connection (handshake, update_system_prompt, apply_initialization with
// the domain's db_path), closed.
func prepareGold(ctx context.Context, t *testing.T, url, domain, tools string) {
	t.Helper()
	h, err := dialHarness(ctx, url)
	require.NoError(t, err)
	defer h.close()
	_, err = h.ready(ctx)
	require.NoError(t, err)
	for _, s := range []struct {
		t string
		d map[string]any
	}{
		{"update_system_prompt", map[string]any{"prompt": "You are an airline or retail agent.", "tools": tools, "add_suffix": false, "tool_domain": domain}},
		{"apply_initialization", map[string]any{"domain": domain, "shared_state_init": `{"db_path": "` + domain + `/db.json"}`, "actions": []any{}}},
	} {
		m, err := h.request(ctx, s.t, s.d)
		require.NoError(t, err)
		require.Equal(t, "server-response", m["type"], "%s: %v", s.t, m)
	}
}

// runGold runs the prepared scenario as the bridge does: a run connection
// (handshake, the "Hello" kickoff, <exit>), left open for the caller.
func runGold(ctx context.Context, t *testing.T, url string) *harness {
	t.Helper()
	h, err := dialHarness(ctx, url)
	require.NoError(t, err)
	t.Cleanup(h.close)
	_, err = h.ready(ctx)
	require.NoError(t, err)
	_, err = h.sendText(ctx, "Hello")
	require.NoError(t, err)
	require.NoError(t, h.waitExit(ctx))
	return h
}

// summary pulls get_scenario_summary on h.
func summary(ctx context.Context, t *testing.T, h *harness) map[string]any {
	t.Helper()
	m, err := h.request(ctx, "get_scenario_summary", map[string]any{"include_db": false})
	require.NoError(t, err)
	require.Equal(t, "server-response", m["type"], "%v", m)
	return m["data"].(map[string]any)["d"].(map[string]any)
}

// playGold drives one scenario as NeMo's bridge does — prepareGold,
// runGold, then get_scenario_summary on the run connection once <exit>
// came — and returns the summary and the run connection's pushes.
func playGold(ctx context.Context, t *testing.T, url, domain, tools string) (map[string]any, []map[string]any) {
	t.Helper()
	prepareGold(ctx, t, url, domain, tools)
	h := runGold(ctx, t, url)
	defer h.close()
	return summary(ctx, t, h), h.pushes
}

// Every task of tau2 airline and retail, played by the gold agent over the
// WebSocket the way the bridge drives a bot, leaves the DB whose hash the
// replay CLI prints, and ends with a clean exit.
func TestGoldAgentReachesTheReplayHash(t *testing.T) {
	for _, name := range []string{"tau2_airline", "tau2_retail"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			d, _ := findTau2Domain(name)
			want, tasks, tools := goldExpectations(t, d)
			bot, url := startGoldBot(t)
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			for _, task := range tasks {
				require.True(t, task.InitialState == nil || len(task.InitialState.InitializationActions) == 0, "task %s has init actions", task.ID)
			}
			for _, task := range tasks {
				bot.gold.setTask(task.ID)
				summary, pushes := playGold(ctx, t, url, name, tools)
				assert.Equal(t, want[task.ID], summary["db_hash"], "task %s", task.ID)
				require.NotEmpty(t, pushes, "task %s", task.ID)
				last := pushes[len(pushes)-1]["data"].(map[string]any)
				assert.Equal(t, "<exit>The task is finished.</exit>", last["text"], "task %s ends with a clean exit", task.ID)
			}
		})
	}
}

// The task is played once per scenario: a second user message of the
// run gets the scripted answer and changes nothing; after the run, a new
// connection's conversation is refused (no scenario is its own); the next
// scenario plays the task again. An unknown task is said, not left for
// the harness to time out on.
func TestGoldAgentPlaysOncePerScenario(t *testing.T) {
	d, _ := findTau2Domain("tau2_retail")
	want, _, tools := goldExpectations(t, d)
	bot, url := startGoldBot(t)
	ctx := testContext(t)
	bot.gold.setTask("0")
	prepareGold(ctx, t, url, d.Name, tools)
	run := runGold(ctx, t, url)
	require.Equal(t, want["0"], summary(ctx, t, run)["db_hash"])
	answer, err := run.sendText(ctx, "Hello again")
	require.NoError(t, err)
	assert.Contains(t, answer, "/call")
	assert.Equal(t, want["0"], summary(ctx, t, run)["db_hash"], "nothing played twice")
	run.close()

	h, err := dialHarness(ctx, url)
	require.NoError(t, err)
	defer h.close()
	_, err = h.ready(ctx)
	require.NoError(t, err)
	_, err = h.sendText(ctx, "Hello again")
	assert.ErrorContains(t, err, "no scenario is in progress on this bot (the last, scenario 1 (tau2_retail), has ended)")

	again, _ := playGold(ctx, t, url, d.Name, tools)
	assert.Equal(t, want["0"], again["db_hash"], "a new scenario plays the task again")

	bot.gold.setTask("no-such-task")
	_, err = h.request(ctx, "update_system_prompt", map[string]any{"prompt": "p", "tools": tools, "tool_domain": d.Name})
	require.NoError(t, err)
	answer, err = h.sendText(ctx, "Hello")
	require.NoError(t, err)
	assert.Contains(t, answer, `has no task "no-such-task"`)
}
