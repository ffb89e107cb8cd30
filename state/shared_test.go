package state_test

import (
	"context"
	"encoding/json"
	"errors"
	"github.com/voiceeval/schematools/dbhash"
	"reflect"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/state"
)

func TestZeroValueIsUsable(t *testing.T) {
	var s state.Shared
	assert.Nil(t, s.Snapshot())
	assert.Equal(t, state.DefaultDomain, s.Domain())
	assert.Nil(t, s.Notifier())
	assert.Empty(t, s.Actions())
	assert.NotNil(t, s.Actions())
	assert.Equal(t, map[string]any{}, s.Values())
	assert.Equal(t, 1, s.NextCallIndex("x"), "no counts")
	require.NoError(t, s.View(func(db map[string]any) error {
		assert.Nil(t, db)
		return nil
	}))
	s.AppendAction(state.NewAction("x", nil, nil))
	assert.Len(t, s.Actions(), 1)
}

func TestUpdateAndViewSeeTheSameDB(t *testing.T) {
	s := state.New()
	s.SetDB(map[string]any{"orders": map[string]any{}})
	require.NoError(t, s.UpdateTables(nil, func(db map[string]any) error {
		db["orders"].(map[string]any)["o1"] = "pending"
		return nil
	}))
	var got any
	require.NoError(t, s.View(func(db map[string]any) error {
		got = db["orders"].(map[string]any)["o1"]
		return nil
	}))
	assert.Equal(t, "pending", got)

	boom := errors.New("boom")
	assert.ErrorIs(t, s.UpdateTables(nil, func(map[string]any) error { return boom }), boom)
	assert.ErrorIs(t, s.View(func(map[string]any) error { return boom }), boom)
}

func TestSnapshotIsADeepCopy(t *testing.T) {
	s := state.New()
	s.SetDB(map[string]any{"t": map[string]any{"k": []any{"a"}}})
	snap := s.Snapshot()
	snap["t"].(map[string]any)["k"].([]any)[0] = "mutated"
	snap["new"] = true
	assert.Equal(t, map[string]any{"t": map[string]any{"k": []any{"a"}}}, s.Snapshot())
}

func TestActionsAreCopiedInAndOut(t *testing.T) {
	s := state.New()
	args := map[string]any{"order_id": "o1"}
	a := state.NewAction("cancel_order", args, map[string]any{"ok": true})
	s.AppendAction(a)
	args["order_id"] = "changed after append"

	got := s.Actions()
	require.Len(t, got, 1)
	assert.Equal(t, "cancel_order", got[0]["action_type"])
	assert.Equal(t, "cancel_order", got[0]["name"])
	assert.Equal(t, map[string]any{"order_id": "o1"}, got[0]["arguments"])

	got[0]["arguments"].(map[string]any)["order_id"] = "changed after read"
	assert.Equal(t, map[string]any{"order_id": "o1"}, s.Actions()[0]["arguments"])

	require.NoError(t, s.Seed(state.Seed{Actions: []state.Action{{"action_type": "a"}, {"action_type": "b"}}, ReplaceLog: true}, nil))
	assert.Equal(t, []state.Action{{"action_type": "a"}, {"action_type": "b"}}, s.Actions())
}

func TestNewActionHasArguments(t *testing.T) {
	assert.Equal(t, map[string]any{}, state.NewAction("x", nil, nil)["arguments"])
}

// Checklist 101: call counters start at 1, count per name, and are cleared
// per scenario.
func TestNextCallIndex(t *testing.T) {
	s := state.New()
	assert.Equal(t, 1, s.NextCallIndex("refund"))
	assert.Equal(t, 2, s.NextCallIndex("refund"))
	assert.Equal(t, 1, s.NextCallIndex("transfer"))
	assert.Equal(t, 3, s.NextCallIndex("refund"))
	s.StartScenario("", nil)
	assert.Equal(t, 1, s.NextCallIndex("refund"))
}

