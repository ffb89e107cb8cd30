package tau2script

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Every airline and retail task's script: each gold call once, in order;
// EndConversationTool in the second-to-last response and a goodbye alone
// last; at least MinResponses responses; batched reads never mix with a
// write, and never make more responses than one call each.
func TestScripts(t *testing.T) {
	for _, name := range []string{"tau2_airline", "tau2_retail"} {
		d, err := Load(name)
		require.NoError(t, err)
		require.NotEmpty(t, d.Tasks)
		for _, task := range d.Tasks {
			one, err := d.Script(task, Options{})
			require.NoError(t, err)
			batch, err := d.Script(task, Options{BatchReads: true})
			require.NoError(t, err)
			assert.GreaterOrEqual(t, len(one), MinResponses, "%s %s", name, task.ID)
			assert.GreaterOrEqual(t, len(batch), MinResponses, "%s %s", name, task.ID)
			assert.LessOrEqual(t, len(batch), len(one), "%s %s", name, task.ID)
			var oneCalls, batchCalls []string
			for i, turn := range one {
				if i < len(one)-2 {
					require.Len(t, turn.Calls, 1, "%s %s: one call per response", name, task.ID)
				}
				for _, c := range turn.Calls {
					oneCalls = append(oneCalls, c.Name+c.Arguments)
				}
				assert.Equal(t, Usage(i).PromptTokens, turn.Usage.PromptTokens)
			}
			for _, turn := range batch {
				for _, c := range turn.Calls {
					batchCalls = append(batchCalls, c.Name+c.Arguments)
				}
			}
			assert.Equal(t, oneCalls, batchCalls, "%s %s: the same calls in the same order", name, task.ID)
			end := one[len(one)-2]
			require.Len(t, end.Calls, 1)
			assert.Equal(t, EndTool, end.Calls[0].Name)
			assert.NotEmpty(t, end.Text)
			assert.Empty(t, one[len(one)-1].Calls)
			assert.NotEmpty(t, one[len(one)-1].Text)
		}
	}
}

func TestBatchReadsGroupsConsecutiveReads(t *testing.T) {
	d, err := Load("tau2_retail")
	require.NoError(t, err)
	grouped := 0
	for _, task := range d.Tasks {
		batch, err := d.Script(task, Options{BatchReads: true})
		require.NoError(t, err)
		for _, turn := range batch {
			if len(turn.Calls) > 1 {
				grouped++
			}
		}
	}
	assert.Positive(t, grouped, "some retail task has consecutive reads")
}

func TestUnknownTaskAndDomain(t *testing.T) {
	_, err := Load("coffee")
	assert.Error(t, err)
	d, err := Load("tau2_airline")
	require.NoError(t, err)
	_, err = d.Task("no-such-task")
	assert.Error(t, err)
}
