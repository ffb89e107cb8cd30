package replay

import (
	"slices"

	"github.com/voiceeval/schematools/registry"
)

func sortedCopy(s []string) []string {
	out := slices.Clone(s)
	slices.Sort(out)
	return out
}

// lookup returns the value registered under exactly (domain, name), or,
// when there is none, the sorted names the domain does have, for the error
// text.
func lookup[T any](r *registry.Registry[T], domain, name string) (T, []string, bool) {
	var zero T
	if r == nil {
		return zero, []string{}, false
	}
	if v, ok := r.Get(domain, name); ok {
		return v, nil, true
	}
	return zero, sortedCopy(r.Names(domain)), false
}
