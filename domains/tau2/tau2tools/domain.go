package tau2tools

import (
	"errors"
	"fmt"
	"time"

	"github.com/voiceeval/schematools/registry"
	"github.com/voiceeval/schematools/replay"
	"github.com/voiceeval/schematools/tool"
)

// Spec is one tool of a tau2 domain: the tau2 method name gold actions
// use (Key, e.g. "get_user_details"), the Python class name the model sees
// (Name, e.g. "GetUserDetailsTool"), and its constructor.
type Spec struct {
	Key, Name string
	Build     func(opts *tool.Options) (tool.Tool, error)
}

// Builder adapts a typed constructor to Spec.Build.
func Builder[T tool.Tool](f func(opts *tool.Options) (T, error)) func(opts *tool.Options) (tool.Tool, error) {
	return func(opts *tool.Options) (tool.Tool, error) { return f(opts) }
}

// Names of the tools the airline and retail domains share: the tau2 key
// gold actions use and the class name the model sees.
const (
	KeyGetUserDetails         = "get_user_details"
	NameGetUserDetails        = "GetUserDetailsTool"
	KeyCalculate              = "calculate"
	NameCalculate             = "CalculateTool"
	KeyTransferToHumanAgents  = ActionTransferToHumanAgents
	NameTransferToHumanAgents = "TransferToHumanAgentsTool"
)

// GenericSpecs returns the Specs of the two generic tools the airline and
// retail domains end their lists with, presenting domain's original
// texts: calculate (NewCalculate) and transfer_to_human_agents
// (NewTransferToHumanAgents, recording with the domain's action types).
func GenericSpecs(domain string, actionTypes []string) []Spec {
	return []Spec{
		{Key: KeyCalculate, Name: NameCalculate, Build: func(opts *tool.Options) (tool.Tool, error) {
			return NewCalculate(domain, opts)
		}},
		{Key: KeyTransferToHumanAgents, Name: NameTransferToHumanAgents, Build: func(opts *tool.Options) (tool.Tool, error) {
			return NewTransferToHumanAgents(domain, actionTypes, opts)
		}},
	}
}

// Register adds the tools of specs to r under domain, by the names the
// model sees, each built on the scenario's shared state (deps.State).
// They take no keyword arguments. Registering a name twice is an error
// (registry.ErrDuplicate); every failure is reported, joined.
func Register(r *registry.Tools, domain string, specs []Spec) error {
	errs := make([]error, 0, len(specs))
	for _, s := range specs {
		errs = append(errs, r.Register(domain, s.Name, registry.Plain(func(d registry.Deps) (tool.Tool, error) {
			return s.Build(&tool.Options{State: d.State})
		})))
	}
	return errors.Join(errs...)
}

// ToolMap builds the tools of specs for one gold replay on env.Agent,
// keyed by the tau2 names gold actions use: the body of a domain's
// replay.ToolBuilder. The tools keep their model-facing names.
func ToolMap(env replay.Env, specs []Spec) (replay.ToolMap, error) {
	m := make(replay.ToolMap, len(specs))
	for _, s := range specs {
		t, err := s.Build(&tool.Options{State: env.Agent})
		if err != nil {
			return nil, fmt.Errorf("%s: building %s: %w", env.Domain, s.Key, err)
		}
		m[s.Key] = t
	}
	return m, nil
}

// ReferenceDate returns the "today" the tau2 reference hashes were
// produced with: 2025-02-25, UTC. Gold replays pin their clock to it so
// that a replay hashes the same on every day.
func ReferenceDate() time.Time { return time.Date(2025, time.February, 25, 0, 0, 0, 0, time.UTC) }
