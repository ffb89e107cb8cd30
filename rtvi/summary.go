package rtvi

import (
	"context"

	"github.com/voiceeval/schematools/dbhash"
)

// getScenarioSummary answers {"actions": [...], "db_hash": "<hex>" | null}
// and, when include_db is truthy (Python truthiness), "db" too. The DB and
// the action log are copied under one lock, then hashed outside it. An
// empty DB reports a null hash (not the hash of {}), as the Python
// original does; so does a DB that cannot be hashed, with no actions.
func (d *Dispatcher) getScenarioSummary(ctx context.Context, args any) (any, error) {
	failed := map[string]any{"actions": []any{}, "db_hash": nil}
	m, err := object(args)
	if err != nil {
		d.cfg.Logger.WarnContext(ctx, "rtvi: get_scenario_summary", "err", err)
		return failed, nil
	}
	db, actions := d.st.Capture()
	var hash any
	if len(db) > 0 {
		h, err := dbhash.Hash(db)
		if err != nil {
			d.cfg.Logger.ErrorContext(ctx, "rtvi: get_scenario_summary: DB cannot be hashed", "err", err)
			return failed, nil
		}
		hash = h
	}
	list := make([]any, len(actions))
	for i, a := range actions {
		list[i] = map[string]any(a)
	}
	out := map[string]any{"actions": list, "db_hash": hash}
	if truthy(m["include_db"]) {
		if len(db) > 0 {
			out["db"] = db
		} else {
			out["db"] = nil
		}
	}
	return out, nil
}
