package replay

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/voiceeval/schematools/hooks"
)

// Sides of a two-sided scenario.
const (
	sideAgent = "agent"
	sideUser  = "user"
)

// sideOf maps a tau2 env_type to a side: "assistant" and "agent" are the
// agent, "user" is the user; anything else is returned as is.
func sideOf(envType string) string {
	if envType == "assistant" {
		return sideAgent
	}
	return envType
}

// Task is one benchmark task in tau2's tasks.json format. Fields the
// replay does not use are kept verbatim in Raw, so a task read and written
// back loses nothing.
type Task struct {
	ID                 string              `json:"id"`
	InitialState       *InitialState       `json:"initial_state"`
	EvaluationCriteria *EvaluationCriteria `json:"evaluation_criteria"`
	// Raw holds every field of the task as it was read, including those
	// above.
	Raw map[string]json.RawMessage `json:"-"`
}

// InitialState is a task's starting point.
type InitialState struct {
	InitializationActions []hooks.InitAction `json:"initialization_actions"`
}

// EvaluationCriteria are what a task is scored on.
type EvaluationCriteria struct {
	Actions       []Action    `json:"actions"`
	EnvAssertions []Assertion `json:"env_assertions"`
	NLAssertions  []string    `json:"nl_assertions"`
}

// Action is one gold action. Requestor "user" runs it on the user side;
// anything else (usually "assistant", or absent) on the agent side.
// CompareArgs is nil when absent or null (compare every argument), empty
// for "name only", or the argument names to compare.
type Action struct {
	ActionID    string         `json:"action_id"`
	Requestor   *string        `json:"requestor"`
	Name        string         `json:"name"`
	Arguments   map[string]any `json:"arguments"`
	CompareArgs []string       `json:"compare_args"`
}

// side returns the side the action runs on: "user" or "agent".
func (a Action) side() string {
	if a.Requestor != nil && *a.Requestor == sideUser {
		return sideUser
	}
	return sideAgent
}

// goldActions returns the task's gold actions, or none.
func goldActions(t Task) []Action {
	if t.EvaluationCriteria == nil {
		return nil
	}
	return t.EvaluationCriteria.Actions
}

// initActions returns the task's initialisation actions, or none.
func initActions(t Task) []hooks.InitAction {
	if t.InitialState == nil {
		return nil
	}
	return t.InitialState.InitializationActions
}

// UnmarshalJSON reads a task, keeping every field in Raw. The id may be a
// JSON string or number. Field names match exactly, as tau2's loader
// matches them.
func (t *Task) UnmarshalJSON(data []byte) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return err
	}
	out := Task{Raw: raw}
	for _, f := range []struct {
		name string
		dst  any
	}{{"initial_state", &out.InitialState}, {"evaluation_criteria", &out.EvaluationCriteria}} {
		if v, ok := raw[f.name]; ok {
			dec := json.NewDecoder(bytes.NewReader(v))
			dec.UseNumber()
			if err := dec.Decode(f.dst); err != nil {
				return err
			}
		}
	}
	if v, ok := raw["id"]; ok {
		var id any
		if err := json.Unmarshal(v, &id); err != nil {
			return err
		}
		switch x := id.(type) {
		case string:
			out.ID = x
		case float64:
			out.ID = string(v)
		default:
			return fmt.Errorf("replay: task id %s is neither a string nor a number", v)
		}
	}
	*t = out
	return nil
}

// MarshalJSON writes the task back with every field it was read with.
func (t Task) MarshalJSON() ([]byte, error) {
	if t.Raw != nil {
		return json.Marshal(t.Raw)
	}
	type plain Task
	return json.Marshal(plain(t))
}

// DecodeTasks decodes a JSON array of tasks, as json.Unmarshal into a
// []Task would, with the tasks decoded on all cores. An error names the
// first task (by position) that cannot be read.
func DecodeTasks(data []byte) ([]Task, error) {
	tasks, err := decodeTasks(data)
	if err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	return tasks, nil
}

