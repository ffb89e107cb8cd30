package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"path"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/voiceeval/schematools/domains/tau2/tau2data"
	"github.com/voiceeval/schematools/domains/tau2/tau2tools"
	"github.com/voiceeval/schematools/replay"
	"github.com/voiceeval/schematools/state"
)

// Exit statuses of replay.
const (
	exitOK          = 0
	exitCrash       = 1   // a replay crashed, or a tool changed the shared DB
	exitUsage       = 2   // bad flags or data
	exitInterrupted = 130 // stopped by Ctrl-C, as a shell reports SIGINT
)

// kindCrash marks, in a task's errors, a replay that could not run.
const kindCrash = "crash"

// replayLine is one task's line of --json output, in this key order.
type replayLine struct {
	Domain         string `json:"domain"`
	TaskID         string `json:"task_id"`
	NActions       int    `json:"n_actions"`
	InitialDBHash  string `json:"initial_db_hash"`
	PostInitDBHash string `json:"post_init_db_hash"`
	FinalDBHash    string `json:"final_db_hash"`
	// The user side of two-sided domains (telecom).
	InitialUserDBHash  string        `json:"initial_user_db_hash,omitempty"`
	PostInitUserDBHash string        `json:"post_init_user_db_hash,omitempty"`
	FinalUserDBHash    string        `json:"final_user_db_hash,omitempty"`
	Errors             []replayError `json:"errors"`
	// Assertions are the verdicts of the task's DB-state assertions, with
	// -predicates.
	Assertions      []replay.Verdict `json:"assertions,omitempty"`
	recordsAppended int
}

type replayError struct {
	Index   int    `json:"index"`
	Name    string `json:"name"`
	Kind    string `json:"kind"`
	Message string `json:"message"`
}

// replayFlags are the parsed flags of the replay command.
type replayFlags struct {
	domain     string
	data       string
	split      string
	tasks      []string
	workers    int
	json       bool
	today      time.Time
	predicates bool
	cpuprofile string // where to write a CPU profile; "" for none
}

const replayUsage = "usage: evalreplay replay -domain D|all [-data DIR] [-split base|train|test|all] [-tasks ID,ID] [-workers N] [-json] [-today YYYY-MM-DD] [-predicates] [-cpuprofile FILE]"

// parseReplayFlags parses the flags; -h prints the usage to stdout.
// Errors are reported by the caller, in one line.
func parseReplayFlags(args []string, stdout io.Writer) (replayFlags, error) {
	var f replayFlags
	fs := flag.NewFlagSet("evalreplay replay", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	fs.StringVar(&f.domain, "domain", "", `the domain to replay, e.g. tau2_airline, or "all" for every domain (required)`)
	fs.StringVar(&f.data, "data", "", "the tau2 data directory, holding airline/, retail/, telecom/ (default: the copy built into the command)")
	fs.StringVar(&f.split, "split", "base", "the tasks to replay: a split of split_tasks.json (base, train, test) or all")
	tasks := fs.String("tasks", "", "comma-separated task ids to replay (within the split)")
	fs.IntVar(&f.workers, "workers", runtime.GOMAXPROCS(0), "replays run in parallel")
	fs.BoolVar(&f.json, "json", false, "print one JSON object per task")
	today := fs.String("today", tau2tools.ReferenceDate().Format(time.DateOnly), `the date tools take as "today" (the tau2 reference hashes pin 2025-02-25)`)
	fs.BoolVar(&f.predicates, "predicates", false, "evaluate each task's DB-state assertions after its replay")
	fs.StringVar(&f.cpuprofile, "cpuprofile", "", "write a CPU profile of the whole command (pprof format) to this file")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(stdout, replayUsage)
			fs.SetOutput(stdout)
			fs.PrintDefaults()
		}
		return f, err
	}
	switch {
	case fs.NArg() > 0:
		return f, fmt.Errorf("unexpected arguments: %s", strings.Join(fs.Args(), " "))
	case f.domain == "":
		return f, errors.New("-domain is required")
	case f.workers < 1:
		return f, errors.New("-workers must be at least 1")
	}
	var err error
	if f.today, err = time.Parse(time.DateOnly, *today); err != nil {
		return f, fmt.Errorf("-today %q is not a date (YYYY-MM-DD)", *today)
	}
	if *tasks != "" {
		seen := map[string]bool{}
		for _, id := range strings.Split(*tasks, ",") {
			if id = strings.TrimSpace(id); id == "" {
				continue
			}
			if seen[id] {
				return f, fmt.Errorf("-tasks names task %q twice", id)
			}
			seen[id] = true
			f.tasks = append(f.tasks, id)
		}
		if len(f.tasks) == 0 {
			return f, errors.New("-tasks names no task")
		}
	}
	return f, nil
}

