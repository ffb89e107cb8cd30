package tau2tools

import (
	"slices"

	"github.com/voiceeval/schematools/internal/pyvalue"
)

// PyIn is Python's sub in (v or ""), the test both tau2 ports make on DB
// values ("+1" in an arrival time, "pending" in an order status):
// [pyvalue.Contains] on v, or on "" when v is falsy. Its error is the
// TypeError Python raises, as a tool error (see [Raise]).
func PyIn(sub string, v any) (bool, error) {
	if !pyvalue.Truthy(v) {
		v = ""
	}
	in, err := pyvalue.Contains(sub, v)
	return in, Exception(err)
}

// SortedKeys returns the keys of m in sorted order. Python walks a DB
// table in the order of its data file, which a Go map does not keep; the
// ports walk tables in key order, and each says where that can differ.
func SortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
