package replaytest_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/dbhash"
	"github.com/voiceeval/schematools/internal/replaytest"
	"github.com/voiceeval/schematools/replay"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

// A small one-sided domain: set_flag raises a named flag in the "flags"
// table and records it; an empty name is a domain error, "boom" an
// exception.

const domain = "flags"

var recorder = tool.Recorder{ActionTypes: []string{"set_flag"}}

type flagParams struct {
	Name string `json:"name"`
}

func flagTools(env replay.Env) (replay.ToolMap, error) {
	set, err := tool.New("set_flag", "Raise a flag.",
		func(ctx context.Context, st *state.Shared, p flagParams) (any, error) {
			switch p.Name {
			case "":
				return tool.Failure("invalid", "a flag needs a name"), nil
			case "boom":
				return nil, errors.New("KeyError: 'boom'")
			}
			err := st.UpdateTables([]string{"flags"}, func(db map[string]any) error {
				db["flags"].(map[string]any)[p.Name] = true
				return nil
			})
			if err != nil {
				return nil, err
			}
			res := map[string]any{"name": p.Name, "raised": true, "weight": json.Number("1.0")}
			recorder.Record(ctx, st, state.NewAction("set_flag", map[string]any{"name": p.Name}, res))
			return res, nil
		}, &tool.Options{State: env.Agent})
	if err != nil {
		return nil, err
	}
	return replay.ToolMap{"set_flag": set}, nil
}

const initialDB = `{"flags": {"a": false}, "notes": {"n": 1.5}}`

func task(id string, names ...string) replay.Task {
	var actions []replay.Action
	for _, n := range names {
		actions = append(actions, replay.Action{Name: n, Arguments: map[string]any{"name": "b"}})
	}
	return replay.Task{ID: id, EvaluationCriteria: &replay.EvaluationCriteria{Actions: actions}}
}

// goldLine writes by hand what the Python reference would log for a task
// raising flag "b" with one set_flag call (or, for missing, calling a tool
// the domain lacks): the hashes and the diff are those of DBs written out
// here, not of a replay.
func goldLine(t *testing.T, id string, missing bool) string {
	t.Helper()
	initial := replaytest.DecodeDB(t, initialDB)
	final := replaytest.DecodeDB(t, `{"flags": {"a": false, "b": true}, "notes": {"n": 1.5}}`)
	record := `{"action_type": "set_flag", "name": "set_flag", "arguments": {"name": "b"}, "result": {"name": "b", "raised": true, "weight": 1.0}, "side": "agent"}`
	action := `{"index": 0, "name": "set_flag", "arguments": {"name": "b"}, "result": {"name": "b", "raised": true, "weight": 1.0}, "records_appended": [` + record + `]}`
	errs, refs := `[]`, `[`+record+`]`
	if missing {
		final = initial
		action = `{"index": 0, "name": "nope", "arguments": {"name": "b"}, "result": null, "records_appended": []}`
		errs, refs = `[{"index": 0, "name": "nope", "kind": "missing_tool", "message": "no tool named \"nope\""}]`, `[]`
	}
	h0, err := dbhash.Hash(initial)
	require.NoError(t, err)
	h1, err := dbhash.Hash(final)
	require.NoError(t, err)
	diff, err := json.Marshal(dbhash.Compare(initial, final).Tree())
	require.NoError(t, err)
	return fmt.Sprintf(`{"domain": %q, "task_id": %q, "initial_db_hash": %q, "post_init_db_hash": %q, "final_db_hash": %q, "per_action": [%s], "errors": %s, "reference_actions": %s, "final_db_diff_from_initial": %s, "depends_on_today": false}`,
		domain, id, h0, h0, h1, action, errs, refs, diff)
}

func TestParseGold(t *testing.T) {
	text := goldLine(t, "1", false) + "\n" +
		`{"domain": "d", "task_id": "2", "final_db_hash": "h", "final_user_db_hash": "u", "per_action": [], "final_user_db": {"x": 1}, "depends_on_today": true}` + "\n"
	gold, err := replaytest.ParseGold([]byte(text))
	require.NoError(t, err)
	require.Len(t, gold, 2)
	g := gold[0]
	assert.Equal(t, domain, g.Domain)
	assert.Equal(t, "1", g.TaskID)
	require.Len(t, g.PerAction, 1)
	a := g.PerAction[0]
	assert.Equal(t, 0, a.Index)
	assert.Equal(t, "set_flag", a.Name)
	assert.Len(t, a.Records, 1)
	assert.Equal(t, json.Number("1.0"), a.Result.(map[string]any)["weight"], "numbers keep their text")
	assert.Equal(t, g.InitialDBHash, g.PostInitDBHash)
	assert.Empty(t, g.InitialUserDBHash)
	assert.Nil(t, g.FinalDB)

	u := gold[1]
	assert.Equal(t, "u", u.FinalUserDBHash)
	assert.Equal(t, map[string]any{"x": json.Number("1")}, u.FinalUserDB)
	assert.True(t, u.DependsOnToday)
	assert.Empty(t, u.PerAction)

	for _, bad := range []struct{ text, want string }{
		{goldLine(t, "1", false) + "\n{not json", "line 2"},
		{`[1]`, "line 1: not an object"},
		{`{"task_id": "3", "final_db_hash": "h"}`, "per_action missing"},
		{`{"task_id": "3", "per_action": []}`, "final_db_hash"},
		{`{"task_id": "3", "final_db_hash": "h", "per_action": [1]}`, "task 3: an action is not an object"},
		{`{"task_id": "3", "final_db_hash": "h", "per_action": [{"index": 0.5}]}`, "task 3: action index"},
	} {
		_, err := replaytest.ParseGold([]byte(bad.text))
		require.Error(t, err, bad.text)
		assert.Contains(t, err.Error(), bad.want)
	}
}

