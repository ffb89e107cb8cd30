package replay

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/voiceeval/schematools/state"
)

// GoldAll replays scenarios on workers goroutines (GOMAXPROCS when workers
// < 1) and returns the results in input order. progress, when not nil, is
// called after each replay with the number done so far (1, 2, 3, … in that
// order) and the total; calls never overlap. When ctx is done, replays not
// yet started are skipped and ctx's error is returned (joined with the
// errors of the replays that did run). The error of each failed replay is
// joined into the returned error, naming its task; its Result holds what
// was done, and the error in Err.
//
// The replays share their scenarios' Sources copy-on-write. Once they are
// done, GoldAll checks every Source ([state.Source.Verify]); when a tool
// changed one (it wrote under View, or outside the tables it named), the
// results of the scenarios that shared it may be wrong, so GoldAll
// replays those again, each on a private copy of its DBs, and returns
// these results instead — a misbehaving tool changes its own task's
// result only — along with Verify's error (errors.Is
// [state.ErrSourceChanged]), for the tool must be fixed. (Two replays that run at once on a DB one of them writes in place
// may also trip the Go runtime's check for concurrent map writes, which
// ends the process: the tool must be fixed.)
func GoldAll(ctx context.Context, scenarios []Scenario, workers int, progress func(done, total int)) ([]Result, error) {
	if workers < 1 {
		workers = runtime.GOMAXPROCS(0)
	}
	results := make([]Result, len(scenarios))
	errs := make([]error, len(scenarios))
	var mu sync.Mutex // serialises progress calls and counts them
	done := 0
	run(len(scenarios), workers, ctx, func(i int) {
		results[i], errs[i] = goldOne(ctx, scenarios[i], false)
		mu.Lock()
		done++
		if progress != nil {
			progress(done, len(scenarios))
		}
		mu.Unlock()
	})

	changed := map[*state.Source]bool{}
	var verifyErrs []error
	for _, sc := range scenarios {
		for _, src := range []*state.Source{sc.DB, sc.UserDB} {
			if _, seen := changed[src]; src != nil && !seen {
				err := src.Verify()
				changed[src] = err != nil
				verifyErrs = append(verifyErrs, err)
			}
		}
	}
	var again []int
	for i, sc := range scenarios {
		if changed[sc.DB] || changed[sc.UserDB] {
			again = append(again, i)
		}
	}
	run(len(again), workers, ctx, func(j int) {
		i := again[j]
		results[i], errs[i] = goldOne(ctx, scenarios[i], true)
	})
	return results, errors.Join(append(append([]error{ctx.Err()}, verifyErrs...), errs...)...)
}

// goldOne is one replay of GoldAll: its result, with its error in Err,
// and the error naming its task.
func goldOne(ctx context.Context, sc Scenario, private bool) (Result, error) {
	r, err := gold(ctx, sc, private)
	r.Err = err
	if err != nil {
		return r, fmt.Errorf("task %s: %w", sc.Task.ID, err)
	}
	return r, nil
}

// run calls fn(0), …, fn(n-1) on workers goroutines, starting none once
// ctx is done.
func run(n, workers int, ctx context.Context, fn func(i int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(workers, n) {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < n && ctx.Err() == nil; i = int(next.Add(1) - 1) {
				fn(i)
			}
		})
	}
	wg.Wait()
}
