package rtvi_test

import (
	"context"
	"encoding/json"
	"errors"
	"github.com/voiceeval/schematools/hooks"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/dbhash"
	"github.com/voiceeval/schematools/internal/pyjson"
	"github.com/voiceeval/schematools/rtvi"
	"github.com/voiceeval/schematools/state"
)

func TestUpdateSystemPromptStartsAScenario(t *testing.T) {
	b := newBot(t, func(c *rtvi.Config) { c.PromptSuffix = "Be brief." })
	st := b.st
	st.SetDB(map[string]any{"old": true})
	st.AppendAction(state.NewAction("old", nil, nil))
	require.NoError(t, st.Seed(state.Seed{Values: map[string]any{"custom": 1}}, nil))

	require.Equal(t, true, b.result(t, "update_system_prompt", map[string]any{
		"prompt": "You manage flags.", "tools": `{"set_flag": {}, "read_flags": {}}`, "tool_domain": testDomain,
	}))
	assert.Same(t, st, b.d.State(), "the state is cleared in place")
	assert.Empty(t, st.Snapshot())
	assert.Empty(t, st.Actions())
	assert.Empty(t, st.Values())
	assert.Equal(t, testDomain, st.Domain())
	assert.Same(t, b.d.Notifier(), st.Notifier())
	assert.Equal(t, []rtvi.ChatMessage{{Role: "system", Content: "You manage flags.\nBe brief."}}, b.conv.lastReset(),
		"add_suffix defaults to true")
	set, n := b.installer.current()
	require.Equal(t, 1, n)
	assert.Equal(t, []string{"set_flag", "read_flags"}, set.Names(), "built and offered in the scenario's order")
	assert.Equal(t, 1, b.service.count())

	// add_suffix false; "{}" installs an empty tool set (it clears the tools).
	require.Equal(t, true, b.result(t, "update_system_prompt", map[string]any{"prompt": "P2", "add_suffix": false}))
	assert.Equal(t, []rtvi.ChatMessage{{Role: "system", Content: "P2"}}, b.conv.lastReset())
	set, n = b.installer.current()
	assert.Equal(t, 2, n)
	assert.Empty(t, set.Names())
	assert.Equal(t, "default", st.Domain())

	// tools null leaves the installed tools alone.
	require.Equal(t, true, b.result(t, "update_system_prompt", map[string]any{"prompt": "P3", "tools": nil}))
	_, n = b.installer.current()
	assert.Equal(t, 2, n)
}

func TestUpdateSystemPromptRefusalsChangeNothing(t *testing.T) {
	tests := []struct {
		name string
		d    any
	}{
		{"empty prompt", map[string]any{"prompt": ""}},
		{"no prompt", map[string]any{}},
		{"null prompt", map[string]any{"prompt": nil}},
		{"prompt not a string", map[string]any{"prompt": 5}},
		{"tools not JSON", map[string]any{"prompt": "p", "tools": "{nope"}},
		{"tools not an object", map[string]any{"prompt": "p", "tools": "[1]"}},
		{"kwargs not an object", map[string]any{"prompt": "p", "tools": `{"set_flag": 1}`, "tool_domain": testDomain}},
		{"unknown tool", map[string]any{"prompt": "p", "tools": `{"set_flag": {}, "launch_rocket": {}}`, "tool_domain": testDomain}},
		{"bad keyword argument", map[string]any{"prompt": "p", "tools": `{"set_flag": {"colour": "red"}}`, "tool_domain": testDomain}},
		{"domain not a string", map[string]any{"prompt": "p", "tool_domain": 3}},
		{"arguments not an object", []any{"prompt"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := newBot(t)
			b.startScenario(t)
			b.st.SetDB(map[string]any{"flags": map[string]any{}})
			before, _ := b.installer.current()
			resets := b.service.count()

			assert.Equal(t, false, b.result(t, "update_system_prompt", tt.d))
			assert.NotEmpty(t, b.st.Snapshot(), "the previous scenario's state is untouched")
			assert.Equal(t, testDomain, b.st.Domain())
			after, _ := b.installer.current()
			assert.Same(t, before, after)
			assert.Equal(t, resets, b.service.count())
			assert.Equal(t, "You manage flags.", b.conv.lastReset()[0].Content)
		})
	}
}

