package tool

import (
	"context"
	"log/slog"

	"github.com/voiceeval/schematools/state"
)

// actionTransferToHumanAgents is the action_type (and name) the transfer
// tool records.
const actionTransferToHumanAgents = "transfer_to_human_agents"

// ackResult is the acknowledgement the signalling tools return:
// {"success": true, "message": "..."}.
type ackResult struct {
	Success bool   `json:"success"`
	Message string `json:"message"`
}

// statusResult is a plain status result: {"status": "success", "message":
// "..."}.
type statusResult struct {
	Status  string `json:"status"`
	Message string `json:"message"`
}

// Harness returns the cross-domain tools of every scenario, as the Python
// original registers them in its "default" domain, bound to st (nil: no
// state, so nothing is recorded and no signal is sent) and logging
// notifier failures to logger (nil: [slog.Default]):
//
//   - EndConversationTool, no arguments (any are ignored): returns
//     {"success": true, "message": "Exit message sent."} and, after that
//     result has been delivered, sends "<exit>The task is finished.</exit>"
//     ([SendExit]);
//   - TransferToHumanAgentsTool, a required string "summary": records the
//     action {"action_type": "transfer_to_human_agents", "name":
//     "transfer_to_human_agents", "arguments": {"summary": …}, "result":
//     {"message": "Transfer successful"}}, returns {"status": "success",
//     "message": "Transfer successful"}, and after delivery sends
//     "<exit>Transfer complete.</exit>" — like the Python original, even
//     when the arguments failed validation;
//   - SendScenarioSummaryTool, a required string "message" (other
//     arguments ignored): pushes "<final_response>"+message+
//     "</final_response>" as a [TextMessage], then returns
//     {"success": true, "message": "Scenario summary message sent."}.
//
// The tools are returned in that order; each is safe for concurrent use.
func Harness(st *state.Shared, logger *slog.Logger) []Tool {
	return []Tool{
		&endConversation{st: st, logger: logger},
		&transferToHumanAgents{st: st, logger: logger},
		&sendScenarioSummary{st: st, logger: logger},
	}
}

type endConversation struct {
	st     *state.Shared
	logger *slog.Logger
}

func (t *endConversation) Name() string { return "EndConversationTool" }
func (t *endConversation) Description() string {
	return "End the conversation with the user."
}
func (t *endConversation) Properties() map[string]any { return map[string]any{} }
func (t *endConversation) Required() []string         { return []string{} }

func (t *endConversation) Execute(context.Context, map[string]any) (any, error) {
	return ackResult{Success: true, Message: "Exit message sent."}, nil
}

func (t *endConversation) AfterResult(ctx context.Context, _ map[string]any, _ any) error {
	SendExit(ctx, t.st, "The task is finished.", t.logger)
	return nil
}

// transferParams are the arguments of the transfer tool.
type transferParams struct {
	Summary string `json:"summary" jsonschema_description:"A summary of the user's issue."`
}

var transferPlan = newPlan[transferParams](false)

type transferToHumanAgents struct {
	st     *state.Shared
	logger *slog.Logger
}

func (t *transferToHumanAgents) Name() string { return "TransferToHumanAgentsTool" }
func (t *transferToHumanAgents) Description() string {
	return "Transfer the user to a human agent, with a summary of the user's issue. " +
		"Only transfer if the user explicitly asks for a human agent, or if the user's issue cannot be solved " +
		"with the available tools under the policy."
}
func (t *transferToHumanAgents) Properties() map[string]any { return planProperties(transferPlan) }
func (t *transferToHumanAgents) Required() []string         { return planRequired(transferPlan) }

func (t *transferToHumanAgents) Execute(ctx context.Context, args map[string]any) (any, error) {
	p, err := transferPlan()
	if err != nil {
		return nil, err
	}
	params, invalid := p.decode(args, false, "")
	if invalid != nil {
		return *invalid, nil
	}
	rec := Recorder{ActionTypes: []string{actionTransferToHumanAgents}, Logger: t.logger}
	rec.Record(ctx, t.st, state.NewAction(actionTransferToHumanAgents,
		map[string]any{"summary": params.Summary},
		map[string]any{"message": "Transfer successful"}))
	return statusResult{Status: statusSuccess, Message: "Transfer successful"}, nil
}

func (t *transferToHumanAgents) AfterResult(ctx context.Context, _ map[string]any, _ any) error {
	SendExit(ctx, t.st, "Transfer complete.", t.logger)
	return nil
}

// summaryParams are the arguments of the summary tool.
type summaryParams struct {
	Message string `json:"message" jsonschema_description:"The task summary to send."`
}

var summaryPlan = newPlan[summaryParams](true)

type sendScenarioSummary struct {
	st     *state.Shared
	logger *slog.Logger
}

func (t *sendScenarioSummary) Name() string { return "SendScenarioSummaryTool" }
func (t *sendScenarioSummary) Description() string {
	return `Send a "Task Summary" message to summarize how the agent has helped the user to finish the task.`
}
func (t *sendScenarioSummary) Properties() map[string]any { return planProperties(summaryPlan) }
func (t *sendScenarioSummary) Required() []string         { return planRequired(summaryPlan) }

func (t *sendScenarioSummary) Execute(ctx context.Context, args map[string]any) (any, error) {
	p, err := summaryPlan()
	if err != nil {
		return nil, err
	}
	params, invalid := p.decode(args, true, "")
	if invalid != nil {
		return *invalid, nil
	}
	sendFinalResponse(ctx, t.st, params.Message, t.logger)
	return ackResult{Success: true, Message: "Scenario summary message sent."}, nil
}
