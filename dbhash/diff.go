package dbhash

import (
	"slices"
	"strings"

	"github.com/voiceeval/schematools/internal/pyjson"
	"github.com/voiceeval/schematools/internal/pyvalue"
)

// Kinds of [change], as the Python original spells its "type" values. The
// two object-level kinds have no "type" key in JSON.
const (
	kindNonDictTable       = "non_dict_table"       // a table that is not an object differs
	kindRecords            = "records"              // an object table: records added, removed, modified
	kindFields             = "fields"               // a record or nested object: fields added, removed, modified
	kindTypeMismatch       = "type_mismatch"        // the two values have different Python types
	kindListLengthMismatch = "list_length_mismatch" // two lists of different lengths
	kindListDifferences    = "list_differences"     // two lists of one length whose items differ
	kindValueMismatch      = "value_mismatch"       // two scalars of one type differ
)

// Diff is the difference between an expected and an actual DB, shaped
// like the Python original's compute_db_diff: read it with [Diff.Empty],
// [Diff.Tree] (the original's dict) or as JSON ([Diff.MarshalJSON]).
// Tables are the DBs' top-level keys (no key is excluded here, not even
// "session").
type Diff struct {
	tablesAdded    []string           // in actual only, sorted
	tablesRemoved  []string           // in expected only, sorted
	tablesModified map[string]*change // in both, and different
}

// change is one difference. Kind is the Python original's "type" value
// (for the two object-level kinds, which have no "type" key in its dict,
// the name of the key prefix) and says which fields are set:
//
//   - "non_dict_table" (a table that is not an object differs) and
//     "value_mismatch" (two scalars of one type differ): Expected, Actual;
//   - "type_mismatch" (different Python types): Expected, Actual,
//     ExpectedType, ActualType;
//   - "list_length_mismatch": Expected, Actual, ExpectedLength,
//     ActualLength;
//   - "list_differences" (lists of one length whose items differ):
//     Differences;
//   - "records" (an object table) and "fields" (a record or nested
//     object): Added, Removed (sorted keys), Modified.
//
// Expected and Actual are normalised values, except for "non_dict_table",
// which carries the raw tables as the Python original does.
type change struct {
	Kind                         string
	Expected, Actual             any
	ExpectedType, ActualType     string
	ExpectedLength, ActualLength int
	Differences                  []itemChange
	Added, Removed               []string
	Modified                     map[string]*change
}

// itemChange is the difference at one index of two lists.
type itemChange struct {
	Index int
	Diff  *change
}

// Empty reports whether the two DBs compared equal.
func (d Diff) Empty() bool {
	return len(d.tablesAdded) == 0 && len(d.tablesRemoved) == 0 && len(d.tablesModified) == 0
}

// Compare returns the difference between the expected and the actual DB
// with the semantics of the Python original's compute_db_diff:
//
//   - tables are compared by key; a table that is not an object on either
//     side is compared raw with Python's == (so [1.0, 2] equals [1, 2.0]
//     and true equals 1) and reported whole;
//   - records and fields are normalised first (as for the hash) and compared
//     with Python's ==, so true and 1 (or false and 0) compare equal even
//     though they hash differently — a quirk kept for parity;
//   - lists under order-independent field names are compared sorted;
//     otherwise lists of equal length are compared index by index.
func Compare(expected, actual map[string]any) Diff {
	cfg := defaultConfig
	d := Diff{
		tablesAdded:    missingFrom(expected, actual),
		tablesRemoved:  missingFrom(actual, expected),
		tablesModified: map[string]*change{},
	}
	for _, table := range commonKeys(expected, actual) {
		e, a := expected[table], actual[table]
		em, eok := e.(map[string]any)
		am, aok := a.(map[string]any)
		if !eok || !aok {
			if !Equal(e, a) {
				d.tablesModified[table] = &change{Kind: kindNonDictTable, Expected: e, Actual: a}
			}
			continue
		}
		if c := compareTable(em, am, cfg); c != nil {
			d.tablesModified[table] = c
		}
	}
	return d
}

func compareTable(expected, actual map[string]any, cfg *config) *change {
	c := &change{
		Kind:     kindRecords,
		Added:    missingFrom(expected, actual),
		Removed:  missingFrom(actual, expected),
		Modified: map[string]*change{},
	}
	for _, key := range commonKeys(expected, actual) {
		e := normalize(expected[key], cfg, 0)
		a := normalize(actual[key], cfg, 0)
		if rc := compareValues(e, a); rc != nil {
			c.Modified[key] = rc
		}
	}
	if len(c.Added) == 0 && len(c.Removed) == 0 && len(c.Modified) == 0 {
		return nil
	}
	return c
}