func TestToolCallingOffInstallsNothing(t *testing.T) {
	b := newBot(t, func(c *rtvi.Config) { c.Installer = nil })
	require.Equal(t, true, b.result(t, "update_system_prompt", map[string]any{
		"prompt": "p", "tools": `{"launch_rocket": {}}`, "tool_domain": testDomain,
	}), "with tool calling off the tools spec is not read")
	assert.Equal(t, testDomain, b.st.Domain())
}

func TestResetRestoresTheLastPrompt(t *testing.T) {
	b := newBot(t)
	assert.Equal(t, true, b.result(t, "reset", nil), "reset before any prompt")
	assert.Equal(t, []rtvi.ChatMessage{}, b.conv.lastReset())

	b.startScenario(t)
	b.st.SetDB(map[string]any{"flags": map[string]any{"a": true}})
	b.conv.add(map[string]any{"role": "user", "content": "hi"})
	resets := b.service.count()

	assert.Equal(t, true, b.result(t, "reset", map[string]any{"ignored": 1}))
	assert.Equal(t, []rtvi.ChatMessage{{Role: "system", Content: "You manage flags."}}, b.conv.lastReset())
	msgs, err := b.conv.Messages(context.Background())
	require.NoError(t, err)
	assert.Len(t, msgs, 1, "the conversation restarts from the prompt")
	assert.Equal(t, resets+1, b.service.count())
	assert.NotEmpty(t, b.st.Snapshot(), "reset never touches the shared state")

	b.conv.resetErr = errors.New("broken")
	assert.Equal(t, false, b.result(t, "reset", nil))
}

// ref-rtvi-state.md section 7, items 27-31, through the handler.
func TestApplyInitialization(t *testing.T) {
	funcs := hooks.Set{Init: map[string]hooks.Init{}}
	funcs.Init["set_count"] = hooks.Init{Func: func(db, args map[string]any, _ func() time.Time) error {
		db["count"] = args["value"]
		return nil
	}}
	funcs.Init["set_status"] = hooks.Init{Func: func(db, args map[string]any, _ func() time.Time) error {
		db["status"] = args["status"]
		return nil
	}}
	funcs.Init["fail"] = hooks.Init{Func: func(db, args map[string]any, _ func() time.Time) error {
		return errors.New("boom")
	}}
	newInitBot := func(t *testing.T) *bot {
		return newBot(t, withHooks(t, "synthetic", funcs))
	}
	ok := map[string]any{"success": true, "errors": []any{}}

	t.Run("27 empty arguments with a DB", func(t *testing.T) {
		b := newInitBot(t)
		b.st.SetDB(map[string]any{})
		assert.Equal(t, ok, b.result(t, "apply_initialization", nil))
	})
	t.Run("28 one action", func(t *testing.T) {
		b := newInitBot(t)
		b.st.SetDB(map[string]any{"x": 1})
		assert.Equal(t, ok, b.result(t, "apply_initialization", map[string]any{
			"domain": "synthetic", "actions": []any{map[string]any{"func_name": "set_count", "arguments": map[string]any{"value": 3}}},
		}))
		assert.Equal(t, map[string]any{"x": 1, "count": json.Number("3")}, b.st.Snapshot())
	})
	t.Run("29 mixed sides", func(t *testing.T) {
		b := newInitBot(t)
		assert.Equal(t, ok, b.result(t, "apply_initialization", map[string]any{
			"domain": "synthetic", "shared_state_init": `{"db": {}}`,
			"actions": []any{
				map[string]any{"side": "user", "func_name": "set_count", "arguments": map[string]any{"value": 7}},
				map[string]any{"side": "agent", "func_name": "set_status", "arguments": map[string]any{"status": "ok"}},
			},
		}))
		assert.Equal(t, map[string]any{"count": json.Number("7"), "status": "ok"}, b.st.Snapshot())
	})
	t.Run("30 actions without a DB", func(t *testing.T) {
		b := newInitBot(t)
		got := b.result(t, "apply_initialization", map[string]any{
			"domain": "synthetic", "actions": []any{map[string]any{"func_name": "set_count", "arguments": map[string]any{"value": 1}}},
		}).(map[string]any)
		assert.Equal(t, false, got["success"])
		assert.Equal(t, []any{"No shared_state['db'] available; cannot apply 1 initialization action(s). " +
			"Bridge must send db_path (or inline db) in shared_state_init."}, got["errors"])
	})
	t.Run("31 actions not a list", func(t *testing.T) {
		b := newInitBot(t)
		b.st.SetDB(map[string]any{"x": 1})
		got := b.result(t, "apply_initialization", map[string]any{"actions": "not a list"}).(map[string]any)
		assert.Equal(t, map[string]any{"success": false, "errors": []any{"`actions` payload must be a list, got str."}}, got)
	})
	t.Run("23 a failing and an unknown function do not stop the rest", func(t *testing.T) {
		b := newInitBot(t)
		b.st.SetDB(map[string]any{"x": 1})
		got := b.result(t, "apply_initialization", map[string]any{
			"domain": "synthetic", "actions": []any{
				map[string]any{"func_name": "set_count", "arguments": map[string]any{"value": 1}},
				map[string]any{"func_name": "nonexistent"},
				map[string]any{"func_name": "fail"},
				map[string]any{"func_name": "set_count", "arguments": map[string]any{"value": 2}},
			},
		}).(map[string]any)
		assert.Equal(t, false, got["success"])
		errs := got["errors"].([]any)
		require.Len(t, errs, 2)
		assert.Contains(t, errs[0], "[action 1] No initialization function 'nonexistent' registered under domain='synthetic'. Available: ['fail', 'set_count', 'set_status'].")
		assert.Contains(t, errs[1], "[action 2] 'fail' raised: boom")
		assert.Equal(t, json.Number("2"), b.st.Snapshot()["count"])
	})
}

