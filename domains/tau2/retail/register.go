package retail

import (
	"github.com/voiceeval/schematools/domains/tau2/tau2tools"
	"github.com/voiceeval/schematools/registry"
	"github.com/voiceeval/schematools/replay"
)

// specs lists the 16 tools in the Python original's order: reads, writes,
// then the generic tools (built by tau2tools: tau2tools.NewCalculate,
// tau2tools.NewTransferToHumanAgents).
var specs = append([]tau2tools.Spec{
	{Key: KeyFindUserIDByNameZip, Name: NameFindUserIDByNameZip, Build: tau2tools.Builder(NewFindUserIDByNameZip)},
	{Key: KeyFindUserIDByEmail, Name: NameFindUserIDByEmail, Build: tau2tools.Builder(NewFindUserIDByEmail)},
	{Key: KeyGetOrderDetails, Name: NameGetOrderDetails, Build: tau2tools.Builder(NewGetOrderDetails)},
	{Key: KeyGetProductDetails, Name: NameGetProductDetails, Build: tau2tools.Builder(NewGetProductDetails)},
	{Key: KeyGetItemDetails, Name: NameGetItemDetails, Build: tau2tools.Builder(NewGetItemDetails)},
	{Key: KeyGetUserDetails, Name: NameGetUserDetails, Build: tau2tools.Builder(NewGetUserDetails)},
	{Key: KeyListAllProductTypes, Name: NameListAllProductTypes, Build: tau2tools.Builder(NewListAllProductTypes)},
	{Key: KeyCancelPendingOrder, Name: NameCancelPendingOrder, Build: tau2tools.Builder(NewCancelPendingOrder)},
	{Key: KeyExchangeDeliveredOrderItems, Name: NameExchangeDeliveredOrderItems, Build: tau2tools.Builder(NewExchangeDeliveredOrderItems)},
	{Key: KeyModifyPendingOrderAddress, Name: NameModifyPendingOrderAddress, Build: tau2tools.Builder(NewModifyPendingOrderAddress)},
	{Key: KeyModifyPendingOrderItems, Name: NameModifyPendingOrderItems, Build: tau2tools.Builder(NewModifyPendingOrderItems)},
	{Key: KeyModifyPendingOrderPayment, Name: NameModifyPendingOrderPayment, Build: tau2tools.Builder(NewModifyPendingOrderPayment)},
	{Key: KeyModifyUserAddress, Name: NameModifyUserAddress, Build: tau2tools.Builder(NewModifyUserAddress)},
	{Key: KeyReturnDeliveredOrderItems, Name: NameReturnDeliveredOrderItems, Build: tau2tools.Builder(NewReturnDeliveredOrderItems)},
}, tau2tools.GenericSpecs(Domain, ActionTypes())...)

// Register adds the 16 tools to r under [Domain], by the names the model
// sees (FindUserIdByNameZipTool, …, TransferToHumanAgentsTool), each built
// on the scenario's shared state (deps.State). They take no keyword
// arguments. Registering twice in one registry is an error
// (registry.ErrDuplicate).
func Register(r *registry.Tools) error { return tau2tools.Register(r, Domain, specs) }

// Tools builds the 16 tools of one gold replay on env.Agent, keyed by the
// tau2 names gold actions use (find_user_id_by_name_zip, …,
// transfer_to_human_agents): the replay.ToolBuilder of the retail domain,
// for replay.Scenario.Tools. The tools keep their model-facing names.
func Tools(env replay.Env) (replay.ToolMap, error) { return tau2tools.ToolMap(env, specs) }
