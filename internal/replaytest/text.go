package replaytest

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/agent"
	"github.com/voiceeval/schematools/replay"
	"github.com/voiceeval/schematools/tool"
)

// ResultText returns the text a model reads for the tool result v: what
// pipecat writes into the tool message, json.dumps(result,
// ensure_ascii=False), as the agent's chat context writes it
// ([agent.ResultContent]) — objects in their key order, so a result
// whose order is not the Python original's reads differently.
func ResultText(t testing.TB, v any) string {
	t.Helper()
	text, err := agent.ResultContent(v)
	require.NoError(t, err)
	return text
}

// liveTools returns a [replay.ToolBuilder] whose tools are those of b run
// on the live path: each one's Execute calls [tool.Call] on b's tool and
// returns what Call delivered — the result a bot's model reads (an error
// becomes {"error": …}, an empty result its envelope, the after-result
// hook runs) — so that a gold replay through them yields the live
// results step by step.
func liveTools(b replay.ToolBuilder) replay.ToolBuilder {
	return func(env replay.Env) (replay.ToolMap, error) {
		m, err := b(env)
		if err != nil {
			return nil, err
		}
		out := make(replay.ToolMap, len(m))
		for name, t := range m {
			out[name] = liveTool{t}
		}
		return out, nil
	}
}

// liveTool is a tool whose Execute is the live path of the tool it holds.
type liveTool struct{ tool.Tool }

func (l liveTool) Execute(ctx context.Context, args map[string]any) (any, error) {
	var got any
	n := 0
	err := tool.Call(ctx, l.Tool, args, func(v any) error { got = v; n++; return nil }, nil)
	if err == nil && n != 1 {
		err = fmt.Errorf("tool %s delivered %d results", l.Name(), n)
	}
	return got, err
}

// ResultTextDiffs replays the task of gold line g as sc (on the live path
// when live is set: liveTools) and compares each action's result, as a
// model reads it ([ResultText]), with the line's (GoldAction.ResultText),
// byte for byte. It returns how many results it compared and a
// description of each that differs.
func ResultTextDiffs(t testing.TB, g GoldTask, sc replay.Scenario, live bool) (compared int, diffs []string) {
	t.Helper()
	path := "replay"
	if live {
		sc.Tools, path = liveTools(sc.Tools), "live"
	}
	sc.HashesOnly = true
	res, err := replay.Gold(context.Background(), sc)
	require.NoError(t, err)
	require.Len(t, res.Steps, len(g.PerAction))
	for i, step := range res.Steps {
		want := g.PerAction[i]
		if got := ResultText(t, step.Result); got != want.ResultText {
			diffs = append(diffs, fmt.Sprintf("%s path, action #%d %s(%s): the result a model reads differs\nwant %s\n got %s",
				path, want.Index, want.Name, want.ArgumentsText, want.ResultText, got))
		}
		compared++
	}
	return compared, diffs
}

// RequireResultTexts replays, for every line of gold, the scenario the
// caller builds for the line's task, twice — on the replay path
// ([replay.Gold] as built) and on the live path (liveTools) — and
// requires each action's result, written as a model reads it
// ([ResultText]), to equal the line's result written the same way
// (GoldAction.ResultText), byte for byte: the same keys in the same order,
// not merely the same values ([ResultTextDiffs]). Subtests are named
// task_<id>. It returns how many results it compared (two per action: one
// per path).
func RequireResultTexts(t *testing.T, gold []GoldTask, tasks []replay.Task, scenario func(t *testing.T, g GoldTask, task replay.Task) replay.Scenario) int {
	t.Helper()
	require.NotEmpty(t, gold, "no gold lines")
	compared := 0
	for _, g := range gold {
		t.Run("task_"+g.TaskID, func(t *testing.T) {
			task := taskByID(t, tasks, g.TaskID)
			for _, live := range []bool{false, true} {
				n, diffs := ResultTextDiffs(t, g, scenario(t, g, task), live)
				compared += n
				for _, d := range diffs {
					t.Error(d)
				}
			}
		})
	}
	return compared
}