func TestApplyInitializationMergesSharedStateInit(t *testing.T) {
	b := newBot(t)
	b.startScenario(t)
	res := b.result(t, "apply_initialization", map[string]any{
		"shared_state_init": `{"db": {"flags": {"a": false}}, "actions": [{"action_type": "seed"}], "accounts": {"u1": 5}}`,
	})
	assert.Equal(t, map[string]any{"success": true, "errors": []any{}}, res)
	assert.Equal(t, map[string]any{"flags": map[string]any{"a": false}}, b.st.Snapshot())
	assert.Equal(t, "seed", b.st.Actions()[0]["action_type"])
	v, ok := b.st.Value("accounts")
	require.True(t, ok)
	assert.Equal(t, map[string]any{"u1": json.Number("5")}, v)
	assert.Equal(t, testDomain, b.st.Domain(), "the merge keeps the scenario's domain")

	// An inline object is accepted as well as a JSON string.
	res = b.result(t, "apply_initialization", map[string]any{"shared_state_init": map[string]any{"db": map[string]any{"flags": map[string]any{}}}})
	assert.Equal(t, map[string]any{"success": true, "errors": []any{}}, res)
	assert.Equal(t, map[string]any{"flags": map[string]any{}}, b.st.Snapshot())
}

func TestApplyInitializationLoadsDBPath(t *testing.T) {
	root := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(root, "flags", "db"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(root, "flags", "db.json"), []byte(`{"flags": {"a": true}, "n": 1.0}`), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(root, "flags", "db", "users.json"), []byte(`{"u1": {}}`), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(filepath.Dir(root), "outside.json"), []byte(`{"secret": 1}`), 0o644))
	ok := map[string]any{"success": true, "errors": []any{}}

	t.Run("single file, from Config.DataRoot", func(t *testing.T) {
		b := newBot(t, func(c *rtvi.Config) { c.DataRoot = root })
		b.startScenario(t)
		assert.Equal(t, ok, b.result(t, "apply_initialization", map[string]any{"shared_state_init": `{"db_path": "flags/db.json"}`}))
		db := b.st.Snapshot()
		assert.Equal(t, map[string]any{"flags": map[string]any{"a": true}, "n": json.Number("1.0")}, db)
		_, has := b.st.Value("db_path")
		assert.False(t, has, "db_path never persists")

		// A second call with the same path does not reload.
		require.NoError(t, b.st.UpdateTables(nil, func(db map[string]any) error { db["flags"].(map[string]any)["a"] = false; return nil }))
		assert.Equal(t, ok, b.result(t, "apply_initialization", map[string]any{"shared_state_init": `{"db_path": "flags/db.json"}`}))
		assert.Equal(t, false, b.st.Snapshot()["flags"].(map[string]any)["a"])
	})
	t.Run("sharded, from EVAL_DATA_ROOT", func(t *testing.T) {
		t.Setenv("EVAL_DATA_ROOT", filepath.Join(root, "flags"))
		b := newBot(t, func(c *rtvi.Config) { c.DataRoot = "" })
		b.startScenario(t)
		assert.Equal(t, ok, b.result(t, "apply_initialization", map[string]any{"shared_state_init": `{"db_path": "db/"}`}))
		assert.Equal(t, map[string]any{"users": map[string]any{"u1": map[string]any{}}}, b.st.Snapshot())
	})
	failures := []struct {
		name, init, want string
	}{
		{"escaping with ..", `{"db_path": "../outside.json", "accounts": 1}`, "PermissionError: db_path='../outside.json' is outside the data root"},
		{"absolute", `{"db_path": "/etc/passwd"}`, "PermissionError: db_path='/etc/passwd' is outside the data root"},
		{"missing", `{"db_path": "nope/db.json"}`, "FileNotFoundError: Scenario DB not found for db_path='nope/db.json'. Check EVAL_DATA_ROOT (currently resolves to " + root + "). Underlying error: "},
		{"not a string", `{"db_path": 5}`, "TypeError: db_path must be a string, got int"},
		{"invalid JSON", `{"db_path": `, "Invalid shared_state_init JSON: "},
		{"not an object", `[1, 2]`, "shared_state_init must decode to a dict, got list."},
		{"db not an object", `{"db": [1]}`, "TypeError: shared_state_init db must be a dict or null, got list"},
	}
	for _, tt := range failures {
		t.Run(tt.name, func(t *testing.T) {
			b := newBot(t, func(c *rtvi.Config) { c.DataRoot = root })
			b.startScenario(t)
			got := b.result(t, "apply_initialization", map[string]any{"shared_state_init": tt.init}).(map[string]any)
			assert.Equal(t, false, got["success"])
			require.Len(t, got["errors"], 1)
			assert.True(t, strings.HasPrefix(got["errors"].([]any)[0].(string), tt.want), "got %q", got["errors"])
			assert.Empty(t, b.st.Snapshot(), "nothing is merged from a refused request")
			assert.Empty(t, b.st.Values())
		})
	}
	t.Run("no data root", func(t *testing.T) {
		t.Setenv("EVAL_DATA_ROOT", "")
		b := newBot(t, func(c *rtvi.Config) { c.DataRoot = "" })
		got := b.result(t, "apply_initialization", map[string]any{"shared_state_init": `{"db_path": "flags/db.json"}`}).(map[string]any)
		assert.Contains(t, got["errors"].([]any)[0], "FileNotFoundError: Scenario DB not found for db_path='flags/db.json'")
	})
}

