package evaairline_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"os"
	"reflect"
	"sync"
	"testing"

	"github.com/voiceeval/schematools/internal/conformance"
	"github.com/voiceeval/schematools/internal/pyjson"
	"github.com/voiceeval/schematools/internal/pyvalue"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

// notifier records the server messages tools push, in the vectors' shape:
// {"data": {...}} for an action-applied message, {"text": ...} for a text
// message.
type notifier struct {
	mu   sync.Mutex
	msgs []any
}

func (n *notifier) Notify(_ context.Context, m any) error {
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	var wrapped any
	switch m.(type) {
	case tool.ActionApplied:
		wrapped = map[string]any{"data": json.RawMessage(b)}
	default:
		wrapped = json.RawMessage(b)
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	n.msgs = append(n.msgs, wrapped)
	return nil
}

func (n *notifier) take() []any {
	n.mu.Lock()
	defer n.mu.Unlock()
	out := n.msgs
	n.msgs = nil
	if out == nil {
		out = []any{}
	}
	return out
}

// readLines decodes the JSON lines of a vector file as json.loads does.
func readLines(t testing.TB, name string) []map[string]any {
	t.Helper()
	data, err := os.ReadFile(conformance.Path(t, "nemo", name))
	if err != nil {
		t.Fatal(err)
	}
	var out []map[string]any
	for line := range bytes.Lines(data) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		v, err := pyjson.Decode(line)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out = append(out, v.(map[string]any))
	}
	return out
}

// canon is v as a JSON tree with numbers tagged int or float, so that two
// values compare equal exactly when Python would print them alike (1 and
// 1.0 differ).
func canon(v any) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	tree, err := pyjson.Decode(b)
	if err != nil {
		return nil, err
	}
	return tag(tree), nil
}

func tag(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = tag(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = tag(e)
		}
		return out
	case json.Number:
		n, ok := pyvalue.NumOf(x)
		if !ok {
			return "num?" + string(x)
		}
		if n.IsFloat() {
			return "float:" + n.String()
		}
		return "int:" + new(big.Int).Set(n.BigInt()).String()
	case float64:
		return "float:" + pyvalue.Repr(x)
	}
	return v
}

// sameJSON reports whether got and want are the same JSON value; when not,
// it returns both as text.
func sameJSON(got, want any) (bool, string) {
	g, err := canon(got)
	if err != nil {
		return false, fmt.Sprintf("got %#v: %v", got, err)
	}
	w, err := canon(want)
	if err != nil {
		return false, fmt.Sprintf("want %#v: %v", want, err)
	}
	if reflect.DeepEqual(g, w) {
		return true, ""
	}
	gb, _ := json.Marshal(got)
	wb, _ := json.Marshal(want)
	return false, fmt.Sprintf("\n got: %s\nwant: %s", gb, wb)
}

func jsonText(v any) (string, error) {
	b, err := json.Marshal(v)
	return string(b), err
}

func copyDB(db map[string]any) map[string]any { return state.Clone(db).(map[string]any) }
