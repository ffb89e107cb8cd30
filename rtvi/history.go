package rtvi

import (
	"context"
	"time"
)

// getContextHistory answers {"context": "<transcript>"}: the bot's
// conversation, media blobs stripped (sanitizeContext), written as
// Python's str() of the list — a Python literal such as
// "[{'role': 'user', 'content': 'hi'}]", which is what the Python
// harness eval()s.
//
// If tool calls are in flight it first waits for them to finish, polling
// every HistoryPoll for at most HistoryWait (3 s by default), so the last
// call of the conversation makes it into the transcript; after that it
// answers anyway, with a warning in the log. The wait ends early, with an
// error-response, when ctx is cancelled.
//
// When the conversation cannot be read or written, the answer is the
// string "[]" — where the Python original answers a list, which its own
// harness cannot eval.
func (d *Dispatcher) getContextHistory(ctx context.Context, _ any) (any, error) {
	if err := d.waitForCalls(ctx); err != nil {
		return nil, err
	}
	empty := map[string]any{"context": "[]"}
	c := d.cfg.Conversation
	if c == nil {
		return empty, nil
	}
	msgs, err := c.Messages(ctx)
	if err != nil {
		d.cfg.Logger.ErrorContext(ctx, "rtvi: get_context_history: messages cannot be read", "err", err)
		return empty, nil
	}
	list := make([]any, len(msgs))
	copy(list, msgs)
	text, err := pythonRepr(sanitizeContext(list))
	if err != nil {
		d.cfg.Logger.ErrorContext(ctx, "rtvi: get_context_history: messages cannot be written", "err", err)
		return empty, nil
	}
	return map[string]any{"context": text}, nil
}

func (d *Dispatcher) waitForCalls(ctx context.Context) error {
	f := d.cfg.InFlight
	if f == nil || d.cfg.HistoryWait < 0 || !f.CallsInProgress() {
		return nil
	}
	deadline := time.NewTimer(d.cfg.HistoryWait)
	defer deadline.Stop()
	tick := time.NewTicker(d.cfg.HistoryPoll)
	defer tick.Stop()
	for f.CallsInProgress() {
		select {
		case <-ctx.Done():
			return errorf(kindRuntimeError, "get_context_history: %w", ctx.Err())
		case <-deadline.C:
			d.cfg.Logger.WarnContext(ctx, "rtvi: function calls still in progress after the wait; returning context anyway (may be stale)",
				"wait", d.cfg.HistoryWait)
			return nil
		case <-tick.C:
		}
	}
	return nil
}
