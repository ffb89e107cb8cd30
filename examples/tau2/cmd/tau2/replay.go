package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/voiceeval/schematools/dbhash"
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
	Domain          string        `json:"domain"`
	TaskID          string        `json:"task_id"`
	NActions        int           `json:"n_actions"`
	InitialDBHash   string        `json:"initial_db_hash"`
	PostInitDBHash  string        `json:"post_init_db_hash"`
	FinalDBHash     string        `json:"final_db_hash"`
	Errors          []replayError `json:"errors"`
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
	domain  string
	data    string
	split   string
	tasks   []string
	workers int
	json    bool
}

const replayUsage = "usage: tau2 replay -domain D -data DIR [-split base|train|test|all] [-tasks ID,ID] [-workers N] [-json]"

// parseReplayFlags parses the flags; -h prints the usage to stdout.
// Errors are reported by the caller, in one line.
func parseReplayFlags(args []string, stdout io.Writer) (replayFlags, error) {
	var f replayFlags
	fs := flag.NewFlagSet("tau2 replay", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	fs.StringVar(&f.domain, "domain", "", "the domain to replay, e.g. tau2_airline (required)")
	fs.StringVar(&f.data, "data", "", "the tau2 data directory, holding airline/, retail/, telecom/ (required)")
	fs.StringVar(&f.split, "split", "base", "the tasks to replay: a split of split_tasks.json (base, train, test) or all")
	tasks := fs.String("tasks", "", "comma-separated task ids to replay (within the split)")
	fs.IntVar(&f.workers, "workers", runtime.GOMAXPROCS(0), "replays run in parallel")
	fs.BoolVar(&f.json, "json", false, "print one JSON object per task")
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
	case f.data == "":
		return f, errors.New("-data is required")
	case f.workers < 1:
		return f, errors.New("-workers must be at least 1")
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
		fmt.Fprintln(stderr, "tau2 replay:", err)
		return exitUsage
	}
	start := time.Now()
	d, err := findDomain(f.domain)
	if err != nil {
		fmt.Fprintln(stderr, "tau2 replay:", err)
		return exitUsage
	}
	data, err := loadDomain(d, f)
	if err != nil {
		fmt.Fprintln(stderr, "tau2 replay:", strings.TrimPrefix(err.Error(), "replay: "))
		return exitUsage
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	context.AfterFunc(ctx, stop) // after the first Ctrl-C, a second one kills the process
	// Every task shares the one loaded DB copy-on-write and reuses its hash
	// and its tables' canonical text: a replay copies and hashes only what
	// its tools write.
	scenarios := make([]replay.Scenario, len(data.tasks))
	for i, t := range data.tasks {
		scenarios[i] = replay.Scenario{Domain: d.name, Task: t, DB: data.db, Tools: d.tools,
			ShareDB: true, SourceDBHash: data.dbHash, HashCache: data.cache, HashesOnly: true}
	}
	bar := newProgress(stderr)
	results, err := replay.GoldAll(ctx, scenarios, f.workers, bar.update)
	bar.finish()
	if errors.Is(err, context.Canceled) {
		fmt.Fprintln(stderr, "tau2 replay: interrupted")
		return exitInterrupted
	}

	lines := make([]replayLine, len(results))
	crashes := 0
	for i, r := range results {
		lines[i] = lineOf(d.name, data.tasks[i], data.dbHash, r)
		if r.Err != nil {
			crashes++
		}
	}
	if err := writeLines(stdout, lines, f.json); err != nil {
		fmt.Fprintln(stderr, "tau2 replay:", err)
		return exitCrash
	}
	summarize(stderr, lines, crashes, time.Since(start))
	code := exitOK
	if crashes > 0 {
		fmt.Fprintf(stderr, "tau2 replay: %d replay(s) crashed\n", crashes)
		code = exitCrash
	}
	// The tools shared the source DB on trust: check they left it alone.
	if after, err := dbhash.Hash(data.db); err != nil || after != data.dbHash {
		fmt.Fprintln(stderr, "tau2 replay: a tool modified the shared DB; the hashes above cannot be trusted")
		code = exitCrash
	}
	return code
}

// domainData is a domain's data, loaded once.
type domainData struct {
	db     map[string]any
	dbHash string
	cache  *dbhash.Cache // the text of db's tables, reused by every task's final hash
	tasks  []replay.Task // the selected tasks, in task-file order
}

func loadDomain(d domain, f replayFlags) (domainData, error) {
	var out domainData
	info, err := os.Stat(f.data)
	if err != nil || !info.IsDir() {
		return out, fmt.Errorf("-data %s is not a directory", f.data)
	}
	dir := filepath.Join(f.data, d.dir)
	tasks, err := replay.LoadTasks(filepath.Join(dir, "tasks.json"))
	if err != nil {
		return out, err
	}
	if out.tasks, err = selectTasks(tasks, dir, f.split, f.tasks); err != nil {
		return out, err
	}
	if len(out.tasks) == 0 {
		return out, fmt.Errorf("split %q selects no task", f.split)
	}
	if out.db, err = state.LoadDB(f.data, d.db); err != nil {
		return out, err
	}
	if out.cache, err = dbhash.NewCache(out.db); err != nil {
		return out, err
	}
	if out.dbHash, err = dbhash.Hash(out.db, dbhash.WithCache(out.cache)); err != nil {
		return out, err
	}
	return out, nil
}

// selectTasks keeps the tasks of the split (all tasks for "all") and, when
// ids are given, only those; the order is the task file's.
func selectTasks(tasks []replay.Task, dir, split string, ids []string) ([]replay.Task, error) {
	keep := map[string]bool{}
	if split == "all" {
		for _, t := range tasks {
			keep[t.ID] = true
		}
	} else {
		splits, err := replay.LoadSplits(filepath.Join(dir, "split_tasks.json"))
		if err != nil {
			return nil, err
		}
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

func lineOf(domain string, t replay.Task, initial string, r replay.Result) replayLine {
	l := replayLine{Domain: domain, TaskID: t.ID, NActions: len(t.Actions()), InitialDBHash: initial,
		PostInitDBHash: r.PostInitDBHash, FinalDBHash: r.DBHash, Errors: []replayError{}, recordsAppended: len(r.Actions)}
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
	fmt.Fprintln(tw, "TASK\tACTIONS\tRECORDS\tERRORS\tFINAL DB HASH\tCHANGED")
	for _, l := range lines {
		changed := "no"
		switch {
		case l.FinalDBHash == "":
			changed = "crashed"
		case l.FinalDBHash != l.InitialDBHash:
			changed = "yes"
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%s\t%s\n", l.TaskID, l.NActions, l.recordsAppended, len(l.Errors), l.FinalDBHash, changed)
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
