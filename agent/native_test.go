package agent_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/agent"
	"github.com/voiceeval/schematools/rtvi/rtviws"
)

// A response's Native goes on the first assistant message the loop writes
// for it (the text message, else the first call's) and nowhere else; the
// context renders as it does without it, in MarshalJSON and in
// get_context_history.
func TestNativeKeptButNotRendered(t *testing.T) {
	native := map[string]json.RawMessage{"anthropic": json.RawMessage(`[{"type":"thinking","thinking":"t","signature":"s"}]`)}
	tests := []struct {
		name  string
		resp  agent.Response
		first int // index of the message carrying Native
	}{
		{"text and calls", agent.Response{Text: "ok", Calls: calls("a", "echo", "{}", "b", "echo", "{}"), Native: native}, 2},
		{"calls only", agent.Response{Calls: calls("a", "echo", "{}", "b", "echo", "{}"), Native: native}, 2},
		{"text only", agent.Response{Text: "ok", Native: native}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			run := func(resp agent.Response) *agent.Context {
				m := &script{responses: []agent.Response{resp}}
				c := agent.NewContext(agent.Message{Role: agent.RoleSystem, Content: "sys"})
				_, err := (&agent.Loop{Model: m, Tools: newSet(t, echoTool()), Context: c}).Turn(context.Background(), "hi")
				require.NoError(t, err)
				return c
			}
			with := run(tt.resp)
			plain := tt.resp
			plain.Native = nil
			without := run(plain)
			for i, m := range with.Messages() {
				if i == tt.first {
					assert.Equal(t, native, m.Native, "message %d", i)
				} else {
					assert.Nil(t, m.Native, "message %d", i)
				}
			}
			render := func(c *agent.Context) (string, []any) {
				b, err := json.Marshal(c.Messages())
				require.NoError(t, err)
				h, err := rtviws.NewConversation(c).Messages(context.Background())
				require.NoError(t, err)
				return string(b), h
			}
			wb, wh := render(with)
			pb, ph := render(without)
			assert.Equal(t, pb, wb, "the context JSON is unchanged")
			assert.NotContains(t, wb, "thinking")
			assert.Equal(t, ph, wh, "get_context_history is unchanged")
		})
	}
}
