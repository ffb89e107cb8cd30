package harness

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/voiceeval/schematools/internal/pyvalue"
)

// resumeState is what resumeRunWriter found in a run directory.
type resumeState struct {
	// Done are the queued scenarios already finished, in queue order:
	// their results.jsonl line is kept and they need not run again.
	Done []string
	// ToRun are the queued scenarios still to run, in queue order.
	ToRun []string
	// Reasons says, for each scenario of ToRun, why (NeMo's
	// classify_scenario_resume_state texts where it has one).
	Reasons map[string]string
	// MovedAside are the scenario directories moved to
	// <name>.killed.<n> because they were not finished.
	MovedAside []string
	// TornLine is set when results.jsonl ended in a torn line (dropped).
	TornLine bool
}

// classify is NeMo's classify_scenario_resume_state on a results line:
// finished unless the run had no turns or the agent too few LLM calls.
func classify(l *resultLine, minAgentTurns int) (bool, string) {
	if e, ok := l.Metrics.Get("harness_error"); ok {
		return false, "a bot failed it: " + pyvalue.Str(e)
	}
	if t, _ := l.Metrics.Get("total_turns"); pyInt(t) == 0 {
		return false, "0 turns (bot crashed before audio)"
	}
	if minAgentTurns > 0 {
		tu, _ := l.Metrics.Get("token_usage")
		ag, _ := dictGet(tu, "agent")
		if n, ok := dictGet(ag, "n_calls"); ok && pyInt(n) < int64(minAgentTurns) {
			stop, ok := l.Metrics.Get("stop_reason")
			if !ok {
				stop = "?"
			}
			return false, fmt.Sprintf("%d agent LLM response(s) < %d (%s)", pyInt(n), minAgentTurns, pyvalue.Str(stop))
		}
	}
	return true, ""
}

// resumeRunWriter reopens an existing run directory for the queued
// scenarios (run_evaluation.py --resume):
//
//   - results.jsonl is read; a torn last line is dropped (the file is
//     truncated to its whole lines, so appends start on a fresh line); a
//     scenario with several lines keeps its last;
//   - a queued scenario is done when it has a line, its directory holds
//     metrics.json, and NeMo's resume rule passes (turns were exchanged
//     and, with minAgentTurns > 0, the agent made that many LLM calls);
//     its scenario_directory is refreshed to the directory's path, as NeMo
//     does;
//   - every other queued scenario is to run: its line is dropped, and a
//     directory of its name (in flight, or not finished by NeMo's rule)
//     is moved aside to <name>.killed.<n> with a __KILLED__ marker;
//   - temporary directories a killed WriteScenario left are removed.
//
// Lines of scenarios not in the queue are kept in memory but left out of
// the run-level files, which Finish writes in queue order.
func resumeRunWriter(runDir string, queue []string, minAgentTurns int) (*runWriter, *resumeState, error) {
	if err := checkQueue(queue); err != nil {
		return nil, nil, err
	}
	if st, err := os.Stat(runDir); err != nil || !st.IsDir() {
		return nil, nil, fmt.Errorf("harness: resume: %s is not a run directory", runDir)
	}
	path := filepath.Join(runDir, fileResults)
	rf, err := readResults(path)
	if err != nil {
		return nil, nil, err
	}
	if rf.Torn {
		if err := os.Truncate(path, rf.Size); err != nil {
			return nil, nil, fmt.Errorf("harness: %w", err)
		}
	}
	entries, err := os.ReadDir(runDir)
	if err != nil {
		return nil, nil, fmt.Errorf("harness: %w", err)
	}
	for _, e := range entries {
		if e.IsDir() && strings.HasPrefix(e.Name(), ".tmp-") {
			if err := os.RemoveAll(filepath.Join(runDir, e.Name())); err != nil {
				return nil, nil, fmt.Errorf("harness: %w", err)
			}
		}
	}
	latest := rf.Latest()
	st := &resumeState{Reasons: map[string]string{}, TornLine: rf.Torn}
	lines := map[string]*resultLine{}
	for n, l := range latest {
		lines[n] = l
	}
	for _, name := range queue {
		dir := filepath.Join(runDir, name)
		_, dirErr := os.Stat(dir)
		_, mErr := os.Stat(filepath.Join(dir, fileMetrics))
		l := latest[name]
		reason := ""
		switch {
		case l == nil && dirErr != nil:
			reason = "no subdir"
		case l == nil:
			reason = "no " + fileResults + " line (in-flight)"
		case mErr != nil:
			reason = "no metrics.json (in-flight)"
		default:
			if ok, why := classify(l, minAgentTurns); !ok {
				reason = why
			}
		}
		if reason == "" {
			l.Metrics = set(l.Metrics, "scenario_directory", dir)
			st.Done = append(st.Done, name)
			continue
		}
		delete(lines, name)
		st.ToRun = append(st.ToRun, name)
		st.Reasons[name] = reason
		if dirErr == nil {
			if err := moveAside(dir); err != nil {
				return nil, nil, err
			}
			st.MovedAside = append(st.MovedAside, name)
		}
	}
	w, err := openRun(runDir, queue, lines)
	if err != nil {
		return nil, nil, err
	}
	return w, st, nil
}
