package dbhash

import (
	"encoding/json"
	"math"
	"slices"
	"strings"

	"github.com/voiceeval/schematools/internal/pyjson"
)

// normalize returns the normalised copy of v that the hash is computed
// over, with cfg's order-independent fields, depth levels down (excluded
// keys are not dropped: that is a hashing step):
//
//   - a finite whole float becomes an integer, exactly (1e23 becomes
//     99999999999999991611392);
//   - a string whose Python strip() and lower() is "none" or "null"
//     becomes nil;
//   - objects and lists are copied recursively; a list under an
//     order-independent field name is sorted stably by its items' Python
//     JSON text.
//
// Numbers come out as json.Number in Python's canonical text (an integer,
// or a float's repr), except NaN and ±Inf, which stay float64. Values of
// other types are returned unchanged; nesting deeper than maxDepth is cut
// off unchanged.
func normalize(v any, cfg *config, depth int) any {
	if depth > maxDepth {
		return v
	}
	switch x := v.(type) {
	case string:
		if isNoneLike(x) {
			return nil
		}
		return x
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			n := normalize(e, cfg, depth+1)
			if list, ok := n.([]any); ok && cfg.oil[k] {
				n = sortList(list, cfg, depth+1)
			}
			out[k] = n
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = normalize(e, cfg, depth+1)
		}
		return out
	case json.Number:
		isInt, ok := pyjson.Classify(string(x))
		if !ok {
			return v
		}
		if isInt {
			return json.Number(pyjson.IntText(string(x)))
		}
		f, _ := pyjson.ParseFloat(string(x))
		return normalFloat(f)
	case float64:
		return normalFloat(x)
	case float32:
		return normalFloat(float64(x))
	}
	if b, ok := pyjson.AppendInteger(nil, v); ok {
		return json.Number(b)
	}
	return v
}

// normalFloat returns a float as a normalised number.
func normalFloat(f float64) any {
	switch {
	case math.IsNaN(f) || math.IsInf(f, 0):
		return f
	case f == math.Trunc(f):
		return json.Number(pyjson.AppendIntegralFloat(nil, f))
	}
	return json.Number(pyjson.AppendFloat(nil, f))
}

// sortList sorts an already normalised list by its items' sort keys (the
// order-independent lists inside them are sorted already).
func sortList(list []any, cfg *config, depth int) []any {
	if len(list) < 2 {
		return list
	}
	c := canon{cfg: cfg, sorted: true, base: depth + 1}
	keys, err := c.sortKeys(list, depth)
	if err != nil {
		return list // values Hash would reject anyway; leave the order alone
	}
	order := make([]int, len(list))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return strings.Compare(keys[a], keys[b]) })
	out := make([]any, len(list))
	for i, idx := range order {
		out[i] = list[idx]
	}
	return out
}
