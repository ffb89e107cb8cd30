package rtviws

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
)

// maxQueuedTurns bounds the user turns a connection may have waiting
// behind the one in progress; more are refused with an error event.
const maxQueuedTurns = 64

// errTurnsFull refuses a user turn beyond maxQueuedTurns.
var errTurnsFull = fmt.Errorf("more than %d user turns wait for the one in progress; this one is dropped", maxQueuedTurns)

// turnQueue runs one connection's user turns in order, on a goroutine of
// their own, so that the connection keeps reading while a turn waits on
// its model: pulls and other messages are answered mid-turn, as a pipecat
// bot's RTVI processor answers them while its LLM service works (a model
// that hangs leaves get_context_history answered, and NeMo's runner counts
// the turns it did make).
type turnQueue struct {
	ctx    context.Context // the connection's: a turn's context derives from it
	logger *slog.Logger
	report func(error) // tells the harness a turn failed

	start sync.Once
	jobs  chan turnJob
	wg    sync.WaitGroup // turns queued or running

	mu     sync.Mutex
	gen    uint64             // bumped by interrupt: older queued turns are dropped
	cancel context.CancelFunc // the running turn's, nil when none runs
}

type turnJob struct {
	gen uint64
	run func(context.Context) error
}

// newTurnQueue returns the turn queue of a connection whose context is
// ctx; report tells the harness of a turn that failed.
func newTurnQueue(ctx context.Context, logger *slog.Logger, report func(error)) *turnQueue {
	return &turnQueue{ctx: ctx, logger: logger, report: report, jobs: make(chan turnJob, maxQueuedTurns)}
}

// push queues a turn; false when the queue is full.
func (q *turnQueue) push(run func(context.Context) error) bool {
	q.start.Do(func() { go q.work() })
	q.mu.Lock()
	gen := q.gen
	q.mu.Unlock()
	q.wg.Add(1)
	select {
	case q.jobs <- turnJob{gen: gen, run: run}:
		return true
	default:
		q.wg.Done()
		return false
	}
}

func (q *turnQueue) work() {
	for job := range q.jobs {
		q.mu.Lock()
		if job.gen != q.gen || q.ctx.Err() != nil {
			q.mu.Unlock()
			q.wg.Done()
			continue
		}
		ctx, cancel := context.WithCancel(q.ctx)
		q.cancel = cancel
		q.mu.Unlock()
		if err := runTurn(ctx, job.run); err != nil && ctx.Err() == nil {
			// Failed, not interrupted: the harness hears of it at once
			// rather than wait out its scenario.
			q.logger.Warn("user turn failed", "err", err)
			q.report(err)
		}
		cancel()
		q.mu.Lock()
		q.cancel = nil
		q.mu.Unlock()
		q.wg.Done()
	}
}

// interrupt cancels the running turn, drops the queued ones and waits
// until none runs: what a new scenario's preparation (reset,
// update_system_prompt, apply_initialization) must not overlap.
func (q *turnQueue) interrupt() {
	q.mu.Lock()
	q.gen++
	if q.cancel != nil {
		q.cancel()
	}
	q.mu.Unlock()
	q.wg.Wait()
}

// stop interrupts and ends the worker; the connection is done.
func (q *turnQueue) stop() {
	q.interrupt()
	q.start.Do(func() {}) // no worker may start after this
	close(q.jobs)
}

// runTurn runs one turn; a panic is its error.
func runTurn(ctx context.Context, run func(context.Context) error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	return run(ctx)
}
