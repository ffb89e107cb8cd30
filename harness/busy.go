package harness

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/voiceeval/schematools/internal/rtviwire"
	"github.com/voiceeval/schematools/rtvi/bridge"
)

// A bot that runs one scenario at a time (rtvi/rtviws) refuses a
// preparing message that finds it busy with another connection's scenario
// (after a grace period) with an error-response whose text ends
// "; this bot runs one scenario at a time (<t> refused)". Of the
// preparation only apply_initialization is awaited, so the refusal
// reaches RunScenario as the bridge's apply_initialization error, NeMo's
// RuntimeError text: "[APPLY INIT] <side> bot returned an error: <the
// bot's text>". Such a scenario is aborted before it ran, through no fault
// of its own: behind a pool (a Service in front of N bot pods, several
// harnesses sharing bots) Evaluate runs it again, on another pair when
// there is one.

// errBotBusy is wrapped by RunScenario's error (beside ErrAborted) when a
// bot refused the scenario's preparation because another scenario is in
// progress on it.
var errBotBusy = errors.New("the bot is busy with another scenario")

// busyText matches a busy refusal's text: the side and the bot's reason.
var busyText = regexp.MustCompile(`^\[APPLY INIT\] (agent|user) bot returned an error: (.+); ` +
	regexp.QuoteMeta(rtviwire.BusyRefusal) + ` \((?:reset|update_system_prompt|apply_initialization) refused\)$`)

// The retry rule: a run refused as busy goes back to the queue, behind the
// runs waiting, after busyBackoff; it is written as failed when it has
// been refused busyAttempts times.
const (
	busyAttempts   = 5
	busyBackoffMin = 200 * time.Millisecond
	busyBackoffMax = 2 * time.Second
)

// busyBackoff is the wait before the run refused n times (from 1) may run
// again: 200 ms, doubling, at most 2 s.
func busyBackoff(n int) time.Duration {
	d := busyBackoffMin
	for i := 1; i < n && d < busyBackoffMax; i++ {
		d *= 2
	}
	return min(d, busyBackoffMax)
}

// busyError is a busy refusal: err, the preparation's error, with the
// refusing side and the bot's reason.
type busyError struct {
	err          error
	side, reason string
}

func (e *busyError) Error() string   { return e.err.Error() }
func (e *busyError) Unwrap() []error { return []error{errBotBusy, e.err} }

// markBusy returns err as a *busyError when it is a busy refusal of the
// preparation (an apply_initialization error-response with the busy
// text), and err unchanged otherwise.
func markBusy(err error) error {
	if !errors.Is(err, bridge.ErrInitAborted) || !errors.Is(err, bridge.ErrBotError) {
		return err
	}
	m := busyText.FindStringSubmatch(err.Error())
	if m == nil {
		return err
	}
	return &busyError{err: err, side: m[1], reason: m[2]}
}

// busyRefusal is one refusal of a queued run: the pair and its bot that
// refused it, and why.
type busyRefusal struct {
	pair        int
	bot, reason string
}

// queuedJob is one run in the queue, with its busy refusals so far.
type queuedJob struct {
	trialJob
	refusals  []busyRefusal
	notBefore time.Time
}

// refused records pair p's busy refusal (err wraps a *busyError) and
// reports whether the run may go back to the queue.
func (j *queuedJob) refused(pair int, p BotPair, err error) bool {
	var be *busyError
	errors.As(err, &be)
	url := p.AgentURL
	if be.side == "user" {
		url = p.UserURL
	}
	j.refusals = append(j.refusals, busyRefusal{pair: pair, bot: be.side + " bot " + url, reason: be.reason})
	return len(j.refusals) < busyAttempts
}

// summary is the harness_error of a run refused busyAttempts times:
// "refused as busy 5 times, by agent bot ws://a (3) and agent bot ws://b
// (2); the last: <the last refusal>".
func (j *queuedJob) summary(last string) string {
	var bots []string
	count := map[string]int{}
	for _, r := range j.refusals {
		if count[r.bot] == 0 {
			bots = append(bots, r.bot)
		}
		count[r.bot]++
	}
	by := make([]string, len(bots))
	for i, b := range bots {
		by[i] = fmt.Sprintf("%s (%d)", b, count[b])
	}
	list := strings.Join(by, ", ")
	if n := len(by); n > 1 {
		list = strings.Join(by[:n-1], ", ") + " and " + by[n-1]
	}
	return fmt.Sprintf("refused as busy %d times, by %s; the last: %s", len(j.refusals), list, last)
}

// eligible reports whether pair may run j: a pair that refused it takes it
// again only once every pair has.
func (j *queuedJob) eligible(pair, pairs int) bool {
	seen := map[int]bool{}
	for _, r := range j.refusals {
		seen[r.pair] = true
	}
	return !seen[pair] || len(seen) == pairs
}

// jobQueue hands the runs to the workers, one per bot pair: in the
// queue's order, a run refused as busy at the back again, after its
// backoff, to a pair that has not refused it (to any, once every pair
// has). It is done when nothing waits and nothing runs.
type jobQueue struct {
	mu      sync.Mutex
	pending []*queuedJob
	running int
	pairs   int
	changed chan struct{} // closed at every change, then replaced
}

func newJobQueue(jobs []trialJob, pairs int) *jobQueue {
	q := &jobQueue{pairs: pairs, changed: make(chan struct{})}
	for _, j := range jobs {
		q.pending = append(q.pending, &queuedJob{trialJob: j})
	}
	return q
}

// next is the next run for pair, false when the queue is done. Once ctx
// is done backoffs and refusals no longer hold a run back (it fails
// fast, as the others do).
func (q *jobQueue) next(ctx context.Context, pair int) (*queuedJob, bool) {
	for {
		q.mu.Lock()
		if len(q.pending) == 0 && q.running == 0 {
			q.mu.Unlock()
			return nil, false
		}
		stopped, now := ctx.Err() != nil, time.Now()
		wait := time.Duration(-1)
		for i, j := range q.pending {
			if !stopped {
				if !j.eligible(pair, q.pairs) {
					continue
				}
				if d := j.notBefore.Sub(now); d > 0 {
					if wait < 0 || d < wait {
						wait = d
					}
					continue
				}
			}
			if i == 0 {
				q.pending = q.pending[1:]
			} else {
				q.pending = slices.Delete(q.pending, i, i+1)
			}
			q.running++
			q.mu.Unlock()
			return j, true
		}
		changed := q.changed
		q.mu.Unlock()
		var timer *time.Timer
		var fire <-chan time.Time
		if wait >= 0 {
			timer = time.NewTimer(wait)
			fire = timer.C
		}
		var done <-chan struct{}
		if !stopped {
			done = ctx.Done()
		}
		select {
		case <-changed:
		case <-fire:
		case <-done:
		}
		if timer != nil {
			timer.Stop()
		}
	}
}

// finish ends a run handed out by next; a run to retry goes back to the
// queue, behind the runs waiting, after its backoff.
func (q *jobQueue) finish(j *queuedJob, retry bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.running--
	if retry {
		j.notBefore = time.Now().Add(busyBackoff(len(j.refusals)))
		q.pending = append(q.pending, j)
	}
	close(q.changed)
	q.changed = make(chan struct{})
}
