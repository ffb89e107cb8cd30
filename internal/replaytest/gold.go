package replaytest

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/voiceeval/schematools/internal/pyjson"
	"github.com/voiceeval/schematools/internal/pyvalue"
)

// GoldTask is one line of a gold replay file (gold_replay_<domain>.train.jsonl), decoded
// with exact numbers (1.0 stays distinct from 1). The fields of the user
// side, of the post-init state and of the final DBs are set only where the
// line has them (the two-sided telecom domain).
type GoldTask struct {
	Domain string // the line's domain ("tau2_airline")
	TaskID string // the task's id, as a string
	// InitialDBHash and InitialUserDBHash are the hashes of the DBs the
	// task starts from, before its initialisation actions.
	InitialDBHash, InitialUserDBHash string
	// PostInitDBHash and PostInitUserDBHash are taken after the
	// initialisation actions and the first sync (replay.Result's fields of
	// the same names).
	PostInitDBHash, PostInitUserDBHash string
	// FinalDBHash and FinalUserDBHash are the hashes after the last gold
	// action (replay.Result.DBHash, UserDBHash); FinalDBHash is always set.
	FinalDBHash, FinalUserDBHash string
	// FinalDB and FinalUserDB are the final DBs, where the line carries
	// them; nil otherwise.
	FinalDB, FinalUserDB map[string]any
	PerAction            []GoldAction // one per gold action, in order
	Reference            any          // reference_actions
	DiffFromInit         any          // final_db_diff_from_initial
	Errors               any          // the replay errors the reference logged
	DependsOnToday       bool         // the reference says the result depends on the date
}

// GoldAction is one action of a GoldTask (one per_action item), the
// reference's counterpart of a replay.Step. Values keep exact numbers.
type GoldAction struct {
	Index     int    // the action's index among the task's gold actions
	Name      string // the tool name the action calls
	Arguments any    // the action's arguments
	Result    any    // the tool's raw result
	// ArgumentsText and ResultText are the arguments and the result as
	// the line writes them, in its key order (Python's), re-written as
	// pipecat writes a result into the tool message a model reads:
	// json.dumps(v, ensure_ascii=False) (see [ResultText]).
	ArgumentsText, ResultText string
	// Records are the action records the step appended, each with its
	// "side" (replay.Step.RecordsAppended counts them).
	Records []any
	// HashAfter and UserHashAfter are the DB hashes after the step
	// (replay.Step.DBHash, UserDBHash with Scenario.TraceHashes); empty
	// where the line has none.
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
	texts, err := actionTexts(line)
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
	if len(texts) != len(actions) {
		return GoldTask{}, fmt.Errorf("task %s: per_action read twice gives %d and %d actions", g.TaskID, len(actions), len(texts))
	}
	for i, a := range actions {
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
			ArgumentsText: texts[i][0],
			ResultText:    texts[i][1],
			Records:       records,
			HashAfter:     str(am, "db_hash_after"),
			UserHashAfter: str(am, "user_db_hash_after"),
		})
	}
	return g, nil
}

// actionTexts reads the line again keeping its key order (Python's) and
// returns, per action, its arguments and its result written as the tool
// message a model reads (json.dumps(v, ensure_ascii=False)).
func actionTexts(line []byte) ([][2]string, error) {
	v, err := pyvalue.Loads(line)
	if err != nil {
		return nil, err
	}
	d, _ := v.(pyvalue.Dict)
	pa, _ := d.Get("per_action")
	actions, _ := pa.([]any)
	out := make([][2]string, len(actions))
	for i, a := range actions {
		ad, _ := a.(pyvalue.Dict)
		for j, key := range [...]string{"arguments", "result"} {
			x, _ := ad.Get(key)
			text, err := pyvalue.AppendJSON(nil, x, pyjson.Unicode, false)
			if err != nil {
				return nil, fmt.Errorf("action %d: %s: %w", i, key, err)
			}
			out[i][j] = string(text)
		}
	}
	return out, nil
}
