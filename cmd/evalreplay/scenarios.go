package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/voiceeval/schematools/dbhash"
	ported "github.com/voiceeval/schematools/domains"
)

const scenariosUsage = "usage: evalreplay scenarios -domain D"

// scenarioLine is one line the scenarios command prints.
type scenarioLine struct {
	ScenarioID     string `json:"scenario_id"`
	InitialDBHash  string `json:"initial_db_hash"`
	ExpectedDBHash string `json:"expected_db_hash,omitempty"`
}

// runScenarios prints, for each scenario of a domain whose scenarios each
// bring a DB (eva_airline), the hash of the DB it starts from and of the
// DB its scoring expects: the two hashes NeMo's runner compares a bot's
// final DB with.
func runScenarios(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("evalreplay scenarios", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	domain := fs.String("domain", "", "the domain, e.g. eva_airline (required)")
	fail := func(err error) int {
		fmt.Fprintln(stderr, "evalreplay scenarios:", err)
		return exitUsage
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(stdout, scenariosUsage)
			return 0
		}
		return fail(fmt.Errorf("%w\n%s", err, scenariosUsage))
	}
	if fs.NArg() > 0 {
		return fail(fmt.Errorf("unexpected arguments: %v", fs.Args()))
	}
	if *domain == "" {
		return fail(errors.New("-domain is required"))
	}
	d, err := ported.Find(*domain)
	if err != nil {
		return fail(err)
	}
	if d.ScenarioIDs == nil {
		return fail(fmt.Errorf("%s has no scenarios of its own: its tasks share one DB (use replay)", d.Name))
	}
	ids, err := d.ScenarioIDs()
	if err != nil {
		return fail(err)
	}
	out := json.NewEncoder(stdout)
	for _, id := range ids {
		line := scenarioLine{ScenarioID: id}
		db, err := d.ScenarioDB(id)
		if err == nil {
			line.InitialDBHash, err = dbhash.Hash(db)
		}
		if err == nil && d.ExpectedDB != nil {
			var want map[string]any
			if want, err = d.ExpectedDB(id); err == nil && want != nil {
				line.ExpectedDBHash, err = dbhash.Hash(want)
			}
		}
		if err != nil {
			fmt.Fprintf(stderr, "evalreplay scenarios: %s: %v\n", id, err)
			return exitCrash
		}
		if err := out.Encode(line); err != nil {
			return exitCrash
		}
	}
	return 0
}
