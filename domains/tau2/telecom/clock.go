package telecom

import (
	"crypto/rand"
	"encoding/hex"

	"time"

	"github.com/voiceeval/schematools/state"
)

// wallClock is the clock a tool reads when it was given none (a live bot
// whose registry.Deps carry no Clock). Nothing else reads the real time;
// tests replace it to prove that a replay never does.
var wallClock = time.Now

// binding is what one tool is built on: the state it reads and writes,
// the sources of time and fresh ids it must use, and whether it presents
// its struct-derived schema rather than the original's (the tests compare
// the two).
type binding struct {
	st    *state.Shared
	clock func() time.Time
	ids   func() string
	own   bool
}

// today returns the date the clock says, as Python's date.today() would:
// the calendar day in the clock's own location, at midnight UTC so that
// date arithmetic never meets a daylight-saving change.
func (b binding) today() time.Time {
	now := wallClock
	if b.clock != nil {
		now = b.clock
	}
	y, m, d := now().Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// newBillID mints the id of a bill a tool creates: "B" followed by the
// injected id source's next id, or by eight random hex digits (the
// Python original's uuid4().hex[:8]) when there is none.
func (b binding) newBillID() string {
	if b.ids != nil {
		return "B" + b.ids()
	}
	var buf [4]byte
	_, _ = rand.Read(buf[:]) // crypto/rand never fails on supported platforms
	return "B" + hex.EncodeToString(buf[:])
}

// isoDate is Python's date.isoformat().
func isoDate(t time.Time) string { return t.Format(time.DateOnly) }

// firstOfMonth returns the first day of the month months after t's.
func firstOfMonth(t time.Time, months int) time.Time {
	return time.Date(t.Year(), t.Month()+time.Month(months), 1, 0, 0, 0, 0, time.UTC)
}

// lastOfMonth returns the last day of the month months after t's.
func lastOfMonth(t time.Time, months int) time.Time {
	return time.Date(t.Year(), t.Month()+time.Month(months)+1, 0, 0, 0, 0, 0, time.UTC)
}
