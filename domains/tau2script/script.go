// Package tau2script makes the stand-in's script for a tau2 task: the
// model responses of a perfect agent playing the task's gold actions, for
// agenttest's Chat Completions stand-in (cmd/standin -domain -task).
//
//   - One response per gold action (a single tool call, by the name the
//     model sees), agenttest.GoldTurns; with Options.BatchReads each run of
//     consecutive read calls (tau2's get_, search_, list_, find_ tools and
//     calculate) shares one response, as a model calling them in parallel.
//   - Then the goodbye with the call to EndConversationTool, then the
//     goodbye text alone: the response a pipecat bot asks for after the end
//     tool's result.
//   - At least MinResponses responses: a task with too few actions starts
//     with calls to CalculateTool (which reads nothing and writes nothing),
//     so NeMo's runner's --min-agent-turns (3 by default) counts enough
//     agent LLM calls.
//   - Response i reports the usage Usage(i), so a test can tell each
//     tokens entry's model call.
//   - Only the agent's actions are played: a telecom task's user-side
//     actions are the user simulator's.
package tau2script

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"strings"

	"github.com/voiceeval/schematools/agent/agenttest"
	"github.com/voiceeval/schematools/domains"
	"github.com/voiceeval/schematools/replay"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

// MinResponses is the fewest responses a script has: NeMo's runner's
// default --min-agent-turns.
const MinResponses = 3

// EndTool is the harness's end tool, which the script calls last.
const EndTool = "EndConversationTool"

// Options shape a script.
type Options struct {
	// BatchReads puts each run of consecutive read calls in one response.
	BatchReads bool
}

// Domain is a tau2 domain's tasks and the model-facing name of each of
// its gold action names.
type Domain struct {
	Name  string
	Tasks []replay.Task
	names map[string]string // gold action name → the tool name the model sees
}

// Load reads the tasks of the tau2 domain called name (tau2_airline,
// tau2_retail, tau2_telecom) from the embedded data.
func Load(name string) (*Domain, error) {
	d, err := domains.Find(name)
	if err != nil {
		return nil, err
	}
	if d.Replay == nil || d.Files == nil {
		return nil, fmt.Errorf("tau2script: %s has no gold tasks", name)
	}
	data, err := fs.ReadFile(d.Files, "tasks.json")
	if err != nil {
		return nil, err
	}
	tasks, err := replay.DecodeTasks(data)
	if err != nil {
		return nil, err
	}
	tools, err := d.Replay(replay.Env{Domain: d.Name, Agent: state.New(), User: state.New()})
	if err != nil {
		return nil, err
	}
	names := make(map[string]string, len(tools))
	for key, t := range tools {
		names[key] = t.Name()
	}
	return &Domain{Name: d.Name, Tasks: tasks, names: names}, nil
}

// Task returns the task with id.
func (d *Domain) Task(id string) (replay.Task, error) {
	for _, t := range d.Tasks {
		if t.ID == id {
			return t, nil
		}
	}
	return replay.Task{}, fmt.Errorf("tau2script: %s has no task %q", d.Name, id)
}

// ToolNames returns the model-facing names of the domain's tools.
func (d *Domain) ToolNames() []string {
	out := make([]string, 0, len(d.names))
	for _, n := range d.names {
		out = append(out, n)
	}
	return out
}

// goldCall is one gold action as the model calls it, and whose it is.
type goldCall struct {
	call tool.ModelCall
	user bool
	read bool
}

// gold returns task's gold actions as calls, in order.
func (d *Domain) gold(task replay.Task) ([]goldCall, error) {
	if task.EvaluationCriteria == nil {
		return nil, nil
	}
	var out []goldCall
	for _, a := range task.EvaluationCriteria.Actions {
		name, ok := d.names[a.Name]
		if !ok {
			return nil, fmt.Errorf("tau2script: task %s: %s has no tool %q", task.ID, d.Name, a.Name)
		}
		args := []byte("{}")
		if a.Arguments != nil {
			var err error
			if args, err = json.Marshal(a.Arguments); err != nil {
				return nil, fmt.Errorf("tau2script: task %s: arguments of %s: %w", task.ID, a.Name, err)
			}
		}
		out = append(out, goldCall{
			call: tool.ModelCall{Name: name, Arguments: string(args)},
			user: a.Requestor != nil && *a.Requestor == "user",
			read: isRead(a.Name),
		})
	}
	return out, nil
}

// Script returns the stand-in's turns that play task.
func (d *Domain) Script(task replay.Task, opt Options) ([]agenttest.Turn, error) {
	all, err := d.gold(task)
	if err != nil {
		return nil, err
	}
	var calls []tool.ModelCall
	var reads []bool
	for _, g := range all {
		if !g.user {
			calls = append(calls, g.call)
			reads = append(reads, g.read)
		}
	}
	gold := agenttest.GoldTurns(calls, EndTool)
	actions, tail := gold[:len(calls)], gold[len(calls):]
	var turns []agenttest.Turn
	for i, t := range actions {
		if opt.BatchReads && reads[i] && i > 0 && reads[i-1] {
			last := &turns[len(turns)-1]
			last.Calls = append(last.Calls, t.Calls...)
			continue
		}
		turns = append(turns, t)
	}
	turns = append(turns, tail...)
	if calc, ok := d.names["calculate"]; ok {
		for n := 1; len(turns) < MinResponses; n++ {
			pad := agenttest.Turn{Calls: []tool.ModelCall{{ID: fmt.Sprintf("pad_%d", n), Name: calc, Arguments: `{"expression": "1 + 1"}`}}}
			turns = append([]agenttest.Turn{pad}, turns...)
		}
	}
	setUsage(turns)
	return turns, nil
}

// setUsage gives response i the usage Usage(i).
func setUsage(turns []agenttest.Turn) {
	for i := range turns {
		u := Usage(i)
		turns[i].Usage = &u
	}
}

// Usage is the usage the script's response i reports.
func Usage(i int) agenttest.Usage {
	p, c := 1000+10*i, 20+i
	return agenttest.Usage{PromptTokens: p, CompletionTokens: c, TotalTokens: p + c}
}

// isRead reports whether a tau2 tool (by its gold action name) only reads.
func isRead(name string) bool {
	for _, p := range []string{"get_", "search_", "list_", "find_"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return name == "calculate"
}
