package nemoeval

import (
	"github.com/voiceeval/schematools/domains/nemo/scenarios"
	"github.com/voiceeval/schematools/harness"
)

// Scenario returns the harness form of a shipped NeMo scenario.
func Scenario(s *scenarios.Scenario) harness.Scenario {
	out := harness.Scenario{
		Name: s.Name, Domain: s.Domain, SuccessSignals: s.SuccessSignals, ReferenceAnswer: s.ReferenceAnswer,
		ExpectedDBHash: s.Metadata.ExpectedDBHash, NLAssertions: s.Metadata.NLAssertions,
		IgnoreCapitalization: s.Metadata.IgnoreCapitalization, IgnorePunctuation: s.Metadata.IgnorePunctuation,
		CleanText: s.Metadata.CleanText, DisallowExtraItems: s.Metadata.DisallowExtraItems,
		MaxDuration: s.MaxDuration, AgentPrompt: s.AgentPrompt, UserPrompt: s.UserPrompt,
		AgentTools: s.AgentTools, UserTools: s.UserTools,
		SharedStateInitAgent: s.SharedStateInitAgent, SharedStateInitUser: s.SharedStateInitUser,
	}
	for _, a := range s.Metadata.DBStateAssertions {
		out.DBStateAssertions = append(out.DBStateAssertions, harness.Assertion{Side: a.Side, FuncName: a.FuncName, Arguments: a.Arguments, AssertValue: a.AssertValue, Message: a.Message})
	}
	for _, a := range s.InitializationActions {
		out.InitializationActions = append(out.InitializationActions, harness.Action{Side: a.Side, FuncName: a.FuncName, Arguments: a.Arguments})
	}
	return out
}

// Get returns the harness form of the shipped scenario called name.
func Get(name string) (harness.Scenario, error) {
	s, err := scenarios.Get(name)
	if err != nil {
		return harness.Scenario{}, err
	}
	return Scenario(s), nil
}
