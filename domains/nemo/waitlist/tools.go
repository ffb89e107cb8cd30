package waitlist

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/voiceeval/schematools/domains/nemo/internal/nemostate"
	"github.com/voiceeval/schematools/internal/pyvalue"
	"github.com/voiceeval/schematools/registry"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

// Domain is the domain the tools are registered under.
const Domain = "waitlist"

// Tool names, as NeMo registers them (the class names).
const (
	NameJoinWaitList = "JoinWaitListTool"
	NameDropWaitList = "DropWaitListTool"
	NameGetWaitlist  = "GetWaitlistTool"
)

// KeyWaitlist is the state value holding the waitlist.
const KeyWaitlist = "waitlist"

// Options are the construction arguments of DropWaitListTool and
// GetWaitlistTool.
type Options struct {
	// Description replaces the tool's description when not empty.
	Description string `json:"description,omitempty"`
}

// JoinOptions are JoinWaitListTool's construction arguments.
type JoinOptions struct {
	// InitialWaitlist is the starting waitlist as JSON text; empty
	// means "[]".
	InitialWaitlist string `json:"initial_waitlist,omitempty"`
	Description     string `json:"description,omitempty"`
}

func stateOr(st *state.Shared) *state.Shared {
	if st == nil {
		return state.New()
	}
	return st
}

func spec(name, description string, kwargs bool, params ...string) (nemostate.Spec, error) {
	s, err := nemostate.Presented(Domain, name)
	if err != nil {
		return nemostate.Spec{}, err
	}
	sp := nemostate.SpecOf(s, description)
	sp.Params, sp.Kwargs = params, kwargs
	return sp, nil
}

// list is self.state["waitlist"] used as a list (KeyError when the
// state lost it).
func list(v *nemostate.Vars) (any, error) {
	w, ok := v.Get(KeyWaitlist)
	if !ok {
		return nil, &pyvalue.Error{Type: "KeyError", Msg: KeyWaitlist}
	}
	return w, nil
}

// NewJoinWaitList builds JoinWaitListTool, which appends a party to the
// waitlist and sends the updated waitlist as a scenario summary. Building
// it seeds the waitlist from InitialWaitlist (setdefault).
func NewJoinWaitList(st *state.Shared, o JoinOptions, logger *slog.Logger) (tool.Tool, error) {
	st = stateOr(st)
	text := o.InitialWaitlist
	if text == "" {
		text = "[]"
	}
	initial, err := pyvalue.Loads([]byte(text))
	if err != nil {
		return nil, fmt.Errorf("%s: initial_waitlist: %w", NameJoinWaitList, err)
	}
	sp, err := spec(NameJoinWaitList, o.Description, false, "name", "phone", "party_size")
	if err != nil {
		return nil, err
	}
	nemostate.Setdefault(st, KeyWaitlist, nemostate.FromValue(initial))
	sp.Run = func(ctx context.Context, a map[string]any) (any, error) {
		entry := nemostate.Of("name", a["name"], "phone", a["phone"], "party_size", a["party_size"])
		res, err := nemostate.Update(st, func(v *nemostate.Vars) (any, error) {
			w, err := list(v)
			if err != nil {
				return nil, err
			}
			items, ok := w.([]any)
			if !ok {
				return nil, pyvalue.Raise("AttributeError", "'%s' object has no attribute 'append'", nemostate.TypeName(w))
			}
			items = append(items, entry)
			v.Set(KeyWaitlist, items)
			summary, err := nemostate.Dumps(nemostate.Of("waitlist", items, "action", "join", "customer", entry))
			return []any{summary, len(items)}, err
		})
		if err != nil {
			return nil, err
		}
		out := res.([]any)
		nemostate.SendSummary(ctx, st, out[0].(string), logger)
		return nemostate.Of("success", true,
			"message", nemostate.Str(a["name"])+" has been added to the waitlist.",
			"position", out[1], "total_in_waitlist", out[1]), nil
	}
	return nemostate.NewTool(sp), nil
}

// NewDropWaitList builds DropWaitListTool, which removes every entry of a
// name from the waitlist and sends the updated waitlist as a scenario
// summary.
func NewDropWaitList(st *state.Shared, o Options, logger *slog.Logger) (tool.Tool, error) {
	st = stateOr(st)
	sp, err := spec(NameDropWaitList, o.Description, false, "name")
	if err != nil {
		return nil, err
	}
	nemostate.Setdefault(st, KeyWaitlist, []any{})
	sp.Run = func(ctx context.Context, a map[string]any) (any, error) {
		name := a["name"]
		res, err := nemostate.Update(st, func(v *nemostate.Vars) (any, error) {
			w, err := list(v)
			if err != nil {
				return nil, err
			}
			before, err := nemostate.Len(w)
			if err != nil {
				return nil, err
			}
			items, err := nemostate.Iter(w)
			if err != nil {
				return nil, err
			}
			kept := []any{}
			for _, e := range items {
				got, err := nemostate.DictGet(e, "name", nil)
				if err != nil {
					return nil, err
				}
				if !nemostate.Equal(got, name) {
					kept = append(kept, e)
				}
			}
			v.Set(KeyWaitlist, kept)
			removed := len(kept) < before
			summary, err := nemostate.Dumps(nemostate.Of("waitlist", kept, "action", "drop",
				"customer", nemostate.Of("name", name), "removed", removed))
			return []any{summary, removed, len(kept)}, err
		})
		if err != nil {
			return nil, err
		}
		out := res.([]any)
		nemostate.SendSummary(ctx, st, out[0].(string), logger)
		if out[1].(bool) {
			return nemostate.Of("success", true, "message", nemostate.Str(name)+" has been removed from the waitlist.",
				"remaining_in_waitlist", out[2]), nil
		}
		return nemostate.Of("success", false, "message", nemostate.Str(name)+" was not found on the waitlist.",
			"remaining_in_waitlist", out[2]), nil
	}
	return nemostate.NewTool(sp), nil
}

// NewGetWaitlist builds GetWaitlistTool, which returns the waitlist and
// its length.
func NewGetWaitlist(st *state.Shared, o Options) (tool.Tool, error) {
	st = stateOr(st)
	sp, err := spec(NameGetWaitlist, o.Description, true)
	if err != nil {
		return nil, err
	}
	nemostate.Setdefault(st, KeyWaitlist, []any{})
	sp.Run = func(context.Context, map[string]any) (any, error) {
		return nemostate.Update(st, func(v *nemostate.Vars) (any, error) {
			w, ok := v.Get(KeyWaitlist)
			if !ok {
				w = []any{}
			}
			n, err := nemostate.Len(w)
			if err != nil {
				return nil, err
			}
			return nemostate.Of("waitlist", w, "total_in_waitlist", n), nil
		})
	}
	return nemostate.NewTool(sp), nil
}

// Register adds the three waitlist tools to r under [Domain]:
// JoinWaitListTool takes [JoinOptions], the others [Options].
func Register(r *registry.Tools) error {
	return errors.Join(
		r.Register(Domain, NameJoinWaitList, registry.Configured(func(d registry.Deps, o JoinOptions) (tool.Tool, error) {
			return NewJoinWaitList(d.State, o, d.Logger)
		})),
		r.Register(Domain, NameDropWaitList, registry.Configured(func(d registry.Deps, o Options) (tool.Tool, error) {
			return NewDropWaitList(d.State, o, d.Logger)
		})),
		r.Register(Domain, NameGetWaitlist, registry.Configured(func(d registry.Deps, o Options) (tool.Tool, error) {
			return NewGetWaitlist(d.State, o)
		})),
	)
}
