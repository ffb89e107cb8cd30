package rtvi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/voiceeval/schematools/hooks"
	"github.com/voiceeval/schematools/internal/pyjson"
	"github.com/voiceeval/schematools/internal/pyvalue"
	"github.com/voiceeval/schematools/state"
)

// initPlan is an apply_initialization request once checked: what to merge
// into the state and which initialisation functions to run.
type initPlan struct {
	domain  string
	seed    state.Seed
	actions []hooks.InitAction
	// restored is the error of a cached Source that a tool of an earlier
	// scenario changed, and that was restored (see Config.Sources).
	restored error
}

// applyInitialization seeds the scenario and answers {"success",
// "errors"}: it merges shared_state_init into the state (an inline "db"
// replaces the DB, "actions" the action log, other keys become state
// values), loads "db_path" under the data root when no DB is present yet
// (a second call with the same path does not reload; with Config.Sources
// the DB is the path's cached Source, shared copy-on-write), then runs
// the initialisation functions on the DB.
//
// The request is checked in full, and the DB file loaded, before the state
// changes, so a bad request changes nothing. A db_path that is absolute or
// climbs out of the data root is refused. Initialisation functions run in
// order and a failing one does not stop the rest (success is then false),
// as in the Python original.
func (d *Dispatcher) applyInitialization(ctx context.Context, args any) (any, error) {
	p, err := d.initPlan(args)
	if err != nil {
		var msg *plainMessage
		if errors.As(err, &msg) {
			return failure(msg.text), nil
		}
		d.cfg.Logger.WarnContext(ctx, "rtvi: apply_initialization refused", "err", err)
		return failure(describe(err)), nil
	}

	if p.restored != nil {
		d.cfg.Logger.WarnContext(ctx, "rtvi: a tool changed a shared DB in place; it was restored, and what an earlier scenario computed on it may be wrong",
			"err", p.restored)
	}

	// The merge and the initialisation functions happen under one lock: no
	// tool call sees the scenario half seeded. With no functions to run,
	// none is passed, so that a DB shared with a Source stays shared; the
	// functions change the DB in place, so Seed makes it the state's own
	// first.
	res := hooks.InitResult{Success: true}
	var then func(db map[string]any) error
	if len(p.actions) > 0 {
		p.seed.Tables = initTables(d.cfg.Tools.Hooks(p.domain).Init, p.actions)
		then = func(db map[string]any) error {
			if db == nil {
				return errNoSyncDB
			}
			res = d.cfg.Tools.Hooks(p.domain).ApplyInit(p.domain, p.actions, db, nil)
			return nil
		}
	}
	err = d.st.Seed(p.seed, then)
	if err != nil {
		return failure(fmt.Sprintf("No shared_state['db'] available; cannot apply %d initialization action(s). "+
			"Bridge must send db_path (or inline db) in shared_state_init.", len(p.actions))), nil
	}
	errs := make([]string, len(res.Errors))
	copy(errs, res.Errors)
	if res.Success {
		return success(), nil
	}
	return failure(errs...), nil
}

// initTables returns the top-level tables the initialisation functions
// of actions may change, as [state.Seed.Tables] names them: the union of
// their hooks.Init tables, or nil (any table) when one of them does not
// say. An action that names no function of the set, or cannot be read,
// runs nothing.
func initTables(funcs map[string]hooks.Init, actions []hooks.InitAction) []string {
	tables := []string{}
	for _, a := range actions {
		f, ok := funcs[a.FuncName]
		if !ok || f.Func == nil || a.Invalid != "" {
			continue
		}
		if f.Tables == nil {
			return nil
		}
		for _, t := range f.Tables {
			if !slices.Contains(tables, t) {
				tables = append(tables, t)
			}
		}
	}
	return tables
}

// plainMessage is a failure reported as its text alone, without a kind
// (the Python original's own failure messages).
type plainMessage struct{ text string }

func (m *plainMessage) Error() string { return m.text }

