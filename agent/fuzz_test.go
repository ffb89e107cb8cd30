package agent_test

import (
	"encoding/json"
	"testing"
	"unicode/utf8"

	"github.com/voiceeval/schematools/agent"
	"github.com/voiceeval/schematools/tool"
)

// FuzzContextArguments: any model text gives arguments text, never a
// panic; text it re-serialises is JSON that re-serialises to itself, and
// a message holding it renders.
func FuzzContextArguments(f *testing.F) {
	for _, s := range []string{``, `{}`, `{"b":1,"a":[1,2.50,{"z":null}]}`, `{"a":1,"a":2}`, `NaN`, `{"x":"\ud83d"}`, `{"a":`, `[1e400]`, "\xff", `{"n": -0, "f": 1E5, "g": 0.1e-3, "i": 123456789012345678901, "s": "é"}`, ` [ ] `, `{"a":{"a":1}}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		out := agent.ContextArguments(raw)
		if slow := agent.ContextArgumentsSlow(raw); slow != out {
			t.Fatalf("the one-pass path wrote %q, the full decode %q, for %q", out, slow, raw)
		}
		if out != raw {
			if again := agent.ContextArguments(out); again != out {
				t.Fatalf("not stable: %q → %q → %q", raw, out, again)
			}
		}
		b, err := agent.Message{Role: agent.RoleAssistant, ToolCalls: []tool.ModelCall{{ID: "c", Name: "f", Arguments: out}}}.MarshalJSON()
		if err != nil {
			if utf8.ValidString(out) {
				t.Fatalf("valid text did not render: %q: %v", out, err)
			}
			return
		}
		if !json.Valid(b) {
			t.Fatalf("rendered invalid JSON: %s", b)
		}
	})
}
