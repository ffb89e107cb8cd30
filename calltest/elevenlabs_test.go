package calltest_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/calltest"
)

const validDoc = `{
  "type": "tool",
  "name": "books a table for six",
  "chat_history": [
    {"role": "user", "message": "Hi", "time_in_call_secs": 0},
    {"role": "agent", "message": "Hello! How can I help?", "time_in_call_secs": 1},
    {"role": "user", "message": "A table for six at eight.", "time_in_call_secs": 4}
  ],
  "tool_call_parameters": {
    "referenced_tool": {"id": "book_table", "type": "webhook"},
    "parameters": [
      {"path": "party_size", "eval": {"type": "exact", "expected_value": "6"}},
      {"path": "time", "eval": {"type": "regex", "pattern": "^20:00$"}},
      {"path": "name", "eval": {"type": "anything"}},
      {"path": "note", "eval": {"type": "llm", "description": "mentions the birthday"}}
    ],
    "verify_absence": false,
    "workflow_node_transition": null
  },
  "check_any_tool_matches": false,
  "dynamic_variables": {"restaurant": "Chez Go"}
}`

func TestLoadElevenLabs(t *testing.T) {
	test, err := calltest.LoadElevenLabs([]byte(validDoc))
	require.NoError(t, err)
	assert.Equal(t, "books a table for six", test.Name)
	require.Len(t, test.History, 3)
	require.Len(t, test.Expect, 1)
	assert.Equal(t, "book_table", test.Expect[0].Tool)
	require.Len(t, test.Expect[0].Params, 4)

	step := calltest.Step{Calls: []calltest.Call{call("book_table", `{"party_size": 6, "time": "20:00", "name": "Ada", "note": "it is her birthday"}`)}}
	res, err := calltest.Check(context.Background(), test, step, nil)
	require.NoError(t, err)
	assert.Equal(t, calltest.Unknown, res.Status, "the llm check needs a judge")
	judge := calltest.JudgeFunc(func(context.Context, calltest.Question) (bool, string, error) {
		return true, "", nil
	})
	res, err = calltest.Check(context.Background(), test, step, &calltest.Options{Judge: judge})
	require.NoError(t, err)
	assert.Equal(t, calltest.Pass, res.Status)
}

func TestLoadElevenLabsAbsenceAndAnyTool(t *testing.T) {
	absent, err := calltest.LoadElevenLabs([]byte(`{"type":"tool","name":"n","chat_history":[{"role":"user","message":"hi"}],
		"tool_call_parameters":{"referenced_tool":{"id":"transfer_to_number","type":"system"},"verify_absence":true}}`))
	require.NoError(t, err)
	assert.True(t, absent.Expect[0].Absent)

	anyTool, err := calltest.LoadElevenLabs([]byte(`{"type":"tool","name":"n","chat_history":[{"role":"user","message":"hi"}],"check_any_tool_matches":true}`))
	require.NoError(t, err)
	res, err := calltest.Check(context.Background(), anyTool, calltest.Step{Calls: []calltest.Call{call("a", `{}`), call("b", `{}`)}}, nil)
	require.NoError(t, err)
	assert.Equal(t, calltest.Pass, res.Status)
}

