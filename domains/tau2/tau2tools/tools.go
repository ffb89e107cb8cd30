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

// CalculateParams are the arguments of calculate.
type CalculateParams struct {
	Expression string `json:"expression"`
}

// CalculateResult is calculate's success result: {"status": "success",
// "result": "1200.0"}.
type CalculateResult struct {
	Status string `json:"status"`
	Result string `json:"result"`
}

// NewCalculate builds the calculate tool of the tau2 airline or retail
// domain (CalculateTool), presenting that domain's original texts (New).
// It never reads the DB. A result is CalculateResult, or a value_error
// result carrying Calculate's message. The tool validates its arguments in
// pydantic's lax mode; opts follow.
func NewCalculate(domain string, opts *tool.Options) (*tool.Typed[CalculateParams], error) {
	return New(domain, NameCalculate,
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
		}, opts)
}

// TransferParams are the arguments of transfer_to_human_agents.
type TransferParams struct {
	Summary string `json:"summary"`
}

// NewTransferToHumanAgents builds the transfer tool of the tau2 airline
// or retail domain (TransferToHumanAgentsTool), presenting that domain's
// original texts (New). It never reads the DB. Each call records
// {"action_type": "transfer_to_human_agents", "name":
// "transfer_to_human_agents", "arguments": {"summary": …}, "result":
// {"message": "Transfer successful"}} with the domain's action types,
// returns {"status": "success", "message": "Transfer successful"}, and —
// on the live path, after that result has been delivered — sends
// "<exit>Transfer complete.</exit>". As in the Python original the exit is
// sent after every delivered call, even one whose arguments failed
// validation. The tool validates in pydantic's lax mode; opts follow.
func NewTransferToHumanAgents(domain string, actionTypes []string, opts *tool.Options) (*tool.Typed[TransferParams], error) {
	rec := tool.Recorder{ActionTypes: actionTypes}
	var o tool.Options
	if opts != nil {
		o = *opts
	}
	if o.AfterResult == nil {
		o.AfterResult = func(ctx context.Context, st *state.Shared, _ any) error {
			tool.SendExit(ctx, st, TransferExitText, nil)
			return nil
		}
	}
	return New(domain, NameTransferToHumanAgents,
		func(ctx context.Context, st *state.Shared, p TransferParams) (any, error) {
			rec.Record(ctx, st, state.NewAction(ActionTransferToHumanAgents, tool.ModelDump(p),
				map[string]any{"message": MessageTransferSuccessful}))
			return StatusResult{Status: Success, Message: MessageTransferSuccessful}, nil
		}, &o)
}
