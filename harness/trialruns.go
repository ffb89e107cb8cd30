package harness

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// maxTrials bounds EvaluateOptions.Trials and a results line's "trial".
const maxTrials = 1000

// trialDirPrefix names a trial's run directory in a run of several:
// <run>/trial_<n>, n from 1.
const trialDirPrefix = "trial_"

func trialDir(run string, trial int) string {
	return filepath.Join(run, trialDirPrefix+strconv.Itoa(trial))
}

// trialJob is one run of one scenario.
type trialJob struct {
	name  string
	trial int
}

// runSet is what Evaluate writes to: one run directory in NeMo's layout
// (one trial), or a directory of trial_<n> run directories.
type runSet struct {
	dir     string
	trials  int
	writers []*runWriter // by trial - 1
	toRun   []trialJob   // trial by trial, queue order within one
	total   int          // runs in the whole set, done ones included
}

// trialsIn counts the trial_<n> directories of a run: n when trial_1 …
// trial_n are there, 0 when none is; a gap or a stray trial_ name is an
// error.
func trialsIn(dir string) (int, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return 0, fmt.Errorf("harness: %w", err)
	}
	seen := map[int]bool{}
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), trialDirPrefix)
		if !ok || !e.IsDir() {
			continue
		}
		n, err := strconv.Atoi(rest)
		if err != nil || n < 1 || n > maxTrials || strconv.Itoa(n) != rest {
			return 0, fmt.Errorf("harness: %s: %q is not a trial directory (%s1 … %s%d)", dir, e.Name(), trialDirPrefix, trialDirPrefix, maxTrials)
		}
		seen[n] = true
	}
	for n := 1; n <= len(seen); n++ {
		if !seen[n] {
			return 0, fmt.Errorf("harness: %s: %s%d is missing (%d trial directories)", dir, trialDirPrefix, n, len(seen))
		}
	}
	return len(seen), nil
}

// openRuns creates or reopens the run directories of an evaluation of
// the named scenarios.
func openRuns(o EvaluateOptions, names []string) (*runSet, error) {
	if o.Trials < 0 || o.Trials > maxTrials {
		return nil, fmt.Errorf("harness: Evaluate: Trials %d is not 0 to %d", o.Trials, maxTrials)
	}
	if o.Shards < 0 || o.Shards > maxShards || (o.Shards > 1 && (o.Shard < 0 || o.Shard >= o.Shards)) || (o.Shards <= 1 && o.Shard != 0) {
		return nil, fmt.Errorf("harness: Evaluate: shard %d of %d: want 0 <= Shard < Shards <= %d", o.Shard, o.Shards, maxShards)
	}
	minTurns := o.Session.Score.MinAgentTurns
	rs := &runSet{trials: max(o.Trials, 1)}
	add := func(w *runWriter, trial int, toRun []string) {
		w.trial = trial
		if rs.trials == 1 {
			w.trial = 0
		}
		rs.writers = append(rs.writers, w)
		for _, n := range toRun {
			rs.toRun = append(rs.toRun, trialJob{name: n, trial: trial})
		}
	}
	if o.ResumeDir == "" {
		rs.dir = filepath.Join(o.OutputDir, "eval_"+sessionTimestamp(time.Now()))
		if err := os.MkdirAll(rs.dir, 0o755); err != nil {
			return nil, fmt.Errorf("harness: %w", err)
		}
	} else {
		rs.dir = o.ResumeDir
		if st, err := os.Stat(rs.dir); err != nil || !st.IsDir() {
			return nil, fmt.Errorf("harness: resume: %s is not a run directory", rs.dir)
		}
		found, err := trialsIn(rs.dir)
		if err != nil {
			return nil, err
		}
		_, resErr := os.Stat(filepath.Join(rs.dir, fileResults))
		fresh := found == 0 && errors.Is(resErr, os.ErrNotExist)
		if found == 0 && rs.trials > 1 && !fresh {
			return nil, fmt.Errorf("harness: resume: %s is a run of one trial; it cannot take %d (start a new run)", rs.dir, rs.trials)
		}
		if found > 0 {
			rs.trials = max(rs.trials, found)
		}
	}
	if err := checkShardFile(rs.dir, o, names, rs.trials); err != nil {
		return nil, err
	}
	rs.total = rs.trials * len(names)
	if rs.trials == 1 {
		var w *runWriter
		var err error
		if o.ResumeDir != "" {
			var st *resumeState
			if w, st, err = resumeRunWriter(rs.dir, names, minTurns); err == nil {
				add(w, 1, st.ToRun)
			}
		} else if w, err = openRun(rs.dir, names, map[string]*resultLine{}); err == nil {
			add(w, 1, names)
		}
		if err != nil {
			return nil, err
		}
		return rs.shard(o, names)
	}
	for t := 1; t <= rs.trials; t++ {
		dir := trialDir(rs.dir, t)
		_, statErr := os.Stat(dir)
		var w *runWriter
		var err error
		switch {
		case statErr == nil:
			var st *resumeState
			if w, st, err = resumeRunWriter(dir, names, minTurns); err == nil {
				add(w, t, st.ToRun)
			}
		case errors.Is(statErr, os.ErrNotExist):
			if err = os.Mkdir(dir, 0o755); err == nil {
				if w, err = openRun(dir, names, map[string]*resultLine{}); err == nil {
					add(w, t, names)
				}
			}
		default:
			err = statErr
		}
		if err != nil {
			rs.Close()
			return nil, fmt.Errorf("harness: trial %d: %w", t, err)
		}
	}
	return rs.shard(o, names)
}

// Finish writes each trial's run-level files, then, in a run of several
// trials, the trial statistics at the top.
func (rs *runSet) Finish(minAgentTurns int) error {
	for _, w := range rs.writers {
		if err := w.Finish(finishOptions{MinAgentTurns: minAgentTurns}); err != nil {
			return err
		}
	}
	if rs.trials == 1 {
		return nil
	}
	return writeTrialFiles(rs.dir)
}

// Close closes every trial's results.jsonl.
func (rs *runSet) Close() {
	for _, w := range rs.writers {
		_ = w.Close()
	}
}
