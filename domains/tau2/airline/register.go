package airline

import (
	"github.com/voiceeval/schematools/domains/tau2/tau2tools"
	"github.com/voiceeval/schematools/registry"
	"github.com/voiceeval/schematools/replay"
)

// specs lists the 14 tools in the Python original's order: reads, writes,
// then the generic tools (built by tau2tools: tau2tools.NewCalculate,
// tau2tools.NewTransferToHumanAgents).
var specs = append([]tau2tools.Spec{
	{Key: KeyGetUserDetails, Name: NameGetUserDetails, Build: tau2tools.Builder(NewGetUserDetails)},
	{Key: KeyGetReservationDetails, Name: NameGetReservationDetails, Build: tau2tools.Builder(NewGetReservationDetails)},
	{Key: KeyListAllAirports, Name: NameListAllAirports, Build: tau2tools.Builder(NewListAllAirports)},
	{Key: KeySearchDirectFlight, Name: NameSearchDirectFlight, Build: tau2tools.Builder(NewSearchDirectFlight)},
	{Key: KeySearchOnestopFlight, Name: NameSearchOnestopFlight, Build: tau2tools.Builder(NewSearchOnestopFlight)},
	{Key: KeyGetFlightStatus, Name: NameGetFlightStatus, Build: tau2tools.Builder(NewGetFlightStatus)},
	{Key: KeyBookReservation, Name: NameBookReservation, Build: tau2tools.Builder(NewBookReservation)},
	{Key: KeyCancelReservation, Name: NameCancelReservation, Build: tau2tools.Builder(NewCancelReservation)},
	{Key: KeySendCertificate, Name: NameSendCertificate, Build: tau2tools.Builder(NewSendCertificate)},
	{Key: KeyUpdateReservationBaggages, Name: NameUpdateReservationBaggages, Build: tau2tools.Builder(NewUpdateReservationBaggages)},
	{Key: KeyUpdateReservationFlights, Name: NameUpdateReservationFlights, Build: tau2tools.Builder(NewUpdateReservationFlights)},
	{Key: KeyUpdateReservationPassengers, Name: NameUpdateReservationPassengers, Build: tau2tools.Builder(NewUpdateReservationPassengers)},
}, tau2tools.GenericSpecs(Domain, ActionTypes())...)

// Register adds the 14 tools to r under [Domain], by the names the model
// sees (GetUserDetailsTool, …, TransferToHumanAgentsTool), each built on
// the scenario's shared state (deps.State). They take no keyword
// arguments. Registering twice in one registry is an error
// (registry.ErrDuplicate).
func Register(r *registry.Tools) error { return tau2tools.Register(r, Domain, specs) }

// Tools builds the 14 tools of one gold replay on env.Agent, keyed by the
// tau2 names gold actions use (get_user_details, …,
// transfer_to_human_agents): the replay.ToolBuilder of the airline domain,
// for replay.Scenario.Tools. The tools keep their model-facing names.
func Tools(env replay.Env) (replay.ToolMap, error) { return tau2tools.ToolMap(env, specs) }