func TestRequireGold(t *testing.T) {
	gold, err := replaytest.ParseGold([]byte(goldLine(t, "raise", false) + "\n" + goldLine(t, "missing", true)))
	require.NoError(t, err)
	src := state.NewSource(replaytest.DecodeDB(t, initialDB))
	tasks := []replay.Task{task("raise", "set_flag"), task("missing", "nope")}
	results := replaytest.RequireGold(t, gold, tasks, func(t *testing.T, g replaytest.GoldTask, task replay.Task) replay.Scenario {
		assert.Equal(t, g.TaskID, task.ID)
		return replay.Scenario{Domain: domain, Task: task, DB: src, Tools: flagTools, HashesOnly: true}
	})
	require.NoError(t, src.Verify(), "the shared DB")
	require.Len(t, results, 2)
	assert.Equal(t, "raise", results[0].TaskID)
	assert.Equal(t, true, results[0].DB["flags"].(map[string]any)["b"], "RequireGold keeps the final DB")
}

func TestReplayAllShared(t *testing.T) {
	db := replaytest.DecodeDB(t, initialDB)
	tasks := []replay.Task{task("raise", "set_flag"), task("missing", "nope"), task("twice", "set_flag", "set_flag")}
	sum := replaytest.ReplayAllShared(t, domain, db, tasks, flagTools)
	assert.Equal(t, 4, sum.Actions)
	assert.Equal(t, 3, sum.Records)
	assert.Equal(t, []string{"missing"}, sum.Unchanged)
	require.Len(t, sum.Results, 3)
	assert.Empty(t, sum.Results[0].Errors)
	require.Len(t, sum.Results[1].Errors, 1)
	assert.Equal(t, "missing", sum.Results[1].TaskID)
	assert.Equal(t, "missing_tool", sum.Results[1].Errors[0].Kind)
	assert.Nil(t, sum.Results[1].Steps[0].Result)
	assert.Nil(t, sum.Results[2].DB, "the DBs are dropped")
}

func TestFixture(t *testing.T) {
	st := state.New()
	st.SetDB(replaytest.DecodeDB(t, initialDB))
	m, err := flagTools(replay.Env{Domain: domain, Agent: st})
	require.NoError(t, err)
	f := &replaytest.Fixture{State: st, Tools: m}
	before := f.At(t)
	replaytest.RequireJSON(t, `{"name": "x", "raised": true, "weight": 1.0}`, f.Call(t, "set_flag", map[string]any{"name": "x"}))
	assert.Equal(t, true, f.At(t, "flags", "x"))
	assert.Equal(t, json.Number("1.5"), f.At(t, "notes", "n"))
	assert.NotEqual(t, before, f.At(t))
	assert.Equal(t, 1, len(f.State.Actions()))
	_, err = replay.Invoke(context.Background(), f.Tools["set_flag"], map[string]any{"name": "boom"})
	assert.EqualError(t, err, "KeyError: 'boom'")

	refused := f.Call(t, "set_flag", map[string]any{"name": ""})
	assert.Equal(t, `{"error_type":"invalid","message":"a flag needs a name","status":"error"}`, replaytest.Canon(t, refused))
}

func TestCanon(t *testing.T) {
	one, oneFloat := json.Number("1"), json.Number("1.0")
	assert.Equal(t, `{"a":1,"b":[1.0]}`, replaytest.Canon(t, map[string]any{"b": []any{oneFloat}, "a": 1}))
	assert.Equal(t, replaytest.Canon(t, map[string]any{"a": one, "b": "x"}), replaytest.Canon(t, map[string]any{"b": "x", "a": one}))
	assert.NotEqual(t, replaytest.Canon(t, one), replaytest.Canon(t, oneFloat), "1 is not 1.0")
	replaytest.RequireJSON(t, `{"b": [1.0], "a": 1}`, map[string]any{"b": []any{oneFloat}, "a": 1})
}

// ParseGold reads the reference's gold replay, one task a line, keeping
// every number's text: a result of 1.0 stays a float.
func ExampleParseGold() {
	line := `{"domain": "tau2_airline", "task_id": "7", "final_db_hash": "4da8…", "per_action": [` +
		`{"index": 0, "name": "calculate", "arguments": {"expression": "2 * 0.5"}, "result": "1.0", "records_appended": []}` +
		`], "errors": [], "reference_actions": []}`
	gold, err := replaytest.ParseGold([]byte(line))
	if err != nil {
		panic(err)
	}
	for _, a := range gold[0].PerAction {
		fmt.Println(gold[0].TaskID, a.Index, a.Name, a.Result, len(a.Records))
	}
	// Output: 7 0 calculate 1.0 0
}

// FuzzFlagTools runs the FuzzTools body on the small domain: a refused
// call (an empty name, a wrong type, an exception) leaves the DB alone.
func FuzzFlagTools(f *testing.F) {
	db := replaytest.DecodeDB(f, initialDB)
	replaytest.FuzzTools(f, domain, flagTools, db, []string{`{"name": "b"}`, `{"name": ""}`, `{"name": "boom"}`, `{"name": 3}`, `{}`})
}

func BenchmarkReplay(b *testing.B) {
	src := state.NewSource(replaytest.DecodeDB(b, initialDB))
	var scenarios []replay.Scenario
	for _, tk := range []replay.Task{task("raise", "set_flag"), task("missing", "nope")} {
		scenarios = append(scenarios, replay.Scenario{Domain: domain, Task: tk, DB: src, Tools: flagTools, HashesOnly: true})
	}
	replaytest.Benchmark(b, scenarios)
}