func TestValuesAreCopied(t *testing.T) {
	s := state.New()
	v := map[string]any{"menu": []any{"latte"}}
	require.NoError(t, s.Seed(state.Seed{Values: map[string]any{"config": v}}, nil))
	got, _ := s.Value("config")
	got.(map[string]any)["menu"].([]any)[0] = "changed"
	got, ok := s.Value("config")
	require.True(t, ok)
	assert.Equal(t, map[string]any{"menu": []any{"latte"}}, got)
	_, ok = s.Value("missing")
	assert.False(t, ok)
	assert.Equal(t, map[string]any{"config": map[string]any{"menu": []any{"latte"}}}, s.Values())
}

func TestStartScenarioClearsInPlace(t *testing.T) {
	s := state.New()
	held := s // a tool holding the pointer
	s.StartScenario("coffee", notifyFunc(func(context.Context, any) error { return nil }))
	s.SetDB(map[string]any{"a": 1})
	s.AppendAction(state.Action{"action_type": "x"})
	require.NoError(t, s.Seed(state.Seed{Values: map[string]any{"k": "v"}}, nil))
	s.NextCallIndex("x")

	s.StartScenario("", s.Notifier())

	assert.Same(t, held, s)
	assert.Nil(t, held.Snapshot())
	assert.Empty(t, held.Actions())
	assert.Empty(t, held.Values())
	assert.Equal(t, 1, held.NextCallIndex("x"))
	assert.Equal(t, state.DefaultDomain, held.Domain())
	assert.NotNil(t, held.Notifier())
}

func TestDomainAndNotifier(t *testing.T) {
	s := state.New()
	s.StartScenario("tau2_airline", nil)
	assert.Equal(t, "tau2_airline", s.Domain())
	require.NoError(t, s.Seed(state.Seed{Domain: "retail"}, nil))
	assert.Equal(t, "retail", s.Domain())
	s.StartScenario("", nil)
	assert.Equal(t, state.DefaultDomain, s.Domain())

	var got []any
	s.StartScenario("", notifyFunc(func(_ context.Context, m any) error {
		got = append(got, m)
		return nil
	}))
	require.NoError(t, s.Notifier().Notify(context.Background(), "hi"))
	assert.Equal(t, []any{"hi"}, got)
	s.StartScenario("", nil)
	assert.Nil(t, s.Notifier())
}

// Every method holds the lock: run them all at once under -race.
func TestConcurrentUse(t *testing.T) {
	s := state.New()
	s.SetDB(map[string]any{"n": 0})
	const workers, rounds = 8, 500
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := range rounds {
				_ = s.UpdateTables(nil, func(db map[string]any) error {
					db["n"] = db["n"].(int) + 1
					return nil
				})
				_ = s.View(func(db map[string]any) error { _ = db["n"]; return nil })
				s.AppendAction(state.Action{"action_type": "inc", "w": w, "i": i})
				if i%50 == 0 {
					_ = s.Actions()
				}
				s.NextCallIndex("inc")
				_ = s.Seed(state.Seed{Values: map[string]any{"last": i}}, nil)
				_, _ = s.Value("last")
				_ = s.Snapshot()
				_ = s.Domain()
			}
		})
	}
	wg.Wait()
	assert.Equal(t, workers*rounds, s.Snapshot()["n"])
	assert.Len(t, s.Actions(), workers*rounds)
	assert.Equal(t, workers*rounds+1, s.NextCallIndex("inc"))
}

// sharedCopy returns the copy of src's DB that states share.
func sharedCopy(t *testing.T, src *state.Source) (db map[string]any) {
	t.Helper()
	st := state.New()
	st.Share(src)
	require.NoError(t, st.View(func(d map[string]any) error { db = d; return nil }))
	return db
}

