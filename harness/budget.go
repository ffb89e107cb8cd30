package harness

// Budgets bound what the bots of one scenario can make the harness read,
// hold and write. Exceeding one fails that scenario only, with a reason
// naming the budget (an error wrapping bridge.ErrBudget); the process,
// the other scenarios and the run's files are untouched. A zero field
// takes DefaultBudgets' value.
type Budgets struct {
	// TurnBytes bounds the text of one transcript turn (its bot-tts-text
	// texts glued).
	TurnBytes int64
	// StreamBytes bounds what one bot sends on one connection.
	StreamBytes int64
	// HeldBytes bounds what the harness holds of one side of a scenario:
	// turns, final responses, action records, events waiting for the run
	// loop.
	HeldBytes int64
	// FileBytes bounds each file written from what a bot sent
	// (llm_context.json, pulled_summary.json, final_agent_response.json).
	FileBytes int64
	// Depth bounds the nesting of what a bot sends: its messages and the
	// JSON in its context. No deeper than Python's json.loads reads, so
	// NeMo could have read it.
	Depth int
}

// DefaultBudgets are the budgets of a zero Budgets: turns of 1 MiB, 256
// MiB per connection, 16 MiB held per side, files of 32 MiB, nesting of
// 900 (what Python's json.loads surely reads; bridge's default too).
func DefaultBudgets() Budgets {
	return Budgets{TurnBytes: 1 << 20, StreamBytes: 256 << 20, HeldBytes: 16 << 20, FileBytes: 32 << 20, Depth: 900}
}

// withDefaults fills b's zero fields.
func (b Budgets) withDefaults() Budgets {
	d := DefaultBudgets()
	if b.TurnBytes <= 0 {
		b.TurnBytes = d.TurnBytes
	}
	if b.StreamBytes <= 0 {
		b.StreamBytes = d.StreamBytes
	}
	if b.HeldBytes <= 0 {
		b.HeldBytes = d.HeldBytes
	}
	if b.FileBytes <= 0 {
		b.FileBytes = d.FileBytes
	}
	if b.Depth <= 0 {
		b.Depth = d.Depth
	}
	return b
}

// maxFileBytes bounds every JSON file the harness writes (metrics.json,
// pulled_summary.json, final_agent_response.json, …), whatever the
// scenario's budgets say: indentation grows with the square of a value's
// nesting, so this cap is checked while the text is written.
const maxFileBytes = 256 << 20
