package dbhash_test

import (
	"fmt"
	"maps"
	"runtime"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/dbhash"
)

// largeDB has tables large enough to be cached in runs of records on
// several goroutines: an object table whose records hold
// order-independent lists, "None"-like strings and floats, a list table
// of records and scalars, an order-independent list table, and small
// tables beside them.
func largeDB() map[string]any {
	obj, list, oil := map[string]any{}, []any{}, []any{}
	for i := range 300 {
		obj[fmt.Sprintf("R%03d", i)] = map[string]any{"n": i, "price": float64(i) / 4, "note": "None",
			"bookings": []any{map[string]any{"id": fmt.Sprint(300 - i)}, map[string]any{"id": fmt.Sprint(i)}}}
		if i%7 == 0 {
			obj[fmt.Sprintf("S%03d", i)] = []any{3, 1, 2} // not an object record
			list = append(list, fmt.Sprint("row ", i))
		} else {
			list = append(list, map[string]any{"i": i, "tags": []any{"b", "a"}})
		}
		oil = append(oil, map[string]any{"id": fmt.Sprint(i % 17)})
	}
	obj["standby_list"] = []any{"z", "a"} // an order-independent member of a large table
	return map[string]any{"records": obj, "rows": list, "notifications": oil,
		"small": map[string]any{"k": 1}, "count": 3, "session": map[string]any{"x": 1}}
}

// Cached on one core or on several, a large DB hashes as without the
// cache, and so do copies that changed one record of each large table.
func TestCacheOfLargeTables(t *testing.T) {
	for _, procs := range []int{1, 2, 5} {
		t.Run(fmt.Sprint(procs, " procs"), func(t *testing.T) {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
			db := largeDB()
			cache, want, got := cachedAndPlain(t, db)
			assert.Equal(t, want, got)

			changed := maps.Clone(db)
			records := maps.Clone(db["records"].(map[string]any))
			records["R150"] = map[string]any{"n": "changed"}
			records["Q"] = map[string]any{"new": true}
			delete(records, "R007")
			changed["records"] = records
			rows := slices.Clone(db["rows"].([]any))
			rows[100] = map[string]any{"i": -1}
			changed["rows"] = rows
			want, err := dbhash.Hash(changed)
			require.NoError(t, err)
			got, err = dbhash.Hash(changed, dbhash.WithCache(cache))
			require.NoError(t, err)
			assert.Equal(t, want, got)
			require.NoError(t, cache.Verify())

			db["rows"].([]any)[299].(map[string]any)["i"] = "edited in place" // breaks the promise
			assert.ErrorContains(t, cache.Verify(), `["rows"]`)
		})
	}
}

// A record that does not encode fails the cache, naming its table, on
// the path that cuts tables into runs too.
func TestCacheOfLargeTablesErrors(t *testing.T) {
	db := largeDB()
	db["records"].(map[string]any)["R200"].(map[string]any)["bad"] = struct{}{}
	db["rows"].([]any)[5] = make(chan int)
	_, err := dbhash.NewCache(db)
	require.ErrorIs(t, err, dbhash.ErrUnsupported)
	assert.ErrorContains(t, err, `caching table "records"`, "the first table in key order")
}
