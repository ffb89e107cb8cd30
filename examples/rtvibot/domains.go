package main

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/voiceeval/schematools/examples/coffee"
	"github.com/voiceeval/schematools/examples/tau2/airline"
	"github.com/voiceeval/schematools/examples/tau2/retail"
	"github.com/voiceeval/schematools/examples/tau2/tau2data"
	"github.com/voiceeval/schematools/examples/tau2/telecom"
	"github.com/voiceeval/schematools/registry"
	"github.com/voiceeval/schematools/replay"
)

// tau2Domain is a tau2-bench domain the bot serves: its NeMo name, its
// directory in the embedded data, and the port's registration and gold
// replay tools.
type tau2Domain struct {
	name     string // NeMo's tool domain, e.g. "tau2_airline"
	dir      string // under tau2data.FS
	register func(*registry.Tools) error
	tools    replay.ToolBuilder
}

var tau2Domains = []tau2Domain{
	{airline.Domain, "airline", airline.Register, airline.Tools},
	{retail.Domain, "retail", retail.Register, retail.Tools},
	{telecom.Domain, "telecom", telecom.Register, telecom.Tools},
}

func findTau2Domain(name string) (tau2Domain, bool) {
	for _, d := range tau2Domains {
		if d.name == name {
			return d, true
		}
	}
	return tau2Domain{}, false
}

// registerDomains adds every domain the bot serves to reg: coffee, the
// tau2 ports and the harness tools of the default domain.
func registerDomains(reg *registry.Tools) error {
	errs := []error{coffee.Register(reg), registry.RegisterHarness(reg)}
	for _, d := range tau2Domains {
		errs = append(errs, d.register(reg))
	}
	return errors.Join(errs...)
}

// writeData lays out the bot's default data root as NeMo's scenarios name
// their db_path values: coffee/db.json, and each tau2 domain's files under
// its NeMo name (tau2_airline/db.json — for airline, the shards in
// tau2_airline/db/ — tau2_retail/db.json, tau2_telecom/db.json and
// user_db.json), copied from the embedded tau2 data.
func writeData(root string) error {
	text, err := json.MarshalIndent(coffee.DB(), "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(root, "coffee"), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(root, "coffee", "db.json"), text, 0o644); err != nil {
		return err
	}
	for _, d := range tau2Domains {
		sub, err := fs.Sub(tau2data.FS, d.dir)
		if err != nil {
			return err
		}
		if err := os.CopyFS(filepath.Join(root, d.name), sub); err != nil {
			return err
		}
	}
	return nil
}
