package customerservice

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"math"
	"strings"

	"github.com/voiceeval/schematools/domains/nemo/internal/nemostate"
	"github.com/voiceeval/schematools/internal/pyvalue"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

// Domain is the domain the tools are registered under.
const Domain = "customer_service"

// Tool names, as NeMo registers them (the class names).
const (
	NameLookupAccount      = "LookupAccountTool"
	NameCheckOrderStatus   = "CheckOrderStatusTool"
	NameProcessRefund      = "ProcessRefundTool"
	NameStartItemReturn    = "StartItemReturnTool"
	NameChangePlan         = "ChangePlanTool"
	NameUnlockAccount      = "UnlockAccountTool"
	NameCancelSubscription = "CancelSubscriptionTool"
	NameResolveTicket      = "ResolveTicketTool"
)

// KeyAccounts is the state value holding the accounts (orders nested).
const KeyAccounts = "accounts"

// DefaultResolutionTypes returns ResolveTicketTool's resolution types when
// a scenario gives none.
func DefaultResolutionTypes() []string {
	return []string{"refund", "replacement", "information", "escalation", "account_change"}
}

// Options are the construction arguments every tool takes.
type Options struct {
	// Description replaces the tool's description when not empty.
	Description string `json:"description,omitempty"`
}

// LookupAccountOptions are LookupAccountTool's construction arguments.
type LookupAccountOptions struct {
	// Accounts is the accounts table: JSON text (a JSON string) or the
	// object itself; absent means "{}".
	Accounts    json.RawMessage `json:"accounts,omitempty"`
	Description string          `json:"description,omitempty"`
}

// ChangePlanOptions are ChangePlanTool's construction arguments.
type ChangePlanOptions struct {
	// Plans maps plan names to monthly rates: JSON text or the object;
	// absent means "{}".
	Plans       json.RawMessage `json:"plans,omitempty"`
	Description string          `json:"description,omitempty"`
}

// ResolveTicketOptions are ResolveTicketTool's construction arguments.
type ResolveTicketOptions struct {
	// ResolutionTypes are the allowed resolution types; empty means
	// DefaultResolutionTypes.
	ResolutionTypes []string `json:"resolution_types,omitempty"`
	Description     string   `json:"description,omitempty"`
}

// stateOr returns st, or a private state as a Python tool built without
// shared_state gets.
func stateOr(st *state.Shared) *state.Shared {
	if st == nil {
		return state.New()
	}
	return st
}

// spec starts the Spec of the tool name from the original's schema.
func spec(name, description string, params ...string) (nemostate.Spec, error) {
	s, err := nemostate.Presented(Domain, name)
	if err != nil {
		return nemostate.Spec{}, err
	}
	sp := nemostate.SpecOf(s, description)
	sp.Params = params
	sp.Kwargs = true
	return sp, nil
}

// accountNotFound is the {"error": "Account '…' not found."} result.
func accountNotFound(accountID any) *nemostate.Map {
	return nemostate.Of("error", fmt.Sprintf("Account '%s' not found.", nemostate.Str(accountID)))
}

// orderNotFound is the {"error": "Order … not found for account …"} result.
func orderNotFound(accountID, orderID any) *nemostate.Map {
	return nemostate.Of("error", fmt.Sprintf("Order '%s' not found for account '%s'.", nemostate.Str(orderID), nemostate.Str(accountID)))
}

// accounts is shared_state.get("accounts", {}).
func accounts(v *nemostate.Vars) any {
	a, ok := v.Get(KeyAccounts)
	if !ok {
		return nemostate.NewMap()
	}
	return a
}

// account returns accounts[account_id], or nil and the not-found result.
func account(v *nemostate.Vars, accountID any) (any, any, error) {
	accts := accounts(v)
	in, err := nemostate.Contains(accountID, accts)
	if err != nil {
		return nil, nil, err
	}
	if !in {
		return nil, accountNotFound(accountID), nil
	}
	a, err := nemostate.GetItem(accts, accountID)
	return a, nil, err
}

// NewLookupAccount builds LookupAccountTool, which returns an account
// record. Building it seeds the state's accounts (setdefault).
func NewLookupAccount(st *state.Shared, o LookupAccountOptions) (tool.Tool, error) {
	st = stateOr(st)
	accts, err := nemostate.JSONKwarg("accounts", o.Accounts, "{}")
	if err != nil {
		return nil, err
	}
	sp, err := spec(NameLookupAccount, o.Description, "account_id")
	if err != nil {
		return nil, err
	}
	nemostate.Setdefault(st, KeyAccounts, accts)
	sp.Run = func(_ context.Context, a map[string]any) (any, error) {
		return nemostate.Update(st, func(v *nemostate.Vars) (any, error) {
			acct, miss, err := account(v, a["account_id"])
			if miss != nil || err != nil {
				return miss, err
			}
			return acct, nil
		})
	}
	return nemostate.NewTool(sp), nil
}