func (d *Dispatcher) initPlan(args any) (initPlan, error) {
	var p initPlan
	m, err := object(args)
	if err != nil {
		return p, err
	}
	if p.domain, err = domainArg(m); err != nil {
		return p, err
	}

	rawActions := m["actions"]
	if !pyvalue.Truthy(rawActions) {
		rawActions = []any{}
	}
	list, ok := rawActions.([]any)
	if !ok {
		return p, &plainMessage{fmt.Sprintf("`actions` payload must be a list, got %s.", pyvalue.TypeName(rawActions))}
	}
	for _, item := range list {
		rec, ok := item.(map[string]any)
		if !ok {
			// Python fails the whole request here (record.get); so do we,
			// before anything changed.
			return p, &pyError{Kind: kindAttributeError, Message: fmt.Sprintf("'%s' object has no attribute 'get'", pyvalue.TypeName(item))}
		}
		a := hooks.InitAction{}
		a.EnvType, _ = rec["side"].(string)
		// A record Python can read but not run fails on its own, as there.
		switch name := rec["func_name"].(type) {
		case string:
			a.FuncName = name
		default:
			a.FuncName = pyvalue.Repr(name)
		}
		switch fargs := rec["arguments"].(type) {
		case nil:
		case map[string]any:
			a.Arguments = fargs
		default:
			if pyvalue.Truthy(fargs) {
				a.Invalid = fmt.Sprintf("'%s' raised: TypeError: %s() argument after ** must be a mapping, not %s", a.FuncName, a.FuncName, pyvalue.TypeName(fargs))
			}
		}
		p.actions = append(p.actions, a)
	}

	init, err := sharedStateInit(m)
	if err != nil {
		return p, err
	}
	dbPath, hasPath := init["db_path"]
	if dbv, ok := init["db"]; ok {
		db, isObj := dbv.(map[string]any)
		if dbv != nil && !isObj {
			return p, errorf(kindTypeError, "shared_state_init db must be a dict or null, got %s", pyvalue.TypeName(dbv))
		}
		p.seed.ReplaceDB, p.seed.DB = true, db
	}
	if lv, ok := init["actions"]; ok {
		items, isList := lv.([]any)
		if lv != nil && !isList {
			return p, errorf(kindTypeError, "shared_state_init actions must be a list, got %s", pyvalue.TypeName(lv))
		}
		p.seed.ReplaceLog = true
		p.seed.Actions = make([]state.Action, 0, len(items))
		for i, it := range items {
			a, ok := it.(map[string]any)
			if !ok {
				return p, errorf(kindTypeError, "shared_state_init actions[%d] must be a dict, got %s", i, pyvalue.TypeName(it))
			}
			p.seed.Actions = append(p.seed.Actions, state.Action(a))
		}
	}
	if err := d.sentinels(init, &p.seed); err != nil {
		return p, err
	}
	p.seed.Values = map[string]any{}
	for k, v := range init {
		switch k {
		case "db", "db_path", "actions", keyToolDomain, keyCallCounts, keyRTVI:
		default:
			p.seed.Values[k] = v
		}
	}

	loaded := false
	_ = d.st.View(func(db map[string]any) error { loaded = db != nil; return nil })
	_, hasList := d.listDB()
	if hasPath && !p.seed.ReplaceDB && !loaded && !hasList { // with a DB present, db_path is dropped: no reload
		rel, ok := dbPath.(string)
		if !ok {
			return p, errorf(kindTypeError, "db_path must be a string, got %s", pyvalue.TypeName(dbPath))
		}
		db, src, list, err := d.loadDB(rel)
		if errors.Is(err, state.ErrSourceChanged) && src != nil {
			p.restored, err = err, nil
		}
		if err != nil {
			return p, err
		}
		if list != nil {
			p.seed.Values[keyDB] = list
			return p, nil
		}
		p.seed.ReplaceDB, p.seed.DB, p.seed.Source = true, db, src
	}
	if p.seed.ReplaceDB && hasList {
		p.seed.Values[keyDB] = nil // the new DB replaces the list
	}
	return p, nil
}

// keyDB is the state value that holds a DB loaded from a db_path whose
// file is a JSON list. The Python loader accepts such a file (json.loads)
// and keeps the list as shared_state["db"], which the summary hashes;
// the state's DB is an object, so the list is kept as a value, and tools
// see no DB (in Python they fail on the list).
const keyDB = "db"

// listDB returns the list DB, if one was loaded.
func (d *Dispatcher) listDB() ([]any, bool) {
	v, _ := d.st.Value(keyDB)
	list, ok := v.([]any)
	return list, ok
}

// Keys of the Python bot's state dict that are fields here.
const (
	keyToolDomain = "__tool_domain__"
	keyCallCounts = "_call_counts"
	keyRTVI       = "__rtvi__"
)

// sentinels maps the Python state's special keys, which shared_state_init
// may overwrite there, onto the state's fields: "__tool_domain__" sets the
// domain and "_call_counts" the call counters. "__rtvi__" (the Python
// processor object) has no JSON form worth keeping and is ignored.
func (d *Dispatcher) sentinels(init map[string]any, seed *state.Seed) error {
	if v, ok := init[keyToolDomain]; ok {
		domain, isStr := v.(string)
		if !isStr && v != nil {
			return errorf(kindTypeError, "shared_state_init %s must be a string, got %s", keyToolDomain, pyvalue.TypeName(v))
		}
		seed.Domain = domain
		if domain == "" {
			seed.Domain = state.DefaultDomain
		}
	}
	if v, ok := init[keyCallCounts]; ok {
		m, isObj := v.(map[string]any)
		if !isObj {
			return errorf(kindTypeError, "shared_state_init %s must be a dict, got %s", keyCallCounts, pyvalue.TypeName(v))
		}
		seed.CallCounts = make(map[string]int, len(m))
		for name, n := range m {
			num, isNum := n.(json.Number)
			i, err := strconv.Atoi(string(num))
			if !isNum || err != nil {
				return errorf(kindTypeError, "shared_state_init %s[%s] must be an integer, got %s", keyCallCounts, pyvalue.Repr(name), pyvalue.TypeName(n))
			}
			seed.CallCounts[name] = i
		}
	}
	return nil
}

