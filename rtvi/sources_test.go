package rtvi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/dbhash"
	"github.com/voiceeval/schematools/hooks"
	"github.com/voiceeval/schematools/registry"
	"github.com/voiceeval/schematools/rtvi"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

const sourcesDomain = "shop"

// sourcesDB is the shop DB the tests load from db_path, sharded.
var sourcesDB = map[string]string{
	"shop/db/users.json":  `{"u1": {"name": "Ann", "points": 1}, "u2": {"name": "Bob", "points": 2}}`,
	"shop/db/orders.json": `[{"id": "o1", "user": "u1"}]`,
	"shop/db/flags.json":  `{"open": true}`,
	"shop/list.json":      `[1, 2]`,
	"shop/bad.json":       `{"a": `,
}

// sourcesTools registers the shop's tools, one per way of writing the DB:
// set_points (a record, through a Writer), add_order (a named table),
// close_shop (every table), poke (under View: it breaks the rules) and
// read_users.
func sourcesTools(t *testing.T) *registry.Tools {
	t.Helper()
	reg := &registry.Tools{Logger: quiet}
	db := tool.DB{NotLoaded: "no DB", Recorder: tool.Recorder{ActionTypes: []string{"set_points", "add_order", "close_shop"}}}
	type pointsParams struct {
		User   string `json:"user"`
		Points int    `json:"points"`
	}
	type orderParams struct {
		ID string `json:"id"`
	}
	add := func(name string, fn any) {
		require.NoError(t, reg.Register(sourcesDomain, name, registry.Plain(func(d registry.Deps) (tool.Tool, error) {
			switch f := fn.(type) {
			case func(context.Context, *state.Shared, pointsParams) (any, error):
				return tool.New(name, name, f, &tool.Options{State: d.State})
			case func(context.Context, *state.Shared, orderParams) (any, error):
				return tool.New(name, name, f, &tool.Options{State: d.State})
			case func(context.Context, *state.Shared, struct{}) (any, error):
				return tool.New(name, name, f, &tool.Options{State: d.State})
			}
			return nil, fmt.Errorf("tool %s: unknown signature", name)
		})))
	}
	add("set_points", func(ctx context.Context, st *state.Shared, p pointsParams) (any, error) {
		return db.WriteRecords(ctx, st, []string{"users"}, func(w *state.Writer) (any, state.Action, error) {
			rec, err := w.Own("users", p.User)
			if err != nil || rec == nil {
				return "no user", nil, err
			}
			rec["points"] = json.Number(fmt.Sprint(p.Points))
			return "ok", state.NewAction("set_points", map[string]any{"user": p.User, "points": p.Points}, "ok"), nil
		})
	})
	add("add_order", func(ctx context.Context, st *state.Shared, p orderParams) (any, error) {
		return db.Write(ctx, st, []string{"orders"}, func(db map[string]any) (any, state.Action, error) {
			orders, _ := db["orders"].([]any)
			db["orders"] = append(orders, map[string]any{"id": p.ID, "user": "u2"})
			return "ok", state.NewAction("add_order", map[string]any{"id": p.ID}, "ok"), nil
		})
	})
	add("close_shop", func(ctx context.Context, st *state.Shared, _ struct{}) (any, error) {
		return db.Write(ctx, st, nil, func(db map[string]any) (any, state.Action, error) {
			db["flags"].(map[string]any)["open"] = false
			delete(db["users"].(map[string]any), "u2")
			return "ok", state.NewAction("close_shop", map[string]any{}, "ok"), nil
		})
	})
	add("poke", func(ctx context.Context, st *state.Shared, _ struct{}) (any, error) {
		return db.Read(st, func(db map[string]any) (any, error) {
			db["users"].(map[string]any)["u1"].(map[string]any)["name"] = "Mallory" // forbidden
			return "poked", nil
		})
	})
	add("read_users", func(ctx context.Context, st *state.Shared, _ struct{}) (any, error) {
		return db.Read(st, func(db map[string]any) (any, error) { return state.Clone(db["users"]), nil })
	})
	require.NoError(t, registry.RegisterHarness(reg))
	require.NoError(t, reg.SetHooks(sourcesDomain, hooks.Set{Init: map[string]hooks.Init{
		"bonus": {Tables: []string{"users"}, Func: func(db, args map[string]any, _ func() time.Time) error {
			db["users"].(map[string]any)["u1"].(map[string]any)["points"] = json.Number("100")
			return nil
		}},
		"anything": {Func: func(db, args map[string]any, _ func() time.Time) error {
			db["flags"].(map[string]any)["open"] = "maybe"
			return nil
		}},
	}}))
	return reg
}

