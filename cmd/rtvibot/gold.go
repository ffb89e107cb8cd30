package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"sync"

	"github.com/voiceeval/schematools/domains"
	"github.com/voiceeval/schematools/replay"
	"github.com/voiceeval/schematools/rtvi/rtviws"
	"github.com/voiceeval/schematools/state"
)

// goldAgent stands in for an LLM that knows the answer: on a scenario's
// kickoff it performs the selected task's gold actions through the bot's
// tools, by the names the model sees, then says goodbye and ends the
// call. A harness scoring the bot then finds the DB a perfect agent
// leaves — the final hash of the task's gold replay.
//
// The task is chosen by id (-task), for whatever tau2 domain the scenario
// is in: the bridge tells the bot its domain, never its task. Only the
// agent's actions are performed; a telecom task's user-side actions are
// the user simulator's to perform.
type goldAgent struct {
	mu       sync.Mutex
	task     string
	playedIn int                               // the scenario (rtviws.Turn.Scenario) whose task was played: its later messages get the scripted answer
	tasks    map[string]map[string]replay.Task // domain → id → task, read on first use
	names    map[string]map[string]string      // domain → gold action name → tool name the model sees
}

// setTask selects the task every following scenario plays.
func (g *goldAgent) setTask(id string) {
	g.mu.Lock()
	g.task = id
	g.mu.Unlock()
}

// plan returns the actions the agent performs in domain, as (tool name,
// JSON arguments) pairs, and whether there is a task to play there: once
// per scenario (the server's scenario number), on its first user message.
func (g *goldAgent) plan(domain string, scenario int) ([][2]string, bool, error) {
	d, ok := findTau2Domain(domain)
	if !ok {
		return nil, false, nil
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.task == "" || g.playedIn == scenario {
		return nil, false, nil
	}
	g.playedIn = scenario // once per scenario, even when it fails
	if err := g.load(d); err != nil {
		return nil, false, err
	}
	task, ok := g.tasks[domain][g.task]
	if !ok {
		return nil, false, fmt.Errorf("gold: %s has no task %q", domain, g.task)
	}
	var steps [][2]string
	if task.EvaluationCriteria == nil {
		return steps, true, nil
	}
	for _, a := range task.EvaluationCriteria.Actions {
		if a.Requestor != nil && *a.Requestor == "user" {
			continue
		}
		name, ok := g.names[domain][a.Name]
		if !ok {
			return nil, false, fmt.Errorf("gold: task %s: %s has no tool %q", g.task, domain, a.Name)
		}
		args, err := json.Marshal(a.Arguments)
		if err != nil {
			return nil, false, fmt.Errorf("gold: task %s: arguments of %s: %w", g.task, a.Name, err)
		}
		if a.Arguments == nil {
			args = []byte("{}")
		}
		steps = append(steps, [2]string{name, string(args)})
	}
	return steps, true, nil
}

// load reads d's tasks from the embedded data, and the model-facing name
// of each gold action from the port's replay tools.
func (g *goldAgent) load(d domains.Domain) error {
	if _, done := g.tasks[d.Name]; done {
		return nil
	}
	data, err := fs.ReadFile(d.Files, "tasks.json")
	if err != nil {
		return err
	}
	tasks, err := replay.DecodeTasks(data)
	if err != nil {
		return err
	}
	tools, err := d.Replay(replay.Env{Domain: d.Name, Agent: state.New(), User: state.New()})
	if err != nil {
		return err
	}
	byID := make(map[string]replay.Task, len(tasks))
	for _, t := range tasks {
		byID[t.ID] = t
	}
	names := make(map[string]string, len(tools))
	for key, t := range tools {
		names[key] = t.Name()
	}
	if g.tasks == nil {
		g.tasks, g.names = map[string]map[string]replay.Task{}, map[string]map[string]string{}
	}
	g.tasks[d.Name], g.names[d.Name] = byID, names
	return nil
}

// goldTurn plays the selected task on the kickoff: one LLM response per
// gold action (a tool call), a spoken goodbye, and the call to
// EndConversationTool, whose "<exit>" ends the scenario for the bridge.
// It reports false when there is no task to play in the scenario's
// domain.
func (b *Bot) goldTurn(ctx context.Context, t rtviws.Turn) (bool, error) {
	steps, ok, err := b.gold.plan(b.st.Domain(), t.Scenario)
	if err != nil || !ok {
		return false, err
	}
	for _, s := range steps {
		if _, err := b.callTool(ctx, t, s[0], s[1]); err != nil {
			return true, err
		}
	}
	if err := b.respond(ctx, t, "Everything is done. Thank you for calling, goodbye."); err != nil {
		return true, err
	}
	_, err = b.callTool(ctx, t, "EndConversationTool", "{}")
	return true, err
}
