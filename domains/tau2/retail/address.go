package retail

import (
	"github.com/voiceeval/schematools/domains/tau2/tau2tools"
	"github.com/voiceeval/schematools/internal/pyvalue"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

// record returns the address as the DB stores it: a new object with the
// six fields, in the order of the Python tool's dict literal (state
// before country, where the tau2 data has country first), noted in o.
func (a Address) record(o *state.Order) map[string]any {
	return o.Keep(map[string]any{
		"address1": a.Address1, "address2": a.Address2, "city": a.City,
		"state": a.State, "country": a.Country, "zip": a.Zip,
	}, "address1", "address2", "city", "state", "country", "zip")
}

// NewModifyPendingOrderAddress builds modify_pending_order_address
// (ModifyPendingOrderAddressTool): the order must exist (not_found "Order
// <id> not found") and its status contain "pending" (value_error
// "Non-pending order cannot be modified"); its address is replaced. The
// result is a copy of the order; the recorded result is {"order_id"}.
func NewModifyPendingOrderAddress(opts *tool.Options) (*tool.Typed[ModifyPendingOrderAddressParams], error) {
	return tau2tools.NewRecordWriteTool(Domain, NameModifyPendingOrderAddress, recorder, []string{tableOrders},
		func(w *state.Writer, p ModifyPendingOrderAddressParams) (any, state.Action, error) {
			order, failure, err := pendingOrder(w, p.OrderID)
			if failure != nil || err != nil {
				return failure, nil, err
			}
			order["address"] = p.Address.record(w.Order())
			return order, state.NewAction(KeyModifyPendingOrderAddress, tool.ModelDump(p),
				map[string]any{"order_id": p.OrderID}), nil
		}, opts)
}

// NewModifyUserAddress builds modify_user_address (ModifyUserAddressTool):
// the user, matched lower-cased, must exist (not_found "User <id> not
// found", naming the id as given); their address is replaced. The result
// is a copy of the user; the recorded result is {"user_id": <id as
// given>}.
func NewModifyUserAddress(opts *tool.Options) (*tool.Typed[ModifyUserAddressParams], error) {
	return tau2tools.NewRecordWriteTool(Domain, NameModifyUserAddress, recorder, []string{tableUsers},
		func(w *state.Writer, p ModifyUserAddressParams) (any, state.Action, error) {
			userV, err := tau2tools.FindUser(w.DB, p.UserID)
			if err != nil {
				return nil, nil, err
			}
			if userV == nil {
				return tau2tools.NotFound("User " + p.UserID + " not found"), nil, nil
			}
			if _, ok := userV.(map[string]any); !ok {
				return nil, nil, itemAssignmentError(userV)
			}
			user, err := ownUser(w, p.UserID)
			if err != nil || user == nil {
				return nil, nil, err
			}
			user["address"] = p.Address.record(w.Order())
			return user, state.NewAction(KeyModifyUserAddress, tool.ModelDump(p),
				map[string]any{"user_id": p.UserID}), nil
		}, opts)
}

// itemAssignmentError is the TypeError Python raises for v["address"] = …
// when v is not a dict.
func itemAssignmentError(v any) error {
	if _, ok := v.([]any); ok {
		return tau2tools.Raise("TypeError", "list indices must be integers or slices, not str")
	}
	return tau2tools.Raise("TypeError", "'%s' object does not support item assignment", pyvalue.TypeName(v))
}
