package state

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/voiceeval/schematools/internal/pyjson"

	"github.com/stretchr/testify/assert"
)

// Values that differ in any way a tool could see have different
// fingerprints; equal values built apart have the same.
func TestFingerprintTellsValuesApart(t *testing.T) {
	type point struct{ X, Y int }
	differ := []struct {
		name string
		a, b any
	}{
		{"int and json.Number", 1, json.Number("1")},
		{"json.Number texts", json.Number("1"), json.Number("1.0")},
		{"int and float", 1, 1.0},
		{"number and string", json.Number("1"), "1"},
		{"None and null", "None", nil},
		{"nil map and empty map", map[string]any(nil), map[string]any{}},
		{"nil list and empty list", []any(nil), []any{}},
		{"empty map and empty list", map[string]any{}, []any{}},
		{"list order", []any{"a", "b"}, []any{"b", "a"}},
		{"swapped values", map[string]any{"a": "x", "b": "y"}, map[string]any{"a": "y", "b": "x"}},
		{"key and value swapped", map[string]any{"a": "b"}, map[string]any{"b": "a"}},
		{"extra key", map[string]any{"a": 1}, map[string]any{"a": 1, "b": nil}},
		{"nested", map[string]any{"r": map[string]any{"l": []any{map[string]any{"k": true}}}}, map[string]any{"r": map[string]any{"l": []any{map[string]any{"k": false}}}}},
		{"moved between levels", []any{[]any{"a"}, "b"}, []any{[]any{"a", "b"}}},
		{"int types", int64(1), 1},
		{"other int types", int32(1), uint8(1)},
		{"structs", point{1, 2}, point{2, 1}},
		{"typed map", map[string]string{"a": "b"}, map[string]string{"a": "c"}},
		{"zero and minus zero", 0.0, math.Copysign(0, -1)},
	}
	for _, tt := range differ {
		assert.NotEqual(t, fingerprint(tt.a), fingerprint(tt.b), tt.name)
	}
	same := []struct {
		name string
		a, b any
	}{
		{"maps built in another order", map[string]any{"a": 1, "b": []any{"x", json.Number("2")}, "c": nil},
			map[string]any{"c": nil, "b": []any{"x", json.Number("2")}, "a": 1}},
		{"NaN", math.NaN(), math.NaN()},
		{"structs", point{1, 2}, point{1, 2}},
		{"typed maps", map[string]string{"a": "b", "c": "d"}, map[string]string{"c": "d", "a": "b"}},
	}
	for _, tt := range same {
		assert.Equal(t, fingerprint(tt.a), fingerprint(tt.b), tt.name)
	}
}

// A large table is fingerprinted in runs of records on all cores; the
// result is the table's fingerprint as taken in one go.
func TestFingerprintsOfLargeTables(t *testing.T) {
	obj := map[string]any{}
	var list []any
	for i := range 5 * printChunk {
		obj[strconv.Itoa(i)] = map[string]any{"i": i}
		list = append(list, map[string]any{"i": i})
	}
	db := map[string]any{"obj": obj, "list": list, "n": json.Number("3"), "small": []any{1}}
	prints := fingerprints(db)
	for k, v := range db {
		assert.Equal(t, fingerprint(v), prints[k], k)
	}
	assert.Len(t, prints, len(db))
}

// The fingerprints pyjson computes as it decodes are the ones taken of the
// decoded value.
func FuzzDecodePrinted(f *testing.F) {
	for _, s := range []string{`{}`, `[]`, `{"a":1,"b":[true,false,null,NaN,Infinity,-Infinity,1.5,"x"],"":{"":""}}`,
		`{"t":{"k":{"x":"None"}},"l":[[],{}],"n":"` + strings.Repeat("long", 20) + `"}`, `"s"`, `1`, `{"a":1,"a":2}`, `[{"a":{},"b":[]},{"a":{},"b":[]}]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, prints, err := pyjson.DecodePrinted(data)
		w, err2 := pyjson.Decode(data)
		if (err == nil) != (err2 == nil) {
			t.Fatalf("DecodePrinted: %v, Decode: %v", err, err2)
		}
		if err != nil {
			return
		}
		if !reflect.DeepEqual(v, w) && fmt.Sprint(v) != fmt.Sprint(w) { // NaN is not DeepEqual to itself
			t.Fatalf("DecodePrinted gave %#v, Decode %#v", v, w)
		}
		if prints == nil {
			return
		}
		if got, want := prints.Root, fingerprint(v); got != want {
			t.Fatalf("root print %x, want %x", got, want)
		}
		m, ok := v.(map[string]any)
		if !ok {
			if prints.Members != nil {
				t.Fatalf("members of a non-object")
			}
			return
		}
		if want := fingerprints(m); !maps.Equal(prints.Members, want) {
			t.Fatalf("member prints %v, want %v", prints.Members, want)
		}
	})
}

// An object that names a key twice has no prints from the decoder.
func TestDecodePrintedDuplicateKey(t *testing.T) {
	v, prints, err := pyjson.DecodePrinted([]byte(`{"a":{"b":1,"b":2}}`))
	assert.NoError(t, err)
	assert.Nil(t, prints)
	assert.Equal(t, map[string]any{"a": map[string]any{"b": json.Number("2")}}, v)
}
