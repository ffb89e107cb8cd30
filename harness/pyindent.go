package harness

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"

	"github.com/voiceeval/schematools/internal/pyjson"
	"github.com/voiceeval/schematools/internal/pyvalue"
	"github.com/voiceeval/schematools/rtvi/bridge"
)

// dumpIndent returns Python's json.dumps(v, indent=n): ensure_ascii, ", "
// turned "," at line ends, ": " between key and value, "[]" and "{}" for
// empty containers. A pyvalue.Dict keeps its order, a map[string]any is
// sorted (it has no other). Output past MaxFileBytes is an error wrapping
// bridge.ErrBudget, found as it is written: indentation grows with the square of
// the nesting, so a small value can ask for gigabytes.
func dumpIndent(v any, n int) ([]byte, error) {
	return dumpIndentWithin(v, n, MaxFileBytes)
}

// dumpIndentWithin is dumpIndent with its own bound on the output.
func dumpIndentWithin(v any, n int, limit int64) ([]byte, error) {
	out, err := appendIndent(nil, v, n, 0, limit)
	if err != nil {
		return nil, err
	}
	return out, nil
}

func appendIndent(dst []byte, v any, n, level int, limit int64) ([]byte, error) {
	if level > pyjson.MaxDepth {
		return dst, pyjson.ErrDepth
	}
	if int64(len(dst)+n*level) > limit {
		return dst, fmt.Errorf("%w: JSON text over %d bytes", bridge.ErrBudget, limit)
	}
	newline := func(d []byte, l int) []byte {
		d = append(d, '\n')
		for range n * l {
			d = append(d, ' ')
		}
		return d
	}
	var err error
	switch x := v.(type) {
	case pyvalue.Dict, map[string]any:
		var items pyvalue.Dict
		if d, ok := x.(pyvalue.Dict); ok {
			items = d.Items()
		} else {
			m := x.(map[string]any)
			keys := make([]string, 0, len(m))
			for k := range m {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			for _, k := range keys {
				items = append(items, pyvalue.Item{Key: k, Value: m[k]})
			}
		}
		if len(items) == 0 {
			return append(dst, "{}"...), nil
		}
		dst = append(dst, '{')
		for i, it := range items {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = newline(dst, level+1)
			if dst, err = pyjson.AppendString(dst, it.Key); err != nil {
				return dst, err
			}
			dst = append(dst, ": "...)
			if dst, err = appendIndent(dst, it.Value, n, level+1, limit); err != nil {
				return dst, err
			}
		}
		return append(newline(dst, level), '}'), nil
	case []any:
		if len(x) == 0 {
			return append(dst, "[]"...), nil
		}
		dst = append(dst, '[')
		for i, e := range x {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = newline(dst, level+1)
			if dst, err = appendIndent(dst, e, n, level+1, limit); err != nil {
				return dst, err
			}
		}
		return append(newline(dst, level), ']'), nil
	case []string:
		out := make([]any, len(x))
		for i, s := range x {
			out[i] = s
		}
		return appendIndent(dst, out, n, level, limit)
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return pyvalue.AppendJSON(dst, x, pyjson.Default, false)
		}
		return pyjson.AppendFloat(dst, x), nil
	case json.Number, pyvalue.Num, string, bool, nil, int, int64:
		return pyvalue.AppendJSON(dst, x, pyjson.Default, false)
	}
	return dst, fmt.Errorf("harness: cannot write a %T as JSON", v)
}