// ref-rtvi-state.md section 7, items 83-88, through the handler.
func TestApplySyncDelta(t *testing.T) {
	ok := map[string]any{"success": true, "errors": []any{}}
	t.Run("83 nested dotted path", func(t *testing.T) {
		b := newBot(t)
		b.st.SetDB(map[string]any{"a": map[string]any{"b": map[string]any{"c": 1}}})
		assert.Equal(t, ok, b.result(t, "apply_sync_delta", map[string]any{"delta": map[string]any{"a.b.c": 99}}))
		assert.Equal(t, json.Number("99"), b.st.Snapshot()["a"].(map[string]any)["b"].(map[string]any)["c"])
	})
	t.Run("84 top-level key", func(t *testing.T) {
		b := newBot(t)
		b.st.SetDB(map[string]any{"flag": false})
		assert.Equal(t, ok, b.result(t, "apply_sync_delta", map[string]any{"delta": map[string]any{"flag": true}}))
		assert.Equal(t, true, b.st.Snapshot()["flag"])
	})
	t.Run("86 unknown domain uses the default applier", func(t *testing.T) {
		b := newBot(t)
		b.st.SetDB(map[string]any{"foo": map[string]any{"bar": "old"}})
		assert.Equal(t, ok, b.result(t, "apply_sync_delta", map[string]any{"domain": "some_future_domain", "delta": map[string]any{"foo.bar": "new"}}))
		assert.Equal(t, "new", b.st.Snapshot()["foo"].(map[string]any)["bar"])
	})
	t.Run("87 empty delta changes nothing", func(t *testing.T) {
		b := newBot(t)
		b.st.SetDB(map[string]any{"x": 1})
		assert.Equal(t, ok, b.result(t, "apply_sync_delta", map[string]any{"domain": "tau2_telecom", "delta": map[string]any{}}))
		assert.Equal(t, ok, b.result(t, "apply_sync_delta", map[string]any{"delta": nil}))
		assert.Equal(t, map[string]any{"x": 1}, b.st.Snapshot())
	})
	t.Run("88 a failing applier is reported and nothing is applied", func(t *testing.T) {
		boom := hooks.Set{Apply: func(db, delta map[string]any) error {
			db["half"] = "applied"
			return errors.New("boom")
		}}
		panics := hooks.Set{Apply: func(db, delta map[string]any) error { panic("kaboom") }}
		b := newBot(t, withHooks(t, "boom", boom), withHooks(t, "panics", panics))
		b.st.SetDB(map[string]any{"x": 1})
		got := b.result(t, "apply_sync_delta", map[string]any{"domain": "boom", "delta": map[string]any{"x": 2}}).(map[string]any)
		assert.Equal(t, false, got["success"])
		assert.Contains(t, got["errors"].([]any)[0], "boom")
		got = b.result(t, "apply_sync_delta", map[string]any{"domain": "panics", "delta": map[string]any{"x": 2}}).(map[string]any)
		assert.Equal(t, false, got["success"])
		assert.Equal(t, map[string]any{"x": 1}, b.st.Snapshot())
	})
	t.Run("a missing path applies no key at all", func(t *testing.T) {
		b := newBot(t)
		b.st.SetDB(map[string]any{"a": map[string]any{"x": 1}})
		got := b.result(t, "apply_sync_delta", map[string]any{"delta": map[string]any{"a.x": 2, "missing.y": 3}}).(map[string]any)
		assert.Equal(t, false, got["success"])
		assert.Equal(t, map[string]any{"a": map[string]any{"x": 1}}, b.st.Snapshot())
	})
	t.Run("a domain applier is used", func(t *testing.T) {
		upper := hooks.Set{Apply: func(db, delta map[string]any) error {
			for k, v := range delta {
				db[strings.ToUpper(k)] = v
			}
			return nil
		}}
		b := newBot(t, withHooks(t, "upper", upper))
		b.st.SetDB(map[string]any{})
		assert.Equal(t, ok, b.result(t, "apply_sync_delta", map[string]any{"domain": "upper", "delta": map[string]any{"k": 1}}))
		assert.Equal(t, map[string]any{"K": json.Number("1")}, b.st.Snapshot())
	})
	refusals := []struct {
		name string
		d    any
		want string
	}{
		{"no DB", map[string]any{"delta": map[string]any{"a": 1, "b": 2}},
			"No shared_state['db'] available; cannot apply sync delta with 2 key(s). update_system_prompt didn't seed the DB on this bot."},
		{"no DB, empty delta", map[string]any{}, "No shared_state['db'] available; cannot apply sync delta with 0 key(s)."},
		{"delta a list", map[string]any{"delta": []any{1}}, "`delta` payload must be a dict, got list."},
		{"delta a string", map[string]any{"delta": "a.b=1"}, "`delta` payload must be a dict, got str."},
		{"domain a number", map[string]any{"domain": 1, "delta": map[string]any{"a": 1}}, "TypeError: domain must be a string, got int"},
		{"arguments a list", []any{1}, "AttributeError: 'list' object has no attribute 'get'"},
	}
	for _, tt := range refusals {
		t.Run(tt.name, func(t *testing.T) {
			b := newBot(t)
			got := b.result(t, "apply_sync_delta", tt.d).(map[string]any)
			assert.Equal(t, false, got["success"])
			assert.Contains(t, got["errors"].([]any)[0], tt.want)
		})
	}
}

