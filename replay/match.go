package replay

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode"

	"github.com/voiceeval/schematools/internal/pyvalue"
)

// MatchCompareArgs tells whether call — a tool call an agent made, its
// name and arguments; the other fields are not read — matches the gold
// action with tau2's
// compare_args semantics: the names must be equal; then a nil CompareArgs
// compares every argument, an empty one compares none, and a list compares
// only those keys (a key missing on either side counts as null). Values
// compare with Python's == ([dbhash.Equal]). The reason says why not.
func MatchCompareArgs(gold, call Action) (bool, string) {
	if gold.Name != call.Name {
		return false, fmt.Sprintf("name %q is not %q", call.Name, gold.Name)
	}
	want, got := filterArgs(gold.Arguments, gold.CompareArgs), filterArgs(call.Arguments, gold.CompareArgs)
	keys := make([]string, 0, len(want)+len(got))
	for k := range want {
		keys = append(keys, k)
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		w, wok := want[k]
		g, gok := got[k]
		switch {
		case !gok:
			return false, fmt.Sprintf("argument %q is missing", k)
		case !wok:
			return false, fmt.Sprintf("argument %q is not expected", k)
		case !pyvalue.EqualLoaded(w, g):
			return false, fmt.Sprintf("argument %q is %s, want %s", k, jsonText(g), jsonText(w))
		}
	}
	return true, ""
}

// filterArgs returns the arguments compare_args selects: all of them when
// keys is nil, none when it is empty, otherwise exactly those keys, with
// nil for a key args lacks.
func filterArgs(args map[string]any, keys []string) map[string]any {
	if keys == nil {
		if args == nil {
			return map[string]any{}
		}
		return args
	}
	out := make(map[string]any, len(keys))
	for _, k := range keys {
		out[k] = args[k]
	}
	return out
}

// MatchOptions tune [MatchRecords]' comparison of strings that are not
// numbers.
type MatchOptions struct {
	IgnoreCase        bool // compare strings lower-cased
	IgnorePunctuation bool // drop punctuation before comparing strings
}

// Mismatch is one reference item with no matching actual item.
type Mismatch struct {
	Index  int    `json:"index"`  // the reference item's index
	Reason string `json:"reason"` // why the first candidate tried did not match
}

// MatchReport is the outcome of [MatchRecords].
type MatchReport struct {
	Matched    bool       `json:"matched"`
	Pairs      [][2]int   `json:"pairs"` // (reference index, actual index) of each match
	Mismatches []Mismatch `json:"mismatches"`
}

// MatchRecords matches reference action records against the actual ones
// as the NeMo runner scores actions: every reference record must match a
// distinct actual record, in any order; extra actual records are allowed.
// Records match when every reference key exists in the actual record with a
// matching value (extra actual keys are allowed); lists match as
// order-independent subsets in the same way; two values that both read as
// numbers (Python's float(), so "12.5" and true count) match when close
// (|a-b| <= 1e-8 + 1e-5*|b|); anything else compares as Python's str().
func MatchRecords(reference, actual []map[string]any, opts MatchOptions) MatchReport {
	ref := make([]any, len(reference))
	for i, r := range reference {
		ref[i] = r
	}
	act := make([]any, len(actual))
	for i, a := range actual {
		act[i] = a
	}
	rep := MatchReport{Pairs: [][2]int{}, Mismatches: []Mismatch{}}
	used := make([]bool, len(act))
	for i, r := range ref {
		found := -1
		reason := "there are no actual records"
		for j, a := range act {
			if used[j] {
				continue
			}
			ok, why := matchValue(r, a, opts)
			if ok {
				found = j
				break
			}
			if reason == "there are no actual records" || j == 0 {
				reason = fmt.Sprintf("actual record %d: %s", j, why)
			}
		}
		if found < 0 {
			if len(act) > 0 && allUsed(used) {
				reason = "every actual record is already matched"
			}
			rep.Mismatches = append(rep.Mismatches, Mismatch{Index: i, Reason: reason})
			continue
		}
		used[found] = true
		rep.Pairs = append(rep.Pairs, [2]int{i, found})
	}
	rep.Matched = len(rep.Mismatches) == 0
	return rep
}

func allUsed(used []bool) bool {
	for _, u := range used {
		if !u {
			return false
		}
	}
	return true
}

// matchValue matches a reference value against an actual one.
func matchValue(ref, act any, opts MatchOptions) (bool, string) {
	switch r := ref.(type) {
	case map[string]any:
		a, ok := act.(map[string]any)
		if !ok {
			return false, fmt.Sprintf("%s is not an object", jsonText(act))
		}
		keys := make([]string, 0, len(r))
		for k := range r {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			av, ok := a[k]
			if !ok {
				return false, fmt.Sprintf("key %q is missing", k)
			}
			if ok, why := matchValue(r[k], av, opts); !ok {
				return false, fmt.Sprintf("%s: %s", k, why)
			}
		}
		return true, ""
	case []any:
		a, ok := act.([]any)
		if !ok {
			return false, fmt.Sprintf("%s is not a list", jsonText(act))
		}
		used := make([]bool, len(a))
	items:
		for i, item := range r {
			for j := range a {
				if !used[j] {
					if ok, _ := matchValue(item, a[j], opts); ok {
						used[j] = true
						continue items
					}
				}
			}
			return false, fmt.Sprintf("item %d (%s) has no match", i, jsonText(item))
		}
		return true, ""
	}
	if rf, err := pyvalue.Float(ref); err == nil {
		if af, err := pyvalue.Float(act); err == nil {
			if rf == af || math.Abs(rf-af) <= 1e-8+1e-5*math.Abs(af) {
				return true, ""
			}
			return false, fmt.Sprintf("%s is not close to %s", jsonText(act), jsonText(ref))
		}
	}
	rs, as := pyStr(ref, opts), pyStr(act, opts)
	if rs == as {
		return true, ""
	}
	return false, fmt.Sprintf("%s is not %s", jsonText(act), jsonText(ref))
}

// pyStr renders a value as Python's str() would, then applies opts.
func pyStr(v any, opts MatchOptions) string {
	s := pyvalue.Str(v)
	if opts.IgnoreCase {
		s = pyvalue.Lower(s)
	}
	if opts.IgnorePunctuation {
		s = strings.Map(func(r rune) rune {
			if unicode.IsPunct(r) {
				return -1
			}
			return r
		}, s)
	}
	return s
}

func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
