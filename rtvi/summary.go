package rtvi

import (
	"context"

	"github.com/voiceeval/schematools/dbhash"
	"github.com/voiceeval/schematools/internal/pyvalue"
	"github.com/voiceeval/schematools/state"
)

// getScenarioSummary answers {"actions": [...], "db_hash": "<hex>" | null}
// and, when include_db is truthy (Python truthiness), "db" too. The DB and
// the action log are read under one read lock (the DB hashed in place,
// copied only for include_db). An
// empty DB reports a null hash (not the hash of {}), as the Python
// original does; so does a DB that cannot be hashed, with no actions.
// The hash is the state's ([state.Shared.Hash]): [dbhash.Hash] of the DB,
// read from the Source for a DB shared unwritten (Config.Sources). A
// list loaded from a db_path (see keyDB) is hashed and sent as Python
// hashes and sends it.
func (d *Dispatcher) getScenarioSummary(ctx context.Context, args any) (any, error) {
	failed := map[string]any{"actions": []any{}, "db_hash": nil}
	m, err := object(args)
	if err != nil {
		d.cfg.Logger.WarnContext(ctx, "rtvi: get_scenario_summary", "err", err)
		return failed, nil
	}
	include := pyvalue.Truthy(m["include_db"])
	listDB, _ := d.listDB() // a db_path file holding a list (see keyDB)
	var out map[string]any
	err = d.st.ViewHashed(func(db map[string]any, actions []state.Action, dbHash func() (string, error)) error {
		var hash any
		if len(db) > 0 {
			h, err := dbHash() // a DB shared with a Source: its hash, or its tables' text
			if err != nil {
				return err
			}
			hash = h
		} else if len(listDB) > 0 {
			h, err := dbhash.Hash(listDB)
			if err != nil {
				return err
			}
			hash = h
		}
		list := make([]any, len(actions))
		for i, a := range actions {
			list[i] = state.Clone(map[string]any(a))
		}
		out = map[string]any{"actions": list, "db_hash": hash}
		if include {
			if len(db) > 0 {
				out["db"] = state.Clone(db)
			} else if len(listDB) > 0 {
				out["db"] = listDB // already a copy
			} else {
				out["db"] = nil
			}
		}
		return nil
	})
	if err != nil {
		d.cfg.Logger.ErrorContext(ctx, "rtvi: get_scenario_summary: DB cannot be hashed", "err", err)
		return failed, nil
	}
	return out, nil
}
