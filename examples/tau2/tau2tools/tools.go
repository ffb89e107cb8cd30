package tau2tools

import (
	"context"
	"errors"

	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

// ActionTransferToHumanAgents is the action type (and name) the transfer
// tool records.
const ActionTransferToHumanAgents = "transfer_to_human_agents"

// Texts of the transfer tool: its result message (also the recorded
// result) and the exit signal sent after delivery ("<exit>Transfer
// complete.</exit>").
const (
	MessageTransferSuccessful = "Transfer successful"
	TransferExitText          = "Transfer complete."
)

// CalculateDescription is the calculate tool's description.
const CalculateDescription = "Evaluate an arithmetic expression and return the result rounded to two decimals. " +
	"Only digits, the operators + - * / and parentheses, the decimal point and spaces may be used."

// CalculateParams are the arguments of calculate.
type CalculateParams struct {
	Expression string `json:"expression" jsonschema_description:"The arithmetic expression to evaluate, for example '(350 - 122) * 2'. Digits, + - * /, parentheses, '.' and spaces only."`
}

// CalculateResult is calculate's success result: {"status": "success",
// "result": "1200.0"}.
type CalculateResult struct {
	Status string `json:"status"`
	Result string `json:"result"`
}

// NewCalculate builds the calculate tool of the tau2 airline and retail
// domains under the given name ("CalculateTool" for the model). It never
// reads the DB. A result is CalculateResult, or a value_error result
// carrying Calculate's message. The tool validates its arguments in
// pydantic's lax mode (tool.WithLax); opts follow.
func NewCalculate(name string, opts ...tool.Option) (*tool.Typed[CalculateParams], error) {
	return tool.New(name, CalculateDescription,
		func(_ context.Context, _ *state.Shared, p CalculateParams) (any, error) {
			out, err := Calculate(p.Expression)
			if err != nil {
				var ce *CalcError
				if errors.As(err, &ce) {
					return ValueError(ce.Msg), nil
				}
				return nil, err
			}
			return CalculateResult{Status: Success, Result: out}, nil
		}, append([]tool.Option{tool.WithLax()}, opts...)...)
}

// TransferParams are the arguments of transfer_to_human_agents.
type TransferParams struct {
	Summary string `json:"summary" jsonschema_description:"A summary of the user's issue."`
}

// NewTransferToHumanAgents builds the transfer tool of the tau2 airline and
// retail domains under the given name ("TransferToHumanAgentsTool" for the
// model). It never reads the DB. Each call records {"action_type":
// "transfer_to_human_agents", "name": "transfer_to_human_agents",
// "arguments": {"summary": …}, "result": {"message": "Transfer
// successful"}} with the domain's action types, returns {"status":
// "success", "message": "Transfer successful"}, and — on the live path,
// after that result has been delivered — sends "<exit>Transfer
// complete.</exit>". As in the Python original the exit is sent after
// every delivered call, even one whose arguments failed validation.
//
// An empty description means that of the harness's transfer tool
// ([tool.Harness]), which the tau2 domains share. The
// tool validates in pydantic's lax mode; opts follow.
func NewTransferToHumanAgents(name, description string, actionTypes []string, opts ...tool.Option) (*tool.Typed[TransferParams], error) {
	if description == "" {
		description = harnessTransferDescription()
	}
	rec := tool.Recorder{ActionTypes: actionTypes}
	exit := tool.WithAfterResult(func(ctx context.Context, st *state.Shared, _ any) error {
		tool.SendExit(ctx, st, TransferExitText, nil)
		return nil
	})
	return tool.New(name, description,
		func(ctx context.Context, st *state.Shared, p TransferParams) (any, error) {
			rec.Record(ctx, st, state.NewAction(ActionTransferToHumanAgents, tool.ModelDump(p),
				map[string]any{"message": MessageTransferSuccessful}))
			return StatusResult{Status: Success, Message: MessageTransferSuccessful}, nil
		}, append([]tool.Option{tool.WithLax(), exit}, opts...)...)
}

// harnessTransferDescription is the description of the harness's
// TransferToHumanAgentsTool.
func harnessTransferDescription() string {
	for _, t := range tool.Harness(nil, nil) {
		if t.Name() == "TransferToHumanAgentsTool" {
			return t.Description()
		}
	}
	return ""
}