// ref-rtvi-state.md section 7, items 12-14.
func TestGetScenarioSummary(t *testing.T) {
	t.Run("12 actions verbatim, hash of the DB, nothing else", func(t *testing.T) {
		b := newBot(t)
		b.st.SetDB(map[string]any{"reservations": map[string]any{"R1": map[string]any{}}})
		b.st.AppendAction(state.Action{"action_type": "rebook_flight", "x": 1})
		b.st.NextCallIndex("rebook_flight")
		got := b.result(t, "get_scenario_summary", map[string]any{}).(map[string]any)
		assert.Equal(t, []any{map[string]any{"action_type": "rebook_flight", "x": float64(1)}}, got["actions"])
		assert.Equal(t, "7533c521991a126506e42acc40ef760988d4b273eff23fffc379e92bf13cc496", got["db_hash"])
		assert.Len(t, got, 2, "no db, no call counts, no user_db_hash")
	})
	t.Run("13 empty state", func(t *testing.T) {
		b := newBot(t)
		m := b.request(t, "get_scenario_summary", nil)
		assert.Equal(t, map[string]any{"actions": []any{}, "db_hash": nil}, m["data"].(map[string]any)["d"])
	})
	t.Run("14 include_db", func(t *testing.T) {
		b := newBot(t)
		b.st.SetDB(map[string]any{"x": 1})
		assert.NotContains(t, b.result(t, "get_scenario_summary", map[string]any{}), "db")
		got := b.result(t, "get_scenario_summary", map[string]any{"include_db": true}).(map[string]any)
		assert.Equal(t, map[string]any{"x": float64(1)}, got["db"])
		got = b.result(t, "get_scenario_summary", map[string]any{"include_db": "false"}).(map[string]any)
		assert.Contains(t, got, "db", `Python truthiness: "false" is true`)
		got = b.result(t, "get_scenario_summary", map[string]any{"include_db": 0}).(map[string]any)
		assert.NotContains(t, got, "db")
	})
	t.Run("an empty DB reports null, with db null", func(t *testing.T) {
		b := newBot(t)
		b.st.SetDB(map[string]any{})
		got := b.result(t, "get_scenario_summary", map[string]any{"include_db": true}).(map[string]any)
		assert.Equal(t, map[string]any{"actions": []any{}, "db_hash": nil, "db": nil}, got)
	})
	t.Run("the hash reaches the harness exactly", func(t *testing.T) {
		b := newBot(t)
		b.st.SetDB(map[string]any{"big": json.Number("123456789012345678901234567890"), "f": json.Number("1.50"), "s": "é\U0001F600"})
		got := b.result(t, "get_scenario_summary", map[string]any{"include_db": true}).(map[string]any)
		want, err := dbhash.Hash(b.st.Snapshot())
		require.NoError(t, err)
		assert.Equal(t, want, got["db_hash"])
		// The DB in the reply hashes the same once decoded as Python would.
		reply, err := b.d.Handle(context.Background(), []byte(
			`{"label":"rtvi-ai","type":"client-message","id":"s","data":{"t":"get_scenario_summary","d":{"include_db":true}}}`))
		require.NoError(t, err)
		v, err := pyjson.Decode(reply)
		require.NoError(t, err)
		sent, err := dbhash.Hash(v.(map[string]any)["data"].(map[string]any)["d"].(map[string]any)["db"])
		require.NoError(t, err)
		assert.Equal(t, want, sent)
	})
	t.Run("arguments a list", func(t *testing.T) {
		b := newBot(t)
		b.st.SetDB(map[string]any{"x": 1})
		assert.Equal(t, map[string]any{"actions": []any{}, "db_hash": nil}, b.result(t, "get_scenario_summary", []any{1}))
	})
}

