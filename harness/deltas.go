package harness

import (
	"context"
	"strings"
	"sync/atomic"
	"time"

	"github.com/voiceeval/schematools/internal/rtviwire"
	"github.com/voiceeval/schematools/rtvi/bridge"
)

// deltaTracker counts the apply_sync_delta requests sent to one bot and the
// answers it gave. get_context_history and get_scenario_summary take the
// first answer of any id (as NeMo's bridge matches them by type), so a
// delta's answer ({"success", "errors"}, an object) arriving after the pull
// was sent would be taken for the context or the summary, silently. The
// harness waits for the deltas' answers before it pulls; NeMo does not.
type deltaTracker struct {
	sent, answered atomic.Int64
}

// observe counts a delta's answer (a server-response of t apply_sync_delta,
// or an error-response to a delta's id).
func (d *deltaTracker) observe(e bridge.Event) {
	switch e.Kind {
	case bridge.KindServerResponse:
		if e.T == rtviwire.ApplySyncDelta {
			d.answered.Add(1)
		}
	case bridge.KindErrorResponse:
		if strings.HasPrefix(e.ID, "apply_sync_delta_") {
			d.answered.Add(1)
		}
	}
}

// settle waits, at most limit, until every delta sent was answered, and
// reports whether they were.
func (d *deltaTracker) settle(ctx context.Context, limit time.Duration, closed <-chan struct{}) bool {
	deadline := time.Now().Add(limit)
	for d.answered.Load() < d.sent.Load() {
		if time.Now().After(deadline) {
			return false
		}
		select {
		case <-ctx.Done():
			return false
		case <-closed:
			return false
		case <-time.After(5 * time.Millisecond):
		}
	}
	return true
}
