package dbhash_test

import (
	"fmt"
	"maps"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/dbhash"
	"github.com/voiceeval/schematools/internal/conformance"
	"github.com/voiceeval/schematools/state"
)

// A copy of a large cached table is hashed from the source's text for the
// runs of records it still has in place, and encoded around them: every
// kind of edit, anywhere in the table, hashes as the plain hash does.
func TestCachedRunsOfRecords(t *testing.T) {
	const n = 3000
	obj := map[string]any{}
	list := make([]any, n)
	for i := range n {
		obj[fmt.Sprintf("R%05d", i)] = map[string]any{"id": fmt.Sprintf("R%05d", i), "seats": []any{i, "x"}, "n": i}
		list[i] = map[string]any{"id": i, "note": "None"}
	}
	list[7] = "a string item"
	obj["R00009"] = 9 // a member that is not an object
	db := map[string]any{"a_obj": obj, "b_list": list, "c_tail": map[string]any{"k": map[string]any{"v": 1}}}
	cache, err := dbhash.NewCache(db)
	require.NoError(t, err)
	keys := slices.Sorted(maps.Keys(obj))
	for _, at := range []int{0, 1, 8, 9, 10, n / 2, n - 2, n - 1} {
		for _, edit := range []string{"change", "delete", "insert", "replace-table"} {
			t.Run(fmt.Sprintf("%s at %d", edit, at), func(t *testing.T) {
				o := maps.Clone(obj)
				l := slices.Clone(list)
				k := keys[at]
				switch edit {
				case "change":
					o[k] = map[string]any{"id": k, "changed": true}
					l[at] = map[string]any{"id": at, "changed": true}
				case "delete":
					delete(o, k)
					l = slices.Delete(l, at, at+1)
				case "insert":
					o[k+"+"] = map[string]any{"id": "new"}
					l = slices.Insert(l, at, any(map[string]any{"id": "new"}))
				case "replace-table":
					o = map[string]any{k: obj[k]}
					l = []any{list[at]}
				}
				for _, changed := range []map[string]any{
					{"a_obj": o, "b_list": list, "c_tail": db["c_tail"]},
					{"a_obj": obj, "b_list": l, "c_tail": db["c_tail"]},
					{"a_obj": o, "b_list": l, "c_tail": db["c_tail"]},
				} {
					want, err := dbhash.Hash(changed)
					require.NoError(t, err)
					got, err := cache.Hash(changed)
					require.NoError(t, err)
					require.Equal(t, want, got)
				}
			})
		}
	}
}

// BenchmarkHashAirlineOneRecord hashes the airline DB with one reservation
// changed, as a gold replay's final hash does: the hash resumes at the
// mark before it, and the records after it are the source's.
func BenchmarkHashAirlineOneRecord(b *testing.B) {
	db, err := state.LoadDB(conformance.Tau2Dir(b), "airline/db")
	require.NoError(b, err)
	cache, err := dbhash.NewCache(db)
	require.NoError(b, err)
	reservations := db["reservations"].(map[string]any)
	keys := slices.Sorted(maps.Keys(reservations))
	changed := maps.Clone(db)
	table := maps.Clone(reservations)
	k := keys[len(keys)/3]
	rec := maps.Clone(table[k].(map[string]any))
	rec["status"] = "cancelled"
	table[k] = rec
	changed["reservations"] = table
	b.ReportAllocs()
	for b.Loop() {
		if _, err := cache.Hash(changed); err != nil {
			b.Fatal(err)
		}
	}
}