func runReplay(args []string, stdout, stderr io.Writer) int {
	f, err := parseReplayFlags(args, stdout)
	if errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	if err != nil {
		fmt.Fprintln(stderr, "evalreplay replay:", err)
		return exitUsage
	}
	if f.cpuprofile != "" {
		stopProfile, err := startProfile(f.cpuprofile)
		if err != nil {
			fmt.Fprintln(stderr, "evalreplay replay:", err)
			return exitUsage
		}
		defer stopProfile()
	}
	start := time.Now()
	ds, err := selectDomains(f)
	if err != nil {
		fmt.Fprintln(stderr, "evalreplay replay:", err)
		return exitUsage
	}
	data, err := loadDomains(ds, f)
	if err != nil {
		fmt.Fprintln(stderr, "evalreplay replay:", strings.TrimPrefix(err.Error(), "replay: "))
		return exitUsage
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	context.AfterFunc(ctx, stop) // after the first Ctrl-C, a second one kills the process
	// Every task of a domain shares its one loaded DB copy-on-write and
	// reuses its hash and its tables' canonical text: a replay copies and
	// hashes only what its tools write. The domains' tasks replay together,
	// in one pool.
	var scenarios []replay.Scenario
	type origin struct {
		domain int
		task   replay.Task
	}
	var origins []origin
	for i, d := range ds {
		for j, sc := range d.ScenariosFor(data[i].tasks, data[i].db, data[i].userDB, replay.FixedClock(f.today)) {
			sc.HashesOnly = !f.predicates || d.Hooks.Predicates == nil // the predicates read the final DBs
			scenarios = append(scenarios, sc)
			origins = append(origins, origin{i, data[i].tasks[j]})
		}
	}
	bar := newProgress(stderr)
	results, err := replay.GoldAll(ctx, scenarios, f.workers, bar.update)
	bar.finish()
	if errors.Is(err, context.Canceled) {
		fmt.Fprintln(stderr, "evalreplay replay: interrupted")
		return exitInterrupted
	}
	rogue := errors.Is(err, state.ErrSourceChanged)

	lines := make([]replayLine, len(results))
	crashes := 0
	for i, r := range results {
		d, t := ds[origins[i].domain], origins[i].task
		lines[i] = lineOf(d.Name, t, data[origins[i].domain], r)
		if r.Err != nil {
			crashes++
		}
		if f.predicates && d.Hooks.Predicates != nil && r.Err == nil {
			lines[i].Assertions = replay.Evaluate(d.Hooks, d.Name, envAssertions(t), r.DB, r.UserDB)
		}
	}
	if err := writeLines(stdout, lines, f.json); err != nil {
		fmt.Fprintln(stderr, "evalreplay replay:", err)
		return exitCrash
	}
	summarize(stderr, lines, crashes, time.Since(start))
	code := exitOK
	if crashes > 0 {
		fmt.Fprintf(stderr, "evalreplay replay: %d replay(s) crashed\n", crashes)
		code = exitCrash
	}
	// A tool that wrote into the DB the replays share is a bug: the
	// replays that shared it were replayed again, each on its own copy.
	if rogue {
		fmt.Fprintln(stderr, "evalreplay replay: a tool modified the shared DB; the tasks that shared it were replayed again, each on its own copy")
		code = exitCrash
	}
	return code
}

// allDomains is the -domain value that replays every domain.
const allDomains = "all"

// selectDomains returns the domains -domain names: one, or with "all"
// every domain, in the order of the domain list. With several domains,
// -tasks (whose ids belong to one domain) is refused, and -predicates
// evaluates the domains that have predicates; with one, -predicates on a
// domain without them is an error.
func selectDomains(f replayFlags) ([]domain, error) {
	if f.domain == allDomains {
		if len(f.tasks) > 0 {
			return nil, errors.New("-tasks names the tasks of one domain: give one -domain")
		}
		return domains, nil
	}
	d, err := findDomain(f.domain)
	if err != nil {
		return nil, err
	}
	if f.predicates && d.Hooks.Predicates == nil {
		return nil, fmt.Errorf("domain %s has no DB-state predicates", d.Name)
	}
	return []domain{d}, nil
}

// loadDomains loads the domains' data side by side; the error is the
// first domain's that failed, in order.
func loadDomains(ds []domain, f replayFlags) ([]domainData, error) {
	out := make([]domainData, len(ds))
	errs := make([]error, len(ds))
	var wg sync.WaitGroup
	for i, d := range ds {
		wg.Go(func() { out[i], errs[i] = loadDomain(d, f) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			if len(ds) > 1 {
				return nil, fmt.Errorf("%s: %w", ds[i].Name, err)
			}
			return nil, err
		}
	}
	return out, nil
}

func envAssertions(t replay.Task) []replay.Assertion {
	if t.EvaluationCriteria == nil {
		return nil
	}
	return t.EvaluationCriteria.EnvAssertions
}

// domainData is a domain's data, loaded once.
type domainData struct {
	db         *state.Source
	dbHash     string
	userDB     *state.Source // two-sided domains only
	userDBHash string
	tasks      []replay.Task // the selected tasks, in task-file order
}

func loadDomain(d domain, f replayFlags) (domainData, error) {
	var out domainData
	src := source{root: f.data}
	if f.data != "" {
		info, err := os.Stat(f.data)
		if err != nil || !info.IsDir() {
			return out, fmt.Errorf("-data %s is not a directory", f.data)
		}
	}
	// The tasks, the splits and the DBs load side by side.
	dbErr := make(chan error, 1)
	go func() { dbErr <- loadDBs(d, src, &out) }()
	type loadedSplits struct {
		splits replay.Splits
		err    error
	}
	splits := make(chan loadedSplits, 1)
	go func() {
		if f.split == "all" {
			splits <- loadedSplits{}
			return
		}
		s, err := src.splits(path.Join(d.dir, "split_tasks.json"))
		splits <- loadedSplits{s, err}
	}()
	tasks, err := src.tasks(path.Join(d.dir, "tasks.json"))
	s := <-splits
	if err == nil {
		err = s.err
	}
	if err == nil {
		out.tasks, err = selectTasks(tasks, s.splits, f.split, f.tasks)
	}
	if err2 := <-dbErr; err == nil {
		err = err2
	}
	if err != nil {
		return out, err
	}
	if len(out.tasks) == 0 {
		return out, fmt.Errorf("split %q selects no task", f.split)
	}
	return out, nil
}

// loadDBs loads the domain's DBs into out, as Sources, with their hashes.
func loadDBs(d domain, src source, out *domainData) (err error) {
	load := func(rel string) (*state.Source, string, error) {
		// The Source owns the DB just decoded, fingerprinted as it was
		// decoded; it decodes it again only to undo a tool that changed it.
		s, err := src.dbSource(rel)
		if err != nil {
			return nil, "", err
		}
		st := state.New()
		st.Share(s)
		h, err := st.Hash()
		return s, h, err
	}
	if out.db, out.dbHash, err = load(d.db); err != nil {
		return err
	}
	if d.userDB != "" {
		if out.userDB, out.userDBHash, err = load(d.userDB); err != nil {
			return err
		}
	}
	return nil
}

// source is where the tau2 data is read from: the -data directory, or,
// without one, the copy embedded by package tau2data. Names are
// slash-separated and relative to the data root; only the files a replay
// asks for are read and parsed.
type source struct {
	root string // the -data directory; "" for the embedded copy
}

func (s source) tasks(name string) ([]replay.Task, error) {
	if s.root != "" {
		p := filepath.Join(s.root, filepath.FromSlash(name))
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		tasks, err := replay.DecodeTasks(data)
		if err != nil {
			return nil, fmt.Errorf("reading tasks %s: %s", p, strings.TrimPrefix(err.Error(), "replay: "))
		}
		return tasks, nil
	}
	data, err := fs.ReadFile(tau2data.FS, name)
	if err != nil {
		return nil, fmt.Errorf("embedded data: %w", err)
	}
	tasks, err := replay.DecodeTasks(data)
	if err != nil {
		return nil, fmt.Errorf("embedded %s: %w", name, err)
	}
	return tasks, nil
}

func (s source) splits(name string) (replay.Splits, error) {
	var splits replay.Splits
	if s.root != "" {
		p := filepath.Join(s.root, filepath.FromSlash(name))
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		if err := json.Unmarshal(data, &splits); err != nil {
			return nil, fmt.Errorf("reading splits %s: %w", p, err)
		}
		return splits, nil
	}
	data, err := fs.ReadFile(tau2data.FS, name)
	if err != nil {
		return nil, fmt.Errorf("embedded data: %w", err)
	}
	if err := json.Unmarshal(data, &splits); err != nil {
		return nil, fmt.Errorf("embedded %s: %w", name, err)
	}
	return splits, nil
}

func (s source) dbSource(rel string) (*state.Source, error) {
	if s.root != "" {
		return state.LoadSource(s.root, rel)
	}
	return state.LoadSourceFS(tau2data.FS, rel)
}

// selectTasks keeps the tasks of the split (all tasks for "all") and, when
// ids are given, only those; the order is the task file's.
func selectTasks(tasks []replay.Task, splits replay.Splits, split string, ids []string) ([]replay.Task, error) {
	keep := map[string]bool{}
	if split == "all" {
		for _, t := range tasks {
			keep[t.ID] = true
		}
	} else {
		selected, err := splits.Select(split, tasks)
		if err != nil {
			return nil, err
		}
		for _, t := range selected {
			keep[t.ID] = true
		}
	}
	if len(ids) > 0 {
		known := map[string]bool{}
		for _, t := range tasks {
			known[t.ID] = true
		}
		wanted := map[string]bool{}
		for _, id := range ids {
			switch {
			case !known[id]:
				return nil, fmt.Errorf("no task %q in tasks.json", id)
			case !keep[id]:
				return nil, fmt.Errorf("task %q is not in split %q", id, split)
			}
			wanted[id] = true
		}
		keep = wanted
	}
	var out []replay.Task
	for _, t := range tasks {
		if keep[t.ID] {
			out = append(out, t)
		}
	}
	return out, nil
}

func lineOf(domain string, t replay.Task, data domainData, r replay.Result) replayLine {
	l := replayLine{Domain: domain, TaskID: t.ID, NActions: nActions(t), InitialDBHash: data.dbHash,
		PostInitDBHash: r.PostInitDBHash, FinalDBHash: r.DBHash, Errors: []replayError{}, recordsAppended: len(r.Actions)}
	if data.userDB != nil {
		l.InitialUserDBHash, l.PostInitUserDBHash, l.FinalUserDBHash = data.userDBHash, r.PostInitUserDBHash, r.UserDBHash
	}
	for _, e := range r.Errors {
		l.Errors = append(l.Errors, replayError{Index: e.Index, Name: e.Name, Kind: e.Kind, Message: e.Message})
	}
	if r.Err != nil {
		l.Errors = append(l.Errors, replayError{Index: -1, Name: "replay", Kind: kindCrash, Message: r.Err.Error()})
	}
	return l
}

func writeLines(w io.Writer, lines []replayLine, asJSON bool) error {
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		for _, l := range lines {
			if err := enc.Encode(l); err != nil {
				return err
			}
		}
		return nil
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "TASK\tACTIONS\tRECORDS\tERRORS\tFINAL DB HASH\tCHANGED\tASSERTIONS")
	for _, l := range lines {
		changed := "no"
		switch {
		case l.FinalDBHash == "":
			changed = "crashed"
		case l.FinalDBHash != l.InitialDBHash:
			changed = "yes"
		}
		asserted := ""
		if l.Assertions != nil {
			passed := 0
			for _, v := range l.Assertions {
				if v.Passed {
					passed++
				}
			}
			asserted = fmt.Sprintf("%d/%d passed", passed, len(l.Assertions))
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%s\t%s\t%s\n", l.TaskID, l.NActions, l.recordsAppended, len(l.Errors), l.FinalDBHash, changed, asserted)
	}
	return tw.Flush()
}

func summarize(w io.Writer, lines []replayLine, crashes int, elapsed time.Duration) {
	actions, errs := 0, 0
	for _, l := range lines {
		actions += l.NActions
		errs += len(l.Errors)
	}
	fmt.Fprintf(w, "tasks %d, actions %d, errors %d, crashed %d, elapsed %s\n",
		len(lines), actions, errs-crashes, crashes, elapsed.Round(time.Millisecond))
}

// nActions is the number of the task's gold actions.
func nActions(t replay.Task) int {
	if t.EvaluationCriteria == nil {
		return 0
	}
	return len(t.EvaluationCriteria.Actions)
}
