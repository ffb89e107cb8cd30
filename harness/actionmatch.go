package harness

import (
	"math"
	"regexp"
	"strings"

	"github.com/voiceeval/schematools/internal/pyvalue"
)

// matchOptions are check_if_task_success's keyword flags.
type matchOptions struct {
	ignoreCapitalization, ignorePunctuation, cleanText, disallowExtraItems bool
}

// normalizePayload is normalize_scenario_payload: a list of exactly one
// dict becomes that dict.
func normalizePayload(v any) any {
	if l, ok := v.([]any); ok && len(l) == 1 && isDict(l[0]) {
		return l[0]
	}
	return v
}

func isDict(v any) bool {
	switch v.(type) {
	case pyvalue.Dict, map[string]any:
		return true
	}
	return false
}

// checkTaskSuccess is utils.check_if_task_success on the parsed reference
// and prediction files.
func checkTaskSuccess(ref, pred any, o matchOptions) bool {
	ref, pred = normalizePayload(ref), normalizePayload(pred)
	refs, ok := asList(ref)
	if !ok {
		return false // len() of a scalar raises in Python; the runner would crash
	}
	preds, ok := asList(pred)
	if !ok {
		return false
	}
	if len(refs) == 1 && len(preds) > 1 {
		preds = preds[len(preds)-1:]
	}
	if o.disallowExtraItems && len(refs) != len(preds) {
		return false
	}
	matched := map[int]bool{}
	for _, r := range refs {
		found := false
		for i, p := range preds {
			if matched[i] {
				continue
			}
			if matchDict(r, p, o) {
				matched[i] = true
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

func asList(v any) ([]any, bool) {
	if isDict(v) {
		return []any{v}, true
	}
	l, ok := v.([]any)
	return l, ok
}

func dictItems(v any) (pyvalue.Dict, bool) {
	switch x := v.(type) {
	case pyvalue.Dict:
		return x.Items(), true
	case map[string]any:
		d := make(pyvalue.Dict, 0, len(x))
		for k, e := range x {
			d = append(d, pyvalue.Item{Key: k, Value: e})
		}
		return d, true
	}
	return nil, false
}

func dictGet(v any, key string) (any, bool) {
	switch x := v.(type) {
	case pyvalue.Dict:
		return x.Get(key)
	case map[string]any:
		e, ok := x[key]
		return e, ok
	}
	return nil, false
}

// matchDict is match_dict: every key of ref is in pred with a matching
// value; extra keys of pred are allowed. In check_if_task_success a
// reference item that is not a dict makes Python raise on .items(); here
// it does not match.
func matchDict(ref, pred any, o matchOptions) bool {
	items, ok := dictItems(ref)
	if !ok {
		return false
	}
	if !isDict(pred) {
		// "key not in pred" on a list or str tests membership; on other
		// types it raises. Treat as no match.
		return false
	}
	for _, it := range items {
		pv, ok := dictGet(pred, it.Key)
		if !ok || !matchItem(it.Value, pv, o) {
			return false
		}
	}
	return true
}

// matchItem is match_item.
func matchItem(ref, pred any, o matchOptions) bool {
	if isDict(ref) {
		return isDict(pred) && matchDict(ref, pred, o)
	}
	if l, ok := ref.([]any); ok {
		p, ok := pred.([]any)
		return ok && matchList(l, p, o)
	}
	return matchScalar(ref, pred, o)
}

// matchList is match_list: each reference item matches a distinct
// prediction item, in any order.
func matchList(refs, preds []any, o matchOptions) bool {
	used := map[int]bool{}
	for _, r := range refs {
		found := false
		for i, p := range preds {
			if !used[i] && matchItem(r, p, o) {
				used[i] = true
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// punct is _remove_punctuations' [^\w\s] (Python's Unicode \w: letters,
// digits, underscore, and the combining marks str.isalnum counts).
var punct = regexp.MustCompile(`[^\p{L}\p{N}\p{Mn}\p{Mc}_\s]`)

// matchScalar is match_str_and_float: both sides as floats when both
// convert (float()), compared with numpy.isclose; else as str().
func matchScalar(ref, pred any, o matchOptions) bool {
	a, errA := pyvalue.Float(ref)
	b, errB := pyvalue.Float(pred)
	if errA == nil && errB == nil {
		return isClose(a, b)
	}
	r, p := pyvalue.Str(ref), pyvalue.Str(pred)
	if o.ignoreCapitalization {
		r, p = pyvalue.Lower(r), pyvalue.Lower(p)
	}
	if o.ignorePunctuation {
		r, p = punct.ReplaceAllString(r, ""), punct.ReplaceAllString(p, "")
	}
	// clean_text is _clean_label: lower() when ignore_capitalization,
	// already done above.
	return strings.Compare(r, p) == 0
}

// isClose is numpy.isclose(a, b) with rtol 1e-05, atol 1e-08,
// equal_nan False.
func isClose(a, b float64) bool {
	if math.IsInf(a, 0) || math.IsInf(b, 0) {
		return a == b
	}
	if math.IsNaN(a) || math.IsNaN(b) {
		return false
	}
	return math.Abs(a-b) <= 1e-08+1e-05*math.Abs(b)
}
