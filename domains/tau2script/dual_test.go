package tau2script

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/agent/agenttest"
)

// playDual runs the two scripts as the relayed conversation does: the
// agent's responses up to one without calls (a spoken turn), then the
// user's up to one without calls, and so on until the agent's EndTool.
// It returns the calls made, each prefixed with its side.
func playDual(t *testing.T, agentTurns, userTurns []agenttest.Turn) []string {
	t.Helper()
	var out []string
	ai, ui := 0, 0
	for ai < len(agentTurns) {
		ended := false
		for ai < len(agentTurns) {
			r := agentTurns[ai]
			ai++
			for _, c := range r.Calls {
				if c.Name == EndTool {
					ended = true
					continue
				}
				out = append(out, "agent "+c.Name+c.Arguments)
			}
			if len(r.Calls) == 0 || ended {
				break
			}
		}
		if ended {
			require.Equal(t, len(agentTurns)-1, ai, "the goodbye text follows the end call")
			return out
		}
		require.Less(t, ui, len(userTurns), "the agent spoke and the user has no answer")
		for ui < len(userTurns) {
			r := userTurns[ui]
			ui++
			for _, c := range r.Calls {
				out = append(out, "user "+c.Name+c.Arguments)
			}
			if len(r.Calls) == 0 {
				break
			}
		}
	}
	t.Fatal("the agent never called the end tool")
	return nil
}

// Every telecom task's two scripts, played as a conversation, make the
// task's gold calls in its order, each on its side, and end with EndTool.
func TestDualPlaysTheGoldOrder(t *testing.T) {
	d, err := Load("tau2_telecom")
	require.NoError(t, err)
	require.NotEmpty(t, d.Tasks)
	withUser := 0
	for _, task := range d.Tasks {
		agentTurns, userTurns, err := d.Dual(task)
		require.NoError(t, err)
		assert.GreaterOrEqual(t, len(agentTurns), MinResponses, task.ID)
		all, err := d.gold(task)
		require.NoError(t, err)
		var want []string
		for _, g := range all {
			side := "agent "
			if g.user {
				side = "user "
				withUser++
			}
			want = append(want, side+g.call.Name+g.call.Arguments)
		}
		got := playDual(t, agentTurns, userTurns)
		if len(want) == 0 {
			want = nil
		}
		assert.Equal(t, want, got, task.ID)
		for i, r := range agentTurns {
			assert.Equal(t, Usage(i).PromptTokens, r.Usage.PromptTokens)
		}
	}
	require.Positive(t, withUser, "no telecom task has a user-side action")
}