func decodeTasks(data []byte) ([]Task, error) {
	elems, err := splitArray(data)
	if err != nil {
		return nil, err
	}
	tasks := make([]Task, len(elems))
	errs := make([]error, len(elems))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(elems)) {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < len(elems); i = int(next.Add(1) - 1) {
				// UnmarshalJSON checks the item's syntax itself (json.Unmarshal
				// would scan it once more first, to the same error).
				errs[i] = tasks[i].UnmarshalJSON(elems[i])
			}
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("task %d: %w", i, err)
		}
	}
	return tasks, nil
}

// splitArray returns the items of the JSON array in data, each as the
// bytes it spans, without decoding them: it follows strings and nesting
// only, so an item's own syntax is checked when it is decoded. What lies
// around and between the items must be JSON. A null is no items, as
// json.Unmarshal reads it into a slice.
func splitArray(data []byte) ([][]byte, error) {
	pos := skipSpace(data, 0)
	if rest, ok := bytes.CutPrefix(data[pos:], []byte("null")); ok && skipSpace(rest, 0) == len(rest) {
		return [][]byte{}, nil
	}
	if pos == len(data) || data[pos] != '[' {
		return nil, errors.New("not a JSON array")
	}
	var items [][]byte
	pos = skipSpace(data, pos+1)
	if pos < len(data) && data[pos] == ']' {
		if skipSpace(data, pos+1) != len(data) {
			return nil, fmt.Errorf("invalid character after the array at offset %d", skipSpace(data, pos+1))
		}
		return [][]byte{}, nil
	}
	for {
		start := pos
		depth := 0
	item:
		for ; pos < len(data); pos++ {
			switch data[pos] {
			case '"':
				for pos++; pos < len(data) && data[pos] != '"'; pos++ {
					if data[pos] == '\\' {
						pos++
					}
				}
			case '{', '[':
				depth++
			case '}', ']':
				if depth == 0 {
					break item
				}
				depth--
			case ',':
				if depth == 0 {
					break item
				}
			}
		}
		if pos >= len(data) {
			return nil, errors.New("unexpected end of JSON input")
		}
		end := pos
		for end > start && isSpace(data[end-1]) {
			end--
		}
		if end == start {
			return nil, fmt.Errorf("invalid character %q at offset %d: an item is missing", data[pos], pos)
		}
		items = append(items, data[start:end])
		if data[pos] == ']' {
			if rest := skipSpace(data, pos+1); rest != len(data) {
				return nil, fmt.Errorf("invalid character after the array at offset %d", rest)
			}
			return items, nil
		}
		if data[pos] != ',' {
			return nil, fmt.Errorf("invalid character %q at offset %d", data[pos], pos)
		}
		pos = skipSpace(data, pos+1)
	}
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func skipSpace(data []byte, pos int) int {
	for pos < len(data) && isSpace(data[pos]) {
		pos++
	}
	return pos
}

// Splits are the named task-id lists of a tau2 split_tasks.json file
// ("train", "test", "base"); json.Unmarshal reads one.
type Splits map[string][]string

// Select returns the tasks of the named split, in the split's order. An
// unknown split, or an id with no task, is an error naming what exists.
func (s Splits) Select(split string, tasks []Task) ([]Task, error) {
	ids, ok := s[split]
	if !ok {
		names := make([]string, 0, len(s))
		for k := range s {
			names = append(names, k)
		}
		slices.Sort(names)
		return nil, fmt.Errorf("replay: no split %q; available: %v", split, names)
	}
	byID := make(map[string]Task, len(tasks))
	for _, t := range tasks {
		byID[t.ID] = t
	}
	out := make([]Task, 0, len(ids))
	for _, id := range ids {
		t, ok := byID[id]
		if !ok {
			return nil, fmt.Errorf("replay: split %q names task %q, which is not in the task list", split, id)
		}
		out = append(out, t)
	}
	return out, nil
}
