package airline

import (
	"errors"
	"fmt"

	"github.com/voiceeval/schematools/examples/tau2/tau2tools"
	"github.com/voiceeval/schematools/registry"
	"github.com/voiceeval/schematools/replay"
	"github.com/voiceeval/schematools/tool"
)

// spec is one tool of the domain: its two names and its constructor.
type spec struct {
	key, name string
	build     func(opts ...tool.Option) (tool.Tool, error)
}

// built adapts a typed constructor to spec.build.
func built[T tool.Tool](f func(opts ...tool.Option) (T, error)) func(opts ...tool.Option) (tool.Tool, error) {
	return func(opts ...tool.Option) (tool.Tool, error) { return f(opts...) }
}

// specs lists the 14 tools in the Python original's order: reads, writes,
// then the generic tools.
var specs = []spec{
	{KeyGetUserDetails, NameGetUserDetails, built(NewGetUserDetails)},
	{KeyGetReservationDetails, NameGetReservationDetails, built(NewGetReservationDetails)},
	{KeyListAllAirports, NameListAllAirports, built(NewListAllAirports)},
	{KeySearchDirectFlight, NameSearchDirectFlight, built(NewSearchDirectFlight)},
	{KeySearchOnestopFlight, NameSearchOnestopFlight, built(NewSearchOnestopFlight)},
	{KeyGetFlightStatus, NameGetFlightStatus, built(NewGetFlightStatus)},
	{KeyBookReservation, NameBookReservation, built(NewBookReservation)},
	{KeyCancelReservation, NameCancelReservation, built(NewCancelReservation)},
	{KeySendCertificate, NameSendCertificate, built(NewSendCertificate)},
	{KeyUpdateReservationBaggages, NameUpdateReservationBaggages, built(NewUpdateReservationBaggages)},
	{KeyUpdateReservationFlights, NameUpdateReservationFlights, built(NewUpdateReservationFlights)},
	{KeyUpdateReservationPassengers, NameUpdateReservationPassengers, built(NewUpdateReservationPassengers)},
	{KeyCalculate, NameCalculate, built(NewCalculate)},
	{KeyTransferToHumanAgents, NameTransferToHumanAgents, built(NewTransferToHumanAgents)},
}

// NewCalculate builds calculate (CalculateTool); see
// [tau2tools.Calculate] for what it evaluates and how it fails.
func NewCalculate(opts ...tool.Option) (*tool.Typed[tau2tools.CalculateParams, any], error) {
	return tau2tools.NewCalculate(NameCalculate, opts...)
}

// NewTransferToHumanAgents builds transfer_to_human_agents
// (TransferToHumanAgentsTool), which records the transfer with the
// domain's action types and ends the conversation after its result is
// delivered; see [tau2tools.NewTransferToHumanAgents].
func NewTransferToHumanAgents(opts ...tool.Option) (*tool.Typed[tau2tools.TransferParams, any], error) {
	return tau2tools.NewTransferToHumanAgents(NameTransferToHumanAgents, "", ActionTypes, opts...)
}

// Register adds the 14 tools to r under [Domain], by the names the model
// sees (GetUserDetailsTool, …, TransferToHumanAgentsTool), each built on
// the scenario's shared state (deps.State). They take no keyword
// arguments. Registering twice in one registry is an error
// (registry.ErrDuplicate).
func Register(r *registry.Tools) error {
	errs := make([]error, 0, len(specs))
	for _, s := range specs {
		errs = append(errs, r.Register(Domain, s.name, registry.Plain(func(d registry.Deps) (tool.Tool, error) {
			return s.build(tool.WithState(d.State))
		})))
	}
	return errors.Join(errs...)
}

// Tools builds the 14 tools of one gold replay on env.Agent, keyed by the
// tau2 names gold actions use (get_user_details, …,
// transfer_to_human_agents): the replay.ToolBuilder of the airline domain,
// for replay.Scenario.Tools. The tools keep their model-facing names.
func Tools(env replay.Env) (replay.ToolMap, error) {
	m := make(replay.ToolMap, len(specs))
	for _, s := range specs {
		t, err := s.build(tool.WithState(env.Agent))
		if err != nil {
			return nil, fmt.Errorf("airline: building %s: %w", s.key, err)
		}
		m[s.key] = t
	}
	return m, nil
}
