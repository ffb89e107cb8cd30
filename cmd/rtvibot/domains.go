package main

import (
	"github.com/voiceeval/schematools/domains"
	"github.com/voiceeval/schematools/registry"
)

// findTau2Domain returns the domain called name when it has gold tasks the
// gold agent can play.
func findTau2Domain(name string) (domains.Domain, bool) {
	d, err := domains.Find(name)
	return d, err == nil && d.Replay != nil && d.Files != nil
}

// registerDomains adds every domain the bot serves to reg (all of
// domains, with the harness tools of the default domain).
func registerDomains(reg *registry.Tools) error { return domains.Register(reg) }

// writeData lays out the bot's default data root as NeMo's scenarios name
// their db_path values (coffee/db.json, tau2_airline/db.json, …).
func writeData(root string) error { return domains.WriteDataRoot(root) }