// NewCheckOrderStatus builds CheckOrderStatusTool, which returns an order
// nested under an account.
func NewCheckOrderStatus(st *state.Shared, o Options) (tool.Tool, error) {
	return newAccountsTool(st, NameCheckOrderStatus, o, []string{"account_id", "order_id"}, func(v *nemostate.Vars, a map[string]any) (any, error) {
		order, miss, err := findOrder(v, a["account_id"], a["order_id"])
		if miss != nil || err != nil {
			return miss, err
		}
		return order, nil
	})
}

// newAccountsTool builds the tool name whose run works on the accounts
// under the state's lock; building it seeds the accounts (setdefault).
func newAccountsTool(st *state.Shared, name string, o Options, params []string, run func(v *nemostate.Vars, a map[string]any) (any, error)) (tool.Tool, error) {
	st = stateOr(st)
	sp, err := spec(name, o.Description, params...)
	if err != nil {
		return nil, err
	}
	nemostate.Setdefault(st, KeyAccounts, nemostate.NewMap())
	sp.Run = func(_ context.Context, a map[string]any) (any, error) {
		return nemostate.Update(st, func(v *nemostate.Vars) (any, error) {
			return run(v, a)
		})
	}
	return nemostate.NewTool(sp), nil
}

// findOrder returns accounts[account_id]["orders"][order_id] as the
// tools look it up (orders = account.get("orders", {})), or the
// not-found result.
func findOrder(v *nemostate.Vars, accountID, orderID any) (any, any, error) {
	acct, miss, err := account(v, accountID)
	if miss != nil || err != nil {
		return nil, miss, err
	}
	orders, err := nemostate.DictGet(acct, "orders", nemostate.NewMap())
	if err != nil {
		return nil, nil, err
	}
	in, err := nemostate.Contains(orderID, orders)
	if err != nil {
		return nil, nil, err
	}
	if !in {
		return nil, orderNotFound(accountID, orderID), nil
	}
	order, err := nemostate.GetItem(orders, orderID)
	return order, nil, err
}

// formatMoney is the original's money format: "$1,234.56", "-$49.99".
func formatMoney(x float64) string {
	if x < 0 {
		return "-$" + groupThousands(math.Abs(x))
	}
	return "$" + groupThousands(x)
}

