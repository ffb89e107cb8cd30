package evaairline

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/voiceeval/schematools/internal/jsonlines"
	"github.com/voiceeval/schematools/internal/pyjson"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

const (
	// fixtureDir is the directory of the scenario DBs in nemodata.FS (and
	// under a NeMo data root).
	fixtureDir = "eva_airline"
	// datasetFile holds each scenario's ground truth.
	datasetFile = fixtureDir + "/eva_airline_dataset.jsonl"
)

// FixturePath returns the path of scenario id's DB under a data root
// (nemodata.FS, or NeMo's EVAL_DATA_ROOT): "eva_airline/<id>.json", the
// vectors' "fixture".
func FixturePath(id string) string { return path.Join(fixtureDir, id+".json") }

// ScenarioIDs lists the scenarios whose DB fsys holds under eva_airline/
// ("1.1.2", …), in version order.
func ScenarioIDs(fsys fs.FS) ([]string, error) {
	entries, err := fs.ReadDir(fsys, fixtureDir)
	if err != nil {
		return nil, fmt.Errorf("evaairline: %w", err)
	}
	var ids []string
	for _, e := range entries {
		if name := e.Name(); !e.IsDir() && path.Ext(name) == ".json" {
			ids = append(ids, strings.TrimSuffix(name, ".json"))
		}
	}
	slices.SortFunc(ids, compareVersions)
	return ids, nil
}

// compareVersions orders "1.10.2" after "1.9.3".
func compareVersions(a, b string) int {
	pa, pb := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < len(pa) && i < len(pb); i++ {
		if c := len(pa[i]) - len(pb[i]); c != 0 {
			return c
		}
		if c := strings.Compare(pa[i], pb[i]); c != 0 {
			return c
		}
	}
	return len(pa) - len(pb)
}

// LoadScenarioDB loads a scenario's DB — the fixture's whole content,
// _current_date included, which the original puts in shared_state["db"] —
// from fsys (nemodata.FS, or os.DirFS of a data root). idOrPath is a
// scenario id ("1.1.2") or a path under the root ("eva_airline/1.1.2.json",
// as a db_path names it); paths leaving the root are refused
// (state.ErrPathEscape). For a path on disk state.LoadDB(root, rel) does
// the same.
func LoadScenarioDB(fsys fs.FS, idOrPath string) (map[string]any, error) {
	rel := idOrPath
	if !strings.Contains(idOrPath, "/") && !strings.HasSuffix(idOrPath, ".json") {
		rel = FixturePath(idOrPath)
	}
	return state.LoadDBFS(fsys, rel)
}

// LoadScenarioSource loads a scenario's DB as [LoadScenarioDB] does, as a
// state.Source decoded from the fixture (state.LoadSourceFS): one Source
// serves any number of fresh states ([NewSharedState]), and it keeps the
// fixture's key order, so the tools' results read as the original's
// json.dumps writes them (a map has lost that order).
func LoadScenarioSource(fsys fs.FS, idOrPath string) (*state.Source, error) {
	rel := idOrPath
	if !strings.Contains(idOrPath, "/") && !strings.HasSuffix(idOrPath, ".json") {
		rel = FixturePath(idOrPath)
	}
	return state.LoadSourceFS(fsys, rel)
}

// ExpectedDB returns scenario id's expected final DB, the dataset's
// ground_truth.expected_scenario_db (read from eva_airline/
// eva_airline_dataset.jsonl in fsys), whose hash scores a run.
func ExpectedDB(fsys fs.FS, id string) (map[string]any, error) {
	data, err := fs.ReadFile(fsys, datasetFile)
	if err != nil {
		return nil, fmt.Errorf("evaairline: %w", err)
	}
	for line := range bytes.Lines(data) {
		if len(bytes.TrimSpace(line)) == 0 || !bytes.Contains(line, []byte(`"`+id+`"`)) {
			continue
		}
		v, err := pyjson.Decode(line)
		if err != nil {
			return nil, fmt.Errorf("evaairline: %s: %w", datasetFile, err)
		}
		rec, _ := v.(map[string]any)
		if rec["id"] != id {
			continue
		}
		db := dict(dict(rec["ground_truth"])["expected_scenario_db"])
		if db == nil {
			return nil, fmt.Errorf("evaairline: scenario %s has no expected_scenario_db", id)
		}
		return db, nil
	}
	return nil, fmt.Errorf("evaairline: scenario %s is not in %s", id, datasetFile)
}

