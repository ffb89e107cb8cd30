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
// bridge.ErrBudget, found as it is written: indentation grows with the
// square of the nesting, so a small value can ask for gigabytes.
func dumpIndent(v any, n int) ([]byte, error) {
	return dumpIndentWithin(v, n, maxFileBytes)
}

// dumpIndentWithin is dumpIndent with its own bound on the output.
func dumpIndentWithin(v any, n int, limit int64) ([]byte, error) {
	ind := &indenter{n: n, limit: limit, keep: true}
	if err := ind.value(v, 0); err != nil {
		return nil, err
	}
	return ind.out, nil
}

// indentedLen is len(dumpIndent(v, n)), counted without writing it, or
// an error wrapping bridge.ErrBudget as soon as it passes limit: what a
// file would take, checked before anything is built.
func indentedLen(v any, n int, limit int64) (int64, error) {
	ind := &indenter{n: n, limit: limit}
	if err := ind.value(v, 0); err != nil {
		return 0, err
	}
	return ind.size, nil
}

// indenter writes (keep) or only counts json.dumps(v, indent=n).
type indenter struct {
	n       int
	limit   int64
	keep    bool
	out     []byte
	size    int64
	scratch []byte // a scalar's text while counting
}

func (w *indenter) bytes(b ...byte) {
	w.size += int64(len(b))
	if w.keep {
		w.out = append(w.out, b...)
	}
}

func (w *indenter) newline(level int) {
	w.size += int64(1 + w.n*level)
	if w.keep {
		w.out = append(w.out, '\n')
		for range w.n * level {
			w.out = append(w.out, ' ')
		}
	}
}

// scalar writes what appendScalar appends.
func (w *indenter) scalar(appendScalar func([]byte) ([]byte, error)) error {
	if w.keep {
		before := len(w.out)
		out, err := appendScalar(w.out)
		w.out = out
		w.size += int64(len(out) - before)
		return err
	}
	var err error
	w.scratch, err = appendScalar(w.scratch[:0])
	w.size += int64(len(w.scratch))
	return err
}

func (w *indenter) value(v any, level int) error {
	if level > pyjson.MaxDepth {
		return pyjson.ErrDepth
	}
	if w.size+int64(w.n*level) > w.limit {
		return fmt.Errorf("%w: JSON text over %d bytes", bridge.ErrBudget, w.limit)
	}
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
			w.bytes('{', '}')
			return nil
		}
		w.bytes('{')
		for i, it := range items {
			if i > 0 {
				w.bytes(',')
			}
			w.newline(level + 1)
			if err := w.scalar(func(b []byte) ([]byte, error) { return pyjson.AppendString(b, it.Key) }); err != nil {
				return err
			}
			w.bytes(':', ' ')
			if err := w.value(it.Value, level+1); err != nil {
				return err
			}
		}
		w.newline(level)
		w.bytes('}')
		return nil
	case []any:
		if len(x) == 0 {
			w.bytes('[', ']')
			return nil
		}
		w.bytes('[')
		for i, e := range x {
			if i > 0 {
				w.bytes(',')
			}
			w.newline(level + 1)
			if err := w.value(e, level+1); err != nil {
				return err
			}
		}
		w.newline(level)
		w.bytes(']')
		return nil
	case []string:
		out := make([]any, len(x))
		for i, s := range x {
			out[i] = s
		}
		return w.value(out, level)
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return w.scalar(func(b []byte) ([]byte, error) { return pyvalue.AppendJSON(b, x, pyjson.Default, false) })
		}
		return w.scalar(func(b []byte) ([]byte, error) { return pyjson.AppendFloat(b, x), nil })
	case json.Number, pyvalue.Num, string, bool, nil, int, int64:
		return w.scalar(func(b []byte) ([]byte, error) { return pyvalue.AppendJSON(b, x, pyjson.Default, false) })
	}
	return fmt.Errorf("harness: cannot write a %T as JSON", v)
}