func TestShareCopiesOnWrite(t *testing.T) {
	orig := map[string]any{"t": map[string]any{"k": 1}}
	source := state.NewSource(orig)
	src := sharedCopy(t, source)
	assert.NotSame(t, &orig, &src)
	orig["t"].(map[string]any)["k"] = 9
	assert.Equal(t, 1, src["t"].(map[string]any)["k"], "the Source holds a copy of the caller's DB")

	a, b := state.New(), state.New()
	a.Share(source)
	b.Share(source)
	h0, err := a.Hash()
	require.NoError(t, err)
	require.NoError(t, a.View(func(db map[string]any) error {
		assert.Equal(t, 1, db["t"].(map[string]any)["k"])
		return nil
	}))
	require.NoError(t, a.UpdateTables(nil, func(db map[string]any) error {
		db["t"].(map[string]any)["k"] = 2
		return nil
	}))
	assert.Equal(t, 1, src["t"].(map[string]any)["k"], "the shared DB is never written")
	assert.Equal(t, 2, a.Snapshot()["t"].(map[string]any)["k"])
	h1, err := a.Hash()
	require.NoError(t, err)
	want, err := dbhash.Hash(map[string]any{"t": map[string]any{"k": 2}})
	require.NoError(t, err)
	assert.Equal(t, want, h1, "a written DB hashes as it is")
	hb, err := b.Hash()
	require.NoError(t, err)
	assert.Equal(t, h0, hb, "an unwritten one as the Source")

	snap := b.Snapshot()
	snap["t"].(map[string]any)["k"] = 3
	assert.Equal(t, 1, src["t"].(map[string]any)["k"], "a snapshot of a shared DB is a copy")
	assert.NoError(t, source.Verify())
}

// A tool that writes under View changes the Source's shared copy, never
// the caller's DB; Verify names the changed tables and puts a fresh copy
// in place for the states that share the Source from then on.
func TestVerifyCatchesAndUndoesAWriteUnderView(t *testing.T) {
	orig := map[string]any{"t": map[string]any{"k": 1}, "u": []any{map[string]any{"x": "a"}}, "n": json.Number("1")}
	source := state.NewSource(orig)
	st := state.New()
	st.Share(source)
	require.NoError(t, st.View(func(db map[string]any) error {
		db["t"].(map[string]any)["k"] = 2              // forbidden
		db["u"].([]any)[0].(map[string]any)["x"] = "b" // forbidden
		return nil
	}))
	err := source.Verify()
	require.ErrorIs(t, err, state.ErrSourceChanged)
	assert.ErrorContains(t, err, `["t" "u"]`)
	assert.Equal(t, 1, orig["t"].(map[string]any)["k"], "the caller's DB is never shared")
	fresh := state.New()
	fresh.Share(source)
	assert.Equal(t, map[string]any{"t": map[string]any{"k": 1}, "u": []any{map[string]any{"x": "a"}}, "n": json.Number("1")}, fresh.Snapshot())
	require.NoError(t, source.Verify())
	for _, change := range []func(db map[string]any){
		func(db map[string]any) { db["extra"] = 1 },
		func(db map[string]any) { delete(db, "n") },
		func(db map[string]any) { db["n"] = json.Number("1.0") },
		func(db map[string]any) { db["u"] = append(db["u"].([]any), nil) },
	} {
		s := state.New()
		s.Share(source)
		_ = s.View(func(db map[string]any) error { change(db); return nil })
		assert.ErrorIs(t, source.Verify(), state.ErrSourceChanged)
	}
}

func TestStartScenarioAndSeed(t *testing.T) {
	s := state.New()
	s.SetDB(map[string]any{"old": true})
	s.AppendAction(state.NewAction("old", nil, nil))
	s.NextCallIndex("x")
	n := notifyFunc(func(context.Context, any) error { return nil })
	s.StartScenario("airline", n)
	assert.Nil(t, s.Snapshot())
	assert.Empty(t, s.Actions())
	assert.Equal(t, "airline", s.Domain())
	assert.NotNil(t, s.Notifier())

	var seen map[string]any
	err := s.Seed(state.Seed{
		DB: map[string]any{"x": 1}, ReplaceDB: true,
		Actions: []state.Action{{"action_type": "seeded"}}, ReplaceLog: true,
		Values: map[string]any{"accounts": 2}, CallCounts: map[string]int{"refund": 4}, Domain: "retail",
	}, func(db map[string]any) error {
		db["y"] = 2
		seen = db
		return errors.New("then failed")
	})
	require.EqualError(t, err, "then failed")
	assert.Equal(t, map[string]any{"x": 1, "y": 2}, seen)
	assert.Equal(t, map[string]any{"x": 1, "y": 2}, s.Snapshot(), "what was merged stays merged")
	assert.Equal(t, "seeded", s.Actions()[0]["action_type"])
	v, _ := s.Value("accounts")
	assert.Equal(t, 2, v)
	assert.Equal(t, 5, s.NextCallIndex("refund"))
	assert.Equal(t, 1, s.NextCallIndex("x"), "the counters were replaced")
	assert.Equal(t, "retail", s.Domain())

	require.NoError(t, s.Seed(state.Seed{}, nil), "an empty seed changes nothing")
	assert.Equal(t, "retail", s.Domain())
}

