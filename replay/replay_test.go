package replay_test

import (
	"context"
	"encoding/json"
	"errors"
	"github.com/voiceeval/schematools/hooks"
	"reflect"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/dbhash"
	"github.com/voiceeval/schematools/domains/coffee"
	"github.com/voiceeval/schematools/registry"
	"github.com/voiceeval/schematools/replay"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

// The synthetic two-sided domain: the agent DB holds phone lines, the user
// DB holds the user's phone; sync carries line status to the phone.

var synthRecorder = tool.Recorder{ActionTypes: []string{"suspend_line", "toggle_airplane", "stamp_clock"}}

type lineParams struct {
	LineID string `json:"line_id"`
}

func synthTools(env replay.Env) (replay.ToolMap, error) {
	suspend, err := tool.New("suspend_line", "Suspend a line.",
		func(ctx context.Context, st *state.Shared, p lineParams) (any, error) {
			var res any
			err := st.UpdateTables(nil, func(db map[string]any) error {
				line, ok := db["lines"].(map[string]any)[p.LineID].(map[string]any)
				if !ok {
					res = tool.Failure("not_found", "Line "+p.LineID+" not found")
					return nil
				}
				line["status"] = "Suspended"
				res = map[string]any{"line_id": p.LineID, "status": "Suspended"}
				return nil
			})
			if _, failed := res.(tool.FailureResult); err == nil && !failed {
				synthRecorder.Record(ctx, st, state.NewAction("suspend_line", map[string]any{"line_id": p.LineID}, res))
			}
			return res, err
		}, &tool.Options{State: env.Agent})
	if err != nil {
		return nil, err
	}
	airplane, err := tool.New("toggle_airplane", "Toggle airplane mode.",
		func(ctx context.Context, st *state.Shared, _ struct{}) (any, error) {
			var now bool
			_ = st.UpdateTables(nil, func(db map[string]any) error {
				dev := db["device"].(map[string]any)
				now = !dev["airplane"].(bool)
				dev["airplane"] = now
				return nil
			})
			synthRecorder.Record(ctx, st, state.NewAction("toggle_airplane", nil, map[string]any{"airplane": now}))
			return "Airplane mode toggled.", nil
		}, &tool.Options{State: env.User})
	if err != nil {
		return nil, err
	}
	find, err := tool.New("find_lines", "Find lines with a status.",
		func(_ context.Context, st *state.Shared, p struct {
			Status string `json:"status"`
		}) (any, error) {
			out := []any{}
			_ = st.View(func(db map[string]any) error {
				for id, l := range db["lines"].(map[string]any) {
					if l.(map[string]any)["status"] == p.Status {
						out = append(out, id)
					}
				}
				return nil
			})
			return out, nil
		}, &tool.Options{State: env.Agent})
	if err != nil {
		return nil, err
	}
	stamp, err := tool.New("stamp_clock", "Record the time and a fresh id.",
		func(ctx context.Context, st *state.Shared, _ struct{}) (any, error) {
			v := map[string]any{"at": env.Clock().Format("2006-01-02"), "id": env.IDs()}
			_ = st.UpdateTables(nil, func(db map[string]any) error { db["stamp"] = v; return nil })
			synthRecorder.Record(ctx, st, state.NewAction("stamp_clock", nil, v))
			return v, nil
		}, &tool.Options{State: env.Agent})
	if err != nil {
		return nil, err
	}
	boom := &failing{}
	m := replay.ToolMap{}
	if err := m.Add(suspend, find, stamp, boom); err != nil {
		return nil, err
	}
	return m, m.Add(airplane)
}

// failing is a tool whose Execute fails, as a Python tool that raises.
type failing struct{}

func (*failing) Name() string               { return "explode" }
func (*failing) Description() string        { return "Always fails." }
func (*failing) Properties() map[string]any { return map[string]any{} }
func (*failing) Required() []string         { return []string{} }
func (*failing) Execute(context.Context, map[string]any) (any, error) {
	return nil, errors.New("kaboom")
}

func synthSync(agentDB, userDB map[string]any) (map[string]any, map[string]any, error) {
	status := agentDB["lines"].(map[string]any)["L1"].(map[string]any)["status"]
	active := status == "Active"
	if userDB["surroundings"].(map[string]any)["line_active"] == active {
		return nil, nil, nil
	}
	return nil, map[string]any{"surroundings.line_active": active}, nil
}

func synthInit() map[string]hooks.Init {
	return map[string]hooks.Init{
		"set_roaming": {Func: func(db, args map[string]any, _ func() time.Time) error {
			db["lines"].(map[string]any)["L1"].(map[string]any)["roaming"] = args["on"]
			db["init_order"] = append(db["init_order"].([]any), "agent")
			return nil
		}},
		"set_airplane": {Func: func(db, args map[string]any, _ func() time.Time) error {
			db["device"].(map[string]any)["airplane"] = args["on"]
			return nil
		}},
		"broken": {Func: func(map[string]any, map[string]any, func() time.Time) error { return errors.New("cannot") }},
	}
}

func synthDBs() (agent, user map[string]any) {
	agent = map[string]any{
		"lines":      map[string]any{"L1": map[string]any{"status": "Active", "roaming": false}, "L2": map[string]any{"status": "Suspended", "roaming": false}},
		"init_order": []any{},
	}
	user = map[string]any{"device": map[string]any{"airplane": false}, "surroundings": map[string]any{"line_active": true}}
	return agent, user
}

func ptr(s string) *string { return &s }

func synthTask() replay.Task {
	return replay.Task{
		ID: "t1",
		InitialState: &replay.InitialState{InitializationActions: []hooks.InitAction{
			{EnvType: "user", FuncName: "set_airplane", Arguments: map[string]any{"on": true}},
			{EnvType: "assistant", FuncName: "set_roaming", Arguments: map[string]any{"on": true}},
			{EnvType: "user", FuncName: "no_such_init"},
		}},
		EvaluationCriteria: &replay.EvaluationCriteria{Actions: []replay.Action{
			{ActionID: "a0", Requestor: ptr("user"), Name: "toggle_airplane"},
			{ActionID: "a1", Requestor: ptr("assistant"), Name: "suspend_line", Arguments: map[string]any{"line_id": "L1"}},
			{ActionID: "a2", Name: "find_lines", Arguments: map[string]any{"status": "Nope"}},
			{ActionID: "a3", Name: "not_a_tool"},
			{ActionID: "a4", Name: "explode"},
			{ActionID: "a5", Name: "suspend_line", Arguments: map[string]any{"line_id": "L9"}},
			{ActionID: "a6", Name: "stamp_clock"},
		}},
	}
}

func synthScenario() replay.Scenario {
	agent, user := synthDBs()
	return replay.Scenario{
		Domain: "synth", Task: synthTask(), DB: state.NewSource(agent), UserDB: state.NewSource(user),
		Tools: synthTools, Hooks: hooks.Set{Init: synthInit(), Sync: synthSync}, TraceHashes: true,
	}
}

// sharedCopy returns the copy of src's DB that replays share.
func sharedCopy(t *testing.T, src *state.Source) (db map[string]any) {
	t.Helper()
	st := state.New()
	st.Share(src)
	require.NoError(t, st.View(func(d map[string]any) error { db = d; return nil }))
	return db
}

// sourceHash is the hash of src's DB.
func sourceHash(t *testing.T, src *state.Source) string {
	t.Helper()
	st := state.New()
	st.Share(src)
	h, err := st.Hash()
	require.NoError(t, err)
	return h
}

func TestGoldTwoSided(t *testing.T) {
	sc := synthScenario()
	res, err := replay.Gold(context.Background(), sc)
	require.NoError(t, err)

	// Init: agent side first, then user side; the unknown function is an
	// error that does not stop the others.
	require.Len(t, res.Init, 2)
	assert.True(t, res.Init[0].Success)
	assert.False(t, res.Init[1].Success)
	assert.Equal(t, []string{"[action 1] No initialization function 'no_such_init' registered under domain='synth'. Available: ['broken', 'set_airplane', 'set_roaming']."}, res.Init[1].Errors)

	// Side stamping follows the requestor; only write tools record.
	sides := []string{}
	names := []string{}
	for _, a := range res.Actions {
		sides = append(sides, a["side"].(string))
		names = append(names, a["name"].(string))
	}
	assert.Equal(t, []string{"toggle_airplane", "suspend_line", "stamp_clock"}, names)
	assert.Equal(t, []string{"user", "agent", "agent"}, sides)

	// The sync ran after suspend_line and reached the user side.
	assert.Equal(t, false, res.UserDB["surroundings"].(map[string]any)["line_active"])
	assert.Equal(t, false, res.UserDB["device"].(map[string]any)["airplane"], "init set it on, the action toggled it off")
	assert.Equal(t, "Suspended", res.DB["lines"].(map[string]any)["L1"].(map[string]any)["status"])
	assert.Equal(t, true, res.DB["lines"].(map[string]any)["L1"].(map[string]any)["roaming"])
	assert.Equal(t, map[string]any{"at": "2025-02-25", "id": "id-1"}, res.DB["stamp"], "the fixed clock and the counter reach the tools")

	// Raw results: a bare empty list stays a list.
	require.Len(t, res.Steps, 7)
	assert.Equal(t, []any{}, res.Steps[2].Result)
	assert.False(t, res.Steps[3].ToolFound)

	kinds := map[string]string{}
	for _, e := range res.Errors {
		kinds[e.Name+"/"+e.Kind] = e.Message
	}
	assert.Equal(t, map[string]string{
		"initialization/init":       "[action 1] No initialization function 'no_such_init' registered under domain='synth'. Available: ['broken', 'set_airplane', 'set_roaming'].",
		"not_a_tool/missing_tool":   `no tool named "not_a_tool"`,
		"explode/exception":         "kaboom",
		"suspend_line/error_result": "Line L9 not found",
	}, kinds)

	// Hashes are the dbhash of the final DBs; each step was traced.
	h, err := dbhash.Hash(res.DB)
	require.NoError(t, err)
	assert.Equal(t, h, res.DBHash)
	assert.Equal(t, res.DBHash, res.Steps[6].DBHash)
	assert.NotEqual(t, res.PostInitDBHash, res.DBHash)
	assert.NotEmpty(t, res.UserDBHash)
}

// Replaying never changes the scenario's DBs, and repeated replays agree.
func TestGoldIsDeterministicAndIsolated(t *testing.T) {
	sc := synthScenario()
	agentBefore, _ := dbhash.Hash(sharedCopy(t, sc.DB))
	userBefore, _ := dbhash.Hash(sharedCopy(t, sc.UserDB))
	first, err := replay.Gold(context.Background(), sc)
	require.NoError(t, err)
	for range 5 {
		again, err := replay.Gold(context.Background(), sc)
		require.NoError(t, err)
		assert.Equal(t, first.DBHash, again.DBHash)
		assert.Equal(t, first.UserDBHash, again.UserDBHash)
	}
	agentAfter, _ := dbhash.Hash(sharedCopy(t, sc.DB))
	userAfter, _ := dbhash.Hash(sharedCopy(t, sc.UserDB))
	assert.Equal(t, agentBefore, agentAfter)
	assert.Equal(t, userBefore, userAfter)
	assert.NoError(t, sc.DB.Verify())
	assert.NoError(t, sc.UserDB.Verify())

	// Mutating a result does not reach the source either.
	first.DB["lines"].(map[string]any)["L1"].(map[string]any)["status"] = "Gone"
	assert.Equal(t, "Active", sharedCopy(t, sc.DB)["lines"].(map[string]any)["L1"].(map[string]any)["status"])
}

func TestGoldAll(t *testing.T) {
	var scenarios []replay.Scenario
	for range 64 {
		scenarios = append(scenarios, synthScenario())
	}
	calls := 0
	results, err := replay.GoldAll(context.Background(), scenarios, 8, func(done, total int) {
		calls++
		assert.Equal(t, 64, total)
	})
	require.NoError(t, err)
	assert.Equal(t, 64, calls)
	want, err := replay.Gold(context.Background(), synthScenario())
	require.NoError(t, err)
	for _, r := range results {
		assert.Equal(t, want.DBHash, r.DBHash)
		assert.Equal(t, want.UserDBHash, r.UserDBHash)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = replay.GoldAll(ctx, scenarios, 8, nil)
	assert.ErrorIs(t, err, context.Canceled)
}

// Checklist items of test_gold_replay that hold outside a domain.
func TestGoldReferenceBehaviour(t *testing.T) {
	db := map[string]any{"users": map[string]any{"u1": map[string]any{"name": "Test"}}, "reservations": map[string]any{}}
	builder := func(env replay.Env) (replay.ToolMap, error) {
		mk := func(name string) tool.Tool {
			type anyArgs struct{}
			tl, err := tool.New(name, "Count calls.", func(ctx context.Context, st *state.Shared, _ anyArgs) (any, error) {
				_ = st.UpdateTables(nil, func(db map[string]any) error {
					n, _ := db[name+"_calls"].(int)
					db[name+"_calls"] = n + 1
					return nil
				})
				tool.Recorder{ActionTypes: []string{name}}.Record(ctx, st, state.Action{"type": name, "action_type": name, "result": "ok"})
				return "ok", nil
			}, &tool.Options{State: env.Agent, ExtraArgs: true})
			if err != nil {
				panic(err)
			}
			return tl
		}
		m := replay.ToolMap{}
		return m, m.Add(mk("rebook_flight"), mk("cancel_reservation"))
	}
	task := replay.Task{ID: "fake", EvaluationCriteria: &replay.EvaluationCriteria{Actions: []replay.Action{
		{Name: "rebook_flight", Arguments: map[string]any{"user_id": "u1", "new_flight": "SK999"}},
		{Name: "cancel_reservation", Requestor: ptr("assistant"), Arguments: map[string]any{"confirmation": "ABC123"}},
	}}}
	res, err := replay.Gold(context.Background(), replay.Scenario{Domain: "fake", Task: task, DB: state.NewSource(db), Tools: builder})
	require.NoError(t, err)
	// 1, 3: both tools ran once, no user DB, records in order, both stamped agent.
	assert.Equal(t, 1, res.DB["rebook_flight_calls"])
	assert.Equal(t, 1, res.DB["cancel_reservation_calls"])
	assert.Nil(t, res.UserDB)
	require.Len(t, res.Actions, 2)
	assert.Equal(t, []any{"rebook_flight", "cancel_reservation"}, []any{res.Actions[0]["type"], res.Actions[1]["type"]})
	assert.Equal(t, []any{"agent", "agent"}, []any{res.Actions[0]["side"], res.Actions[1]["side"]})

	// 5: a missing tool does not crash and records nothing.
	task.EvaluationCriteria.Actions = []replay.Action{{Name: "tool_that_doesnt_exist"}}
	res, err = replay.Gold(context.Background(), replay.Scenario{Domain: "fake", Task: task, DB: state.NewSource(db), Tools: builder})
	require.NoError(t, err)
	assert.Empty(t, res.Actions)

	// 7: no actions gives the initial DB.
	task.EvaluationCriteria = nil
	res, err = replay.Gold(context.Background(), replay.Scenario{Domain: "fake", Task: task, DB: state.NewSource(db), Tools: builder})
	require.NoError(t, err)
	assert.Empty(t, res.Actions)
	assert.Equal(t, "Test", res.DB["users"].(map[string]any)["u1"].(map[string]any)["name"])
	initial, _ := dbhash.Hash(db)
	assert.Equal(t, initial, res.DBHash)

	_, err = replay.Gold(context.Background(), replay.Scenario{Task: task})
	assert.ErrorContains(t, err, "scenario has no tool builder")
}

// Invoke returns raw shapes where Call wraps them.
func TestInvokeIsRaw(t *testing.T) {
	tl, err := tool.New("find", "Find.", func(context.Context, *state.Shared, struct{}) (any, error) { return []any{}, nil }, nil)
	require.NoError(t, err)
	raw, err := replay.Invoke(context.Background(), tl, nil)
	require.NoError(t, err)
	assert.Equal(t, []any{}, raw)
	var live any
	require.NoError(t, tool.Call(context.Background(), tl, nil, func(v any) error { live = v; return nil }, nil))
	liveJSON, err := json.Marshal(live)
	require.NoError(t, err)
	assert.JSONEq(t, `{"status":"success","results":[],"count":0,"message":"No matching records found."}`, string(liveJSON))

	bad, err := replay.Invoke(context.Background(), tl, map[string]any{"x": 1})
	require.NoError(t, err)
	assert.IsType(t, tool.ValidationResult{}, bad, "the same argument checks as the live path")

	_, err = replay.Invoke(context.Background(), &panicky{}, nil)
	assert.ErrorContains(t, err, "panicked")
}

type panicky struct{ failing }

func (*panicky) Execute(context.Context, map[string]any) (any, error) { panic("bug") }

func TestTaskJSONKeepsUnknownFields(t *testing.T) {
	in := `{"id":"7","description":{"purpose":"x"},"initial_state":null,"evaluation_criteria":{"actions":[{"action_id":"7_0","name":"get_user_details","arguments":{"user_id":"u1","n":12345678901234567890},"compare_args":[]}],"nl_assertions":["be nice"]},"annotations":null,"future_field":[1,2]}`
	var task replay.Task
	require.NoError(t, json.Unmarshal([]byte(in), &task))
	assert.Equal(t, "7", task.ID)
	require.Len(t, task.EvaluationCriteria.Actions, 1)
	a := task.EvaluationCriteria.Actions[0]
	assert.Equal(t, "agent", a.Side())
	assert.Equal(t, []string{}, a.CompareArgs)
	assert.Equal(t, json.Number("12345678901234567890"), a.Arguments["n"])
	out, err := json.Marshal(task)
	require.NoError(t, err)
	assert.JSONEq(t, in, string(out))

	var numeric replay.Task
	require.NoError(t, json.Unmarshal([]byte(`{"id": 12}`), &numeric))
	assert.Equal(t, "12", numeric.ID)
	assert.Nil(t, numeric.EvaluationCriteria)
	assert.Nil(t, numeric.InitialState)

	var cased replay.Task
	require.NoError(t, json.Unmarshal([]byte(`{"id": "c", "Evaluation_Criteria": {"actions": [{"name": "x"}]}}`), &cased))
	assert.Nil(t, cased.EvaluationCriteria, "field names match exactly, as tau2 reads them")
	assert.Contains(t, cased.Raw, "Evaluation_Criteria")

	for _, bad := range []string{`{"id": null}`, `{"id": true}`, `{"id": "x", "initial_state": "no"}`, `{"evaluation_criteria": {"actions": 3}}`, `[]`, `{`} {
		var task replay.Task
		assert.Error(t, json.Unmarshal([]byte(bad), &task), bad)
	}
}

// RegistryTools is safe to share between concurrent replays.
func TestGoldAllWithRegistryTools(t *testing.T) {
	reg := new(registry.Tools)
	require.NoError(t, coffee.Register(reg))
	builder := replay.RegistryTools(reg, coffee.Domain, nil)
	var scenarios []replay.Scenario
	for range 16 {
		scenarios = append(scenarios, replay.Scenario{Domain: coffee.Domain, DB: state.NewSource(coffee.DB()), Tools: builder,
			Task: replay.Task{ID: "x", EvaluationCriteria: &replay.EvaluationCriteria{Actions: []replay.Action{{Name: "get_menu"}}}}})
	}
	var seen []int
	results, err := replay.GoldAll(context.Background(), scenarios, 8, func(done, total int) { seen = append(seen, done) })
	require.NoError(t, err)
	assert.Len(t, results, 16)
	for i, n := range seen {
		assert.Equal(t, i+1, n, "progress counts up in order")
	}
}

func TestGoldSurvivesHostileTools(t *testing.T) {
	sc := synthScenario()
	sc.Tools = func(replay.Env) (replay.ToolMap, error) { panic("builder bug") }
	_, err := replay.Gold(context.Background(), sc)
	assert.ErrorContains(t, err, "tool builder panicked")

	// A tool that clears the action log mid-replay does not crash it.
	sc = synthScenario()
	sc.Tools = func(env replay.Env) (replay.ToolMap, error) {
		m, err := synthTools(env)
		if err != nil {
			return nil, err
		}
		return m, m.Add(&clearing{st: env.Agent})
	}
	sc.Task.EvaluationCriteria.Actions = append(sc.Task.EvaluationCriteria.Actions, replay.Action{Name: "clear_log"})
	res, err := replay.Gold(context.Background(), sc)
	require.NoError(t, err)
	assert.NotEmpty(t, res.Actions)
}

// clearing wipes its state's action log, as a careless tool might.
type clearing struct {
	failing
	st *state.Shared
}

func (*clearing) Name() string { return "clear_log" }
func (c *clearing) Execute(context.Context, map[string]any) (any, error) {
	_ = c.st.Seed(state.Seed{ReplaceLog: true}, nil)
	return "cleared", nil
}

// RegistryTools hands the replay's clock and id source to the factories.
func TestRegistryToolsPassClockAndIDs(t *testing.T) {
	reg := new(registry.Tools)
	require.NoError(t, reg.Register("timed", "stamp", registry.Plain(func(d registry.Deps) (tool.Tool, error) {
		return tool.New("stamp", "Stamp.", func(context.Context, *state.Shared, struct{}) (any, error) {
			return d.Clock().Format("2006-01-02") + "/" + d.IDs(), nil
		}, &tool.Options{State: d.State})
	})))
	task := replay.Task{ID: "t", EvaluationCriteria: &replay.EvaluationCriteria{Actions: []replay.Action{{Name: "stamp"}, {Name: "stamp"}}}}
	res, err := replay.Gold(context.Background(), replay.Scenario{Domain: "timed", Task: task, DB: state.NewSource(map[string]any{"x": 1}),
		Tools: replay.RegistryTools(reg, "timed", nil), IDs: replay.CounterIDs("n")})
	require.NoError(t, err)
	assert.Equal(t, "2025-02-25/n1", res.Steps[0].Result)
	assert.Equal(t, "2025-02-25/n2", res.Steps[1].Result)
}

// A replay that only reads shares the Source (no copy) and reports the
// hash the Source computed once; its Result.DB is still a private copy
// unless HashesOnly.
func TestGoldReadOnlyTaskSharesTheSource(t *testing.T) {
	reg := new(registry.Tools)
	require.NoError(t, coffee.Register(reg))
	db := coffee.DB()
	src := state.NewSource(db)
	real, err := dbhash.Hash(db)
	require.NoError(t, err)
	readOnly := replay.Task{ID: "menu", EvaluationCriteria: &replay.EvaluationCriteria{Actions: []replay.Action{{Name: "get_menu"}}}}
	sc := replay.Scenario{Domain: coffee.Domain, Task: readOnly, DB: src, Tools: replay.RegistryTools(reg, coffee.Domain, nil)}

	res, err := replay.Gold(context.Background(), sc)
	require.NoError(t, err)
	assert.Equal(t, real, res.DBHash)
	assert.Equal(t, real, res.PostInitDBHash)
	res.DB["menu"] = "mutated"
	assert.NotEqual(t, "mutated", sharedCopy(t, src)["menu"], "Result.DB is a private copy")

	sc.HashesOnly = true
	res, err = replay.Gold(context.Background(), sc)
	require.NoError(t, err)
	assert.Nil(t, res.DB)

	// A writing task hashes its own DB, reusing the Source's text of the
	// tables it did not write: the same hash as from scratch.
	sc.HashesOnly = false
	sc.Task = replay.Task{ID: "order", EvaluationCriteria: &replay.EvaluationCriteria{Actions: []replay.Action{{Name: "place_order",
		Arguments: map[string]any{"customer": "Ada", "items": []any{map[string]any{"item_id": "latte", "size": "large", "quantity": 1}}}}}}}
	res, err = replay.Gold(context.Background(), sc)
	require.NoError(t, err)
	assert.Equal(t, real, res.PostInitDBHash)
	assert.NotEqual(t, real, res.DBHash)
	full, err := dbhash.Hash(res.DB)
	require.NoError(t, err)
	assert.Equal(t, full, res.DBHash)
	assert.NoError(t, src.Verify(), "the source DB is unchanged")
	assert.Equal(t, real, sourceHash(t, src))
}

// Many replays writing at once on one shared DB: the source stays as it
// was and every hash equals a replay on a Source of its own.
func TestGoldAllOnOneSharedDB(t *testing.T) {
	reg := new(registry.Tools)
	require.NoError(t, coffee.Register(reg))
	db := coffee.DB()
	src := state.NewSource(db)
	var shared, private []replay.Scenario
	for i := range 64 {
		actions := []replay.Action{{Name: "get_menu"}}
		if i%2 == 0 {
			actions = append(actions, replay.Action{Name: "place_order", Arguments: map[string]any{"customer": "Ada",
				"items": []any{map[string]any{"item_id": "latte", "size": "large", "quantity": i%5 + 1}}}})
		}
		task := replay.Task{ID: string(rune('A' + i%26)), EvaluationCriteria: &replay.EvaluationCriteria{Actions: actions}}
		sc := replay.Scenario{Domain: coffee.Domain, Task: task, DB: state.NewSource(db), Tools: replay.RegistryTools(reg, coffee.Domain, nil)}
		private = append(private, sc)
		sc.DB, sc.HashesOnly = src, true
		shared = append(shared, sc)
	}
	synth := synthScenario()
	synth.HashesOnly = true
	plainSynth := synthScenario()
	shared, private = append(shared, synth), append(private, plainSynth)

	got, err := replay.GoldAll(context.Background(), shared, 8, nil)
	require.NoError(t, err)
	want, err := replay.GoldAll(context.Background(), private, 8, nil)
	require.NoError(t, err)
	for i := range got {
		assert.Equal(t, want[i].DBHash, got[i].DBHash, "scenario %d", i)
		assert.Equal(t, want[i].UserDBHash, got[i].UserDBHash, "scenario %d", i)
		assert.Nil(t, got[i].DB)
	}
	assert.NoError(t, src.Verify(), "the shared source DB is untouched")
}

// A tool that writes into a map it read (under View) cannot change the
// caller's DB, nor another task's result: GoldAll finds the Source
// changed, replays the tasks that shared it each on its own copy, and
// reports the misbehaviour.
func TestGoldAllIsolatesAToolThatWritesUnderView(t *testing.T) {
	db := map[string]any{"accounts": map[string]any{"a1": map[string]any{"balance": json.Number("10")}}}
	// drain sets the balance to 0 under View (forbidden); peek reads it.
	tools := func(env replay.Env) (replay.ToolMap, error) {
		read := func(name string, write bool) tool.Tool {
			tl, err := tool.New(name, "Read the balance.", func(context.Context, *state.Shared, struct{}) (any, error) {
				var out any
				err := env.Agent.View(func(db map[string]any) error {
					acct := db["accounts"].(map[string]any)["a1"].(map[string]any)
					out = acct["balance"]
					if write {
						acct["balance"] = json.Number("0")
					}
					return nil
				})
				return out, err
			}, nil)
			if err != nil {
				panic(err)
			}
			return tl
		}
		m := replay.ToolMap{}
		return m, m.Add(read("drain", true), read("peek", false))
	}
	task := func(id string, names ...string) replay.Task {
		var actions []replay.Action
		for _, n := range names {
			actions = append(actions, replay.Action{Name: n})
		}
		return replay.Task{ID: id, EvaluationCriteria: &replay.EvaluationCriteria{Actions: actions}}
	}
	src := state.NewSource(db)
	scenarios := []replay.Scenario{
		{Domain: "bank", Task: task("rogue", "drain"), DB: src, Tools: tools},
		{Domain: "bank", Task: task("victim", "peek", "peek"), DB: src, Tools: tools},
	}
	var want []replay.Result
	for _, sc := range scenarios {
		sc.DB = state.NewSource(db)
		r, err := replay.Gold(context.Background(), sc)
		require.NoError(t, err)
		want = append(want, r)
	}

	got, err := replay.GoldAll(context.Background(), scenarios, 1, nil)
	require.ErrorIs(t, err, state.ErrSourceChanged)
	assert.ErrorContains(t, err, `"accounts"`)
	require.Len(t, got, 2)
	assert.Equal(t, want[1].DBHash, got[1].DBHash)
	assert.Equal(t, want[1].Steps, got[1].Steps)
	assert.Equal(t, json.Number("10"), got[1].Steps[1].Result, "the victim reads the balance the rogue did not own")
	drained, err := dbhash.Hash(map[string]any{"accounts": map[string]any{"a1": map[string]any{"balance": json.Number("0")}}})
	require.NoError(t, err)
	assert.Equal(t, drained, got[0].DBHash, "the rogue's own result: what it did to its own copy")
	assert.Equal(t, json.Number("10"), got[0].Steps[0].Result)
	assert.Equal(t, json.Number("10"), db["accounts"].(map[string]any)["a1"].(map[string]any)["balance"], "the caller's DB is never shared")
	assert.NoError(t, src.Verify(), "GoldAll put a fresh copy in place")

	// Well-behaved replays afterwards see the original DB again.
	again, err := replay.GoldAll(context.Background(), scenarios[1:], 1, nil)
	require.NoError(t, err)
	assert.Equal(t, want[1].DBHash, again[0].DBHash)
}

func TestGoldAllReportsEachFailure(t *testing.T) {
	ok := synthScenario()
	broken := synthScenario()
	broken.Tools = func(replay.Env) (replay.ToolMap, error) { return nil, errors.New("no tools today") }
	res, err := replay.GoldAll(context.Background(), []replay.Scenario{ok, broken}, 2, nil)
	require.Error(t, err)
	assert.NoError(t, res[0].Err)
	assert.ErrorContains(t, res[1].Err, "no tools today")
}

// With hooks.Init.Tables, the init actions of a side copy only the tables
// their functions name; a side with a function whose Tables is nil copies
// its whole DB. Either way the source DBs stay as they were and the hashes
// are those of a replay on private copies.
func TestGoldInitTablesCopyOnlyTheirTables(t *testing.T) {
	agentDB, userDB := synthDBs()
	agentDB["plans"] = map[string]any{"P1": map[string]any{"price": 10}}
	userDB["apps"] = map[string]any{"maps": map[string]any{"location": true}}
	agentSrc, userSrc := state.NewSource(agentDB), state.NewSource(userDB)
	agent, user := sharedCopy(t, agentSrc), sharedCopy(t, userSrc)
	task := replay.Task{ID: "init",
		InitialState: &replay.InitialState{InitializationActions: []hooks.InitAction{
			{EnvType: "user", FuncName: "set_airplane", Arguments: map[string]any{"on": true}},
			{EnvType: "assistant", FuncName: "set_roaming", Arguments: map[string]any{"on": true}},
		}},
		EvaluationCriteria: &replay.EvaluationCriteria{Actions: []replay.Action{{Name: "probe"}}},
	}
	same := func(a, b any) bool { return reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer() }
	// probe reports which tables still are the source DBs' own.
	tools := func(env replay.Env) (replay.ToolMap, error) {
		probe, err := tool.New("probe", "Report the shared tables.", func(context.Context, *state.Shared, struct{}) (any, error) {
			seen := map[string]any{}
			_ = env.Agent.View(func(db map[string]any) error {
				seen["plans"], seen["lines"] = same(db["plans"], agent["plans"]), same(db["lines"], agent["lines"])
				return nil
			})
			_ = env.User.View(func(db map[string]any) error {
				seen["apps"], seen["device"] = same(db["apps"], user["apps"]), same(db["device"], user["device"])
				return nil
			})
			return seen, nil
		}, nil)
		if err != nil {
			return nil, err
		}
		m := replay.ToolMap{}
		return m, m.Add(probe)
	}
	private, err := replay.Gold(context.Background(), replay.Scenario{Domain: "synth", Task: task,
		DB: state.NewSource(agentDB), UserDB: state.NewSource(userDB), Tools: tools, Hooks: hooks.Set{Init: synthInit()}})
	require.NoError(t, err)

	roaming := []string{"lines", "init_order"}
	withTables := func(tables map[string][]string) map[string]hooks.Init {
		inits := synthInit()
		for name, ts := range tables {
			f := inits[name]
			f.Tables = ts
			inits[name] = f
		}
		return inits
	}
	for _, tc := range []struct {
		name   string
		tables map[string][]string
		want   map[string]any
	}{
		{"every function lists its tables", map[string][]string{"set_roaming": roaming, "set_airplane": {"device"}},
			map[string]any{"plans": true, "lines": false, "apps": true, "device": false}},
		{"a function with no tables copies its side whole", map[string][]string{"set_roaming": roaming},
			map[string]any{"plans": true, "lines": false, "apps": false, "device": false}},
		{"no tables copies both sides whole", nil,
			map[string]any{"plans": false, "lines": false, "apps": false, "device": false}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sc := replay.Scenario{Domain: "synth", Task: task, DB: agentSrc, UserDB: userSrc, Tools: tools,
				Hooks: hooks.Set{Init: withTables(tc.tables)}}
			res, err := replay.Gold(context.Background(), sc)
			require.NoError(t, err)
			require.Empty(t, res.Errors)
			assert.Equal(t, tc.want, res.Steps[0].Result)
			assert.Equal(t, private.DBHash, res.DBHash)
			assert.Equal(t, private.UserDBHash, res.UserDBHash)
			assert.Equal(t, private.PostInitDBHash, res.PostInitDBHash)
			assert.NoError(t, agentSrc.Verify(), "the source DBs are untouched")
			assert.NoError(t, userSrc.Verify(), "the source DBs are untouched")
		})
	}
}

// SyncChanges lets a replay skip the syncs that would change nothing and
// write-lock only the side that would change; the results are those of a
// replay that always syncs. A SyncChanges that panics counts as "both".
func TestGoldSyncChanges(t *testing.T) {
	plain := synthScenario()
	want, err := replay.Gold(context.Background(), plain)
	require.NoError(t, err)

	for _, tc := range []struct {
		name    string
		changes func(agentDB, userDB map[string]any) (bool, bool)
		syncs   int // how many times Sync runs: after init, and after each action but the missing tool
	}{
		{"exact", func(agentDB, userDB map[string]any) (bool, bool) {
			_, u, _ := synthSync(agentDB, userDB)
			return false, len(u) > 0
		}, 1},
		{"always both", func(map[string]any, map[string]any) (bool, bool) { return true, true }, 7},
		{"panics", func(map[string]any, map[string]any) (bool, bool) { panic("no idea") }, 7},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sc := synthScenario()
			syncs := 0
			sc.Hooks.Sync = func(agentDB, userDB map[string]any) (map[string]any, map[string]any, error) {
				syncs++
				return synthSync(agentDB, userDB)
			}
			sc.Hooks.SyncChanges = tc.changes
			got, err := replay.Gold(context.Background(), sc)
			require.NoError(t, err)
			assert.Equal(t, tc.syncs, syncs)
			assert.Equal(t, want.DBHash, got.DBHash)
			assert.Equal(t, want.UserDBHash, got.UserDBHash)
			assert.Equal(t, want.PostInitUserDBHash, got.PostInitUserDBHash)
			for i := range want.Steps {
				assert.Equal(t, want.Steps[i].UserDBHash, got.Steps[i].UserDBHash, "step %d", i)
			}
			assert.Equal(t, want.Errors, got.Errors)
		})
	}

	t.Run("a side that does not change stays shared", func(t *testing.T) {
		agent, user := synthDBs()
		task := replay.Task{ID: "quiet", EvaluationCriteria: &replay.EvaluationCriteria{Actions: []replay.Action{
			{Name: "find_lines", Arguments: map[string]any{"status": "Active"}}}}}
		agentSrc, userSrc := state.NewSource(agent), state.NewSource(user)
		sc := replay.Scenario{Domain: "synth", Task: task, DB: agentSrc, UserDB: userSrc, Tools: synthTools,
			Hooks: hooks.Set{Sync: synthSync, SyncChanges: func(map[string]any, map[string]any) (bool, bool) { return false, false }}}
		res, err := replay.Gold(context.Background(), sc)
		require.NoError(t, err)
		assert.Equal(t, sourceHash(t, agentSrc), res.DBHash, "no sync wrote the agent DB: still the source")
		assert.Equal(t, sourceHash(t, userSrc), res.UserDBHash)
	})
}
