package main

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/voiceeval/schematools/examples/tau2/airline"
	"github.com/voiceeval/schematools/examples/tau2/retail"
	"github.com/voiceeval/schematools/examples/tau2/telecom"
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

var domains = []domain{
	{name: airline.Domain, dir: "airline", db: "airline/db", tools: airline.Tools},
	{name: retail.Domain, dir: "retail", db: "retail/db.json", tools: retail.Tools},
	{name: telecom.Domain, dir: "telecom", db: "telecom/db.json", tools: telecom.Tools,
		userDB: "telecom/user_db.json", scenarios: telecom.Scenarios, hooks: telecom.Hooks()},
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
