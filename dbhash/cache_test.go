package dbhash_test

import (
	"maps"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/dbhash"
	"github.com/voiceeval/schematools/internal/conformance"
	"github.com/voiceeval/schematools/state"
)

func TestCacheGivesTheSameHashes(t *testing.T) {
	db := map[string]any{
		"flights":      map[string]any{"F1": map[string]any{"seats": 3, "price": 1.5}, "F2": map[string]any{"status": "None"}},
		"reservations": map[string]any{"R1": map[string]any{"bookings": []any{map[string]any{"id": "Y"}, map[string]any{"id": "X"}}}},
		"session":      map[string]any{"id": "excluded"},
		"count":        7,
	}
	cache, want, got := cachedAndPlain(t, db)
	assert.Equal(t, want, got, "every table from the cache")
	var err error

	// A copy that shares the flights and replaced the reservations.
	changed := maps.Clone(db)
	changed["reservations"] = map[string]any{"R2": map[string]any{}}
	changed["extra"] = []any{1, 2}
	want, err = dbhash.Hash(changed)
	require.NoError(t, err)
	got, err = cache.Hash(changed)
	require.NoError(t, err)
	assert.Equal(t, want, got)

	// Options must agree with the cache's.
	_, err = cache.HashWith(dbhash.Options{OrderIndependentFields: []string{}}, db)
	assert.Error(t, err)
}

func TestCacheOnTheAirlineDB(t *testing.T) {
	db, err := state.LoadDB(conformance.Tau2Dir(t), "airline/db")
	require.NoError(t, err)
	source := state.NewSource(db)
	st := state.New()
	st.Share(source)
	require.NoError(t, st.View(func(shared map[string]any) error { db = shared; return nil }))
	cache, err := dbhash.NewCache(db)
	require.NoError(t, err)
	got, err := cache.Hash(db)
	require.NoError(t, err)
	assert.Equal(t, "4da8c3f8adaffe176a9daaa5f20658bb9b36cd945733ab8f9ecf2e8bcbaabcc8", got)

	require.NoError(t, st.UpdateTables([]string{"users"}, func(db map[string]any) error {
		for _, u := range db["users"].(map[string]any) {
			u.(map[string]any)["touched"] = true
			break
		}
		return nil
	}))
	require.NoError(t, st.View(func(cur map[string]any) error {
		want, err := dbhash.Hash(cur)
		require.NoError(t, err)
		got, err := cache.Hash(cur)
		require.NoError(t, err)
		assert.Equal(t, want, got)
		assert.NotEqual(t, "4da8c3f8adaffe176a9daaa5f20658bb9b36cd945733ab8f9ecf2e8bcbaabcc8", got)
		return nil
	}))
}

func BenchmarkHashAirlineCached(b *testing.B) {
	db, err := state.LoadDB(conformance.Tau2Dir(b), "airline/db")
	require.NoError(b, err)
	cache, err := dbhash.NewCache(db)
	require.NoError(b, err)
	changed := maps.Clone(db)
	changed["users"] = state.Clone(db["users"]) // one table rewritten, two shared
	b.ReportAllocs()
	for b.Loop() {
		if _, err := cache.Hash(changed); err != nil {
			b.Fatal(err)
		}
	}
}

// The cache keeps its tables alive: a table allocated later, after the
// source DB is gone, can never be mistaken for a cached one.
func TestCacheSurvivesGarbageCollection(t *testing.T) {
	build := func(n int) map[string]any {
		return map[string]any{"t": map[string]any{"k": n}}
	}
	cache, err := dbhash.NewCache(build(0))
	require.NoError(t, err)
	for i := 1; i < 2000; i++ {
		if i%100 == 0 {
			runtime.GC()
		}
		db := build(i)
		want, err := dbhash.Hash(db)
		require.NoError(t, err)
		got, err := cache.Hash(db)
		require.NoError(t, err)
		require.Equal(t, want, got, "round %d", i)
	}
}

