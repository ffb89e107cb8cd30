package agent

import (
	"sync"
	"time"
)

// workerIdle is how long an idle worker waits for the next call before it
// exits.
const workerIdle = 10 * time.Second

// workers runs the tool calls of a Loop on goroutines that outlive a
// call: a new goroutine starts on a small stack and grows it for every
// call (a fifth of a tool round's time), a kept one has grown already. A
// call that never returns keeps its worker; others start as needed. The
// zero value is ready.
type workers struct {
	once sync.Once
	jobs chan func()
}

// run runs f on an idle worker, or on a new one.
func (w *workers) run(f func()) {
	w.once.Do(func() { w.jobs = make(chan func()) })
	select {
	case w.jobs <- f:
	default:
		go w.work(f)
	}
}

func (w *workers) work(f func()) {
	idle := time.NewTimer(workerIdle)
	defer idle.Stop()
	for {
		f()
		idle.Reset(workerIdle)
		select {
		case f = <-w.jobs:
		case <-idle.C:
			return
		}
	}
}
