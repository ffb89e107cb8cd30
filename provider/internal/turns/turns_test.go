package turns

import (
	"encoding/json"
	"testing"

	"github.com/voiceeval/schematools/agent"
	"github.com/voiceeval/schematools/tool"
)

func TestRegroupPairs(t *testing.T) {
	call := func(id string, native bool) agent.Message {
		m := agent.Message{Role: agent.RoleAssistant, ToolCalls: []tool.ModelCall{{ID: id, Name: "f"}}}
		if native {
			m.Native = map[string]json.RawMessage{"p": json.RawMessage(`1`)}
		}
		return m
	}
	res := func(id string) agent.Message {
		return agent.Message{Role: agent.RoleTool, ToolCallID: id, Content: "r"}
	}
	msgs := []agent.Message{
		{Role: agent.RoleUser, Content: "hi"},
		{Role: agent.RoleAssistant, Content: "text"}, call("a", false), res("a"), call("b", false), res("b"), // one response, two calls
		call("c", true), res("c"), // Native starts a response of its own
		call("d", true), res("d"),
		{Role: agent.RoleUser, Content: "more"},
		res("orphan"), // a tool message after a user message is no response's
	}
	got := Regroup(msgs, "p")
	want := []struct {
		response bool
		start    int
		text     string
		calls    int
		results  int
	}{
		{false, 0, "", 0, 0},
		{true, 1, "text", 2, 2},
		{true, 6, "", 1, 1},
		{true, 8, "", 1, 1},
		{false, 10, "", 0, 0},
		{false, 11, "", 0, 0},
	}
	if len(got) != len(want) {
		t.Fatalf("%d groups, want %d: %+v", len(got), len(want), got)
	}
	for i, w := range want {
		g := got[i]
		if g.Response != w.response || g.Start != w.start || g.Text != w.text || len(g.Calls) != w.calls || len(g.Results) != w.results {
			t.Errorf("group %d = %+v, want %+v", i, g, w)
		}
	}
	if got[2].Native == nil || got[1].Native != nil {
		t.Errorf("Native: %s / %s", got[1].Native, got[2].Native)
	}
}
