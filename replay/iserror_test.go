package replay_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/replay"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

// jsonDict is a result with its own MarshalJSON and no exported fields,
// as NeMo's ordered dicts are.
type jsonDict struct{ text string }

func (d jsonDict) MarshalJSON() ([]byte, error) { return []byte(d.text), nil }

// An error result whose type has its own MarshalJSON is an error result
// of the replay, read through its JSON form; a success of that kind is not.
func TestGoldSeesErrorResultsWithTheirOwnJSON(t *testing.T) {
	tools := func(replay.Env) (replay.ToolMap, error) {
		m := replay.ToolMap{}
		for name, text := range map[string]string{
			"refuse":  `{"status": "error", "error_type": "not_found", "message": "Order 1 not found"}`,
			"crash":   `{"error": "kaboom"}`,
			"succeed": `{"status": "success", "message": "done"}`,
		} {
			tl, err := tool.New(name, "Answer in JSON.", func(context.Context, *state.Shared, struct{}) (any, error) {
				return jsonDict{text}, nil
			}, nil)
			if err != nil {
				return nil, err
			}
			if err := m.Add(tl); err != nil {
				return nil, err
			}
		}
		return m, nil
	}
	task := replay.Task{ID: "t", EvaluationCriteria: &replay.EvaluationCriteria{Actions: []replay.Action{
		{Name: "succeed"}, {Name: "refuse"}, {Name: "crash"},
	}}}
	res, err := replay.Gold(context.Background(), replay.Scenario{Domain: "d", Task: task, Tools: tools})
	require.NoError(t, err)
	assert.Equal(t, []replay.ReplayError{
		{Index: 1, Name: "refuse", Kind: "error_result", Message: "Order 1 not found"},
		{Index: 2, Name: "crash", Kind: "error_result", Message: "kaboom"},
	}, res.Errors)
}
