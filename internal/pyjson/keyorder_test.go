package pyjson_test

import (
	"reflect"
	"slices"
	"testing"

	"github.com/voiceeval/schematools/internal/pyjson"
	"github.com/voiceeval/schematools/internal/pyvalue"
)

// orderOf is the key order DecodeOrdered noted for m: its own entry, else
// its set's; nil when it has none (fewer than two keys).
func orderOf(o *pyjson.KeyOrders, m map[string]any) []string {
	for _, ob := range o.Objects {
		if reflect.ValueOf(ob.Map).UnsafePointer() == reflect.ValueOf(m).UnsafePointer() {
			return ob.Keys
		}
	}
	return o.Sets[pyjson.KeySetHash(m)]
}

// sameOrders walks a value Decode made (v) beside the one pyvalue.Loads
// made of the same text (want, objects in json.loads' order) and reports
// the first object whose noted order is not json.loads'.
func sameOrders(t *testing.T, o *pyjson.KeyOrders, v, want any) {
	t.Helper()
	switch w := want.(type) {
	case pyvalue.Dict:
		m := v.(map[string]any)
		items := w.Items()
		keys := make([]string, len(items))
		for i, it := range items {
			keys[i] = it.Key
		}
		if got := orderOf(o, m); len(keys) >= 2 && !slices.Equal(got, keys) {
			t.Fatalf("object %v: noted order %q, json.loads' %q", m, got, keys)
		}
		for _, it := range items {
			sameOrders(t, o, m[it.Key], it.Value)
		}
	case []any:
		l := v.([]any)
		for i := range w {
			sameOrders(t, o, l[i], w[i])
		}
	}
}

func TestDecodeOrdered(t *testing.T) {
	for _, c := range []struct {
		name, text    string
		sets, objects int
	}{
		{"no object of two keys", `[1, {"a": 1}, {}, "x"]`, 0, 0},
		{"records sharing an order", `{"r": [{"b": 1, "a": 2}, {"b": 3, "a": 4}, {"b": 5, "a": 6}]}`, 1, 0},
		{"one record in another order", `[{"b": 1, "a": 2}, {"a": 3, "b": 4}, {"b": 5, "a": 6}]`, 1, 1},
		{"nested", `{"z": {"y": {"x": 1, "w": 2}, "v": [{"u": 1, "t": 2}]}, "s": 0}`, 4, 0},
		{"a key given twice keeps its first place", `{"b": 1, "a": 2, "b": 3}`, 1, 0},
		{"orders of sets of different sizes", `[{"a": 1, "b": 2}, {"b": 1, "a": 2, "c": 3}, {"c": 1, "b": 2, "a": 3}]`, 2, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			v, _, o, err := pyjson.DecodeOrdered([]byte(c.text), false)
			if err != nil {
				t.Fatal(err)
			}
			want, err := pyvalue.Loads([]byte(c.text))
			if err != nil {
				t.Fatal(err)
			}
			sameOrders(t, o, v, want)
			if len(o.Sets) != c.sets || len(o.Objects) != c.objects {
				t.Errorf("%d sets, %d objects of their own; want %d, %d", len(o.Sets), len(o.Objects), c.sets, c.objects)
			}
			plain, err := pyjson.Decode([]byte(c.text))
			if err != nil || !reflect.DeepEqual(plain, v) {
				t.Errorf("DecodeOrdered's value differs from Decode's: %v, %v (%v)", v, plain, err)
			}
		})
	}
}

// The fingerprints DecodeOrdered takes with printed are DecodePrinted's.
func TestDecodeOrderedPrints(t *testing.T) {
	text := []byte(`{"a": [1, 2.5, "x"], "b": {"d": null, "c": true}}`)
	_, p1, err := pyjson.DecodePrinted(text)
	if err != nil {
		t.Fatal(err)
	}
	_, p2, _, err := pyjson.DecodeOrdered(text, true)
	if err != nil || !reflect.DeepEqual(p1, p2) {
		t.Fatalf("prints %v, want %v (%v)", p2, p1, err)
	}
	if _, p, _, _ := pyjson.DecodeOrdered([]byte(`{"a": 1, "a": 2}`), true); p != nil {
		t.Errorf("prints of an object naming a key twice: %v, want none", p)
	}
}

// FuzzDecodeOrdered checks DecodeOrdered against pyvalue.Loads, which
// keeps every object in order: whatever JSON it reads, the value is
// Decode's and each object's noted order is json.loads' — read from its
// own entry, or from the first order of its set of keys.
func FuzzDecodeOrdered(f *testing.F) {
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	for _, s := range []string{
		`[{"b": 1, "a": 2}, {"a": 3, "b": 4}]`,
		`{"x": {"q": 1, "p": 2}, "y": [{"p": 1, "q": 2}, {"q": 3, "p": 4, "r": 5}]}`,
		`{"k": {"b": 1, "a": {"b": 2, "a": 3}}, "k": {"a": 1, "b": 2}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, _, o, err := pyjson.DecodeOrdered(data, true)
		plain, perr := pyjson.Decode(data)
		if (err == nil) != (perr == nil) {
			t.Fatalf("DecodeOrdered error %v, Decode error %v", err, perr)
		}
		if err != nil {
			return
		}
		if !reflect.DeepEqual(plain, v) && !hasNaN(plain) {
			t.Fatalf("values differ: %#v, %#v", v, plain)
		}
		want, err := pyvalue.Loads(data)
		if err != nil {
			return // pyvalue.Loads reads less than Decode (UTF-16 input, say)
		}
		sameOrders(t, o, v, want)
	})
}

// hasNaN reports whether v holds a NaN, which DeepEqual never finds equal.
func hasNaN(v any) bool {
	switch x := v.(type) {
	case float64:
		return x != x
	case []any:
		return slices.ContainsFunc(x, hasNaN)
	case map[string]any:
		for _, e := range x {
			if hasNaN(e) {
				return true
			}
		}
	}
	return false
}
