package harness

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/voiceeval/schematools/dbhash"
	"github.com/voiceeval/schematools/internal/pyjson"
	"github.com/voiceeval/schematools/internal/pyvalue"
)

// filePulledSummary is this harness's addition: what the runner reads
// from the bridge's memory and no file of NeMo's holds — each side's
// get_scenario_summary answer as pulled ({"actions", "db_hash"} and "db"
// when it was sent; null when none came) and the agent's <final_response>
// texts. scripts/nemo-rescore replays it through NeMo's own bridge and
// runner.
const filePulledSummary = "pulled_summary.json"

// pulledSummaryJSON is pulled_summary.json's text for r:
// {"agent": summary|null, "user": summary|null, "final_responses": [...]}
// in json.dump(indent=2) form.
func pulledSummaryJSON(r *Run) ([]byte, error) {
	side := func(s *Summary) any {
		if s == nil {
			return nil
		}
		var actions, hash any
		if s.Actions != nil {
			actions = s.Actions
		}
		if s.DBHash != nil {
			hash = *s.DBHash
		}
		d := pyvalue.Dict{{Key: "actions", Value: actions}, {Key: "db_hash", Value: hash}}
		if s.DB != nil {
			d = append(d, pyvalue.Item{Key: "db", Value: s.DB})
		}
		return d
	}
	finals := make([]any, len(r.FinalResponses))
	for i, f := range r.FinalResponses {
		finals[i] = f
	}
	b, err := dumpIndent(pyvalue.Dict{
		{Key: "agent", Value: side(r.Agent.Summary)},
		{Key: "user", Value: side(r.User.Summary)},
		{Key: "final_responses", Value: finals},
	}, 2)
	if err != nil {
		return nil, fmt.Errorf("harness: %s: %w", filePulledSummary, err)
	}
	return b, nil
}

// scenarioOutput is what one finished scenario leaves in its directory.
type scenarioOutput struct {
	// Run is the scored run (its contexts, summaries, segments and times).
	Run *Run
	// Result is Score's result for Run.
	Result *Result
	// Config holds the scenario_config files by name (Scenario.save's
	// output; domains/nemo/scenarios Scenario.Config has them byte for
	// byte).
	Config map[string]string
	// ExpectedDB is the scenario's expected DB, when known: with the
	// agent's pulled DB (Run.Agent.Summary.DB) and a DB_STATE_MATCH
	// failure, db_diff.json holds dbhash.Compare of the two.
	ExpectedDB map[string]any
}

// runWriter writes a run in NeMo's layout: DIR/eval_<timestamp>/ with one
// directory per scenario, results.jsonl as scenarios finish, and the
// run-level files at Finish. Its methods are safe for concurrent use.
type runWriter struct {
	dir   string
	queue []string
	// trial is the trial this run directory holds in a run of several
	// (its lines carry it), 0 in a run of one.
	trial int

	mu      sync.Mutex
	results *os.File
	lines   map[string]*resultLine
}

// newRunWriter creates outputDir/eval_<timestamp>/ (timestamp as
// SessionTimestamp gives it) for the queued scenarios, in run order.
func newRunWriter(outputDir, timestamp string, queue []string) (*runWriter, error) {
	dir := filepath.Join(outputDir, "eval_"+timestamp)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("harness: %w", err)
	}
	return openRun(dir, queue, map[string]*resultLine{})
}

func openRun(dir string, queue []string, lines map[string]*resultLine) (*runWriter, error) {
	if err := checkQueue(queue); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(filepath.Join(dir, fileResults), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, fmt.Errorf("harness: %w", err)
	}
	return &runWriter{dir: dir, queue: slices.Clone(queue), results: f, lines: lines}, nil
}

func checkQueue(queue []string) error {
	seen := map[string]bool{}
	for _, n := range queue {
		if err := checkName(n); err != nil {
			return err
		}
		if seen[n] {
			return fmt.Errorf("harness: scenario %q queued twice", n)
		}
		seen[n] = true
	}
	return nil
}