// shopBot is a bot of the shop over root, with the cache (nil: none).
func shopBot(t *testing.T, root string, cache *state.SourceCache, logger *slog.Logger) *bot {
	t.Helper()
	return newBot(t, func(c *rtvi.Config) {
		c.Tools, c.DataRoot, c.Sources = sourcesTools(t), root, cache
		if logger != nil {
			c.Logger = logger
		}
	})
}

// shopRoot writes the shop's files under a new data root.
func shopRoot(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	for p, content := range sourcesDB {
		full := filepath.Join(root, filepath.FromSlash(p))
		require.NoError(t, os.MkdirAll(filepath.Dir(full), 0o755))
		require.NoError(t, os.WriteFile(full, []byte(content), 0o644))
	}
	return root
}

// A step of a scenario: a client message, or a tool call.
type step struct {
	msg  string         // a client message's t, or "" for a tool call
	args map[string]any // its d, or the tool's arguments
	tool string
}

// play starts a scenario of the shop and plays steps, returning every
// reply's d (a tool's result) in order.
func (b *bot) play(t *testing.T, steps []step) []any {
	t.Helper()
	require.Equal(t, true, b.result(t, "update_system_prompt", map[string]any{
		"prompt": "You run a shop.", "add_suffix": false, "tool_domain": sourcesDomain,
		"tools": `{"set_points": {}, "add_order": {}, "close_shop": {}, "poke": {}, "read_users": {}}`,
	}))
	var out []any
	for _, s := range steps {
		if s.msg != "" {
			out = append(out, b.result(t, s.msg, s.args))
			continue
		}
		set, _ := b.installer.current()
		require.NoError(t, set.Call(context.Background(), s.tool, s.args, func(v any) error { out = append(out, v); return nil }, nil))
	}
	return out
}

var (
	loadShop  = step{msg: "apply_initialization", args: map[string]any{"domain": sourcesDomain, "shared_state_init": `{"db_path": "shop/db"}`}}
	summary   = step{msg: "get_scenario_summary", args: map[string]any{"include_db": true}}
	setPoints = step{tool: "set_points", args: map[string]any{"user": "u1", "points": 7}}
)

// With Config.Sources, every message answers as without: the same DBs,
// the same hashes, the same errors.
func TestSourcesAnswerAsDecoding(t *testing.T) {
	root := shopRoot(t)
	tests := []struct {
		name  string
		steps []step
	}{
		{"load and summarise", []step{loadShop, summary, {msg: "get_scenario_summary"}}},
		{"a record write", []step{loadShop, setPoints, summary, {tool: "read_users"}}},
		{"a table write", []step{loadShop, {tool: "add_order", args: map[string]any{"id": "o2"}}, summary}},
		{"a whole-DB write", []step{loadShop, {tool: "close_shop"}, summary}},
		{"every write", []step{loadShop, setPoints, {tool: "add_order", args: map[string]any{"id": "o2"}}, {tool: "close_shop"}, summary}},
		{"a sync delta", []step{loadShop, {msg: "apply_sync_delta", args: map[string]any{"domain": sourcesDomain, "delta": map[string]any{"users.u1.points": 9}}}, summary}},
		{"init actions of a table", []step{{msg: "apply_initialization", args: map[string]any{"domain": sourcesDomain, "shared_state_init": `{"db_path": "shop/db"}`,
			"actions": []any{map[string]any{"func_name": "bonus"}}}}, summary}},
		{"init actions of any table", []step{{msg: "apply_initialization", args: map[string]any{"domain": sourcesDomain, "shared_state_init": `{"db_path": "shop/db"}`,
			"actions": []any{map[string]any{"func_name": "bonus"}, map[string]any{"func_name": "anything"}, map[string]any{"func_name": "nope"}}}}, summary}},
		{"a second db_path does not reload", []step{loadShop, setPoints, loadShop, summary}},
		{"an inline DB wins", []step{{msg: "apply_initialization", args: map[string]any{"shared_state_init": `{"db_path": "shop/db", "db": {"x": 1}}`}}, summary}},
		{"a list DB", []step{{msg: "apply_initialization", args: map[string]any{"shared_state_init": `{"db_path": "shop/list"}`}}, summary}},
		{"a bad DB", []step{{msg: "apply_initialization", args: map[string]any{"shared_state_init": `{"db_path": "shop/bad"}`}}, summary}},
		{"a missing DB", []step{{msg: "apply_initialization", args: map[string]any{"shared_state_init": `{"db_path": "shop/none"}`}}, summary}},
		{"an escaping path", []step{{msg: "apply_initialization", args: map[string]any{"shared_state_init": `{"db_path": "../shop/db"}`}}, summary}},
	}
	cache := &state.SourceCache{}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := shopBot(t, root, nil, nil).play(t, tt.steps)
			for range 2 { // the first load, and a reuse
				assert.Equal(t, want, shopBot(t, root, cache, nil).play(t, tt.steps))
			}
		})
	}
}

