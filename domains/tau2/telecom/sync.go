package telecom

import (
	"reflect"
	"regexp"
	"slices"
	"strings"

	"github.com/voiceeval/schematools/hooks"
	"github.com/voiceeval/schematools/internal/pyvalue"
	"github.com/voiceeval/schematools/state"
)

// SyncState brings the two sides of a telecom scenario in line after an
// action, as the Python original's sync does between every action (and
// once after initialisation). The user's line is the agent DB's line with
// the phone number in the user's surroundings; when the user has no phone
// number, or no line has it, nothing is synced. Otherwise:
//
//   - surroundings.line_active follows the line's status ("Active");
//   - surroundings.roaming_allowed follows the line's roaming_enabled;
//   - surroundings.mobile_data_usage_exceeded is data_used_gb >= the plan's
//     data_limit_gb + data_refueling_gb (when the plan exists);
//   - a payment request the user has paid marks its bill Paid on the agent
//     side (delta "bills[<bill_id>].status") and is cleared;
//   - then, with no request pending, the first of the customer's bills that
//     is Awaiting Payment becomes the user's payment request {bill_id,
//     amount_due, paid: false}.
//
// Both DBs are changed to their synced values, and the deltas — path to new
// value, only what changed — are returned for the other copies of each
// side (the bots' DBs), to be applied with ApplySyncDelta. A
// second sync right after the first finds nothing to do. SyncState is a
// hooks.Set.Sync; it fails, changing nothing, only on DBs the Python
// function could not read either (its error reads "<Type>: <message>").
func SyncState(agentDB, userDB map[string]any) (agentDelta, userDelta map[string]any, err error) {
	agentDelta, userDelta = map[string]any{}, map[string]any{}
	writes, err := planSync(agentDB, userDB, agentDelta, userDelta)
	if err != nil {
		return map[string]any{}, map[string]any{}, err
	}
	for _, w := range writes {
		w()
	}
	return agentDelta, userDelta, nil
}

// SyncChanges reports which sides SyncState, followed by ApplySyncDelta
// on its deltas, would change now, without changing anything:
// the side of each non-empty delta (SyncState writes exactly what its
// deltas say). A sync that would fail is reported as changing both, so it
// runs and its error is seen. It is the Hooks' SyncChanges: a
// replay skips the many syncs that find the sides in line, and with them
// the copies of a shared DB.
func SyncChanges(agentDB, userDB map[string]any) (agent, user bool) {
	agentDelta, userDelta := map[string]any{}, map[string]any{}
	if _, err := planSync(agentDB, userDB, agentDelta, userDelta); err != nil {
		return true, true
	}
	return len(agentDelta) > 0, len(userDelta) > 0
}

// planSync computes the sync's deltas and returns the writes that bring
// both DBs to their synced values.
func planSync(agentDB, userDB, agentDelta, userDelta map[string]any) ([]func(), error) {
	surroundings := map[string]any{} // detached: changes to it reach no DB
	if s := userDB[tableSurroundings]; pyvalue.Truthy(s) {
		m, ok := s.(map[string]any)
		if !ok {
			return nil, noAttribute(s, "get")
		}
		surroundings = m
	}
	phone := surroundings["phone_number"]
	if phone == nil {
		return nil, nil
	}
	line, err := findGet(agentDB, tableLines, "phone_number", phone)
	if err != nil || line == nil {
		return nil, err
	}
	var writes []func()
	set := func(key string, v any) {
		if cur, ok := surroundings[key]; ok && pyvalue.EqualLoaded(cur, v) {
			return
		}
		writes = append(writes, func() { surroundings[key] = v })
		userDelta[surroundingsPrefix+key] = state.Clone(v)
	}
	set("line_active", line["status"] == lineStatusActive)
	set("roaming_allowed", pyvalue.Truthy(line["roaming_enabled"]))

	plan, err := findGet(agentDB, tablePlans, "plan_id", getOr(line, "plan_id", ""))
	if err != nil {
		return nil, err
	}
	if plan != nil {
		used, err := pyvalue.Float(getOr(line, "data_used_gb", json0))
		if err != nil {
			return nil, err
		}
		refueled, err := pyvalue.Float(getOr(line, "data_refueling_gb", json0))
		if err != nil {
			return nil, err
		}
		limit, err := pyvalue.Float(getOr(plan, "data_limit_gb", json0))
		if err != nil {
			return nil, err
		}
		set("mobile_data_usage_exceeded", used >= limit+refueled)
	}

	request := surroundings["payment_request"]
	var paidBill map[string]any // the bill the user's request pays, Paid once the writes are done
	if request != nil {
		paid, err := get(request, "paid", nil)
		if err != nil {
			return nil, err
		}
		if pyvalue.Truthy(paid) {
			billID, err := subscript(request, "bill_id")
			if err != nil {
				return nil, err
			}
			bill, err := findGet(agentDB, tableBills, "bill_id", billID)
			if err != nil {
				return nil, err
			}
			if bill != nil && bill["status"] != billStatusPaid {
				paidBill = bill
				writes = append(writes, func() { bill["status"] = billStatusPaid })
				agentDelta["bills["+pyvalue.Str(bill["bill_id"])+"].status"] = billStatusPaid
			}
			writes = append(writes, func() { surroundings["payment_request"] = nil })
			userDelta[surroundingsPrefix+"payment_request"] = nil
			request = nil
		}
	}
	if request == nil {
		next, err := pendingPayment(agentDB, phone, paidBill)
		if err != nil {
			return nil, err
		}
		if next != nil {
			writes = append(writes, func() { surroundings["payment_request"] = next })
			userDelta[surroundingsPrefix+"payment_request"] = state.Clone(next)
		}
	}
	return writes, nil
}

