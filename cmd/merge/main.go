// Command merge combines the shards of an evaluation — the run
// directories cmd/evaluate writes with -shard I/N or -shards N, as the
// tasks of a Kubernetes Indexed Job or a Slurm array — into one run, as
// one unsharded run of the same queue writes it (harness.Merge):
//
//	merge [-out DIR] ROOT          # ROOT/shard-I-of-N for every I, into ROOT/merged
//	merge -out DIR SHARD_DIR...    # the shard directories given
//
// It exits 0 and prints the merged run's directory and figures, 1 when the
// shards cannot be merged (a shard missing, of another evaluation, or not
// finished — the message names it), 2 on a usage error.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"

	"github.com/voiceeval/schematools/harness"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// shardName is a shard directory's name under the output root.
var shardName = regexp.MustCompile(`^shard-(\d+)-of-(\d+)$`)

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("merge", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "", "directory of the merged run (default ROOT/merged)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: merge [-out DIR] ROOT | merge -out DIR SHARD_DIR...")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	dirs := fs.Args()
	if len(dirs) == 0 {
		fs.Usage()
		return 2
	}
	if len(dirs) == 1 {
		if _, err := os.Stat(filepath.Join(dirs[0], "shard.json")); err != nil {
			root := dirs[0]
			found, err := shardsUnder(root)
			if err != nil {
				fmt.Fprintln(stderr, "merge:", err)
				return 1
			}
			dirs = found
			if *out == "" {
				*out = filepath.Join(root, "merged")
			}
		}
	}
	if *out == "" {
		fmt.Fprintln(stderr, "merge: give -out with shard directories")
		return 2
	}
	if err := harness.Merge(*out, dirs...); err != nil {
		fmt.Fprintln(stderr, "merge:", err)
		return 1
	}
	tr, err := harness.ReadTrials(*out)
	if err != nil {
		fmt.Fprintln(stderr, "merge:", err)
		return 1
	}
	fmt.Fprintf(stdout, "%s: %d shards, %d scenarios, %d trial(s), %d of %d runs passed\n",
		*out, len(dirs), len(tr.Scenarios), tr.Trials, tr.Overall.Successes, tr.Overall.Runs)
	return 0
}

// shardsUnder lists root's shard-I-of-N directories, in index order; none
// is an error.
func shardsUnder(root string) ([]string, error) {
	entries, err := os.ReadDir(root)
	if err != nil {
		return nil, err
	}
	type shard struct {
		index int
		dir   string
	}
	var found []shard
	for _, e := range entries {
		m := shardName.FindStringSubmatch(e.Name())
		if m == nil || !e.IsDir() {
			continue
		}
		i, _ := strconv.Atoi(m[1])
		found = append(found, shard{i, filepath.Join(root, e.Name())})
	}
	if len(found) == 0 {
		return nil, fmt.Errorf("%s holds no shard-I-of-N directory", root)
	}
	slices.SortFunc(found, func(a, b shard) int { return a.index - b.index })
	out := make([]string, len(found))
	for i, s := range found {
		out[i] = s.dir
	}
	return out, nil
}
