package replaytest

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/voiceeval/schematools/internal/pyjson"
)

// GoldTask is one line of a gold replay file (gold_replay_<domain>.train.jsonl), decoded
// with exact numbers (1.0 stays distinct from 1). The fields of the user
// side, of the post-init state and of the final DBs are set only where the
// line has them (the two-sided telecom domain).
type GoldTask struct {
	Domain                             string
	TaskID                             string
	InitialDBHash, InitialUserDBHash   string
	PostInitDBHash, PostInitUserDBHash string
	FinalDBHash, FinalUserDBHash       string
	FinalDB, FinalUserDB               map[string]any
	PerAction                          []GoldAction
	Reference                          any  // reference_actions
	DiffFromInit                       any  // final_db_diff_from_initial
	Errors                             any  // the replay errors the reference logged
	DependsOnToday                     bool // the reference says the result depends on the date
}

// GoldAction is one action of a GoldTask.
type GoldAction struct {
	Index         int
	Name          string
	Arguments     any
	Result        any
	Records       []any
	HashAfter     string
	UserHashAfter string // two-sided domains
}

// ParseGold decodes the lines of a gold replay file. A line that is not
// JSON, or lacks the task id, the final hash or the per-action list, is an
// error naming the line.
func ParseGold(data []byte) ([]GoldTask, error) {
	var out []GoldTask
	for n, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		g, err := parseGoldLine([]byte(line))
		if err != nil {
			return nil, fmt.Errorf("gold replay line %d: %w", n+1, err)
		}
		out = append(out, g)
	}
	return out, nil
}

func parseGoldLine(line []byte) (GoldTask, error) {
	v, err := pyjson.Decode(line)
	if err != nil {
		return GoldTask{}, err
	}
	m, ok := v.(map[string]any)
	if !ok {
		return GoldTask{}, fmt.Errorf("not an object")
	}
	str := func(m map[string]any, k string) string { s, _ := m[k].(string); return s }
	obj := func(k string) map[string]any { o, _ := m[k].(map[string]any); return o }
	g := GoldTask{
		Domain:             str(m, "domain"),
		TaskID:             str(m, "task_id"),
		InitialDBHash:      str(m, "initial_db_hash"),
		InitialUserDBHash:  str(m, "initial_user_db_hash"),
		PostInitDBHash:     str(m, "post_init_db_hash"),
		PostInitUserDBHash: str(m, "post_init_user_db_hash"),
		FinalDBHash:        str(m, "final_db_hash"),
		FinalUserDBHash:    str(m, "final_user_db_hash"),
		FinalDB:            obj("final_db"),
		FinalUserDB:        obj("final_user_db"),
		Reference:          m["reference_actions"],
		DiffFromInit:       m["final_db_diff_from_initial"],
		Errors:             m["errors"],
	}
	g.DependsOnToday, _ = m["depends_on_today"].(bool)
	actions, ok := m["per_action"].([]any)
	if g.TaskID == "" || g.FinalDBHash == "" || !ok {
		return GoldTask{}, fmt.Errorf("task_id, final_db_hash or per_action missing")
	}
	for _, a := range actions {
		am, ok := a.(map[string]any)
		if !ok {
			return GoldTask{}, fmt.Errorf("task %s: an action is not an object", g.TaskID)
		}
		num, _ := am["index"].(json.Number)
		idx, err := num.Int64()
		if err != nil {
			return GoldTask{}, fmt.Errorf("task %s: action index: %w", g.TaskID, err)
		}
		records, _ := am["records_appended"].([]any)
		g.PerAction = append(g.PerAction, GoldAction{
			Index:         int(idx),
			Name:          str(am, "name"),
			Arguments:     am["arguments"],
			Result:        am["result"],
			Records:       records,
			HashAfter:     str(am, "db_hash_after"),
			UserHashAfter: str(am, "user_db_hash_after"),
		})
	}
	return g, nil
}