// groupThousands is Python's format(x, ",.2f").
func groupThousands(x float64) string {
	s, _ := pyvalue.Format2(x)
	sign := ""
	if strings.HasPrefix(s, "-") {
		sign, s = "-", s[1:]
	}
	intPart, frac, ok := strings.Cut(s, ".")
	if !ok || strings.IndexFunc(intPart, func(r rune) bool { return r < '0' || r > '9' }) >= 0 {
		return sign + s // inf, nan
	}
	var b strings.Builder
	for i, r := range intPart {
		if i > 0 && (len(intPart)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	return sign + b.String() + "." + frac
}

// parseMoney is the original's money parser: "$1,234.56" or "-$49.99".
func parseMoney(v any) (float64, error) {
	s, ok := v.(string)
	if !ok {
		return 0, pyvalue.Raise("AttributeError", "'%s' object has no attribute 'strip'", nemostate.TypeName(v))
	}
	s = strings.ReplaceAll(pyvalue.Strip(s), ",", "")
	negative := strings.HasPrefix(s, "-")
	s = strings.TrimLeft(s, "-+")
	s = strings.TrimLeft(s, "$")
	f, err := pyvalue.ParseFloat(s)
	if err != nil {
		return 0, err
	}
	if negative {
		return -f, nil
	}
	return f, nil
}

// NewProcessRefund builds ProcessRefundTool, which appends a refund
// charge to an account and lowers its balance.
func NewProcessRefund(st *state.Shared, o Options) (tool.Tool, error) {
	st = stateOr(st)
	sp, err := spec(NameProcessRefund, o.Description, "account_id", "amount", "description", "date")
	if err != nil {
		return nil, err
	}
	nemostate.Setdefault(st, KeyAccounts, nemostate.NewMap())
	sp.Run = func(_ context.Context, a map[string]any) (any, error) {
		amount, err := nemostate.Float(a["amount"])
		if err != nil {
			return nil, err
		}
		return nemostate.Update(st, func(v *nemostate.Vars) (any, error) {
			accountID := a["account_id"]
			acctV, miss, err := account(v, accountID)
			if miss != nil || err != nil {
				return miss, err
			}
			acct, err := nemostate.AsDict(acctV, "setdefault")
			if err != nil {
				return nil, err
			}
			charges := acct.Setdefault("recent_charges", []any{})
			v.Touch(KeyAccounts)
			list, ok := charges.([]any)
			if !ok {
				return nil, pyvalue.Raise("AttributeError", "'%s' object has no attribute 'append'", nemostate.TypeName(charges))
			}
			entry := nemostate.Of(
				"description", "Refund - "+nemostate.Str(a["description"]),
				"amount", formatMoney(-amount),
				"date", a["date"])
			acct.Set("recent_charges", append(list, entry))
			balance, err := parseMoney(orDefault(acct, "balance", "$0.00"))
			if err != nil {
				return nil, err
			}
			acct.Set("balance", formatMoney(balance-amount))
			nb, _ := acct.Get("balance")
			return nemostate.Of("success", true, "account_id", accountID, "refund_entry", entry,
				"new_balance", nb, "account", acct), nil
		})
	}
	return nemostate.NewTool(sp), nil
}

// orDefault is d.get(k, def).
func orDefault(d *nemostate.Map, k string, def any) any {
	if v, ok := d.Get(k); ok {
		return v
	}
	return def
}

// NewStartItemReturn builds StartItemReturnTool, which sets an order's
// status to "Return Started" and records the reason.
func NewStartItemReturn(st *state.Shared, o Options) (tool.Tool, error) {
	return newAccountsTool(st, NameStartItemReturn, o, []string{"account_id", "order_id", "reason"}, func(v *nemostate.Vars, a map[string]any) (any, error) {
		order, miss, err := findOrder(v, a["account_id"], a["order_id"])
		if miss != nil || err != nil {
			return miss, err
		}
		if err := nemostate.SetItem(order, "status", "Return Started"); err != nil {
			return nil, err
		}
		v.Touch(KeyAccounts)
		if err := nemostate.SetItem(order, "return_reason", a["reason"]); err != nil {
			return nil, err
		}
		return nemostate.Of("success", true, "account_id", a["account_id"], "order_id", a["order_id"], "order", order), nil
	})
}

// setFields sets the fields of accounts[account_id] in order and returns
// the account, or the not-found result.
func setFields(v *nemostate.Vars, accountID any, kv ...any) (any, any, error) {
	acct, miss, err := account(v, accountID)
	if miss != nil || err != nil {
		return nil, miss, err
	}
	for i := 0; i+1 < len(kv); i += 2 {
		if err := nemostate.SetItem(acct, kv[i].(string), kv[i+1]); err != nil {
			return nil, nil, err
		}
		v.Touch(KeyAccounts)
	}
	return acct, nil, nil
}

// NewChangePlan builds ChangePlanTool, which moves an account to another
// plan of the scenario's plan table. The new_plan description lists the
// plans, as the original's does.
func NewChangePlan(st *state.Shared, o ChangePlanOptions) (tool.Tool, error) {
	st = stateOr(st)
	plansV, err := nemostate.JSONKwarg("plans", o.Plans, "{}")
	if err != nil {
		return nil, err
	}
	plans, ok := plansV.(*nemostate.Map)
	if !ok {
		return nil, fmt.Errorf("%s: plans must be a JSON object, not %s", NameChangePlan, nemostate.TypeName(plansV))
	}
	sp, err := spec(NameChangePlan, o.Description, "account_id", "new_plan")
	if err != nil {
		return nil, err
	}
	if err := describePlans(&sp, plans.Keys()); err != nil {
		return nil, err
	}
	nemostate.Setdefault(st, KeyAccounts, nemostate.NewMap())
	names := make([]any, 0, plans.Len())
	for _, k := range plans.Keys() {
		names = append(names, k)
	}
	sp.Run = func(_ context.Context, a map[string]any) (any, error) {
		return nemostate.Update(st, func(v *nemostate.Vars) (any, error) {
			accountID, newPlan := a["account_id"], a["new_plan"]
			if _, miss, err := account(v, accountID); miss != nil || err != nil {
				return miss, err
			}
			in, err := nemostate.Contains(newPlan, plans)
			if err != nil {
				return nil, err
			}
			if !in {
				return nemostate.Of("error", fmt.Sprintf("Plan '%s' is not available. Available plans: %s.",
					nemostate.Str(newPlan), nemostate.Repr(names))), nil
			}
			rate, _ := plans.Get(newPlan.(string))
			rate = nemostate.FromValue(rate)
			acct, _, err := setFields(v, accountID, "plan", newPlan, "monthly_rate", rate)
			if err != nil {
				return nil, err
			}
			return nemostate.Of("success", true, "account_id", accountID, "new_plan", newPlan,
				"new_monthly_rate", nemostate.FromValue(rate), "account", acct), nil
		})
	}
	return nemostate.NewTool(sp), nil
}

// describePlans fills the plan names into new_plan's description: the
// recorded text lists the recorded construction's plans, joined by ", ";
// without plans the original says only its first sentence.
func describePlans(sp *nemostate.Spec, names []string) error {
	recorded, err := recordedPlans()
	if err != nil {
		return err
	}
	prop, _ := sp.Properties["new_plan"].(map[string]any)
	text, _ := prop["description"].(string)
	if len(names) == 0 {
		before, _, _ := strings.Cut(text, recorded)
		first, _, ok := strings.Cut(before, ". ")
		if !ok {
			return fmt.Errorf("%s: unexpected new_plan description %q", NameChangePlan, text)
		}
		prop["description"] = first + "."
		return nil
	}
	filled, err := nemostate.Refill(text, recorded, strings.Join(names, ", "))
	if err != nil {
		return err
	}
	prop["description"] = filled
	return nil
}

// recordedPlans is the plan list of the recorded ChangePlanTool
// construction, as its description shows it.
func recordedPlans() (string, error) {
	all, err := nemostate.Schemas()
	if err != nil {
		return "", err
	}
	for _, s := range all {
		if s.Domain == Domain && s.Tool == NameChangePlan {
			raw, _ := s.ConstructedWith["plans"].(string)
			plans, err := nemostate.JSONKwarg("plans", json.RawMessage(jsonString(raw)), "{}")
			if err != nil {
				return "", err
			}
			m, ok := plans.(*nemostate.Map)
			if !ok || m.Len() == 0 {
				break
			}
			return strings.Join(m.Keys(), ", "), nil
		}
	}
	return "", fmt.Errorf("%s: no recorded construction with plans", NameChangePlan)
}

// jsonString quotes s as a JSON string.
func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// NewUnlockAccount builds UnlockAccountTool, which sets account_status to
// "Active" and failed_login_attempts to "0".
func NewUnlockAccount(st *state.Shared, o Options) (tool.Tool, error) {
	return newFieldSetter(st, NameUnlockAccount, o, "account_status", "Active", "failed_login_attempts", "0")
}

// NewCancelSubscription builds CancelSubscriptionTool, which sets the plan
// to "Canceled" and the monthly rate to "$0.00".
func NewCancelSubscription(st *state.Shared, o Options) (tool.Tool, error) {
	return newFieldSetter(st, NameCancelSubscription, o, "plan", "Canceled", "monthly_rate", "$0.00")
}

func newFieldSetter(st *state.Shared, name string, o Options, kv ...any) (tool.Tool, error) {
	return newAccountsTool(st, name, o, []string{"account_id"}, func(v *nemostate.Vars, a map[string]any) (any, error) {
		acct, miss, err := setFields(v, a["account_id"], kv...)
		if miss != nil || err != nil {
			return miss, err
		}
		return nemostate.Of("success", true, "account_id", a["account_id"], "account", acct), nil
	})
}

// NewResolveTicket builds ResolveTicketTool, which sends the resolution
// and the account's snapshot to the evaluator as a scenario summary
// ("<final_response>…</final_response>") before answering. It does not
// seed the accounts.
func NewResolveTicket(st *state.Shared, o ResolveTicketOptions, logger *slog.Logger) (tool.Tool, error) {
	st = stateOr(st)
	sp, err := spec(NameResolveTicket, o.Description, "account_id", "issue_summary", "resolution_type", "resolution_details")
	if err != nil {
		return nil, err
	}
	types := o.ResolutionTypes
	if len(types) == 0 {
		types = DefaultResolutionTypes()
	}
	prop, _ := sp.Properties["resolution_type"].(map[string]any)
	text, _ := prop["description"].(string)
	filled, err := nemostate.Refill(text, strings.Join(DefaultResolutionTypes(), ", "), strings.Join(types, ", "))
	if err != nil {
		return nil, err
	}
	enum := make([]any, len(types))
	for i, t := range types {
		enum[i] = t
	}
	prop["description"], prop["enum"] = filled, enum
	sp.Run = func(ctx context.Context, a map[string]any) (any, error) {
		text, err := nemostate.Update(st, func(v *nemostate.Vars) (any, error) {
			snapshot, err := nemostate.DictGet(accounts(v), a["account_id"], nemostate.NewMap())
			if err != nil {
				return nil, err
			}
			return nemostate.Dumps(nemostate.Of(
				"issue_summary", a["issue_summary"],
				"resolution_type", a["resolution_type"],
				"resolution_details", a["resolution_details"],
				"account_id", a["account_id"],
				"account", snapshot))
		})
		if err != nil {
			return nil, err
		}
		nemostate.SendSummary(ctx, st, text.(string), logger)
		return nemostate.Of("success", true, "message", "Ticket resolved successfully."), nil
	}
	return nemostate.NewTool(sp), nil
}