// compareValues compares two normalised values.
func compareValues(e, a any) *change {
	if Equal(e, a) {
		return nil
	}
	et, at := pyvalue.TypeName(e), pyvalue.TypeName(a)
	if et != at {
		return &change{Kind: kindTypeMismatch, Expected: e, Actual: a, ExpectedType: et, ActualType: at}
	}
	switch x := e.(type) {
	case map[string]any:
		y := a.(map[string]any)
		c := &change{Kind: kindFields, Added: missingFrom(x, y), Removed: missingFrom(y, x), Modified: map[string]*change{}}
		for _, k := range commonKeys(x, y) {
			if fc := compareValues(x[k], y[k]); fc != nil {
				c.Modified[k] = fc
			}
		}
		if len(c.Added) == 0 && len(c.Removed) == 0 && len(c.Modified) == 0 {
			return nil
		}
		return c
	case []any:
		// A list under an order-independent field name was sorted when
		// its record was normalised (the same rule: the key holding it).
		y := a.([]any)
		if len(x) != len(y) {
			return &change{Kind: kindListLengthMismatch, Expected: x, Actual: y, ExpectedLength: len(x), ActualLength: len(y)}
		}
		var diffs []itemChange
		for i := range x {
			if ic := compareValues(x[i], y[i]); ic != nil {
				diffs = append(diffs, itemChange{Index: i, Diff: ic})
			}
		}
		if diffs == nil {
			return nil
		}
		return &change{Kind: kindListDifferences, Differences: diffs}
	}
	return &change{Kind: kindValueMismatch, Expected: e, Actual: a}
}

// missingFrom returns the keys of b that a lacks, sorted by code point.
func missingFrom(a, b map[string]any) []string {
	out := []string{}
	for k := range b {
		if _, ok := a[k]; !ok {
			out = append(out, k)
		}
	}
	slices.SortFunc(out, strings.Compare)
	return out
}

// commonKeys returns the keys of both, sorted.
func commonKeys(a, b map[string]any) []string {
	var out []string
	for k := range a {
		if _, ok := b[k]; ok {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

// Tree returns the diff as the JSON tree the Python original returns, with
// the same keys: {"tables_added", "tables_removed", "tables_modified"}.
func (d Diff) Tree() map[string]any {
	mods := make(map[string]any, len(d.tablesModified))
	for k, c := range d.tablesModified {
		mods[k] = c.tree()
	}
	return map[string]any{
		"tables_added":    strs(d.tablesAdded),
		"tables_removed":  strs(d.tablesRemoved),
		"tables_modified": mods,
	}
}

// tree returns the change as the Python original's dict.
func (c *change) tree() map[string]any {
	switch c.Kind {
	case kindRecords, kindFields:
		prefix := "records_"
		if c.Kind == kindFields {
			prefix = "fields_"
		}
		mods := make(map[string]any, len(c.Modified))
		for k, m := range c.Modified {
			mods[k] = m.tree()
		}
		return map[string]any{prefix + "added": strs(c.Added), prefix + "removed": strs(c.Removed), prefix + "modified": mods}
	case kindTypeMismatch:
		return map[string]any{"type": c.Kind, "expected": c.Expected, "actual": c.Actual,
			"expected_type": c.ExpectedType, "actual_type": c.ActualType}
	case kindListLengthMismatch:
		return map[string]any{"type": c.Kind, "expected": c.Expected, "actual": c.Actual,
			"expected_length": c.ExpectedLength, "actual_length": c.ActualLength}
	case kindListDifferences:
		diffs := make([]any, len(c.Differences))
		for i, d := range c.Differences {
			diffs[i] = map[string]any{"index": d.Index, "diff": d.Diff.tree()}
		}
		return map[string]any{"type": c.Kind, "differences": diffs}
	}
	return map[string]any{"type": c.Kind, "expected": c.Expected, "actual": c.Actual}
}

func strs(s []string) []any {
	out := make([]any, len(s))
	for i, v := range s {
		out[i] = v
	}
	return out
}

// MarshalJSON writes [Diff.Tree] as Python's json.dumps(sort_keys=True)
// would, with compact separators (floats in Python's repr, non-ASCII
// escaped). A diff holding NaN or ±Infinity cannot be marshalled by
// encoding/json, which rejects those literals.
func (d Diff) MarshalJSON() ([]byte, error) {
	return pyjson.Marshal(d.Tree(), pyjson.Compact)
}