// checkName refuses a scenario name that is not one path element.
func checkName(n string) error {
	if n == "" || n == "." || n == ".." || strings.ContainsAny(n, `/\`) || strings.HasPrefix(n, ".") || strings.Contains(n, ".killed.") {
		return fmt.Errorf("harness: %q is not a scenario directory name", n)
	}
	return nil
}

// Dir is the run directory, DIR/eval_<timestamp>.
func (w *runWriter) Dir() string { return w.dir }

// ScenarioDir is os.path.join(run directory, name): what Run's
// ScenarioDirectory should be set to before scoring.
func (w *runWriter) ScenarioDir(name string) string { return filepath.Join(w.dir, name) }

// Done reports whether name has a line in results.jsonl.
func (w *runWriter) Done(name string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.lines[name] != nil
}

// writeFile writes and syncs one file. A lone surrogate a bot sent (kept
// as WTF-8) is written \udXXX, as Python's backslashreplace: every file
// holds valid UTF-8 (json.dump escapes them so already; NeMo's plain-text
// writers would raise UnicodeEncodeError).
func writeFile(path string, b []byte) error {
	b = pyjson.EscapeLoneSurrogates(b)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	if _, err = f.Write(b); err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}

// scenarioFiles returns the scenario directory's files by relative path.
func scenarioFiles(out *scenarioOutput) (map[string][]byte, error) {
	r, res := out.Run, out.Result
	metrics, err := res.Metrics.MarshalJSON()
	if err != nil {
		return nil, err
	}
	pulled, err := pulledSummaryJSON(r)
	if err != nil {
		return nil, err
	}
	files := map[string][]byte{fileMetrics: metrics, fileFinalAgentResponse: res.Prediction, filePulledSummary: pulled}
	if h := finalDBHashText(r); h != nil {
		files[fileFinalScenarioDBHash] = h
	}
	if res.JudgeResult != nil {
		files[fileJudgeResult] = res.JudgeResult
	}
	if r.Agent.Context != nil {
		files[filepath.Join(dirBotLogsAgent, fileLLMContext)] = r.Agent.Context
	}
	if r.User.Context != nil {
		files[filepath.Join(dirBotLogsUser, fileLLMContext)] = r.User.Context
	}
	files[fileConversationLog] = conversationLog(r.LogStartTime, r.Segments, r.EndTime, r.StopReason)
	if r.latency != nil {
		if files[fileLatencyDetail], err = latencyDetailJSON(r.latency); err != nil {
			return nil, fmt.Errorf("harness: %s: %w", fileLatencyDetail, err)
		}
	}
	if res.cost != nil {
		if files[fileCost], err = marshalIndented(res.cost); err != nil {
			return nil, fmt.Errorf("harness: %s: %w", fileCost, err)
		}
	}
	seg, err := segLST(r.Scenario.Name, r.Segments)
	if err != nil {
		return nil, err
	}
	if seg != nil {
		files[fileSegLST] = seg
	}
	for name, text := range out.Config {
		if err := checkName(name); err != nil {
			return nil, err
		}
		files[filepath.Join(dirScenarioConfig, name)] = []byte(text)
	}
	if out.ExpectedDB != nil && r.Agent.Summary != nil && r.Agent.Summary.DB != nil && res.Metrics.HasDBState && !res.Metrics.DBStateMatch {
		d, err := dbhash.Compare(out.ExpectedDB, r.Agent.Summary.DB).MarshalJSON()
		if err != nil {
			return nil, fmt.Errorf("harness: %s: %w", fileDBDiff, err)
		}
		v, err := pyvalue.Loads(d)
		if err != nil {
			return nil, err
		}
		if files[fileDBDiff], err = dumpIndent(v, 2); err != nil {
			return nil, err
		}
	}
	return files, nil
}

// WriteScenario writes one finished scenario: its directory is built
// under a temporary name in the run directory, synced and renamed into
// place (an existing directory of that name is first moved aside as
// <name>.killed.<n>), then its line is appended to results.jsonl (one
// write, then fsync). A kill leaves the directory either absent or whole,
// and results.jsonl with whole lines and at most one torn last line.
func (w *runWriter) WriteScenario(out *scenarioOutput) error {
	if out == nil || out.Run == nil || out.Result == nil || out.Result.Metrics == nil {
		return errors.New("harness: WriteScenario: no run or result")
	}
	name := out.Run.Scenario.Name
	if err := checkName(name); err != nil {
		return err
	}
	if !slices.Contains(w.queue, name) {
		return fmt.Errorf("harness: scenario %q is not queued in this run", name)
	}
	line, err := newResultLine(out.Result, w.trial)
	if err != nil {
		return err
	}
	if line.Scenario != name {
		return fmt.Errorf("harness: metrics scenario_name %q is not the run's scenario %q", line.Scenario, name)
	}
	files, err := scenarioFiles(out)
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(w.dir, ".tmp-"+name+"-")
	if err != nil {
		return fmt.Errorf("harness: %w", err)
	}
	keep := false
	defer func() {
		if !keep {
			_ = os.RemoveAll(tmp)
		}
	}()
	if err := os.Chmod(tmp, 0o755); err != nil {
		return fmt.Errorf("harness: %w", err)
	}
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	for _, p := range paths {
		if err := writeFile(filepath.Join(tmp, p), files[p]); err != nil {
			return fmt.Errorf("harness: %s: %w", name, err)
		}
	}
	for _, sub := range []string{dirBotLogsAgent, dirBotLogsUser, dirScenarioConfig} {
		if _, err := os.Stat(filepath.Join(tmp, sub)); err == nil {
			if err := syncDir(filepath.Join(tmp, sub)); err != nil {
				return fmt.Errorf("harness: %w", err)
			}
		}
	}
	if err := syncDir(tmp); err != nil {
		return fmt.Errorf("harness: %w", err)
	}

	w.mu.Lock()
	defer w.mu.Unlock()
	if w.results == nil {
		return errors.New("harness: run writer is closed")
	}
	final := w.ScenarioDir(name)
	if _, err := os.Lstat(final); err == nil {
		if err := moveAside(final); err != nil {
			return err
		}
	}
	if err := os.Rename(tmp, final); err != nil {
		return fmt.Errorf("harness: %w", err)
	}
	keep = true
	if err := syncDir(w.dir); err != nil {
		return fmt.Errorf("harness: %w", err)
	}
	if err := appendLine(w.results, line); err != nil {
		return err
	}
	w.lines[name] = line
	return nil
}

// moveAside renames dir to the first free <dir>.killed.<n> and leaves
// NeMo's __KILLED__ marker in it.
func moveAside(dir string) error {
	for n := 1; ; n++ {
		dst := fmt.Sprintf("%s.killed.%d", dir, n)
		if _, err := os.Lstat(dst); err == nil {
			continue
		}
		if err := os.Rename(dir, dst); err != nil {
			return fmt.Errorf("harness: %w", err)
		}
		return writeFile(filepath.Join(dst, "__KILLED__"), nil)
	}
}

// Lines returns the finished scenarios' lines in queue order (those not
// finished left out).
func (w *runWriter) Lines() []*resultLine {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := make([]*resultLine, 0, len(w.lines))
	for _, n := range w.queue {
		if l := w.lines[n]; l != nil {
			out = append(out, l)
		}
	}
	return out
}

// finishOptions are the run-level settings Finish needs.
type finishOptions struct {
	// MinAgentTurns is --min-agent-turns (all_summary.txt's stall rule).
	MinAgentTurns int
	// ReportTitle titles report.html ("" for the run directory's name).
	ReportTitle string
}

// Finish writes the run-level files from the finished scenarios in queue
// order — all_metrics.json, all_summary.txt, all_latencies.csv and
// report.html — and rewrites results.jsonl in queue order, one line per
// scenario (each atomically: temporary file, fsync, rename), so that a
// resumed run ends with the same files as an uninterrupted one. The
// writer stays open: a later WriteScenario and Finish may follow.
func (w *runWriter) Finish(o finishOptions) error {
	lines := w.Lines()
	all, err := allMetricsLines(lines)
	if err != nil {
		return err
	}
	title := o.ReportTitle
	if title == "" {
		title = filepath.Base(w.dir)
	}
	report, err := renderReport(reportInput{Title: title, Lines: lines, Queued: len(w.queue), MinAgentTurns: o.MinAgentTurns, ScenarioDir: w.ScenarioDir})
	if err != nil {
		return err
	}
	var jsonl []byte
	for _, l := range lines {
		b, err := l.MarshalJSON()
		if err != nil {
			return err
		}
		jsonl = append(append(jsonl, b...), '\n')
	}
	for _, f := range []struct {
		name string
		b    []byte
	}{
		{fileAllMetrics, all},
		{fileAllSummary, allSummary(lines, len(w.queue), o.MinAgentTurns)},
		{fileAllLatencies, allLatenciesCSV(lines)},
		{fileReport, report},
	} {
		if err := replaceFile(filepath.Join(w.dir, f.name), f.b); err != nil {
			return err
		}
	}
	if err := w.writeCostSummary(lines); err != nil { // cost_summary.json, .txt
		return err
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.results == nil {
		return errors.New("harness: run writer is closed")
	}
	if err := replaceFile(filepath.Join(w.dir, fileResults), jsonl); err != nil {
		return err
	}
	_ = w.results.Close()
	w.results, err = os.OpenFile(filepath.Join(w.dir, fileResults), os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("harness: %w", err)
	}
	return nil
}

// replaceFile writes path atomically: a temporary file beside it, fsync,
// rename, and a sync of the directory.
func replaceFile(path string, b []byte) error {
	b = pyjson.EscapeLoneSurrogates(b)
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-"+filepath.Base(path)+"-")
	if err != nil {
		return fmt.Errorf("harness: %w", err)
	}
	_, err = tmp.Write(b)
	if err == nil {
		err = tmp.Chmod(0o644)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		_ = os.Remove(tmp.Name())
		return fmt.Errorf("harness: %w", err)
	}
	return syncDir(filepath.Dir(path))
}

// Close closes results.jsonl.
func (w *runWriter) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.results == nil {
		return nil
	}
	err := w.results.Close()
	w.results = nil
	return err
}
