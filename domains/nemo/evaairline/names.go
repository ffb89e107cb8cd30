package evaairline

// Domain is the registry domain of the eva_airline tools, NeMo's name.
const Domain = "eva_airline"

// The LLM-visible names of the 16 tools of an eva_airline scenario, in
// the scenario's tool order (NeMo's agent_resources): four reads, ten
// writes, the transfer, and the harness's EndConversationTool.
const (
	NameGetReservation         = "GetReservationTool"
	NameGetFlightStatus        = "GetFlightStatusTool"
	NameGetDisruptionInfo      = "GetDisruptionInfoTool"
	NameSearchRebookingOptions = "SearchRebookingOptionsTool"
	NameRebookFlight           = "RebookFlightTool"
	NameCancelReservation      = "CancelReservationTool"
	NameProcessRefund          = "ProcessRefundTool"
	NameAssignSeat             = "AssignSeatTool"
	NameAddBaggageAllowance    = "AddBaggageAllowanceTool"
	NameAddMealRequest         = "AddMealRequestTool"
	NameAddToStandby           = "AddToStandbyTool"
	NameIssueTravelCredit      = "IssueTravelCreditTool"
	NameIssueHotelVoucher      = "IssueHotelVoucherTool"
	NameIssueMealVoucher       = "IssueMealVoucherTool"
	NameTransferToAgent        = "TransferToAgentTool"
	NameEndConversation        = "EndConversationTool"
)

// ToolNames lists the 16 tool names in the scenario's order.
func ToolNames() []string {
	return []string{
		NameGetReservation, NameGetFlightStatus, NameGetDisruptionInfo, NameSearchRebookingOptions,
		NameRebookFlight, NameCancelReservation, NameProcessRefund, NameAssignSeat,
		NameAddBaggageAllowance, NameAddMealRequest, NameAddToStandby, NameIssueTravelCredit,
		NameIssueHotelVoucher, NameIssueMealVoucher, NameTransferToAgent, NameEndConversation,
	}
}

// The action types the write tools record (eva's vocabulary, one per
// write tool).
const (
	ActionRebookFlight        = "rebook_flight"
	ActionCancelReservation   = "cancel_reservation"
	ActionProcessRefund       = "process_refund"
	ActionIssueMealVoucher    = "issue_meal_voucher"
	ActionIssueHotelVoucher   = "issue_hotel_voucher"
	ActionIssueTravelCredit   = "issue_travel_credit"
	ActionAssignSeat          = "assign_seat"
	ActionAddBaggageAllowance = "add_baggage_allowance"
	ActionAddMealRequest      = "add_meal_request"
	ActionAddToStandby        = "add_to_standby"
	ActionTransferToAgent     = "transfer_to_agent"
)

// ActionTypes returns the domain's action vocabulary, in the original's
// order.
func ActionTypes() []string {
	return []string{
		ActionRebookFlight, ActionCancelReservation, ActionProcessRefund, ActionIssueMealVoucher,
		ActionIssueHotelVoucher, ActionIssueTravelCredit, ActionAssignSeat, ActionAddBaggageAllowance,
		ActionAddMealRequest, ActionAddToStandby, ActionTransferToAgent,
	}
}

// Tables of the scenario DB.
const (
	tableReservations  = "reservations"
	tableJourneys      = "journeys"
	tableDisruptions   = "disruptions"
	tableRefunds       = "refunds"
	tableTravelCredits = "travel_credits"
	tableHotelVouchers = "hotel_vouchers"
	tableMealVouchers  = "meal_vouchers"
	keyCurrentDate     = "_current_date"
)

// Call-counter names (state.Shared.NextCallIndex) behind the minted ids.
const (
	counterProcessRefund   = "process_refund"
	counterTransferToAgent = "transfer_to_agent"
)