// Every known mistake gets a precise, located error.
func TestLoadElevenLabsErrors(t *testing.T) {
	body := func(params string, extra string) string {
		return `{"type":"tool","name":"n","chat_history":[{"role":"user","message":"hi"}],` +
			`"tool_call_parameters":{"referenced_tool":{"id":"book","type":"webhook"},"parameters":` + params + extra + `}}`
	}
	tests := []struct {
		name, doc, want string
	}{
		{"parameters as an object", body(`{"customer_id": "123"}`, ""), "parameters must be an array"},
		{"unknown eval type", body(`[{"path":"a","eval":{"type":"contains","value":"x"}}]`, ""), `unknown eval type "contains"`},
		{"exact without expected_value", body(`[{"path":"a","eval":{"type":"exact"}}]`, ""), "exact needs expected_value"},
		{"exact with a number", body(`[{"path":"a","eval":{"type":"exact","expected_value":6}}]`, ""), `stringify numbers and booleans: "6"`},
		{"regex without pattern", body(`[{"path":"a","eval":{"type":"regex"}}]`, ""), "regex check without pattern"},
		{"invalid regex", body(`[{"path":"a","eval":{"type":"regex","pattern":"("}}]`, ""), "invalid pattern"},
		{"llm without description", body(`[{"path":"a","eval":{"type":"llm"}}]`, ""), "llm check without description"},
		{"bracket path", body(`[{"path":"items[0].sku","eval":{"type":"anything"}}]`, ""), `write "items.0.sku"`},
		{"absence with parameters", body(`[{"path":"a","eval":{"type":"anything"}}]`, `,"verify_absence":true`), "verify_absence takes no parameters"},
		{"empty history", `{"type":"tool","name":"n","chat_history":[],"tool_call_parameters":{"referenced_tool":{"id":"b","type":"webhook"}}}`, "chat_history must not be empty"},
		{"agent-final history", `{"type":"tool","name":"n","chat_history":[{"role":"user","message":"a"},{"role":"agent","message":"b"}],"tool_call_parameters":{"referenced_tool":{"id":"b","type":"webhook"}}}`, "must end on the turn just before"},
		{"bad role", `{"type":"tool","name":"n","chat_history":[{"role":"system","message":"a"}],"tool_call_parameters":{"referenced_tool":{"id":"b","type":"webhook"}}}`, `role must be "user" or "agent"`},
		{"not a tool test", `{"type":"llm","name":"n","chat_history":[{"role":"user","message":"a"}],"tool_call_parameters":{"referenced_tool":{"id":"b","type":"webhook"}}}`, `type must be "tool"`},
		{"no tool", `{"type":"tool","name":"n","chat_history":[{"role":"user","message":"a"}]}`, "referenced_tool is required"},
		{"not JSON", `{"type":`, "not a JSON test object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := calltest.LoadElevenLabs([]byte(tt.doc))
			require.Error(t, err)
			assert.ErrorIs(t, err, calltest.ErrInvalidTest)
			assert.Contains(t, err.Error(), tt.want)
			assert.True(t, strings.HasPrefix(err.Error(), "calltest: invalid test document: body"), "located: %v", err)
		})
	}
	// All problems are reported at once, each located.
	_, err := calltest.LoadElevenLabs([]byte(body(`[{"path":"a[1]","eval":{"type":"anything"}},{"path":"b","eval":{"type":"nope"}}]`, "")))
	assert.ErrorIs(t, err, calltest.ErrInvalidTest)
	assert.Equal(t, "calltest: invalid test document: "+
		`body.tool_call_parameters.parameters.0: path "a[1]" uses bracket notation, which does not resolve; write "a.1"; `+
		`body.tool_call_parameters.parameters.1.eval.type: unknown eval type "nope" (ElevenLabs has anything, exact, regex and llm)`, err.Error())
}

// FuzzLoadElevenLabs: the loader never panics, and whatever it accepts can
// be checked against any step without error.
func FuzzLoadElevenLabs(f *testing.F) {
	f.Add([]byte(validDoc))
	f.Add([]byte(`{"type":"tool","name":"n","chat_history":[{"role":"user","message":"hi"}],"check_any_tool_matches":true}`))
	f.Add([]byte(`{"type":"tool","chat_history":[{"role":"user"}],"tool_call_parameters":{"referenced_tool":{"id":"x"},"parameters":[{"path":"a.0","eval":{"type":"regex","pattern":"a+"}}]}}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		test, err := calltest.LoadElevenLabs(data)
		if err != nil {
			return
		}
		step := calltest.Step{Calls: []calltest.Call{call("x", `{"a": [1, "a", {"b": null}]}`), call("book_table", `{"party_size": 6}`)}}
		if _, err := calltest.Check(context.Background(), test, step, nil); err != nil {
			t.Fatalf("loaded test failed to check: %v", err)
		}
	})
}
