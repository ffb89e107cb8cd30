package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// resolveShard returns the shard this process runs, index of count (count
// 0: not sharded): -shard I/N, or -shards N with the index from the batch
// engine's environment — JOB_COMPLETION_INDEX (a Kubernetes Indexed Job),
// else SLURM_ARRAY_TASK_ID minus SLURM_ARRAY_TASK_MIN (0 when unset).
func resolveShard(shard string, shards int, getenv func(string) string) (index, count int, err error) {
	if shards < 0 {
		return 0, 0, errors.New("-shards must not be negative")
	}
	if shard != "" {
		i, n, ok := strings.Cut(shard, "/")
		index, err1 := strconv.Atoi(i)
		count, err2 := strconv.Atoi(n)
		if !ok || err1 != nil || err2 != nil || count < 1 || index < 0 || index >= count {
			return 0, 0, fmt.Errorf("-shard %q: want I/N with 0 <= I < N", shard)
		}
		if shards != 0 && shards != count {
			return 0, 0, fmt.Errorf("-shard %s and -shards %d disagree", shard, shards)
		}
		return index, count, nil
	}
	if shards <= 1 {
		return 0, 0, nil
	}
	env, v := "JOB_COMPLETION_INDEX", getenv("JOB_COMPLETION_INDEX")
	offset := 0
	if v == "" {
		env, v = "SLURM_ARRAY_TASK_ID", getenv("SLURM_ARRAY_TASK_ID")
		if m := getenv("SLURM_ARRAY_TASK_MIN"); m != "" && v != "" {
			if offset, err = strconv.Atoi(m); err != nil {
				return 0, 0, fmt.Errorf("SLURM_ARRAY_TASK_MIN %q is not a number", m)
			}
		}
	}
	if v == "" {
		return 0, 0, fmt.Errorf("-shards %d: the shard index comes from -shard I/N, JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID, and none is set", shards)
	}
	n, err := strconv.Atoi(v)
	if err != nil || n-offset < 0 || n-offset >= shards {
		return 0, 0, fmt.Errorf("-shards %d: %s=%s is not a shard index (0 to %d)", shards, env, v, shards-1)
	}
	return n - offset, shards, nil
}

// shardDir is the run directory of a shard under -out: created, and
// resumed when it exists (a shard a batch engine re-runs resumes).
func shardDir(out string, index, count int) (string, error) {
	dir := filepath.Join(out, fmt.Sprintf("shard-%d-of-%d", index, count))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	return dir, nil
}
