// Package domains is the one place that knows every evaluation domain this
// repository ports — coffee, tau2_airline, tau2_retail, tau2_telecom,
// eva_airline, customer_service, waitlist, restaurant, and NeMo's basic
// tools in the default domain — for the programs that serve or replay them
// (cmd/rtvibot, cmd/mcpserver, the replay CLI).
//
//   - [Register] adds every domain's tools and hooks, and the harness tools
//     of the default domain, to a registry: what a bot needs to answer any
//     update_system_prompt NeMo's harness sends.
//   - [All] lists the domains and [Find] picks one by its NeMo name; a
//     [Domain] says where its data lives and how gold replay builds its
//     tools.
//   - [WriteDataRoot] lays out every domain's data files as NeMo's
//     evaluation data root holds them, so a db_path sent by the bridge
//     (tau2_airline/db.json, eva_airline/1.1.2.json, …) resolves.
package domains

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/voiceeval/schematools/domains/coffee"
	"github.com/voiceeval/schematools/domains/nemo/basictools"
	"github.com/voiceeval/schematools/domains/nemo/customerservice"
	"github.com/voiceeval/schematools/domains/nemo/evaairline"
	"github.com/voiceeval/schematools/domains/nemo/nemodata"
	"github.com/voiceeval/schematools/domains/nemo/restaurant"
	"github.com/voiceeval/schematools/domains/nemo/waitlist"
	"github.com/voiceeval/schematools/domains/tau2/airline"
	"github.com/voiceeval/schematools/domains/tau2/retail"
	"github.com/voiceeval/schematools/domains/tau2/tau2data"
	"github.com/voiceeval/schematools/domains/tau2/telecom"
	"github.com/voiceeval/schematools/hooks"
	"github.com/voiceeval/schematools/registry"
	"github.com/voiceeval/schematools/replay"
	"github.com/voiceeval/schematools/state"
)

// Domain is one ported evaluation domain.
type Domain struct {
	// Name is NeMo's tool domain, e.g. "tau2_airline".
	Name string
	// Register adds the domain's tools (and hooks) to a registry.
	Register func(*registry.Tools) error
	// Files are the domain's data files as the evaluation data root holds
	// them under Name/ (db.json, tasks.json, …); nil when it has none.
	Files fs.FS
	// DB is the path in Files of the DB a scenario starts from (a JSON file
	// or a directory of shards); "" when each scenario brings its own.
	DB string
	// UserDB is the path in Files of the user-side DB of a two-sided
	// domain; "" otherwise.
	UserDB string
	// Replay builds the tools of a gold replay (tau2 domains); nil when the
	// domain has no gold tasks.
	Replay replay.ToolBuilder
	// Scenarios builds the replay scenarios of tasks, for domains whose
	// scenarios need more than Replay (init functions, sync, a clock); nil
	// builds plain ones.
	Scenarios func(tasks []replay.Task, db, userDB *state.Source, clock func() time.Time) []replay.Scenario
	// Hooks are the domain's hooks (init functions, sync, predicates).
	Hooks hooks.Set
	// ScenarioDB loads the DB of one scenario, for domains whose scenarios
	// each bring their own (eva_airline); nil otherwise.
	ScenarioDB func(id string) (map[string]any, error)
	// ScenarioIDs lists those scenarios, in order; nil otherwise.
	ScenarioIDs func() ([]string, error)
	// ExpectedDB loads the DB a scenario's scoring expects at its end, for
	// domains that ship one per scenario (eva_airline); nil otherwise.
	ExpectedDB func(id string) (map[string]any, error)
}

// ScenariosFor returns the replay scenarios of tasks on clock.
func (d Domain) ScenariosFor(tasks []replay.Task, db, userDB *state.Source, clock func() time.Time) []replay.Scenario {
	if d.Scenarios != nil {
		return d.Scenarios(tasks, db, userDB, clock)
	}
	out := make([]replay.Scenario, len(tasks))
	for i, t := range tasks {
		out[i] = replay.Scenario{Domain: d.Name, Task: t, DB: db, Tools: d.Replay, Clock: clock}
	}
	return out
}