// Tool calls and summary requests at the same time, under -race: no
// summary ever lists an action whose write its DB lacks.
func TestSummaryDuringToolCalls(t *testing.T) {
	b := newBot(t)
	b.startScenario(t)
	b.st.SetDB(map[string]any{"flags": map[string]any{}})
	set, _ := b.installer.current()
	ctx := context.Background()

	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 50 {
				args := map[string]any{"name": string(rune('a'+g)) + strings.Repeat("x", i), "value": true}
				assert.NoError(t, set.Call(ctx, "set_flag", args, func(any) error { return nil }, nil))
			}
		}()
	}
	for range 50 {
		got := b.result(t, "get_scenario_summary", map[string]any{"include_db": true}).(map[string]any)
		flags := got["db"].(map[string]any)["flags"].(map[string]any)
		// DB and log come from one moment; set_flag writes the DB, then
		// records its action, so a summary may fall between the two.
		assert.LessOrEqual(t, len(got["actions"].([]any)), len(flags))
	}
	wg.Wait()
	got := b.result(t, "get_scenario_summary", nil).(map[string]any)
	assert.Len(t, got["actions"], 200)
	assert.Len(t, b.out.all(), 200, "every write announced an action-applied")
}

func TestToolMessagesGoOutAsServerMessages(t *testing.T) {
	b := newBot(t)
	b.startScenario(t)
	b.st.SetDB(map[string]any{"flags": map[string]any{}})
	set, _ := b.installer.current()
	ctx := context.Background()
	require.NoError(t, set.Call(ctx, "set_flag", map[string]any{"name": "a", "value": true}, func(any) error { return nil }, nil))
	require.NoError(t, set.Call(ctx, "EndConversationTool", map[string]any{}, func(any) error { return nil }, nil))

	out := b.out.all()
	require.Len(t, out, 2)
	assert.Equal(t, map[string]any{"label": "rtvi-ai", "type": "server-message", "data": map[string]any{
		"type": "action-applied", "tool_domain": testDomain,
		"action": map[string]any{"action_type": "set_flag", "name": "set_flag",
			"arguments": map[string]any{"name": "a", "value": true}, "result": map[string]any{"ok": true}},
	}}, out[0])
	assert.Equal(t, map[string]any{"label": "rtvi-ai", "type": "server-message", "data": map[string]any{
		"text": "<exit>The task is finished.</exit>",
	}}, out[1])
}

