package tool

import (
	"context"
	"log/slog"

	"github.com/voiceeval/schematools/state"
)

// Default names and descriptions of the harness tools, as the Python
// original registers them in its "default" domain.
const (
	EndConversationName       = "EndConversationTool"
	TransferToHumanAgentsName = "TransferToHumanAgentsTool"
	SendScenarioSummaryName   = "SendScenarioSummaryTool"

	EndConversationDescription       = "End the conversation with the user."
	TransferToHumanAgentsDescription = "Transfer the user to a human agent, with a summary of the user's issue. " +
		"Only transfer if the user explicitly asks for a human agent, or if the user's issue cannot be solved " +
		"with the available tools under the policy."
	SendScenarioSummaryDescription = `Send a "Task Summary" message to summarize how the agent has helped the user to finish the task.`

	// ActionTransferToHumanAgents is the action_type (and name) recorded by
	// [TransferToHumanAgents].
	ActionTransferToHumanAgents = "transfer_to_human_agents"
)

// AckResult is the acknowledgement the signalling tools return:
// {"success": true, "message": "..."}.
type AckResult struct {
	Success bool   `json:"success"`
	Message string `json:"message"`
}

// StatusResult is a plain status result: {"status": "success", "message":
// "..."}.
type StatusResult struct {
	Status  string `json:"status"`
	Message string `json:"message"`
}

// EndConversation ends the scenario: it acknowledges with
// {"success": true, "message": "Exit message sent."} and, after that result
// has been delivered, sends "<exit>The task is finished.</exit>" through
// State's notifier. It ignores any arguments. The zero value is ready to
// use; without State (or without a notifier) no exit message is sent.
type EndConversation struct {
	State             *state.Shared
	CustomDescription string // replaces [EndConversationDescription] when set
	Logger            *slog.Logger
}

// Name returns "EndConversationTool".
func (t *EndConversation) Name() string { return EndConversationName }

// Description returns the tool's description.
func (t *EndConversation) Description() string {
	return orDefault(t.CustomDescription, EndConversationDescription)
}

// Properties returns an empty object: the tool takes no arguments.
func (t *EndConversation) Properties() map[string]any { return map[string]any{} }

// Required returns an empty list.
func (t *EndConversation) Required() []string { return []string{} }

// Execute acknowledges the request; the exit signal follows in AfterResult.
func (t *EndConversation) Execute(context.Context, map[string]any) (any, error) {
	return AckResult{Success: true, Message: "Exit message sent."}, nil
}

// AfterResult sends "<exit>The task is finished.</exit>".
func (t *EndConversation) AfterResult(ctx context.Context, _ map[string]any, _ any) error {
	SendExit(ctx, t.State, "The task is finished.", t.Logger)
	return nil
}

// transferParams are the arguments of TransferToHumanAgents.
type transferParams struct {
	Summary string `json:"summary" jsonschema_description:"A summary of the user's issue."`
}

var transferPlan = newPlan[transferParams](false)

// TransferToHumanAgents hands the conversation to a human: it records the
// action {"action_type": "transfer_to_human_agents", "name": …,
// "arguments": {"summary": …}, "result": {"message": "Transfer
// successful"}}, returns {"status": "success", "message": "Transfer
// successful"}, and after delivery sends "<exit>Transfer complete.</exit>".
//
// Like the tau2 tools of the Python original, the exit signal is sent even
// when the arguments failed validation, unless ExitOnlyOnSuccess is set.
// The zero value is ready to use; without State nothing is recorded and no
// exit message is sent.
type TransferToHumanAgents struct {
	State               *state.Shared
	ToolName            string   // replaces [TransferToHumanAgentsName] when set (telecom: "transfer_to_human_agents")
	CustomDescription   string   // replaces [TransferToHumanAgentsDescription] when set
	ValidationErrorType string   // error_type of validation results; default "validation_error"
	ActionTypes         []string // the domain's action types; default just "transfer_to_human_agents"
	ExitOnlyOnSuccess   bool
	Logger              *slog.Logger
}