// sub is fsys's subtree dir; it panics on a bad path, which only a typo
// in this file can cause.
func sub(fsys fs.FS, dir string) fs.FS {
	s, err := fs.Sub(fsys, dir)
	if err != nil {
		panic(err)
	}
	return s
}

// All returns every ported domain, in a fixed order.
func All() []Domain {
	return []Domain{
		{Name: coffee.Domain, Register: coffee.Register},
		{Name: airline.Domain, Register: airline.Register, Files: sub(tau2data.FS, "airline"), DB: "db", Replay: airline.Tools},
		{Name: retail.Domain, Register: retail.Register, Files: sub(tau2data.FS, "retail"), DB: "db.json", Replay: retail.Tools},
		{Name: telecom.Domain, Register: telecom.Register, Files: sub(tau2data.FS, "telecom"), DB: "db.json", UserDB: "user_db.json",
			Replay: telecom.Tools, Scenarios: telecom.Scenarios, Hooks: telecom.Hooks()},
		{Name: evaairline.Domain, Register: evaairline.Register, Files: sub(nemodata.FS, "eva_airline"),
			ScenarioDB:  func(id string) (map[string]any, error) { return evaairline.LoadScenarioDB(nemodata.FS, id) },
			ScenarioIDs: func() ([]string, error) { return evaairline.ScenarioIDs(nemodata.FS) },
			ExpectedDB:  func(id string) (map[string]any, error) { return evaairline.ExpectedDB(nemodata.FS, id) }},
		{Name: customerservice.Domain, Register: customerservice.Register},
		{Name: waitlist.Domain, Register: waitlist.Register},
		{Name: restaurant.Domain, Register: restaurant.Register},
		{Name: basictools.Domain, Register: basictools.Register}, // NeMo's basic tools live in the default domain
	}
}

// Names lists the domains' names, sorted.
func Names() []string {
	var out []string
	for _, d := range All() {
		out = append(out, d.Name)
	}
	slices.Sort(out)
	return out
}

// Find returns the domain called name.
func Find(name string) (Domain, error) {
	for _, d := range All() {
		if d.Name == name {
			return d, nil
		}
	}
	return Domain{}, fmt.Errorf("unknown domain %q (known: %s)", name, strings.Join(Names(), ", "))
}

// Register adds every domain and the harness tools to r.
func Register(r *registry.Tools) error {
	errs := []error{registry.RegisterHarness(r)}
	for _, d := range All() {
		errs = append(errs, d.Register(r))
	}
	return errors.Join(errs...)
}

// WriteDataRoot writes every domain's files under root/<name>/, and
// coffee's DB as root/coffee/db.json: the layout of NeMo's evaluation data
// root, which db_path values are relative to.
func WriteDataRoot(root string) error {
	text, err := json.MarshalIndent(coffee.DB(), "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(root, coffee.Domain), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(root, coffee.Domain, "db.json"), text, 0o644); err != nil {
		return err
	}
	for _, d := range All() {
		if d.Files == nil {
			continue
		}
		if err := os.CopyFS(filepath.Join(root, d.Name), d.Files); err != nil {
			return fmt.Errorf("domains: writing %s: %w", d.Name, err)
		}
	}
	return nil
}

// LoadScenarioDB loads the DB scenario id of d starts from: its own DB
// for a domain whose scenarios each bring one (id required), else the
// domain's DB (id must be empty).
func (d Domain) LoadScenarioDB(id string) (map[string]any, error) {
	if d.ScenarioDB != nil {
		if id == "" {
			return nil, fmt.Errorf("domains: %s: name a scenario: its scenarios each bring their own DB", d.Name)
		}
		return d.ScenarioDB(id)
	}
	if id != "" {
		return nil, fmt.Errorf("domains: %s: its scenarios share one DB; no scenario to name", d.Name)
	}
	return d.LoadDB()
}

// LoadDB loads the DB a scenario of d starts from: coffee's embedded DB,
// or the domain's DB file; nil when the domain has none.
func (d Domain) LoadDB() (map[string]any, error) {
	if d.Name == coffee.Domain {
		return coffee.DB(), nil
	}
	if d.Files == nil || d.DB == "" {
		return nil, nil
	}
	return state.LoadDBFS(d.Files, d.DB)
}