// ref-rtvi-state.md section 7, items 52-57.
func TestGetContextHistory(t *testing.T) {
	t.Run("52 no calls in flight: no wait", func(t *testing.T) {
		polls := &countingInFlight{}
		b := newBot(t, func(c *rtvi.Config) { c.InFlight = polls })
		b.conv.messages = []any{rtvi.ChatMessage{Role: "user", Content: "hi"}}
		assert.Equal(t, map[string]any{"context": "[{'role': 'user', 'content': 'hi'}]"}, b.result(t, "get_context_history", nil))
		assert.Equal(t, 1, polls.count(), "asked once, no polling")
	})
	t.Run("53 waits for a call in flight", func(t *testing.T) {
		var tracker rtvi.CallTracker
		b := newBot(t, func(c *rtvi.Config) { c.InFlight = &tracker })
		end := tracker.Begin()
		go func() {
			time.Sleep(200 * time.Millisecond)
			b.conv.add(map[string]any{"role": "tool", "content": "EndConversationTool done"})
			end()
		}()
		start := time.Now()
		got := b.result(t, "get_context_history", nil).(map[string]any)
		assert.GreaterOrEqual(t, time.Since(start), 150*time.Millisecond)
		assert.Contains(t, got["context"], "EndConversationTool")
	})
	t.Run("54 a call that never ends: the wait is bounded", func(t *testing.T) {
		var tracker rtvi.CallTracker
		b := newBot(t, func(c *rtvi.Config) { c.InFlight = &tracker; c.HistoryWait = 300 * time.Millisecond })
		tracker.Begin()
		b.conv.add(map[string]any{"role": "user", "content": "stuck"})
		start := time.Now()
		got := b.result(t, "get_context_history", nil).(map[string]any)
		assert.GreaterOrEqual(t, time.Since(start), 250*time.Millisecond)
		assert.Contains(t, got["context"], "stuck")
	})
	t.Run("55 no in-flight reporter: no wait", func(t *testing.T) {
		b := newBot(t)
		b.conv.messages = []any{map[string]any{"role": "user", "content": "ok"}}
		got := b.result(t, "get_context_history", nil).(map[string]any)
		// A map has no key order; the transcript lists its keys sorted.
		assert.Equal(t, "[{'content': 'ok', 'role': 'user'}]", got["context"])
	})
	t.Run("57 unreadable messages give an empty transcript", func(t *testing.T) {
		b := newBot(t)
		b.conv.readErr = errors.New("gone")
		assert.Equal(t, map[string]any{"context": "[]"}, b.result(t, "get_context_history", nil))
	})
	t.Run("media are stripped", func(t *testing.T) {
		b := newBot(t)
		b.conv.messages = []any{orderedMsg{Role: "user", Content: []any{
			map[string]any{"type": "input_audio", "input_audio": map[string]any{"data": strings.Repeat("QUJD", 1000), "format": "wav"}},
		}}}
		got := b.result(t, "get_context_history", nil).(map[string]any)
		assert.Equal(t, "[{'role': 'user', 'content': [{'input_audio': {'data': '<audio>', 'format': 'wav'}, 'type': 'input_audio'}]}]", got["context"])
	})
	t.Run("a negative HistoryWait never waits", func(t *testing.T) {
		var tracker rtvi.CallTracker
		b := newBot(t, func(c *rtvi.Config) { c.InFlight = &tracker; c.HistoryWait = -1 })
		tracker.Begin()
		b.conv.add(map[string]any{"role": "user", "content": "now"})
		assert.Contains(t, b.result(t, "get_context_history", nil).(map[string]any)["context"], "now")
	})
	t.Run("a rune cut in half does not cost the transcript", func(t *testing.T) {
		b := newBot(t)
		b.conv.add(map[string]any{"role": "user", "content": "caf\xc3"})
		assert.Equal(t, "[{'content': 'caf\ufffd', 'role': 'user'}]", b.result(t, "get_context_history", nil).(map[string]any)["context"])
	})
	t.Run("no conversation", func(t *testing.T) {
		b := newBot(t, func(c *rtvi.Config) { c.Conversation = nil })
		assert.Equal(t, map[string]any{"context": "[]"}, b.result(t, "get_context_history", nil))
	})
	t.Run("a cancelled wait is an error-response", func(t *testing.T) {
		var tracker rtvi.CallTracker
		b := newBot(t, func(c *rtvi.Config) { c.InFlight = &tracker })
		tracker.Begin()
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		defer cancel()
		reply, err := b.d.Handle(ctx, []byte(`{"label":"rtvi-ai","type":"client-message","id":"h","data":{"t":"get_context_history"}}`))
		require.NoError(t, err)
		m := decode(t, reply)
		assert.Equal(t, "error-response", m["type"])
		assert.Contains(t, m["data"].(map[string]any)["error"], "RuntimeError: get_context_history: context deadline exceeded")
	})
}

