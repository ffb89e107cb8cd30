package main

import (
	"fmt"
	"path"
	"slices"
	"strings"

	ported "github.com/voiceeval/schematools/domains"
)

// domain is a domain with gold tasks to replay, and where its files are in
// the tau2 layout of the data root.
type domain struct {
	ported.Domain
	dir    string // its directory under the data root
	db     string // its DB, relative to the data root (file or sharded directory)
	userDB string // the user-side DB of a two-sided domain, relative to the data root
}

// domains are the domains with gold tasks to replay, from domains.
// A domain's data sits in the tau2 layout of the data root: its DB and
// tasks under the domain's name without "tau2_" (airline/, retail/,
// telecom/).
var domains = replayable()

func replayable() []domain {
	var out []domain
	for _, d := range ported.All() {
		if d.Replay == nil || d.Files == nil {
			continue
		}
		dir := strings.TrimPrefix(d.Name, "tau2_")
		r := domain{Domain: d, dir: dir, db: path.Join(dir, d.DB)}
		if d.UserDB != "" {
			r.userDB = path.Join(dir, d.UserDB)
		}
		out = append(out, r)
	}
	return out
}

func findDomain(name string) (domain, error) {
	for _, d := range domains {
		if d.Name == name {
			return d, nil
		}
	}
	names := make([]string, len(domains))
	for i, d := range domains {
		names[i] = d.Name
	}
	slices.Sort(names)
	return domain{}, fmt.Errorf("unknown domain %q (known: %s)", name, strings.Join(names, ", "))
}
