package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	ported "github.com/voiceeval/schematools/domains"
	"github.com/voiceeval/schematools/domains/nemo/evaairline"
	"github.com/voiceeval/schematools/domains/nemo/nemodata"
	"github.com/voiceeval/schematools/domains/tau2/tau2tools"
	"github.com/voiceeval/schematools/internal/jsonlines"
	"github.com/voiceeval/schematools/registry"
	"github.com/voiceeval/schematools/replay"
	"github.com/voiceeval/schematools/state"
)

const callsUsage = "usage: evalreplay calls -domain D [-scenario ID] [-script FILE] [-today YYYY-MM-DD]"

// callLine is one line the calls command prints: the call, the result the
// bot would have delivered, and the hash of the scenario's DB after it.
type callLine struct {
	I      int    `json:"i"`
	Tool   string `json:"tool"`
	Result any    `json:"result"`
	DBHash string `json:"db_hash"`
}

// scriptCall is one call of a script: {"tool" (or "name"), "arguments"}.
type scriptCall struct {
	Tool      string         `json:"tool"`
	Name      string         `json:"name"`
	Arguments map[string]any `json:"arguments"`
}

// scriptLine is one line of a script: a call, or an object holding a list
// of calls (a line of eva_airline_gold_paths.jsonl, an action log).
type scriptLine struct {
	scriptCall
	Calls []scriptCall `json:"calls"`
}

// runCalls replays a call script against a fresh scenario of a domain, as
// a bot would have run it (the live path, one delivery per call), and
// prints each delivered result and the DB hash after it: a harness
// engineer recomputes a bot's final hash from its action log.
func runCalls(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("evalreplay calls", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	domain := fs.String("domain", "", "the domain, e.g. eva_airline (required)")
	scenario := fs.String("scenario", "", "the scenario whose DB the calls start from, for domains whose scenarios each bring a DB (eva_airline: 1.1.2, …)")
	script := fs.String("script", "-", "the JSON-lines call script; - reads stdin")
	today := fs.String("today", tau2tools.ReferenceDate().Format(time.DateOnly), `the date tools take as "today" where the domain's DB does not say it`)
	fail := func(err error) int {
		fmt.Fprintln(stderr, "evalreplay calls:", err)
		return exitUsage
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(stdout, callsUsage)
			return 0
		}
		return fail(fmt.Errorf("%w\n%s", err, callsUsage))
	}
	if fs.NArg() > 0 {
		return fail(fmt.Errorf("unexpected arguments: %v", fs.Args()))
	}
	if *domain == "" {
		return fail(errors.New("-domain is required"))
	}
	day, err := time.Parse(time.DateOnly, *today)
	if err != nil {
		return fail(fmt.Errorf("-today: %w", err))
	}
	d, err := ported.Find(*domain)
	if err != nil {
		return fail(err)
	}
	calls, err := readScript(*script)
	if err != nil {
		return fail(err)
	}
	st := state.New()
	st.StartScenario(d.Name, nil)
	if err := installDB(st, d, *scenario); err != nil {
		return fail(err)
	}
	reg := new(registry.Tools)
	if err := ported.Register(reg); err != nil {
		return fail(err)
	}
	spec := []registry.ToolSpec{}
	seen := map[string]bool{}
	for _, c := range calls {
		if !seen[c.name()] {
			seen[c.name()] = true
			spec = append(spec, registry.ToolSpec{Name: c.name()})
		}
	}
	set, err := reg.NewSet(d.Name, spec, registry.Deps{State: st, Clock: replay.FixedClock(day), IDs: replay.CounterIDs("id-")})
	if err != nil {
		return fail(err)
	}
	out := json.NewEncoder(stdout)
	ctx := context.Background()
	for i, c := range calls {
		var result any
		if err := set.Call(ctx, c.name(), c.Arguments, func(r any) error { result = r; return nil }, nil); err != nil {
			fmt.Fprintf(stderr, "evalreplay calls: call %d (%s): %v\n", i, c.name(), err)
			return exitCrash
		}
		h, err := st.Hash()
		if err != nil {
			fmt.Fprintf(stderr, "evalreplay calls: hashing after call %d: %v\n", i, err)
			return exitCrash
		}
		if err := out.Encode(callLine{I: i, Tool: c.name(), Result: result, DBHash: h}); err != nil {
			return exitCrash
		}
	}
	h, err := st.Hash()
	if err != nil {
		fmt.Fprintln(stderr, "evalreplay calls:", err)
		return exitCrash
	}
	fmt.Fprintf(stderr, "%d calls, final_db_hash %s\n", len(calls), h)
	return 0
}

// installDB gives st the DB scenario id of d starts from, as a bot gets
// it: decoded from its file with its key order (state.LoadSourceFS, as a
// bot's SourceCache loads a db_path), so results print in the Python
// original's key order; coffee's embedded DB, a map, has none.
func installDB(st *state.Shared, d ported.Domain, id string) error {
	var src *state.Source
	var err error
	switch {
	case d.Name == evaairline.Domain && id != "":
		src, err = evaairline.LoadScenarioSource(nemodata.FS, id)
	case d.ScenarioDB == nil && id == "" && d.Files != nil && d.DB != "":
		src, err = state.LoadSourceFS(d.Files, d.DB)
	default:
		db, err := d.LoadScenarioDB(id) // says why a scenario is or is not named
		if err == nil && db != nil {
			st.SetDB(db)
		}
		return err
	}
	if err != nil {
		return err
	}
	st.Share(src)
	return nil
}

func (c scriptCall) name() string {
	if c.Tool != "" {
		return c.Tool
	}
	return c.Name
}

// readScript reads the calls of a JSON-lines script (path, or - for
// stdin): each line a call, or an object with a "calls" list.
func readScript(path string) ([]scriptCall, error) {
	var r io.Reader = os.Stdin
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r = f
	}
	var calls []scriptCall
	sc := jsonlines.NewScanner(r)
	for sc.Scan() {
		n, line := sc.N(), sc.Line()
		var l scriptLine
		if err := json.Unmarshal(line, &l); err != nil {
			return nil, fmt.Errorf("script line %d: %w", n, err)
		}
		if l.Calls != nil {
			calls = append(calls, l.Calls...)
			continue
		}
		if l.name() == "" {
			return nil, fmt.Errorf("script line %d: a call needs \"tool\" (or \"name\")", n)
		}
		calls = append(calls, l.scriptCall)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	for i, c := range calls {
		if c.name() == "" {
			return nil, fmt.Errorf("call %d has no tool name", i)
		}
	}
	return calls, nil
}
