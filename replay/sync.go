package replay

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/voiceeval/schematools/registry"
)

// Applier applies a sync delta — dotted path -> new value — to db in
// place. Deltas come from a domain's [SyncFunc] and travel verbatim
// between the harness and the bots.
type Applier func(db map[string]any, delta map[string]any) error

// Appliers is a per-domain registry of sync appliers, keyed by the name
// "apply"; [ApplyDelta] falls back to [ApplyDottedPaths] for domains
// without one.
type Appliers = registry.Registry[Applier]

// ApplierName is the name a domain's applier is registered under.
const ApplierName = "apply"

// NewAppliers returns an empty applier registry.
func NewAppliers() *Appliers { return registry.New[Applier](registry.WithKind("sync applier")) }

// SyncFunc computes the deltas that bring the two sides of a scenario in
// line (telecom: line status and payments flow between the agent DB and
// the user's phone). It may mutate both DBs to their synced values and
// returns the deltas for the other copies of each side (the bots' DBs).
type SyncFunc func(agentDB, userDB map[string]any) (agentDelta, userDelta map[string]any, err error)

// ErrPath is wrapped by [ApplyDottedPaths] when a path cannot be walked.
var ErrPath = errors.New("sync path cannot be applied")

// ApplyDottedPaths is the default applier. For each path, in sorted order
// (a JSON object carries no order in Go), it splits the path on "." and
// walks every component but the last from db, then sets the last. It never
// creates intermediate objects: a missing intermediate key, or one that is
// not an object (lists are not indexed), is an error wrapping [ErrPath],
// and the remaining paths are not applied (earlier ones stay). Empty
// segments are literal empty keys; a path with no dot sets a top-level key.
func ApplyDottedPaths(db map[string]any, delta map[string]any) error {
	paths := make([]string, 0, len(delta))
	for p := range delta {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	for _, p := range paths {
		parts := strings.Split(p, ".")
		cur := db
		for _, k := range parts[:len(parts)-1] {
			next, ok := cur[k]
			if !ok {
				return fmt.Errorf("%w: %q: key %q is missing", ErrPath, p, k)
			}
			m, ok := next.(map[string]any)
			if !ok {
				return fmt.Errorf("%w: %q: %q is not an object", ErrPath, p, k)
			}
			cur = m
		}
		cur[parts[len(parts)-1]] = delta[p]
	}
	return nil
}

// ApplyDelta applies delta to db with the domain's registered applier, or
// [ApplyDottedPaths] when it has none. An empty delta does nothing. Errors
// (and panics) are returned; the Python original logs and swallows them,
// which callers may do too.
func ApplyDelta(appliers *Appliers, domain string, db, delta map[string]any) (err error) {
	if len(delta) == 0 {
		return nil
	}
	apply := ApplyDottedPaths
	if appliers != nil {
		if a, ok := appliers.Get(domain, ApplierName); ok && a != nil {
			apply = a
		}
	}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("sync applier for %s panicked: %v", domain, r)
		}
	}()
	return apply(db, delta)
}
