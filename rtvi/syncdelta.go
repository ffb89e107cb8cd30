package rtvi

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"strings"

	"github.com/voiceeval/schematools/hooks"
	"github.com/voiceeval/schematools/internal/pyvalue"
	"github.com/voiceeval/schematools/state"
)

// applySyncDelta applies a cross-side delta, {path: value}, to the DB with
// the domain's sync applier (the dotted-path setter by default) and
// answers {"success", "errors"}.
//
// Two deliberate differences from the Python original, which logs applier
// failures and answers success with the delta half applied: an applier
// error is reported (success false, the error in errors), and the delta is
// applied all or nothing — on a copy of the DB that replaces it only when
// every key applied.
func (d *Dispatcher) applySyncDelta(ctx context.Context, args any) (any, error) {
	m, err := object(args)
	if err != nil {
		return failure(describe(err)), nil
	}
	domain, err := domainArg(m)
	if err != nil {
		return failure(describe(err)), nil
	}
	raw := m["delta"]
	if !pyvalue.Truthy(raw) {
		raw = map[string]any{}
	}
	delta, ok := raw.(map[string]any)
	if !ok {
		return failure(fmt.Sprintf("`delta` payload must be a dict, got %s.", pyvalue.TypeName(raw))), nil
	}
	if len(delta) == 0 {
		// Nothing to apply: a read says whether there is a DB, and a
		// shared DB is not copied for nothing.
		err = d.st.View(func(db map[string]any) error {
			if db == nil {
				return errNoSyncDB
			}
			return nil
		})
	} else {
		err = d.applyDelta(domain, delta)
	}
	if err == errNoSyncDB {
		return failure(fmt.Sprintf("No shared_state['db'] available; cannot apply sync delta with %d key(s). "+
			"update_system_prompt didn't seed the DB on this bot.", len(delta))), nil
	}
	if err != nil {
		d.cfg.Logger.WarnContext(ctx, "rtvi: apply_sync_delta failed; the DB is unchanged", "domain", domain, "err", err)
		return failure(describe(&pyError{Kind: syncErrorKind(err), Message: err.Error(), Err: err})), nil
	}
	return success(), nil
}

var errNoSyncDB = fmt.Errorf("no DB")

// applyDelta applies a non-empty delta to a copy of the DB, which replaces
// it only when every key applied.
func (d *Dispatcher) applyDelta(domain string, delta map[string]any) error {
	return d.st.UpdateTables(nil, func(db map[string]any) error {
		if db == nil {
			return errNoSyncDB
		}
		work := state.Clone(db).(map[string]any)
		if err := d.cfg.Tools.Hooks(domain).ApplyDelta(work, delta); err != nil {
			return err
		}
		clear(db)
		maps.Copy(db, work)
		return nil
	})
}

// syncErrorKind names the Python exception a failed delta raises there: a
// missing key is a KeyError, a path through a non-object a TypeError;
// anything a domain applier returns is a RuntimeError.
func syncErrorKind(err error) string {
	switch {
	case errors.Is(err, hooks.ErrPath) && strings.Contains(err.Error(), "is missing"):
		return kindKeyError
	case errors.Is(err, hooks.ErrPath):
		return kindTypeError
	}
	return kindRuntimeError
}

// domainArg reads "domain" (default "default"; null means the default).
func domainArg(m map[string]any) (string, error) {
	switch v := m["domain"].(type) {
	case nil:
		return state.DefaultDomain, nil
	case string:
		if v == "" {
			return state.DefaultDomain, nil
		}
		return v, nil
	default:
		return "", errorf(kindTypeError, "domain must be a string, got %s", pyvalue.TypeName(v))
	}
}

func success() map[string]any { return map[string]any{"success": true, "errors": []any{}} }

func failure(msgs ...string) map[string]any {
	errs := make([]any, len(msgs))
	for i, s := range msgs {
		errs[i] = s
	}
	return map[string]any{"success": false, "errors": errs}
}