// NewState returns a fresh scenario state as the bot builds one: domain
// [Domain], notifier n (nil: none), and db as shared_state["db"].
func NewState(db map[string]any, n state.Notifier) *state.Shared {
	st := state.New()
	st.StartScenario(Domain, n)
	st.SetDB(db)
	return st
}

// NewSharedState is [NewState] with src's DB, shared copy-on-write, as a
// bot shares the DB of a db_path (rtvi's Config.Sources): the state keeps
// the DB's key order.
func NewSharedState(src *state.Source, n state.Notifier) *state.Shared {
	st := state.New()
	st.StartScenario(Domain, n)
	st.Share(src)
	return st
}

// Call is one line of a call script: a tool's LLM-visible name and the
// arguments the model sent.
type Call struct {
	Tool      string         `json:"tool"`
	Arguments map[string]any `json:"arguments"`
}

// ParseCalls reads a call script: JSON lines, each an object with "tool"
// and "arguments" (other keys, such as a vector's "result", are ignored);
// blank lines are skipped. Arguments are decoded as the live path decodes
// them (tool.DecodeArgs: numbers exact).
func ParseCalls(r io.Reader) ([]Call, error) {
	var calls []Call
	sc := jsonlines.NewScanner(r)
	for sc.Scan() {
		n, line := sc.N(), sc.Line()
		var raw struct {
			Tool      string          `json:"tool"`
			Arguments json.RawMessage `json:"arguments"`
		}
		if err := json.Unmarshal(line, &raw); err != nil {
			return nil, fmt.Errorf("evaairline: call script line %d: %w", n, err)
		}
		args, err := tool.DecodeArgs(raw.Arguments)
		if err != nil {
			return nil, fmt.Errorf("evaairline: call script line %d: %w", n, err)
		}
		calls = append(calls, Call{Tool: raw.Tool, Arguments: args})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("evaairline: call script: %w", err)
	}
	return calls, nil
}

// Step is what [Replay] reports after each call: the delivered result and
// the hash of the DB after the call.
type Step struct {
	Index  int    // the call's position in the script, from 0
	Call   Call   // the call
	Result any    // the delivered result (marshal it with encoding/json)
	DBHash string // dbhash.Hash of the state's DB after the call
}

// Replay runs calls in order on st (see [NewState]) with the 16 tools,
// through the live path as the bot runs them (tool.Set.Call: exactly one
// delivered result per call, {"error": str(exc)} for a Python exception,
// empty results wrapped, an unknown tool answered as such, exit signals and
// action-applied messages sent through st's notifier), and calls each with
// every step. It stops at the first error each returns, or when ctx is done.
func Replay(ctx context.Context, st *state.Shared, calls []Call, each func(Step) error) error {
	tools, err := NewTools(st, nil)
	if err != nil {
		return err
	}
	set, err := tool.NewSet(tools...)
	if err != nil {
		return err
	}
	for i, c := range calls {
		var result any
		if err := set.Call(ctx, c.Tool, c.Arguments, func(r any) error { result = r; return nil }, nil); err != nil {
			return fmt.Errorf("evaairline: call %d (%s): %w", i, c.Tool, err)
		}
		h, err := st.Hash()
		if err != nil {
			return fmt.Errorf("evaairline: call %d (%s): DB hash: %w", i, c.Tool, err)
		}
		if each != nil {
			if err := each(Step{Index: i, Call: c, Result: result, DBHash: h}); err != nil {
				return err
			}
		}
	}
	return nil
}