func TestZeroCacheHoldsNothing(t *testing.T) {
	db := map[string]any{"t": map[string]any{"k": 1}}
	want, err := dbhash.Hash(db)
	require.NoError(t, err)
	got, err := new(dbhash.Cache).Hash(db)
	require.NoError(t, err)
	assert.Equal(t, want, got)
	got, err = (*dbhash.Cache)(nil).Hash(db)
	require.NoError(t, err)
	assert.Equal(t, want, got)
}

func TestCacheListTables(t *testing.T) {
	db := map[string]any{
		"bills":         []any{map[string]any{"id": "B1", "total": 1.5}, map[string]any{"id": "B2", "status": "null"}},
		"notifications": []any{map[string]any{"id": "Y"}, map[string]any{"id": "X"}}, // order-independent
		"empty":         []any{},
		"plans":         map[string]any{"P1": map[string]any{}},
	}
	cache, want, got := cachedAndPlain(t, db)
	assert.Equal(t, want, got)
	var err error

	changed := maps.Clone(db)
	bills := append([]any(nil), db["bills"].([]any)...)
	bills[0] = map[string]any{"id": "B1", "total": 2}
	changed["bills"] = bills
	changed["notifications"] = db["notifications"].([]any)[:1] // same array, shorter: not the same table
	want, err = dbhash.Hash(changed)
	require.NoError(t, err)
	got, err = cache.Hash(changed)
	require.NoError(t, err)
	assert.Equal(t, want, got)
}

// A table one write copied, sharing all but the records it changed, is
// hashed with the cached text of the others: the same hash as without the
// cache, whatever the table holds.
func TestCacheRecords(t *testing.T) {
	db := map[string]any{
		"lines": []any{
			map[string]any{"id": "L1", "used": 1.0, "history": []any{map[string]any{"n": 2}, map[string]any{"n": 1}}},
			map[string]any{"id": "L2", "status": " None "}, 7, "text", []any{map[string]any{"x": 1}},
		},
		"users": map[string]any{
			"U1":            map[string]any{"name": "Ada", "bookings": []any{map[string]any{"id": "B"}, map[string]any{"id": "A"}}},
			"U2":            map[string]any{"name": "Bob"},
			"notifications": []any{map[string]any{"id": "Y"}, map[string]any{"id": "X"}}, // an order-independent member
			"count":         3,
		},
		"notifications": []any{map[string]any{"id": "Y"}, map[string]any{"id": "X"}},
	}
	cache, err := dbhash.NewCache(db)
	require.NoError(t, err)
	check := func(t *testing.T, changed map[string]any) {
		t.Helper()
		want, err := dbhash.Hash(changed)
		require.NoError(t, err)
		got, err := cache.Hash(changed)
		require.NoError(t, err)
		assert.Equal(t, want, got)
	}
	lines := func() []any { return append([]any(nil), db["lines"].([]any)...) }
	users := func() map[string]any { return maps.Clone(db["users"].(map[string]any)) }
	for _, tc := range []struct {
		name string
		edit func(m map[string]any)
	}{
		{"a list row replaced", func(m map[string]any) {
			l := lines()
			l[1] = map[string]any{"id": "L2", "status": "Active"}
			m["lines"] = l
		}},
		{"a list row appended, one removed", func(m map[string]any) {
			m["lines"] = append(lines()[1:], map[string]any{"id": "L3"})
		}},
		{"rows reordered", func(m map[string]any) {
			l := lines()
			l[0], l[1] = l[1], l[0]
			m["lines"] = l
		}},
		{"a list emptied", func(m map[string]any) { m["lines"] = []any{} }},
		{"an object record replaced", func(m map[string]any) {
			u := users()
			u["U2"] = map[string]any{"name": "Bob", "age": 40}
			m["users"] = u
		}},
		{"an object record added and one removed", func(m map[string]any) {
			u := users()
			delete(u, "U1")
			u["U0"] = db["users"].(map[string]any)["U1"] // same record, new key
			m["users"] = u
		}},
		{"an order-independent member changed", func(m map[string]any) {
			u := users()
			u["notifications"] = []any{map[string]any{"id": "Z"}, map[string]any{"id": "A"}}
			m["users"] = u
		}},
		{"an order-independent list table changed", func(m map[string]any) {
			m["notifications"] = append([]any{map[string]any{"id": "W"}}, db["notifications"].([]any)...)
		}},
		{"a list table became an object", func(m map[string]any) {
			m["lines"] = map[string]any{"L1": db["lines"].([]any)[0]}
		}},
		{"an object table became a list", func(m map[string]any) {
			m["users"] = []any{db["users"].(map[string]any)["U1"], 1}
		}},
		{"a table became a scalar", func(m map[string]any) { m["users"] = "none" }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			changed := maps.Clone(db)
			tc.edit(changed)
			check(t, changed)
		})
	}
	t.Run("a table that does not encode", func(t *testing.T) {
		changed := maps.Clone(db)
		l := lines()
		l[0] = map[string]any{"bad": make(chan int)}
		changed["lines"] = l
		_, err := cache.Hash(changed)
		require.ErrorIs(t, err, dbhash.ErrUnsupported)
	})
}

