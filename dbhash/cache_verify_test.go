package dbhash_test

import (
	"maps"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/dbhash"
	"github.com/voiceeval/schematools/state"
)

// The edits the Cache's contract forbids leave its hashes stale; Verify
// names the tables they touched.
func TestCacheVerifyFindsForbiddenEdits(t *testing.T) {
	fresh := func() map[string]any {
		return decode(t, `{"users":{"u1":{"name":"A","address":{"city":"X"}},"u2":{"name":"B","address":{"city":"Y"}}},`+
			`"log":[{"id":1},{"id":2},{"id":3}],"meta":{"v":1}}`).(map[string]any)
	}
	var source *state.Source
	tests := []struct {
		name   string
		edit   func(t *testing.T, src map[string]any) // one task's edits
		tables string
	}{
		{"a nested map edited in place under an unchanged record", func(t *testing.T, src map[string]any) {
			db := maps.Clone(src)
			users := maps.Clone(src["users"].(map[string]any)) // the table copied, its records shared
			users["u1"].(map[string]any)["address"].(map[string]any)["city"] = "Z"
			db["users"] = users
		}, `["users"]`},
		{"append on a list sliced from the shared one", func(t *testing.T, src map[string]any) {
			db := maps.Clone(src)
			log := src["log"].([]any)
			db["log"] = append(log[:2], map[string]any{"id": 9}) // writes into the source's array
		}, `["log"]`},
		{"UpdateTables editing a table it did not name", func(t *testing.T, src map[string]any) {
			st := state.New()
			st.Share(source) // src is source's shared copy
			require.NoError(t, st.UpdateTables([]string{"log"}, func(db map[string]any) error {
				db["meta"].(map[string]any)["v"] = 2 // "meta" is still the source's
				return nil
			}))
		}, `["meta"]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// src is the copy of a state.Source that states share.
			source = state.NewSource(fresh())
			var src map[string]any
			reader := state.New()
			reader.Share(source)
			require.NoError(t, reader.View(func(db map[string]any) error { src = db; return nil }))
			cache, err := dbhash.NewCache(src)
			require.NoError(t, err)
			require.NoError(t, cache.Verify())
			want, err := dbhash.Hash(src)
			require.NoError(t, err)
			tt.edit(t, src)
			// Another task's DB, sharing every table with the source: its hash
			// with the cache is the source's as it was.
			other := maps.Clone(src)
			plain, err := dbhash.Hash(other)
			require.NoError(t, err)
			cached, err := cache.Hash(other)
			require.NoError(t, err)
			assert.NotEqual(t, want, plain, "the edit reached the source")
			assert.Equal(t, want, cached, "the cache's promise broken: its hash is stale")
			err = cache.Verify()
			require.Error(t, err)
			assert.Contains(t, err.Error(), "tables "+tt.tables)
		})
	}
	var zero dbhash.Cache
	assert.NoError(t, zero.Verify())
}

// Copy-on-write done right — every map and list on the path copied —
// keeps the cache's hash exact, and Verify quiet.
func TestCacheVerifyAcceptsCopyOnWrite(t *testing.T) {
	src := decode(t, `{"users":{"u1":{"name":"A","address":{"city":"X"}}},"log":[{"id":1},{"id":2}]}`).(map[string]any)
	cache, err := dbhash.NewCache(src)
	require.NoError(t, err)
	db := maps.Clone(src)
	users := maps.Clone(src["users"].(map[string]any))
	u1 := maps.Clone(users["u1"].(map[string]any))
	addr := maps.Clone(u1["address"].(map[string]any))
	addr["city"] = "Z"
	u1["address"], users["u1"], db["users"] = addr, u1, users
	log := append([]any(nil), src["log"].([]any)...)
	db["log"] = append(log[:1], map[string]any{"id": 9})
	plain, err := dbhash.Hash(db)
	require.NoError(t, err)
	cached, err := cache.Hash(db)
	require.NoError(t, err)
	assert.Equal(t, plain, cached)
	assert.NoError(t, cache.Verify())
}
