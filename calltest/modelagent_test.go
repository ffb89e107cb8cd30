package calltest_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/agent"
	"github.com/voiceeval/schematools/calltest"
	"github.com/voiceeval/schematools/tool"
)

func TestModelAgent(t *testing.T) {
	history := []calltest.Turn{
		{Role: "user", Message: "Hi"},
		{Role: "agent", Message: "How many?"},
		{Role: "user", Message: "Six at eight."},
	}
	set, err := tool.NewSet()
	require.NoError(t, err)
	boom := errors.New("boom")
	tests := []struct {
		name    string
		system  string
		resp    agent.Response
		err     error
		want    calltest.Step
		wantErr string
		msgs    []agent.Message
	}{
		{
			name:   "calls decoded, system first",
			system: "Be brief.",
			resp:   agent.Response{Text: "Booking.", Calls: []tool.ModelCall{{ID: "c1", Name: "book_table", Arguments: `{"party_size": 6, "time": "20:00"}`}, {ID: "c2", Name: "noop", Arguments: ""}}},
			want: calltest.Step{Text: "Booking.", Calls: []calltest.Call{
				{Name: "book_table", Arguments: map[string]any{"party_size": json.Number("6"), "time": "20:00"}},
				{Name: "noop", Arguments: map[string]any{}},
			}},
			msgs: []agent.Message{{Role: "system", Content: "Be brief."}, {Role: "user", Content: "Hi"}, {Role: "assistant", Content: "How many?"}, {Role: "user", Content: "Six at eight."}},
		},
		{
			name: "text only, no system",
			resp: agent.Response{Text: "We open at ten."},
			want: calltest.Step{Text: "We open at ten."},
			msgs: []agent.Message{{Role: "user", Content: "Hi"}, {Role: "assistant", Content: "How many?"}, {Role: "user", Content: "Six at eight."}},
		},
		{name: "model error", err: boom, wantErr: "calltest: model: boom"},
		{name: "malformed arguments", resp: agent.Response{Calls: []tool.ModelCall{{Name: "book_table", Arguments: `{"party_size": 6`}}}, wantErr: "calltest: call 0 to book_table: tool: invalid tool arguments"},
		{name: "arguments not an object", resp: agent.Response{Calls: []tool.ModelCall{{Name: "book_table", Arguments: `[6]`}}}, wantErr: "call 0 to book_table"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got agent.Request
			m := agent.ModelFunc(func(_ context.Context, req agent.Request) (agent.Response, error) {
				got = req
				return tc.resp, tc.err
			})
			step, err := calltest.ModelAgent(m, set, &calltest.ModelOptions{System: tc.system})(context.Background(), history)
			if tc.wantErr != "" {
				require.ErrorContains(t, err, tc.wantErr)
				if tc.err != nil {
					assert.ErrorIs(t, err, tc.err)
				}
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, step)
			assert.Equal(t, tc.msgs, got.Messages)
			assert.Same(t, set, got.Tools)
		})
	}
}

func TestModelAgentBadRole(t *testing.T) {
	m := agent.ModelFunc(func(context.Context, agent.Request) (agent.Response, error) {
		t.Fatal("the model is not called for an invalid history")
		return agent.Response{}, nil
	})
	_, err := calltest.ModelAgent(m, nil, nil)(context.Background(), []calltest.Turn{{Role: "system", Message: "x"}})
	assert.ErrorIs(t, err, calltest.ErrInvalidTest)
}

// A model error is a failed run counted among the errors, never a pass.
func TestModelAgentRepeatErrors(t *testing.T) {
	n := 0
	m := agent.ModelFunc(func(context.Context, agent.Request) (agent.Response, error) {
		n++
		if n%2 == 0 {
			return agent.Response{}, errors.New("HTTP 500")
		}
		return agent.Response{Calls: []tool.ModelCall{{Name: "book_table", Arguments: `{"party_size": 6}`}}}, nil
	})
	test := calltest.Test{Name: "six", History: []calltest.Turn{{Role: "user", Message: "six"}},
		Expect: []calltest.Expectation{{Tool: "book_table", Params: []calltest.ParamCheck{calltest.Equals("party_size", 6)}}}}
	rep, err := calltest.Repeat(context.Background(), calltest.ModelAgent(m, nil, nil), test, 4, 1, nil)
	require.NoError(t, err)
	assert.Equal(t, 2, rep.Passed)
	assert.Equal(t, 2, rep.Errors)
	assert.Equal(t, 2, rep.Failed)
}
