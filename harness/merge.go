package harness

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/voiceeval/schematools/internal/pyvalue"
)

// Merge combines the run directories of an evaluation's shards
// (EvaluateOptions.Shards) into one run at out, which must not exist or
// be empty: each scenario's directory copied from its shard, then every
// run-level file written as one unsharded run of the same queue writes it
// (results.jsonl, all_metrics.json, all_summary.txt, all_latencies.csv,
// report.html, the cost and trial files), and run_args.json listing every
// shard's invocations in shard order.
//
// It refuses, naming the directory: one that is not a shard, a shard of
// another evaluation (another queue, number of shards or trials, turn
// gate, or flags in run_args.json other than the shard's own), a shard
// given twice, a shard not finished (runs without a result: resume it),
// and it names the shards missing. Nothing is written unless every check
// passes. The shards are left as they were.
func Merge(out string, shardDirs ...string) error {
	if len(shardDirs) == 0 {
		return errors.New("harness: Merge: no shard directory")
	}
	shards := make([]shardFile, len(shardDirs))
	args := make([]pyvalue.Dict, len(shardDirs))
	byIndex := map[int]string{}
	for i, dir := range shardDirs {
		b, err := os.ReadFile(filepath.Join(dir, fileShard))
		if err != nil {
			return fmt.Errorf("harness: Merge: %s is not a shard directory: %w", dir, err)
		}
		if err := json.Unmarshal(b, &shards[i]); err != nil {
			return fmt.Errorf("harness: Merge: %s: %s: %w", dir, fileShard, err)
		}
		s := shards[i]
		if s.Shards < 1 || s.Shard < 0 || s.Shard >= s.Shards || s.Trials < 1 {
			return fmt.Errorf("harness: Merge: %s: %s names shard %d of %d, %d trials", dir, fileShard, s.Shard, s.Shards, s.Trials)
		}
		if i > 0 {
			if why := shardDiff(s, shards[0]); why != "" {
				return fmt.Errorf("harness: Merge: %s is a shard of another evaluation than %s (%s)", dir, shardDirs[0], why)
			}
		}
		if prev, dup := byIndex[s.Shard]; dup {
			return fmt.Errorf("harness: Merge: %s and %s are both shard %d of %d", prev, dir, s.Shard, s.Shards)
		}
		byIndex[s.Shard] = dir
		if args[i], err = lastParsedArgs(dir); err != nil {
			return fmt.Errorf("harness: Merge: %s: %w", dir, err)
		}
		if i > 0 && args[0] != nil && args[i] != nil {
			if why := argsDiff(args[0], args[i]); why != "" {
				return fmt.Errorf("harness: Merge: %s is a shard of another evaluation than %s (flag %s)", dir, shardDirs[0], why)
			}
		}
	}
	first := shards[0]
	var missing []string
	for i := range first.Shards {
		if _, ok := byIndex[i]; !ok {
			missing = append(missing, fmt.Sprint(i))
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("harness: Merge: shard(s) %s of %d missing (given: %d)", strings.Join(missing, ", "), first.Shards, len(shardDirs))
	}

	// Every shard's runs have a result; gather the lines by trial.
	owner := shardAssignment(first.Scenarios, first.Trials, first.Shards)
	type source struct {
		line *resultLine
		dir  string // the scenario's directory in its shard
	}
	byTrial := make([]map[string]source, first.Trials)
	for t := range byTrial {
		byTrial[t] = map[string]source{}
	}
	for i, dir := range shardDirs {
		s := shards[i]
		notDone := 0
		for t := 1; t <= first.Trials; t++ {
			tdir := dir
			if first.Trials > 1 {
				tdir = trialDir(dir, t)
			}
			rf, err := readResults(filepath.Join(tdir, fileResults))
			if err != nil {
				return fmt.Errorf("harness: Merge: %s: %w", tdir, err)
			}
			latest := rf.Latest()
			for _, n := range first.Scenarios {
				if owner[trialJob{name: n, trial: t}] != s.Shard {
					continue
				}
				l := latest[n]
				if l == nil {
					notDone++
					continue
				}
				src := filepath.Join(tdir, n)
				if st, err := os.Stat(src); err != nil || !st.IsDir() {
					return fmt.Errorf("harness: Merge: shard %d of %d (%s): %s has a result but no directory", s.Shard, s.Shards, dir, n)
				}
				byTrial[t-1][n] = source{line: l, dir: src}
			}
		}
		if notDone > 0 {
			return fmt.Errorf("harness: Merge: shard %d of %d (%s) is not finished: %d run(s) without a result (resume it)", s.Shard, s.Shards, dir, notDone)
		}
	}

	if entries, err := os.ReadDir(out); err == nil && len(entries) > 0 {
		return fmt.Errorf("harness: Merge: %s is not empty", out)
	} else if err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("harness: Merge: %w", err)
	}
	for t := 1; t <= first.Trials; t++ {
		dst := out
		if first.Trials > 1 {
			dst = trialDir(out, t)
		}
		if err := os.MkdirAll(dst, 0o755); err != nil {
			return fmt.Errorf("harness: Merge: %w", err)
		}
		lines := map[string]*resultLine{}
		for _, n := range first.Scenarios {
			src := byTrial[t-1][n]
			if err := copyTree(src.dir, filepath.Join(dst, n)); err != nil {
				return fmt.Errorf("harness: Merge: %w", err)
			}
			l := *src.line
			l.Metrics = set(l.Metrics, "scenario_directory", filepath.Join(dst, n))
			lines[n] = &l
		}
		w, err := openRun(dst, first.Scenarios, lines)
		if err != nil {
			return err
		}
		if first.Trials > 1 {
			w.trial = t
		}
		err = w.Finish(finishOptions{MinAgentTurns: first.MinAgentTurns})
		if cerr := w.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
	}
	if first.Trials > 1 {
		if err := writeTrialFiles(out); err != nil {
			return err
		}
	}
	return mergeRunArgs(out, shardDirs, shards)
}

