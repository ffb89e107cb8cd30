package pyvalue

import (
	"encoding/json"
	"testing"
)

// A Dict marshals as an object in its order, each key once (its first
// place, its last value), nested Dicts too.
func TestDictMarshalJSON(t *testing.T) {
	for _, c := range []struct {
		d    Dict
		want string
	}{
		{nil, `{}`},
		{Dict{}, `{}`},
		{Dict{{"b", 1}, {"a", json.Number("2.0")}}, `{"b":1,"a":2.0}`},
		{Dict{{"b", 1}, {"a", 2}, {"b", 3}}, `{"b":3,"a":2}`},
		{Dict{{"z", Dict{{"y", []any{Dict{{"x", nil}, {"w", "<&>"}}}}}}}, `{"z":{"y":[{"x":null,"w":"\u003c\u0026\u003e"}]}}`},
	} {
		b, err := json.Marshal(c.d)
		if err != nil || string(b) != c.want {
			t.Errorf("json.Marshal(%v) = %s, %v; want %s", c.d, b, err, c.want)
		}
		// Inside another value, too.
		b, err = json.Marshal(map[string]any{"k": c.d})
		if err != nil || string(b) != `{"k":`+c.want+`}` {
			t.Errorf("nested: %s, %v", b, err)
		}
	}
}