// sharedStateInit decodes shared_state_init: a JSON string (default "{}")
// holding an object, or — a convenience beyond the Python original — an
// inline object; null means {}.
func sharedStateInit(m map[string]any) (map[string]any, error) {
	raw, ok := m["shared_state_init"]
	if !ok || raw == nil {
		return map[string]any{}, nil
	}
	if s, isStr := raw.(string); isStr {
		v, err := pyjson.Decode([]byte(s))
		if err != nil {
			return nil, &plainMessage{"Invalid shared_state_init JSON: " + pythonDecodeMessage(s, err)}
		}
		raw = v
	} else if _, isObj := raw.(map[string]any); !isObj {
		return nil, errorf(kindTypeError, "the JSON object must be str, bytes or bytearray, not %s", pyvalue.TypeName(raw))
	}
	init, ok := raw.(map[string]any)
	if !ok {
		return nil, &plainMessage{fmt.Sprintf("shared_state_init must decode to a dict, got %s.", pyvalue.TypeName(raw))}
	}
	return init, nil
}

// pythonDecodeMessage words a decoding error of text as Python's
// json.JSONDecodeError does: "Expecting value: line 1 column 13 (char 12)".
func pythonDecodeMessage(text string, err error) string {
	var se *pyjson.SyntaxError
	if !errors.As(err, &se) {
		return err.Error()
	}
	msg := se.Msg
	switch msg {
	case "extra data after the JSON value":
		msg = "Extra data"
	case "unterminated string":
		msg = "Unterminated string starting at"
	case "invalid control character in string":
		msg = "Invalid control character at"
	default:
		if msg != "" {
			msg = strings.ToUpper(msg[:1]) + msg[1:]
		}
	}
	off := min(max(se.Offset, 0), len(text))
	before := text[:off]
	line := strings.Count(before, "\n") + 1
	col := utf8.RuneCountInString(before[strings.LastIndexByte(before, '\n')+1:]) + 1
	return fmt.Sprintf("%s: line %d column %d (char %d)", msg, line, col, utf8.RuneCountInString(before))
}

// loadDB loads db_path under the data root: an object (db, or with
// Config.Sources its cached Source, src) or, as the Python loader also
// reads, a single file holding a JSON list (list). A cached Source that
// was restored comes with the error of its restoring (wrapping
// state.ErrSourceChanged).
func (d *Dispatcher) loadDB(rel string) (db map[string]any, src *state.Source, list []any, err error) {
	root := d.cfg.DataRoot
	if root == "" {
		root = os.Getenv("EVAL_DATA_ROOT")
	}
	if root == "" {
		return nil, nil, nil, &pyError{Kind: kindFileNotFoundError, Err: errNoDataRoot,
			Message: fmt.Sprintf("Scenario DB not found for db_path=%s: %v", pyvalue.Repr(rel), errNoDataRoot)}
	}
	if d.cfg.Sources != nil {
		src, err = d.cfg.Sources.Load(root, rel)
		if src != nil {
			return nil, src, nil, err
		}
	} else {
		db, err = state.LoadDB(root, rel)
	}
	switch {
	case err == nil:
		return db, nil, nil, nil
	case errors.Is(err, state.ErrPathEscape):
		return nil, nil, nil, &pyError{Kind: kindPermissionError, Err: err,
			Message: fmt.Sprintf("db_path=%s is outside the data root %s", pyvalue.Repr(rel), root)}
	case errors.Is(err, state.ErrDBNotFound):
		return nil, nil, nil, &pyError{Kind: kindFileNotFoundError, Err: err,
			Message: fmt.Sprintf("Scenario DB not found for db_path=%s. Check EVAL_DATA_ROOT (currently resolves to %s). Underlying error: %v",
				pyvalue.Repr(rel), root, err)}
	case errors.Is(err, state.ErrInvalidDB):
		if list := loadListDB(root, rel); list != nil {
			return nil, nil, list, nil
		}
		return nil, nil, nil, &pyError{Kind: kindValueError, Err: err, Message: err.Error()}
	default:
		return nil, nil, nil, &pyError{Kind: "OSError", Err: err, Message: err.Error()}
	}
}

// loadListDB reads the single-file DB rel names under root (as
// [state.LoadDB] names it, which has already checked the path) and returns
// its content when it is a JSON list, or nil.
func loadListDB(root, rel string) []any {
	rel = strings.TrimSuffix(filepath.ToSlash(rel), ".json")
	if rel == "" || path.Clean(rel) == "." {
		return nil // the root has no single-file form
	}
	r, err := os.OpenRoot(root)
	if err != nil {
		return nil
	}
	defer r.Close()
	data, err := r.ReadFile(path.Clean(rel + ".json"))
	if err != nil {
		return nil
	}
	v, err := pyjson.Decode(data)
	if err != nil {
		return nil
	}
	list, _ := v.([]any)
	return list
}