func TestCallTracker(t *testing.T) {
	var c rtvi.CallTracker
	assert.False(t, c.CallsInProgress())
	end1, end2 := c.Begin(), c.Begin()
	end1()
	end1()
	assert.True(t, c.CallsInProgress(), "ending twice counts once")
	end2()
	assert.False(t, c.CallsInProgress())
}

// A db_path whose file holds a JSON list: the Python loader accepts it
// (json.loads), keeps it as shared_state["db"] and get_dict_hash hashes
// the list; an empty list is falsy there, so its hash is null. Failed
// before: the request was refused with a ValueError.
func TestApplyInitializationLoadsAListDB(t *testing.T) {
	root := t.TempDir()
	// The hash NeMo's get_dict_hash gives the file's list (computed with
	// nemo_voice_agent/evaluation/db_hash.py).
	const list = `[{"session": 1, "b": 1.0, "a": "None", "bookings": [3, 1]}, 2.5, "x", null]`
	const pythonHash = "fbc8ff7124bc02de8573715d61e9d63956120423e1d321bed790893bc329e18b"
	require.NoError(t, os.WriteFile(filepath.Join(root, "list.json"), []byte(list), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(root, "empty.json"), []byte(`[]`), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(root, "map.json"), []byte(`{"flags": {}}`), 0o644))
	ok := map[string]any{"success": true, "errors": []any{}}

	b := newBot(t, func(c *rtvi.Config) { c.DataRoot = root })
	b.startScenario(t)
	assert.Equal(t, ok, b.result(t, "apply_initialization", map[string]any{"shared_state_init": `{"db_path": "list.json"}`}))
	sum := b.result(t, "get_scenario_summary", map[string]any{"include_db": true}).(map[string]any)
	assert.Equal(t, pythonHash, sum["db_hash"])
	var want any
	require.NoError(t, json.Unmarshal([]byte(list), &want))
	assert.Equal(t, want, sum["db"])
	assert.Equal(t, pythonHash, b.result(t, "get_scenario_summary", nil).(map[string]any)["db_hash"])

	// As in Python, "db" is now present: the same db_path does not reload,
	// and initialisation actions cannot run on a list.
	assert.Equal(t, ok, b.result(t, "apply_initialization", map[string]any{"shared_state_init": `{"db_path": "map.json"}`}))
	assert.Equal(t, pythonHash, b.result(t, "get_scenario_summary", nil).(map[string]any)["db_hash"])
	got := b.result(t, "apply_initialization", map[string]any{"actions": []any{map[string]any{"func_name": "f"}}}).(map[string]any)
	assert.Equal(t, false, got["success"])

	// A new scenario forgets it; an inline DB replaces it.
	b.startScenario(t)
	assert.Nil(t, b.result(t, "get_scenario_summary", nil).(map[string]any)["db_hash"])
	assert.Equal(t, ok, b.result(t, "apply_initialization", map[string]any{"shared_state_init": `{"db_path": "list.json"}`}))
	assert.Equal(t, ok, b.result(t, "apply_initialization", map[string]any{"shared_state_init": `{"db": {"flags": {}}}`}))
	sum = b.result(t, "get_scenario_summary", map[string]any{"include_db": true}).(map[string]any)
	assert.Equal(t, map[string]any{"flags": map[string]any{}}, sum["db"])

	// An empty list is falsy: a null hash and a null db.
	b.startScenario(t)
	assert.Equal(t, ok, b.result(t, "apply_initialization", map[string]any{"shared_state_init": `{"db_path": "empty"}`}))
	sum = b.result(t, "get_scenario_summary", map[string]any{"include_db": true}).(map[string]any)
	assert.Nil(t, sum["db_hash"])
	assert.Nil(t, sum["db"])
}
