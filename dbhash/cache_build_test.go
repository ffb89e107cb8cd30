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
			got, err = cache.Hash(changed)
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

// A copy of a large table that changed one record resumes inside the
// table, from the cache's last mark before the change: the hash is the
// one without the cache wherever the change lies, in an object table or a
// list table, first in the DB or after other tables.
func TestCacheResumesInsideATable(t *testing.T) {
	const n = 3000
	records, rows := map[string]any{}, []any{}
	for i := range n {
		records[fmt.Sprintf("R%04d", i)] = map[string]any{"i": i, "text": "some text to make the record longer", "bookings": []any{"b", "a"}}
		rows = append(rows, map[string]any{"i": i, "text": "some text to make the row longer"})
	}
	rows[17] = "a row that is no record"
	db := map[string]any{"a_records": records, "b_rows": rows, "c_small": map[string]any{"k": 1}}
	cache, err := dbhash.NewCache(db)
	require.NoError(t, err)

	for _, tt := range []struct {
		name   string
		change func(db map[string]any)
	}{
		{"first record", func(db map[string]any) { setRecord(db, "R0000", 0) }},
		{"middle record", func(db map[string]any) { setRecord(db, "R1500", 1) }},
		{"last record", func(db map[string]any) { setRecord(db, fmt.Sprintf("R%04d", n-1), 2) }},
		{"a record deleted", func(db map[string]any) {
			r := maps.Clone(db["a_records"].(map[string]any))
			delete(r, "R2000")
			db["a_records"] = r
		}},
		{"a record added", func(db map[string]any) {
			r := maps.Clone(db["a_records"].(map[string]any))
			r["R2000x"] = map[string]any{"new": true}
			db["a_records"] = r
		}},
		{"a late row", func(db map[string]any) {
			r := slices.Clone(db["b_rows"].([]any))
			r[n-10] = map[string]any{"i": "changed"}
			db["b_rows"] = r
		}},
		{"a row appended", func(db map[string]any) {
			db["b_rows"] = append(slices.Clone(db["b_rows"].([]any)), map[string]any{"i": "new"})
		}},
		{"rows cut short", func(db map[string]any) { db["b_rows"] = slices.Clone(db["b_rows"].([]any)[:n-100]) }},
		{"a table before them", func(db map[string]any) {
			db["0_first"] = map[string]any{}
			setRecord(db, "R2500", 3)
		}},
		{"a late record and a late row", func(db map[string]any) {
			setRecord(db, "R2999", 4)
			r := slices.Clone(db["b_rows"].([]any))
			r[n-1] = "changed"
			db["b_rows"] = r
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			changed := maps.Clone(db)
			tt.change(changed)
			want, err := dbhash.Hash(changed)
			require.NoError(t, err)
			got, err := cache.Hash(changed)
			require.NoError(t, err)
			assert.Equal(t, want, got)
		})
	}
	require.NoError(t, cache.Verify())
}

// setRecord replaces one record of a_records in a copy of the table.
func setRecord(db map[string]any, key string, v any) {
	r := maps.Clone(db["a_records"].(map[string]any))
	r[key] = map[string]any{"changed": v}
	db["a_records"] = r
}