// surroundingsPrefix starts every user-side delta path.
const surroundingsPrefix = "surroundings."

// getOr is Python's d.get(key, def) on a dict.
func getOr(d map[string]any, key string, def any) any {
	if v, ok := d[key]; ok {
		return v
	}
	return def
}

// pendingPayment returns the payment request for the first bill Awaiting
// Payment of the customer the phone number belongs to, or nil. paid, when
// not nil, is a bill the sync is about to mark Paid.
func pendingPayment(agentDB map[string]any, phone any, paid map[string]any) (map[string]any, error) {
	customer, err := customerWithPhone(agentDB, phone)
	if err != nil || customer == nil {
		return nil, err
	}
	ids, ok := customer["bill_ids"]
	if !ok {
		return nil, nil
	}
	billIDs, err := pyvalue.Iter(ids)
	if err != nil {
		return nil, err
	}
	for _, id := range billIDs {
		bill, err := findGet(agentDB, tableBills, "bill_id", id)
		if err != nil {
			return nil, err
		}
		if bill != nil && bill["status"] == billStatusAwaitingPayment && !sameMap(bill, paid) {
			return map[string]any{"bill_id": bill["bill_id"], "amount_due": state.Clone(getOr(bill, "total_due", json0)), "paid": false}, nil
		}
	}
	return nil, nil
}

// sameMap reports whether a and b are the same map (not equal ones).
func sameMap(a, b map[string]any) bool {
	return a != nil && b != nil && reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer()
}

// customerWithPhone is the sync's customer lookup: the first customer
// whose phone_number, or one of whose lines' phone_number, is phone.
func customerWithPhone(agentDB map[string]any, phone any) (map[string]any, error) {
	customers, ok := agentDB[tableCustomers]
	if !ok {
		return nil, nil
	}
	rows, err := pyvalue.Iter(customers)
	if err != nil {
		return nil, err
	}
	for _, c := range rows {
		v, err := get(c, "phone_number", nil)
		if err != nil {
			return nil, err
		}
		customer := c.(map[string]any)
		if pyvalue.EqualLoaded(v, phone) {
			return customer, nil
		}
		ids, ok := customer["line_ids"]
		if !ok {
			continue
		}
		lineIDs, err := pyvalue.Iter(ids)
		if err != nil {
			return nil, err
		}
		for _, id := range lineIDs {
			line, err := findGet(agentDB, tableLines, "line_id", id)
			if err != nil {
				return nil, err
			}
			if len(line) > 0 && pyvalue.EqualLoaded(line["phone_number"], phone) {
				return customer, nil
			}
		}
	}
	return nil, nil
}

// billPath matches the agent-side delta paths "bills[<bill_id>].<field>".
var billPath = regexp.MustCompile(`^bills\[([^\]]+)\]\.(.+)$`)

// ApplySyncDelta is the telecom sync applier (Hooks' Apply). It applies a
// delta of SyncState to one side's DB:
//
//   - "surroundings.<key>" sets <key> — the whole rest of the path, dots
//     included — in the surroundings (created when missing);
//   - "bills[<bill_id>].<field>" sets <field> on the first bill with that
//     id (none: nothing happens);
//   - any other path is a dotted path, as hooks.ApplyDottedPaths walks it;
//
// and, when a surroundings key was set, re-derives the phone's network
// state (silently skipped on a DB without a phone, such as the agent's).
// Paths are applied in sorted order (a Go map keeps none); the first that
// cannot be applied ends the delta with its error.
func ApplySyncDelta(db map[string]any, delta map[string]any) error {
	paths := make([]string, 0, len(delta))
	for p := range delta {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	changed := false
	for _, p := range paths {
		v := delta[p]
		if key, ok := strings.CutPrefix(p, surroundingsPrefix); ok {
			s, present := db[tableSurroundings]
			if !present {
				s = map[string]any{}
				db[tableSurroundings] = s
			}
			m, err := assignable(s)
			if err != nil {
				return err
			}
			m[key] = v
			changed = true
			continue
		}
		if m := billPath.FindStringSubmatch(p); m != nil {
			if err := setBillField(db, m[1], m[2], v); err != nil {
				return err
			}
			continue
		}
		if err := hooks.ApplyDottedPaths(db, map[string]any{p: v}); err != nil {
			return err
		}
	}
	if changed {
		if err := networkSearch(db); err != nil && !isException(err, "KeyError", "TypeError") {
			return err
		}
	}
	return nil
}

// setBillField sets field on the first bill with the id billID.
func setBillField(db map[string]any, billID, field string, v any) error {
	bills, ok := db[tableBills]
	if !ok {
		return nil
	}
	rows, err := pyvalue.Iter(bills)
	if err != nil {
		return err
	}
	for _, r := range rows {
		id, err := get(r, "bill_id", nil)
		if err != nil {
			return err
		}
		if id == billID {
			r.(map[string]any)[field] = v
			return nil
		}
	}
	return nil
}
