package pyjson

import (
	"slices"
	"testing"
)

func TestObjectKeys(t *testing.T) {
	for _, c := range []struct {
		text string
		want []string
		ok   bool
	}{
		{`{"b": 1, "a": {"z": 2}, "c": [3]}`, []string{"b", "a", "c"}, true},
		{`{"b": 1, "a": 2, "b": 3}`, []string{"b", "a"}, true},
		{`{}`, nil, true},
		{`[1]`, nil, false},
		{`{"a": }`, nil, false},
	} {
		got, err := ObjectKeys([]byte(c.text))
		if (err == nil) != c.ok || !slices.Equal(got, c.want) {
			t.Errorf("ObjectKeys(%s) = %q, %v", c.text, got, err)
		}
	}
}
