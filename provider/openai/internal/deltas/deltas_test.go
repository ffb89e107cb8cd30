package deltas

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/voiceeval/schematools/tool"
)

func TestAccumulator(t *testing.T) {
	type d struct {
		index              int64
		hasIndex           bool
		id, name, argument string
	}
	tests := []struct {
		name   string
		deltas []d
		want   []tool.ModelCall
	}{
		{"by index", []d{{0, true, "a", "f", ""}, {1, true, "b", "g", ""}, {0, true, "", "", `{"x"`}, {1, true, "", "", "{}"}, {0, true, "", "", ": 1}"}},
			[]tool.ModelCall{{ID: "a", Name: "f", Arguments: `{"x": 1}`}, {ID: "b", Name: "g", Arguments: "{}"}}},
		{"name in pieces", []d{{0, true, "a", "get_", ""}, {0, true, "", "order", "{}"}}, []tool.ModelCall{{ID: "a", Name: "get_order", Arguments: "{}"}}},
		{"no index", []d{{0, false, "a", "f", "{"}, {0, false, "", "", "}"}, {0, false, "b", "g", "{}"}},
			[]tool.ModelCall{{ID: "a", Name: "f", Arguments: "{}"}, {ID: "b", Name: "g", Arguments: "{}"}}},
		{"no id at all", []d{{0, true, "", "f", "{}"}, {1, true, "", "g", "{}"}}, []tool.ModelCall{{Name: "f", Arguments: "{}"}, {Name: "g", Arguments: "{}"}}},
		{"a repeated id at another index is another call", []d{{0, true, "a", "f", "1"}, {1, true, "a", "f", "2"}},
			[]tool.ModelCall{{ID: "a", Name: "f", Arguments: "1"}, {ID: "a", Name: "f", Arguments: "2"}}},
	}
	for _, tt := range tests {
		var a Accumulator
		for _, x := range tt.deltas {
			a.Add(x.index, x.hasIndex, x.id, x.name, x.argument)
		}
		assert.Equal(t, tt.want, a.calls, tt.name)
	}
}

// FuzzAccumulator: any sequence of deltas is put together without a
// panic, into no more calls than deltas, losing and repeating no
// argument fragment.
func FuzzAccumulator(f *testing.F) {
	f.Add([]byte{0, 1, 'a', 0, 2, 0, 3, 0, 'b', 4})
	f.Add([]byte("\x00\x01a\x00\x01a\x01\x00b"))
	f.Fuzz(func(t *testing.T, ops []byte) {
		var a Accumulator
		var all string
		n := 0
		for i := 0; i+2 < len(ops); i += 3 {
			op, x, y := ops[i], ops[i+1], ops[i+2]
			id := ""
			if op&1 != 0 {
				id = string(rune('a' + x%4))
			}
			name := ""
			if op&2 != 0 {
				name = string(rune('f' + y%3))
			}
			args := string(rune('0' + y%10))
			a.Add(int64(x%3), op&4 != 0, id, name, args)
			all += args
			n++
		}
		got := ""
		for _, c := range a.Calls() {
			got += c.Arguments
		}
		if len(a.Calls()) > n || len(got) != len(all) {
			t.Fatalf("%d calls from %d deltas; fragments %q, put together %q", len(a.Calls()), n, all, got)
		}
	})
}
