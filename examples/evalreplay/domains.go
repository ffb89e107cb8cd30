package main

import (
	"fmt"
	"path"
	"slices"
	"strings"
	"time"

	ported "github.com/voiceeval/schematools/examples/domains"
	"github.com/voiceeval/schematools/hooks"
	"github.com/voiceeval/schematools/replay"
	"github.com/voiceeval/schematools/state"
)

// domain is what the CLI needs to know of a ported domain.
type domain struct {
	name  string             // the tool domain, e.g. "tau2_airline"
	dir   string             // its directory under the data root
	db    string             // its DB, relative to the data root (file or sharded directory)
	tools replay.ToolBuilder // the replay tool map
	// Two-sided domains also have these.
	userDB string // the user-side DB, relative to the data root
	// scenarios builds the tasks' scenarios (init functions, sync, clock).
	scenarios func(tasks []replay.Task, db, userDB *state.Source, clock func() time.Time) []replay.Scenario
	hooks     hooks.Set // the domain's hooks; its predicates serve -predicates
}

// scenariosFor returns the replay scenarios of the tasks, on the clock.
func (d domain) scenariosFor(tasks []replay.Task, db, userDB *state.Source, clock func() time.Time) []replay.Scenario {
	if d.scenarios != nil {
		return d.scenarios(tasks, db, userDB, clock)
	}
	out := make([]replay.Scenario, len(tasks))
	for i, t := range tasks {
		out[i] = replay.Scenario{Domain: d.name, Task: t, DB: db, Tools: d.tools, Clock: clock}
	}
	return out
}

// domains are the domains with gold tasks to replay, from examples/domains.
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
		r := domain{name: d.Name, dir: dir, db: path.Join(dir, d.DB), tools: d.Replay, scenarios: d.Scenarios, hooks: d.Hooks}
		if d.UserDB != "" {
			r.userDB = path.Join(dir, d.UserDB)
		}
		out = append(out, r)
	}
	return out
}

func findDomain(name string) (domain, error) {
	for _, d := range domains {
		if d.name == name {
			return d, nil
		}
	}
	names := make([]string, len(domains))
	for i, d := range domains {
		names[i] = d.name
	}
	slices.Sort(names)
	return domain{}, fmt.Errorf("unknown domain %q (known: %s)", name, strings.Join(names, ", "))
}
