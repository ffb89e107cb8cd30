package replay_test

import (
	"encoding/json"
	"testing"

	"github.com/voiceeval/schematools/replay"
)

// FuzzTaskJSON feeds arbitrary bytes to the task decoder. It must never
// panic, and a task it accepts must write back to JSON that reads as the
// same task.
func FuzzTaskJSON(f *testing.F) {
	for _, seed := range []string{
		`{"id":"7","initial_state":{"initialization_actions":[{"env_type":"user","func_name":"f","arguments":{"a":1}}]},` +
			`"evaluation_criteria":{"actions":[{"action_id":"7_0","requestor":"user","name":"x","arguments":{"n":1.5},"compare_args":["n"]}],` +
			`"env_assertions":[{"env_type":"user","func_name":"p","arguments":{},"assert_value":true}]},"extra":[1]}`,
		`{"id":12}`, `{"id":null}`, `{"initial_state":{"initialization_actions":[{"arguments":[]}]}}`, `{}`, `[]`, `{"id":"a","id":"b"}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var task replay.Task
		if err := json.Unmarshal(data, &task); err != nil {
			return
		}
		out, err := json.Marshal(task)
		if err != nil {
			t.Fatalf("a task read from %q does not write back: %v", data, err)
		}
		var again replay.Task
		if err := json.Unmarshal(out, &again); err != nil {
			t.Fatalf("a task written back as %q does not read: %v", out, err)
		}
		if again.ID != task.ID || nGold(again) != nGold(task) || nInit(again) != nInit(task) {
			t.Fatalf("%q read back as another task from %q", data, out)
		}
	})
}

// FuzzDecodeTasks checks DecodeTasks against encoding/json decoding the
// same bytes into a []replay.Task: both accept or both refuse, and what
// they accept reads as the same tasks.
func FuzzDecodeTasks(f *testing.F) {
	for _, seed := range []string{
		`[]`, ` [ ] `, `[{"id":"1"},{"id":2}]`, `[{"id":"a","description":"x, ] }"}]`, `[{"id":"\"]"}, {}]`,
		`[{}`, `[{},]`, `[,{}]`, `[{}} ]`, `[{} {}]`, `[1]`, `[null]`, `{}`, `[{}] x`, "\xef\xbb\xbf[]", `["\\"]`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, gotErr := replay.DecodeTasks(data)
		var want []replay.Task
		wantErr := json.Unmarshal(data, &want)
		if (gotErr == nil) != (wantErr == nil) {
			t.Fatalf("%q: DecodeTasks says %v, encoding/json says %v", data, gotErr, wantErr)
		}
		if gotErr != nil {
			return
		}
		if len(got) != len(want) {
			t.Fatalf("%q: %d tasks, encoding/json reads %d", data, len(got), len(want))
		}
		for i := range got {
			a, _ := json.Marshal(got[i])
			b, _ := json.Marshal(want[i])
			if string(a) != string(b) {
				t.Fatalf("%q: task %d reads as %s, encoding/json as %s", data, i, a, b)
			}
		}
	})
}

func nGold(t replay.Task) int {
	if t.EvaluationCriteria == nil {
		return 0
	}
	return len(t.EvaluationCriteria.Actions)
}

func nInit(t replay.Task) int {
	if t.InitialState == nil {
		return 0
	}
	return len(t.InitialState.InitializationActions)
}
