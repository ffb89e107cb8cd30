package main

import (
	"github.com/voiceeval/schematools/examples/domains"
	"github.com/voiceeval/schematools/examples/nemo/scenarios"
	"github.com/voiceeval/schematools/harness"
	"github.com/voiceeval/schematools/hooks"
	"github.com/voiceeval/schematools/state"
)

// predicates are the DB_STATE_ASSERTION predicates of every domain that
// registers some, by tool domain.
func predicates() map[string]map[string]hooks.Predicate {
	out := map[string]map[string]hooks.Predicate{}
	for _, d := range domains.All() {
		if len(d.Hooks.Predicates) > 0 {
			out[d.Name] = d.Hooks.Predicates
		}
	}
	return out
}

// shadowsFor returns the bridge's cross-side sync config of each two-sided
// tool domain the scenarios use (tau2 telecom: a user DB and a sync hook),
// by tool domain; the sync runs for in-process and external bots alike,
// as NeMo's bridge runs it for any bot.
func shadowsFor(queue map[string]*scenarios.Scenario) (map[string]*harness.Shadow, error) {
	out := map[string]*harness.Shadow{}
	for _, s := range queue {
		if _, done := out[s.Domain]; done {
			continue
		}
		d, err := domains.Find(s.Domain)
		if err != nil || d.UserDB == "" || d.Hooks.Sync == nil || d.Files == nil {
			out[s.Domain] = nil
			continue
		}
		agentDB, err := state.LoadDBFS(d.Files, d.DB)
		if err != nil {
			return nil, err
		}
		userDB, err := state.LoadDBFS(d.Files, d.UserDB)
		if err != nil {
			return nil, err
		}
		out[s.Domain] = &harness.Shadow{Hooks: d.Hooks, Tools: d.Replay, AgentDB: agentDB, UserDB: userDB}
	}
	return out, nil
}
