package dbhash_test

import (
	"maps"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/dbhash"
	"github.com/voiceeval/schematools/internal/sharedtest"
	"github.com/voiceeval/schematools/state"
)

func TestCacheGivesTheSameHashes(t *testing.T) {
	db := map[string]any{
		"flights":      map[string]any{"F1": map[string]any{"seats": 3, "price": 1.5}, "F2": map[string]any{"status": "None"}},
		"reservations": map[string]any{"R1": map[string]any{"bookings": []any{map[string]any{"id": "Y"}, map[string]any{"id": "X"}}}},
		"session":      map[string]any{"id": "excluded"},
		"count":        7,
	}
	cache, err := dbhash.NewCache(db)
	require.NoError(t, err)
	want, err := dbhash.Hash(db)
	require.NoError(t, err)
	got, err := dbhash.Hash(db, dbhash.WithCache(cache))
	require.NoError(t, err)
	assert.Equal(t, want, got, "every table from the cache")

	// A copy that shares the flights and replaced the reservations.
	changed := maps.Clone(db)
	changed["reservations"] = map[string]any{"R2": map[string]any{}}
	changed["extra"] = []any{1, 2}
	want, err = dbhash.Hash(changed)
	require.NoError(t, err)
	got, err = dbhash.Hash(changed, dbhash.WithCache(cache))
	require.NoError(t, err)
	assert.Equal(t, want, got)

	// Options must agree with the cache's.
	_, err = dbhash.Hash(db, dbhash.WithCache(cache), dbhash.WithOrderIndependentFields())
	assert.Error(t, err)
}

func TestCacheOnTheAirlineDB(t *testing.T) {
	db, err := state.LoadDB(sharedtest.Path(t, "tau2"), "airline/db")
	require.NoError(t, err)
	cache, err := dbhash.NewCache(db)
	require.NoError(t, err)
	got, err := dbhash.Hash(db, dbhash.WithCache(cache))
	require.NoError(t, err)
	assert.Equal(t, "4da8c3f8adaffe176a9daaa5f20658bb9b36cd945733ab8f9ecf2e8bcbaabcc8", got)

	st := state.New()
	st.ShareDB(db)
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
		got, err := dbhash.Hash(cur, dbhash.WithCache(cache))
		require.NoError(t, err)
		assert.Equal(t, want, got)
		assert.NotEqual(t, "4da8c3f8adaffe176a9daaa5f20658bb9b36cd945733ab8f9ecf2e8bcbaabcc8", got)
		return nil
	}))
}

func BenchmarkHashAirlineCached(b *testing.B) {
	db, err := state.LoadDB(sharedtest.Path(b, "tau2"), "airline/db")
	require.NoError(b, err)
	cache, err := dbhash.NewCache(db)
	require.NoError(b, err)
	changed := maps.Clone(db)
	changed["users"] = state.Clone(db["users"]) // one table rewritten, two shared
	b.ReportAllocs()
	for b.Loop() {
		if _, err := dbhash.Hash(changed, dbhash.WithCache(cache)); err != nil {
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
		got, err := dbhash.Hash(db, dbhash.WithCache(cache))
		require.NoError(t, err)
		require.Equal(t, want, got, "round %d", i)
	}
}

func TestZeroCacheHoldsNothing(t *testing.T) {
	db := map[string]any{"t": map[string]any{"k": 1}}
	want, err := dbhash.Hash(db)
	require.NoError(t, err)
	got, err := dbhash.Hash(db, dbhash.WithCache(new(dbhash.Cache)))
	require.NoError(t, err)
	assert.Equal(t, want, got)
	got, err = dbhash.Hash(db, dbhash.WithCache(nil))
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
	cache, err := dbhash.NewCache(db)
	require.NoError(t, err)
	want, err := dbhash.Hash(db)
	require.NoError(t, err)
	got, err := dbhash.Hash(db, dbhash.WithCache(cache))
	require.NoError(t, err)
	assert.Equal(t, want, got)

	changed := maps.Clone(db)
	bills := append([]any(nil), db["bills"].([]any)...)
	bills[0] = map[string]any{"id": "B1", "total": 2}
	changed["bills"] = bills
	changed["notifications"] = db["notifications"].([]any)[:1] // same array, shorter: not the same table
	want, err = dbhash.Hash(changed)
	require.NoError(t, err)
	got, err = dbhash.Hash(changed, dbhash.WithCache(cache))
	require.NoError(t, err)
	assert.Equal(t, want, got)
}
