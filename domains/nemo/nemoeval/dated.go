package nemoeval

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/voiceeval/schematools/domains"
	"github.com/voiceeval/schematools/domains/nemo/scenarios"
	"github.com/voiceeval/schematools/domains/tau2script"
	"github.com/voiceeval/schematools/replay"
	"github.com/voiceeval/schematools/state"
)

// datedGroups are the scenario groups whose expected DBs depend on the day
// NeMo builds them: tau2 telecom's tools and initialisation functions
// (overdue bills, contract ends, refuels) read date.today(), and NeMo's
// get_eval_scenario computes expected_db_hash and expected_user_db_hash by
// gold replay when it builds the scenario, on the day of the run.
var datedGroups = map[string]bool{"tau2_telecom": true, "tau2_telecom_workflow": true}

// IsDated reports whether the expected DB hashes of a scenario depend on
// the day it is built on.
func IsDated(name string) bool {
	group, _, _ := strings.Cut(name, "__")
	return datedGroups[group]
}

// dated holds what a dated recomputation needs, loaded once.
var dated struct {
	once       sync.Once
	domain     domains.Domain
	tau2       *tau2script.Domain
	db, userDB *state.Source
	err        error
}

// Dated returns s as NeMo builds it on day (the tools' "today" is day's
// calendar date in its location): for a dated scenario (IsDated), a copy
// whose expected_db_hash and expected_user_db_hash — in Metadata and in
// scenario_config/metadata.json's text — are the hashes of its task's gold
// replay on that day, as NeMo's get_eval_scenario computes them; any other
// scenario is returned as it is. The shipped records were built on one
// day (see domains/nemo/scenarios), so a run on another computes them
// again, as NeMo would.
func Dated(ctx context.Context, s *scenarios.Scenario, day time.Time) (*scenarios.Scenario, error) {
	if !IsDated(s.Name) || s.Metadata.ExpectedDBHash == "" {
		return s, nil
	}
	dated.once.Do(func() {
		if dated.domain, dated.err = domains.Find("tau2_telecom"); dated.err != nil {
			return
		}
		if dated.tau2, dated.err = tau2script.Load("tau2_telecom"); dated.err != nil {
			return
		}
		if dated.db, dated.err = state.LoadSourceFS(dated.domain.Files, dated.domain.DB); dated.err != nil {
			return
		}
		dated.userDB, dated.err = state.LoadSourceFS(dated.domain.Files, dated.domain.UserDB)
	})
	if dated.err != nil {
		return nil, fmt.Errorf("nemoeval: %s: %w", s.Name, dated.err)
	}
	_, suffix, _ := strings.Cut(s.Name, "__")
	task, err := dated.tau2.TaskByScenario(suffix)
	if err != nil {
		return nil, fmt.Errorf("nemoeval: %s: %w", s.Name, err)
	}
	sc := dated.domain.ScenariosFor([]replay.Task{task}, dated.db, dated.userDB, replay.FixedClock(day))[0]
	sc.HashesOnly = true
	res, err := replay.Gold(ctx, sc)
	if err != nil {
		return nil, fmt.Errorf("nemoeval: %s: gold replay: %w", s.Name, err)
	}
	out := *s
	out.Metadata.ExpectedDBHash = res.DBHash
	meta := s.Config["metadata.json"]
	meta = strings.Replace(meta, `"expected_db_hash": "`+s.Metadata.ExpectedDBHash+`"`, `"expected_db_hash": "`+res.DBHash+`"`, 1)
	if s.Metadata.ExpectedUserDBHash != "" {
		out.Metadata.ExpectedUserDBHash = res.UserDBHash
		meta = strings.Replace(meta, `"expected_user_db_hash": "`+s.Metadata.ExpectedUserDBHash+`"`, `"expected_user_db_hash": "`+res.UserDBHash+`"`, 1)
	}
	out.Config = make(map[string]string, len(s.Config))
	for k, v := range s.Config {
		out.Config[k] = v
	}
	out.Config["metadata.json"] = meta
	return &out, nil
}
