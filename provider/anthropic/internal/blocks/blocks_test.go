package blocks

import (
	"encoding/json"
	"testing"
)

func TestAccumulator(t *testing.T) {
	type ev struct {
		start      *Start
		delta, val string
		stop       bool
		index      int64
	}
	tests := []struct {
		name    string
		events  []ev
		args    []string
		native  string
		wantErr bool
	}{
		{"fragments joined", []ev{
			{index: 0, start: &Start{Type: "tool_use", ID: "a", Name: "f", Input: json.RawMessage("{}")}},
			{index: 0, delta: "input_json_delta", val: `{"x": `}, {index: 0, delta: "input_json_delta", val: `1}`}, {index: 0, stop: true},
		}, []string{`{"x": 1}`}, `[{"id":"a","input":{"x":1},"name":"f","type":"tool_use"}]`, false},
		{"an empty partial_json leaves {}", []ev{
			{index: 0, start: &Start{Type: "tool_use", ID: "a", Name: "f", Input: json.RawMessage("{}")}},
			{index: 0, delta: "input_json_delta", val: ""}, {index: 0, stop: true},
		}, []string{`{}`}, `[{"id":"a","input":{},"name":"f","type":"tool_use"}]`, false},
		{"no delta, no start input", []ev{{index: 0, start: &Start{Type: "tool_use", ID: "a", Name: "f"}}, {index: 0, stop: true}}, []string{`{}`}, "", false},
		{"thinking kept with its signature", []ev{
			{index: 0, start: &Start{Type: "thinking"}}, {index: 0, delta: "thinking_delta", val: "hm"}, {index: 0, delta: "signature_delta", val: "sig"}, {index: 0, stop: true},
			{index: 1, start: &Start{Type: "text"}}, {index: 1, delta: "text_delta", val: "hi"}, {index: 1, stop: true},
		}, nil, `[{"signature":"sig","thinking":"hm","type":"thinking"},{"text":"hi","type":"text"}]`, false},
		{"delta before start", []ev{{index: 0, delta: "text_delta", val: "x"}}, nil, "", true},
		{"delta of the wrong kind", []ev{{index: 0, start: &Start{Type: "text"}}, {index: 0, delta: "input_json_delta", val: "x"}}, nil, "", true},
		{"started twice", []ev{{index: 0, start: &Start{Type: "text"}}, {index: 0, start: &Start{Type: "text"}}}, nil, "", true},
		{"a tool_use without id", []ev{{index: 0, start: &Start{Type: "tool_use", Name: "f"}}}, nil, "", true},
		{"delta after stop", []ev{{index: 0, start: &Start{Type: "text"}}, {index: 0, stop: true}, {index: 0, delta: "text_delta", val: "x"}}, nil, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var a Accumulator
			var err error
			for _, e := range tt.events {
				switch {
				case e.start != nil:
					err = a.Start(e.index, *e.start)
				case e.stop:
					err = a.Stop(e.index)
				default:
					err = a.Delta(e.index, e.delta, e.val)
				}
				if err != nil {
					break
				}
			}
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, want error %v", err, tt.wantErr)
			}
			if tt.wantErr {
				return
			}
			var args []string
			for _, b := range a.Blocks() {
				if b.Type == "tool_use" {
					args = append(args, b.Arguments())
				}
			}
			if len(args) != len(tt.args) {
				t.Fatalf("args %q, want %q", args, tt.args)
			}
			for i := range args {
				if args[i] != tt.args[i] {
					t.Errorf("args %q, want %q", args, tt.args)
				}
			}
			if tt.native != "" {
				n, err := a.Native()
				if err != nil || string(n) != tt.native {
					t.Errorf("native %s (%v), want %s", n, err, tt.native)
				}
			}
		})
	}
}

// FuzzAccumulator: any sequence of events is put together or refused with
// an error, never a panic; what is accepted gives valid native JSON whose
// tool_use inputs are objects.
func FuzzAccumulator(f *testing.F) {
	f.Add([]byte{0, 3, 1, 3, 2}, "f", `{"x": 1}`)
	f.Add([]byte{0, 1, 1, 2}, "", "")
	f.Add([]byte{0, 4, 5, 2, 0, 1}, "hm", "sig")
	f.Fuzz(func(t *testing.T, ops []byte, s1, s2 string) {
		var a Accumulator
		types := []string{"text", "tool_use", "thinking", "redacted_thinking", "", "server_tool_use"}
		deltas := []string{"text_delta", "input_json_delta", "thinking_delta", "signature_delta", "citations_delta", "x"}
		for i, op := range ops {
			idx := int64(op>>4) % 3
			val := s1
			if i%2 == 1 {
				val = s2
			}
			switch op % 4 {
			case 0:
				_ = a.Start(idx, Start{Type: types[int(op>>2)%len(types)], ID: s1, Name: s2, Input: json.RawMessage(s2), Raw: json.RawMessage(s1)})
			case 1, 3:
				_ = a.Delta(idx, deltas[int(op>>2)%len(deltas)], val)
			case 2:
				_ = a.Stop(idx)
			}
		}
		n, err := a.Native()
		if err != nil {
			t.Fatalf("native: %v", err)
		}
		var blocks []map[string]json.RawMessage
		if err := json.Unmarshal(n, &blocks); err != nil {
			t.Fatalf("native is not a list of objects: %s", n)
		}
		for _, b := range blocks {
			if string(b["type"]) == `"tool_use"` && b["input"][0] != '{' {
				t.Fatalf("tool_use input not an object: %s", n)
			}
		}
	})
}