// Name returns ToolName, or "TransferToHumanAgentsTool".
func (t *TransferToHumanAgents) Name() string {
	return orDefault(t.ToolName, TransferToHumanAgentsName)
}

// Description returns the tool's description.
func (t *TransferToHumanAgents) Description() string {
	return orDefault(t.CustomDescription, TransferToHumanAgentsDescription)
}

// Properties returns {"summary": {"type": "string", ...}}.
func (t *TransferToHumanAgents) Properties() map[string]any {
	return planProperties(transferPlan)
}

// Required returns ["summary"].
func (t *TransferToHumanAgents) Required() []string {
	return planRequired(transferPlan)
}

// ErrorType returns the error_type of the tool's validation results.
func (t *TransferToHumanAgents) ErrorType() string {
	return orDefault(t.ValidationErrorType, ErrorTypeValidation)
}

// Execute validates the summary, records the transfer and returns the
// status result.
func (t *TransferToHumanAgents) Execute(ctx context.Context, args map[string]any) (any, error) {
	p, err := transferPlan()
	if err != nil {
		return nil, err
	}
	params, invalid := p.decode(args, false, t.ErrorType())
	if invalid != nil {
		return *invalid, nil
	}
	types := t.ActionTypes
	if types == nil {
		types = []string{ActionTransferToHumanAgents}
	}
	rec := Recorder{ActionTypes: types, Logger: t.Logger}
	rec.Record(ctx, t.State, state.NewAction(ActionTransferToHumanAgents,
		map[string]any{"summary": params.Summary},
		map[string]any{"message": "Transfer successful"}))
	return StatusResult{Status: StatusSuccess, Message: "Transfer successful"}, nil
}

// AfterResult sends "<exit>Transfer complete.</exit>".
func (t *TransferToHumanAgents) AfterResult(ctx context.Context, _ map[string]any, result any) error {
	if t.ExitOnlyOnSuccess {
		if r, ok := result.(StatusResult); !ok || r.Status != StatusSuccess {
			return nil
		}
	}
	SendExit(ctx, t.State, "Transfer complete.", t.Logger)
	return nil
}

// summaryParams are the arguments of SendScenarioSummary.
type summaryParams struct {
	Message string `json:"message" jsonschema_description:"The task summary to send."`
}

var summaryPlan = newPlan[summaryParams](true)

// SendScenarioSummary sends the agent's final response: before returning
// it pushes "<final_response>"+message+"</final_response>" through State's
// notifier, then acknowledges with {"success": true, "message": "Scenario
// summary message sent."}. Arguments other than message are ignored. The
// zero value is ready to use.
type SendScenarioSummary struct {
	State             *state.Shared
	CustomDescription string // replaces [SendScenarioSummaryDescription] when set
	Logger            *slog.Logger
}

// Name returns "SendScenarioSummaryTool".
func (t *SendScenarioSummary) Name() string { return SendScenarioSummaryName }

// Description returns the tool's description.
func (t *SendScenarioSummary) Description() string {
	return orDefault(t.CustomDescription, SendScenarioSummaryDescription)
}

// Properties returns {"message": {"type": "string", ...}}.
func (t *SendScenarioSummary) Properties() map[string]any {
	return planProperties(summaryPlan)
}

// Required returns ["message"].
func (t *SendScenarioSummary) Required() []string {
	return planRequired(summaryPlan)
}

// Execute sends the final response and acknowledges it.
func (t *SendScenarioSummary) Execute(ctx context.Context, args map[string]any) (any, error) {
	p, err := summaryPlan()
	if err != nil {
		return nil, err
	}
	params, invalid := p.decode(args, true, "")
	if invalid != nil {
		return *invalid, nil
	}
	SendFinalResponse(ctx, t.State, params.Message, t.Logger)
	return AckResult{Success: true, Message: "Scenario summary message sent."}, nil
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
