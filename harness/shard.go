package harness

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
)

// maxShards bounds EvaluateOptions.Shards.
const maxShards = 10000

// fileShard marks a shard's run directory: which shard of which
// evaluation it holds, for Merge and for a resume to check.
const fileShard = "shard.json"

// shardFile is shard.json.
type shardFile struct {
	Shard         int      `json:"shard"`
	Shards        int      `json:"shards"`
	Trials        int      `json:"trials"`
	MinAgentTurns int      `json:"min_agent_turns"`
	Scenarios     []string `json:"scenarios"`
}

// shardAssignment deals the (scenario, trial) runs of an evaluation to
// its shards: trial by trial, the queue grouped by domain (queue order
// within one), the k-th run to shard k mod shards. Every shard gets an
// even share of each domain of each trial, and a scenario's trials go to
// different shards.
func shardAssignment(names []string, trials, shards int) map[trialJob]int {
	byDomain := slices.Clone(names)
	slices.SortStableFunc(byDomain, func(a, b string) int {
		switch da, db := prefix(a), prefix(b); {
		case da < db:
			return -1
		case da > db:
			return 1
		}
		return 0
	})
	out := make(map[trialJob]int, len(names)*trials)
	k := 0
	for t := 1; t <= trials; t++ {
		for _, n := range byDomain {
			out[trialJob{name: n, trial: t}] = k % shards
			k++
		}
	}
	return out
}

// checkShardFile checks a run directory's shard.json against the
// evaluation about to run in it, or writes it for a new shard: a shard
// resumes only its own evaluation's shard, and a shard is not resumed as
// a whole run.
func checkShardFile(dir string, o EvaluateOptions, names []string, trials int) error {
	path := filepath.Join(dir, fileShard)
	b, err := os.ReadFile(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		if o.Shards <= 1 {
			return nil
		}
		want := shardFile{Shard: o.Shard, Shards: o.Shards, Trials: trials, MinAgentTurns: o.Session.Score.MinAgentTurns, Scenarios: names}
		js, err := json.MarshalIndent(want, "", "  ")
		if err != nil {
			return fmt.Errorf("harness: %w", err)
		}
		return replaceFile(path, append(js, '\n'))
	case err != nil:
		return fmt.Errorf("harness: %w", err)
	}
	var got shardFile
	if err := json.Unmarshal(b, &got); err != nil {
		return fmt.Errorf("harness: %s: %w", path, err)
	}
	if o.Shards <= 1 {
		return fmt.Errorf("harness: %s holds shard %d of %d: run it with Shard and Shards, or merge it", dir, got.Shard, got.Shards)
	}
	want := shardFile{Shard: o.Shard, Shards: o.Shards, Trials: trials, MinAgentTurns: o.Session.Score.MinAgentTurns, Scenarios: names}
	if why := shardDiff(got, want); why != "" {
		return fmt.Errorf("harness: %s holds shard %d of %d of another evaluation (%s)", dir, got.Shard, got.Shards, why)
	}
	return nil
}

// shardDiff says how two shards' evaluations differ, "" when they are of
// the same evaluation (the shard index aside).
func shardDiff(a, b shardFile) string {
	switch {
	case a.Shards != b.Shards:
		return fmt.Sprintf("%d shards, not %d", a.Shards, b.Shards)
	case a.Trials != b.Trials:
		return fmt.Sprintf("%d trials, not %d", a.Trials, b.Trials)
	case a.MinAgentTurns != b.MinAgentTurns:
		return fmt.Sprintf("min agent turns %d, not %d", a.MinAgentTurns, b.MinAgentTurns)
	case !slices.Equal(a.Scenarios, b.Scenarios):
		return fmt.Sprintf("a queue of %d scenarios, not the same %d", len(a.Scenarios), len(b.Scenarios))
	}
	return ""
}

// shard keeps, of the runs to make, this shard's.
func (rs *runSet) shard(o EvaluateOptions, names []string) (*runSet, error) {
	if o.Shards <= 1 {
		return rs, nil
	}
	owner := shardAssignment(names, rs.trials, o.Shards)
	rs.toRun = slices.DeleteFunc(rs.toRun, func(j trialJob) bool { return owner[j] != o.Shard })
	rs.total = 0
	for _, s := range owner {
		if s == o.Shard {
			rs.total++
		}
	}
	return rs, nil
}