// hashOf is the dbhash of a DB given as JSON.
func hashOf(t *testing.T, db string) string {
	t.Helper()
	var v map[string]any
	d := json.NewDecoder(bytes.NewReader([]byte(db)))
	d.UseNumber()
	require.NoError(t, d.Decode(&v))
	h, err := dbhash.Hash(v)
	require.NoError(t, err)
	return h
}

// Two bots sharing one cache play scenarios that write, one after the
// other and side by side: each starts from the pristine DB and reports
// the hash of what it wrote, and the shared Source stays as loaded.
func TestSourcesSharedByTwoBots(t *testing.T) {
	root := shopRoot(t)
	pristine := hashOf(t, `{"users": {"u1": {"name": "Ann", "points": 1}, "u2": {"name": "Bob", "points": 2}}, "orders": [{"id": "o1", "user": "u1"}], "flags": {"open": true}}`)
	scenarios := []struct {
		steps []step
		hash  string
	}{
		{[]step{loadShop}, pristine},
		{[]step{loadShop, setPoints}, hashOf(t, `{"users": {"u1": {"name": "Ann", "points": 7}, "u2": {"name": "Bob", "points": 2}}, "orders": [{"id": "o1", "user": "u1"}], "flags": {"open": true}}`)},
		{[]step{loadShop, {tool: "add_order", args: map[string]any{"id": "o2"}}}, hashOf(t, `{"users": {"u1": {"name": "Ann", "points": 1}, "u2": {"name": "Bob", "points": 2}}, "orders": [{"id": "o1", "user": "u1"}, {"id": "o2", "user": "u2"}], "flags": {"open": true}}`)},
		{[]step{loadShop, {tool: "close_shop"}}, hashOf(t, `{"users": {"u1": {"name": "Ann", "points": 1}}, "orders": [{"id": "o1", "user": "u1"}], "flags": {"open": false}}`)},
		{[]step{{msg: "apply_initialization", args: map[string]any{"domain": sourcesDomain, "shared_state_init": `{"db_path": "shop/db"}`,
			"actions": []any{map[string]any{"func_name": "bonus"}}}}}, hashOf(t, `{"users": {"u1": {"name": "Ann", "points": 100}, "u2": {"name": "Bob", "points": 2}}, "orders": [{"id": "o1", "user": "u1"}], "flags": {"open": true}}`)},
		{[]step{{msg: "apply_initialization", args: map[string]any{"domain": sourcesDomain, "shared_state_init": `{"db_path": "shop/db"}`,
			"actions": []any{map[string]any{"func_name": "anything"}}}}}, hashOf(t, `{"users": {"u1": {"name": "Ann", "points": 1}, "u2": {"name": "Bob", "points": 2}}, "orders": [{"id": "o1", "user": "u1"}], "flags": {"open": "maybe"}}`)},
		{[]step{loadShop, {msg: "apply_sync_delta", args: map[string]any{"domain": sourcesDomain, "delta": map[string]any{"flags.open": "later"}}}}, hashOf(t, `{"users": {"u1": {"name": "Ann", "points": 1}, "u2": {"name": "Bob", "points": 2}}, "orders": [{"id": "o1", "user": "u1"}], "flags": {"open": "later"}}`)},
	}
	// run plays scenario i on b: the summary before the writes is the
	// pristine hash, the one after the scenario's.
	run := func(t *testing.T, b *bot, i int) {
		sc := scenarios[i%len(scenarios)]
		steps := append([]step{sc.steps[0], {msg: "get_scenario_summary"}}, sc.steps[1:]...)
		out := b.play(t, append(steps, step{msg: "get_scenario_summary"}))
		first := out[1].(map[string]any)["db_hash"]
		if len(sc.steps[0].args) < 3 { // no init actions
			assert.Equal(t, pristine, first, "scenario %d starts pristine", i)
		}
		assert.Equal(t, sc.hash, out[len(out)-1].(map[string]any)["db_hash"], "scenario %d", i)
	}
	t.Run("one after the other", func(t *testing.T) {
		cache := &state.SourceCache{}
		a, b := shopBot(t, root, cache, nil), shopBot(t, root, cache, nil)
		for i := range 3 * len(scenarios) {
			run(t, []*bot{a, b}[i%2], i)
		}
		_, err := cache.Load(root, "shop/db")
		assert.NoError(t, err, "no write reached the shared Source")
	})
	t.Run("side by side", func(t *testing.T) {
		cache := &state.SourceCache{}
		var wg sync.WaitGroup
		for w := range 2 {
			b := shopBot(t, root, cache, nil)
			wg.Go(func() {
				for i := range 3 * len(scenarios) {
					run(t, b, i+w)
				}
			})
		}
		wg.Wait()
		_, err := cache.Load(root, "shop/db")
		assert.NoError(t, err, "no write reached the shared Source")
	})
}