// cachedAndPlain builds db's cache and returns it with db's hash computed
// without and with it.
func cachedAndPlain(t *testing.T, db map[string]any) (cache *dbhash.Cache, plain, cached string) {
	t.Helper()
	cache, err := dbhash.NewCache(db)
	require.NoError(t, err)
	plain, err = dbhash.Hash(db)
	require.NoError(t, err)
	cached, err = cache.Hash(db)
	require.NoError(t, err)
	return cache, plain, cached
}

// The cache resumes the hash after the leading tables that are still the
// source's; whatever comes before, after or instead of them, the digest is
// the plain one.
func TestCacheResumesAfterUnchangedLeadingTables(t *testing.T) {
	db := map[string]any{
		"a_flights":  map[string]any{"F1": map[string]any{"seats": 3}},
		"b_bookings": []any{map[string]any{"id": "B1"}},
		"c_users":    map[string]any{"U1": map[string]any{"name": "Ada"}, "U5": map[string]any{"name": "Bo"}},
		"session":    map[string]any{"id": "excluded"},
	}
	cache, err := dbhash.NewCache(db)
	require.NoError(t, err)
	edits := map[string]func(m map[string]any){
		"unchanged":               func(map[string]any) {},
		"first table replaced":    func(m map[string]any) { m["a_flights"] = map[string]any{} },
		"middle table replaced":   func(m map[string]any) { m["b_bookings"] = []any{"x"} },
		"last table replaced":     func(m map[string]any) { m["c_users"] = map[string]any{"U2": 1} },
		"key sorting first added": func(m map[string]any) { m["0"] = 1 },
		"key in between added":    func(m map[string]any) { m["b_aaa"] = nil },
		"first table removed":     func(m map[string]any) { delete(m, "a_flights") },
		"excluded key changed":    func(m map[string]any) { m["session"] = 1 },
		"table turned scalar":     func(m map[string]any) { m["b_bookings"] = 3 },
		"records added to a copy": func(m map[string]any) {
			c := maps.Clone(m["c_users"].(map[string]any))
			c["U0"], c["U9"], c["U1a"] = 1, map[string]any{"x": 2}, "z"
			m["c_users"] = c
		},
		"record removed from a copy": func(m map[string]any) {
			c := maps.Clone(m["a_flights"].(map[string]any))
			delete(c, "F1")
			c["F2"] = 2
			m["a_flights"] = c
		},
	}
	for name, edit := range edits {
		t.Run(name, func(t *testing.T) {
			m := maps.Clone(db)
			edit(m)
			want, err := dbhash.Hash(m)
			require.NoError(t, err)
			got, err := cache.Hash(m)
			require.NoError(t, err)
			assert.Equal(t, want, got)
		})
	}
}