// lastInvocation is the last invocation record of a run's run_args.json;
// nil when the run has none.
func lastInvocation(dir string) (any, error) {
	b, err := os.ReadFile(filepath.Join(dir, fileRunArgs))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	v, err := pyvalue.Loads(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", fileRunArgs, err)
	}
	invs, _ := dictGet(v, "invocations")
	list, _ := invs.([]any)
	if len(list) == 0 {
		return nil, nil
	}
	return list[len(list)-1], nil
}

// lastParsedArgs is the parsed_args of the last invocation in a run's
// run_args.json; nil when the run has none.
func lastParsedArgs(dir string) (pyvalue.Dict, error) {
	inv, err := lastInvocation(dir)
	if err != nil || inv == nil {
		return nil, err
	}
	pa, _ := dictGet(inv, "parsed_args")
	d, _ := pa.(pyvalue.Dict)
	return d, nil
}

// shardArgs are the flags that differ between the shards of one
// evaluation.
var shardArgs = []string{"shard", "shards", "out", "resume"}

// argsDiff names a flag whose value differs between two shards' parsed
// args, the shard's own flags aside; "" when none does.
func argsDiff(a, b pyvalue.Dict) string {
	keys := map[string]bool{}
	for _, it := range a {
		keys[it.Key] = true
	}
	for _, it := range b {
		keys[it.Key] = true
	}
	names := make([]string, 0, len(keys))
	for k := range keys {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, k := range names {
		if slices.Contains(shardArgs, k) {
			continue
		}
		va, oka := a.Get(k)
		vb, okb := b.Get(k)
		if oka != okb || pyvalue.Repr(va) != pyvalue.Repr(vb) {
			return fmt.Sprintf("%s: %s, not %s", k, pyvalue.Repr(vb), pyvalue.Repr(va))
		}
	}
	return ""
}

// mergeRunArgs writes the merged run's run_args.json: every shard's
// invocations, in shard order (each names its shard in its argv).
func mergeRunArgs(out string, dirs []string, shards []shardFile) error {
	order := make([]int, len(dirs))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return shards[a].Shard - shards[b].Shard })
	var all []any
	for _, i := range order {
		b, err := os.ReadFile(filepath.Join(dirs[i], fileRunArgs))
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return fmt.Errorf("harness: Merge: %w", err)
		}
		v, err := pyvalue.Loads(b)
		if err != nil {
			return fmt.Errorf("harness: Merge: %s: %s: %w", dirs[i], fileRunArgs, err)
		}
		invs, _ := dictGet(v, "invocations")
		list, _ := invs.([]any)
		all = append(all, list...)
	}
	if all == nil {
		return nil
	}
	b, err := dumpIndent(dict("invocations", all), 2)
	if err != nil {
		return fmt.Errorf("harness: Merge: %w", err)
	}
	return replaceFile(filepath.Join(out, fileRunArgs), b)
}

// copyTree copies the directory src to dst (files and directories).
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if !d.Type().IsRegular() {
			return fmt.Errorf("%s: not a regular file", p)
		}
		in, err := os.Open(p)
		if err != nil {
			return err
		}
		defer in.Close()
		outF, err := os.OpenFile(target, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
		if err != nil {
			return err
		}
		if _, err := io.Copy(outF, in); err != nil {
			outF.Close()
			return err
		}
		return outF.Close()
	})
}
