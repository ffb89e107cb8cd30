package openai

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
		var a callAccumulator
		for _, x := range tt.deltas {
			a.add(x.index, x.hasIndex, x.id, x.name, x.argument)
		}
		assert.Equal(t, tt.want, a.calls, tt.name)
	}
}