// A tool that writes under View changes the shared Source; the next
// scenario, on this bot or another, starts from the DB as loaded, and the
// dispatcher says what happened.
func TestSourcesUndoARuleBreakingTool(t *testing.T) {
	root := shopRoot(t)
	pristine := hashOf(t, `{"users": {"u1": {"name": "Ann", "points": 1}, "u2": {"name": "Bob", "points": 2}}, "orders": [{"id": "o1", "user": "u1"}], "flags": {"open": true}}`)
	for _, next := range []string{"the same bot", "another bot"} {
		t.Run(next, func(t *testing.T) {
			var logs bytes.Buffer
			logger := slog.New(slog.NewTextHandler(&logs, nil))
			cache := &state.SourceCache{}
			a := shopBot(t, root, cache, logger)
			b := a
			if next == "another bot" {
				b = shopBot(t, root, cache, logger)
			}
			a.play(t, []step{loadShop, {tool: "poke"}})
			out := b.play(t, []step{loadShop, summary, {tool: "read_users"}})
			sum := out[1].(map[string]any)
			assert.Equal(t, pristine, sum["db_hash"])
			assert.Equal(t, "Ann", sum["db"].(map[string]any)["users"].(map[string]any)["u1"].(map[string]any)["name"])
			assert.Equal(t, "Ann", out[2].(map[string]any)["u1"].(map[string]any)["name"])
			assert.Contains(t, logs.String(), "a tool changed a shared DB in place")
			assert.Contains(t, logs.String(), `[\"users\"]`)

			logs.Reset()
			b.play(t, []step{loadShop})
			assert.NotContains(t, logs.String(), "changed a shared DB", "restored once")
		})
	}
}

// The errors a cached load reports are those of a decoding one.
func TestSourcesLoadErrors(t *testing.T) {
	root := shopRoot(t)
	cache := &state.SourceCache{}
	for _, rel := range []string{"shop/none", "../x", "/etc/passwd", "shop/bad"} {
		t.Run(rel, func(t *testing.T) {
			_, want := state.LoadDB(root, rel)
			_, got := cache.Load(root, rel)
			require.Error(t, got)
			assert.Equal(t, want.Error(), got.Error())
			for _, sentinel := range []error{state.ErrDBNotFound, state.ErrPathEscape, state.ErrInvalidDB} {
				assert.Equal(t, errors.Is(want, sentinel), errors.Is(got, sentinel))
			}
		})
	}
}
