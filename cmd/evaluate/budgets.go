package main

import (
	"errors"
	"flag"

	"github.com/voiceeval/schematools/harness"
)

// budgetFlags registers the harness's budgets per scenario as flags
// (harness.Budgets; bytes, and a depth), their defaults
// harness.DefaultBudgets: a bot that passes one fails its own scenario,
// naming it.
func budgetFlags(fs *flag.FlagSet, b *harness.Budgets) {
	d := harness.DefaultBudgets()
	fs.Int64Var(&b.TurnBytes, "max-turn-bytes", d.TurnBytes, "bytes of text one transcript turn may hold")
	fs.Int64Var(&b.StreamBytes, "max-stream-bytes", d.StreamBytes, "bytes a bot may send on one connection")
	fs.Int64Var(&b.HeldBytes, "max-held-bytes", d.HeldBytes, "bytes the harness holds of one side of a scenario (turns, final responses, action records, queued events; 512 counted per record)")
	fs.Int64Var(&b.FileBytes, "max-file-bytes", d.FileBytes, "bytes of each file written from a bot's data (llm_context.json, pulled_summary.json, final_agent_response.json)")
	fs.IntVar(&b.Depth, "max-depth", d.Depth, "nesting a bot's JSON may have (Python's json.loads stops near 1000)")
}

// checkBudgets refuses budgets that are not positive.
func checkBudgets(b harness.Budgets) error {
	if b.TurnBytes <= 0 || b.StreamBytes <= 0 || b.HeldBytes <= 0 || b.FileBytes <= 0 || b.Depth <= 0 {
		return errors.New("-max-turn-bytes, -max-stream-bytes, -max-held-bytes, -max-file-bytes and -max-depth must be positive")
	}
	return nil
}
