package replay

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
)

// GoldAll replays scenarios on workers goroutines (GOMAXPROCS when workers
// < 1) and returns the results in input order. Each replay works on its own
// copies of the DBs, or shares them copy-on-write ([Scenario].ShareDB). progress, when not nil, is called after each replay with the
// number done so far (1, 2, 3, … in that order) and the total; calls never
// overlap. When ctx is done,
// replays not yet started are skipped and ctx's error is returned (joined
// with the errors of the replays that did run). The
// error of each failed replay is joined into the returned error, naming its
// task; its Result holds what was done, and the error in Err.
func GoldAll(ctx context.Context, scenarios []Scenario, workers int, progress func(done, total int)) ([]Result, error) {
	if workers < 1 {
		workers = runtime.GOMAXPROCS(0)
	}
	results := make([]Result, len(scenarios))
	errs := make([]error, len(scenarios))
	var next atomic.Int64
	var mu sync.Mutex // serialises progress calls and counts them
	done := 0
	var wg sync.WaitGroup
	for range min(workers, len(scenarios)) {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= len(scenarios) || ctx.Err() != nil {
					return
				}
				r, err := Gold(ctx, scenarios[i])
				r.Err = err
				results[i] = r
				if err != nil {
					errs[i] = fmt.Errorf("task %s: %w", scenarios[i].Task.ID, err)
				}
				mu.Lock()
				done++
				if progress != nil {
					progress(done, len(scenarios))
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return results, errors.Join(append([]error{ctx.Err()}, errs...)...)
}