func TestUpdateTablesCopiesOnlyWhatItNames(t *testing.T) {
	source := state.NewSource(map[string]any{
		"flights":      map[string]any{"F1": map[string]any{"seats": 3}},
		"reservations": map[string]any{"R1": map[string]any{"status": "ok"}},
	})
	src := sharedCopy(t, source)
	s := state.New()
	s.Share(source)
	require.NoError(t, s.UpdateTables([]string{"reservations"}, func(db map[string]any) error {
		db["reservations"].(map[string]any)["R1"].(map[string]any)["status"] = "cancelled"
		db["new_table"] = map[string]any{}
		return nil
	}))
	assert.Equal(t, "ok", src["reservations"].(map[string]any)["R1"].(map[string]any)["status"], "the shared DB is never written")
	assert.NotContains(t, src, "new_table")
	require.NoError(t, s.View(func(db map[string]any) error {
		// The flights are still the shared table itself: nothing copied them.
		assert.Equal(t, reflect.ValueOf(src["flights"]).Pointer(), reflect.ValueOf(db["flights"]).Pointer())
		return nil
	}))

	// UpdateTables(nil) (or Seed) makes every table private first.
	require.NoError(t, s.UpdateTables(nil, func(db map[string]any) error {
		db["flights"].(map[string]any)["F1"].(map[string]any)["seats"] = 2
		return nil
	}))
	assert.Equal(t, 3, src["flights"].(map[string]any)["F1"].(map[string]any)["seats"])

	other := state.New()
	other.Share(source)
	require.NoError(t, other.UpdateTables([]string{"flights"}, func(map[string]any) error { return nil }))
	taken := other.Snapshot()
	taken["reservations"].(map[string]any)["R1"] = "gone"
	assert.Equal(t, map[string]any{"status": "ok"}, src["reservations"].(map[string]any)["R1"], "Snapshot copies what is still shared")

	// nil means every table; an empty list, none.
	all := state.New()
	all.Share(source)
	require.NoError(t, all.UpdateTables(nil, func(db map[string]any) error {
		db["flights"].(map[string]any)["F1"] = "rebooked"
		return nil
	}))
	assert.Equal(t, map[string]any{"seats": 3}, src["flights"].(map[string]any)["F1"])

	empty := state.New()
	empty.Share(state.NewSource(nil))
	require.NoError(t, empty.UpdateTables([]string{"x"}, func(db map[string]any) error {
		assert.Equal(t, map[string]any{}, db)
		return nil
	}))
	assert.NoError(t, source.Verify())
}

// ViewHashed shows the live DB and action log together, without copying.
func TestViewHashedShowsTheLiveDB(t *testing.T) {
	st := state.New()
	require.NoError(t, st.ViewHashed(func(db map[string]any, actions []state.Action, _ func() (string, error)) error {
		assert.Nil(t, db)
		assert.Empty(t, actions)
		return nil
	}))
	st.SetDB(map[string]any{"t": map[string]any{"a": 1}})
	st.AppendAction(state.Action{"name": "x"})
	var seenDB map[string]any
	require.NoError(t, st.ViewHashed(func(db map[string]any, actions []state.Action, _ func() (string, error)) error {
		seenDB = db
		assert.Equal(t, []state.Action{{"name": "x"}}, actions)
		return nil
	}))
	require.NoError(t, st.View(func(db map[string]any) error {
		assert.True(t, reflect.ValueOf(db).UnsafePointer() == reflect.ValueOf(seenDB).UnsafePointer(), "the live DB, not a copy")
		return nil
	}))
	assert.EqualError(t, st.ViewHashed(func(map[string]any, []state.Action, func() (string, error)) error { return errors.New("boom") }), "boom")
}

// notifyFunc adapts a function to state.Notifier.
type notifyFunc func(ctx context.Context, msg any) error

func (f notifyFunc) Notify(ctx context.Context, msg any) error { return f(ctx, msg) }
