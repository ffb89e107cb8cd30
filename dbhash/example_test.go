package dbhash_test

import (
	"encoding/json"
	"fmt"

	"github.com/voiceeval/schematools/dbhash"
)

// Hash gives the same digest as the Python original's get_dict_hash: key
// order, integral floats, "none"/"null" strings and the top-level session
// key make no difference.
func ExampleHash() {
	a, _ := dbhash.HashJSON([]byte(`{"qty": 1, "meal": null, "fares": [1.0, 2.0]}`))
	b, _ := dbhash.Hash(map[string]any{"fares": []any{1, 2}, "meal": "None", "qty": 1.0, "session": map[string]any{"token": "x"}})
	fmt.Println(a)
	fmt.Println(a == b)
	// Output:
	// 258a4f18f0f281b9a7c94f7b2f4477ddbc2b53507aec88033137be928cb8d420
	// true
}

// Canonical shows the exact bytes that are hashed.
func ExampleCanonical() {
	c, _ := dbhash.Canonical(map[string]any{"é": 0.00001, "big": 1e23, "list": []any{true, "null"}})
	fmt.Println(string(c))
	// Output:
	// {"big":99999999999999991611392,"list":[true,null],"\u00e9":1e-05}
}

// Compare explains a hash mismatch table by table, record by record.
func ExampleCompare() {
	expected := map[string]any{"orders": map[string]any{"o1": map[string]any{"status": "cancelled", "items": []any{"a", "b"}}}}
	actual := map[string]any{"orders": map[string]any{"o1": map[string]any{"status": "pending", "items": []any{"a", "b"}}}}
	out, _ := json.Marshal(dbhash.Compare(expected, actual))
	fmt.Println(string(out))
	// Output:
	// {"tables_added":[],"tables_modified":{"orders":{"records_added":[],"records_modified":{"o1":{"fields_added":[],"fields_modified":{"status":{"actual":"pending","expected":"cancelled","type":"value_mismatch"}},"fields_removed":[]}},"records_removed":[]}},"tables_removed":[]}
}
