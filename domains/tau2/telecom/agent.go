package telecom

import (
	"cmp"
	"context"
	"encoding/json"
	"slices"
	"time"

	"github.com/voiceeval/schematools/internal/pyvalue"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

// The agent-side tools: lookups of customers, lines, bills and plans, and
// the writes an agent makes on them. Refusals are tool_error results; a DB
// whose shape the Python tool could not read either (a table that is not a
// list, a record without its id) is a Go error, as the Python tool raises.
// Results taken from the DB are deep copies.

func newGetCustomerByPhone(b binding) (tool.Tool, error) {
	return newTool(b, NameGetCustomerByPhone,
		func(_ context.Context, st *state.Shared, p GetCustomerByPhoneParams) (any, error) {
			return agentRead(st, func(db map[string]any) (any, error) {
				c, err := customerByPhone(db, p.PhoneNumber)
				if err != nil {
					return nil, err
				}
				if c == nil {
					return toolError("Customer with phone number %s not found", p.PhoneNumber), nil
				}
				return c, nil
			})
		}, nil)
}

// agentRead runs an agent-side read (agentSide's ReadOrdered): what fn
// returns may hold the DB's own records, and the result is their copy in
// the DB's key order (state.Order.Copy), so that it reads as the Python
// original's does.
func agentRead(st *state.Shared, fn func(db map[string]any) (any, error)) (any, error) {
	return agentSide.ReadOrdered(st, func(db map[string]any, o *state.Order) (any, error) {
		res, err := fn(db)
		return o.Copy(res), err
	})
}

// customerByPhone returns the first customer whose contact number, or the
// number of one of whose lines, is phone.
func customerByPhone(db map[string]any, phone string) (map[string]any, error) {
	customers, err := iterateItem(db, tableCustomers)
	if err != nil {
		return nil, err
	}
	for _, c := range customers {
		v, err := subscript(c, "phone_number")
		if err != nil {
			return nil, err
		}
		if v == phone {
			return c.(map[string]any), nil
		}
		lineIDs, err := iterateItem(c, "line_ids")
		if err != nil {
			return nil, err
		}
		for _, id := range lineIDs {
			line, err := find(db, tableLines, "line_id", id)
			if err != nil {
				return nil, err
			}
			if len(line) == 0 {
				continue
			}
			v, err := subscript(line, "phone_number")
			if err != nil {
				return nil, err
			}
			if v == phone {
				return c.(map[string]any), nil
			}
		}
	}
	return nil, nil
}

// readCustomer runs an agent-side read on the customer with the given id,
// answering tool_error "Customer with ID <id> not found" when there is
// none. fn gets the DB and the customer's record, to read only; what it
// returns may hold the DB's records (agentRead copies them).
func readCustomer(st *state.Shared, id string, fn func(db, customer map[string]any) (any, error)) (any, error) {
	return agentRead(st, func(db map[string]any) (any, error) {
		c, err := find(db, tableCustomers, "customer_id", id)
		if err != nil {
			return nil, err
		}
		if c == nil {
			return toolError("Customer with ID %s not found", id), nil
		}
		return fn(db, c)
	})
}

func newGetCustomerByID(b binding) (tool.Tool, error) {
	return newTool(b, NameGetCustomerByID,
		func(_ context.Context, st *state.Shared, p GetCustomerByIDParams) (any, error) {
			return readCustomer(st, p.CustomerID, func(_, c map[string]any) (any, error) {
				return c, nil
			})
		}, nil)
}

func newGetCustomerByName(b binding) (tool.Tool, error) {
	return newTool(b, NameGetCustomerByName,
		func(_ context.Context, st *state.Shared, p GetCustomerByNameParams) (any, error) {
			return agentRead(st, func(db map[string]any) (any, error) {
				customers, err := iterateItem(db, tableCustomers)
				if err != nil {
					return nil, err
				}
				want := pyvalue.Lower(p.FullName)
				matches := []any{}
				for _, c := range customers {
					name, err := subscript(c, "full_name")
					if err != nil {
						return nil, err
					}
					s, ok := name.(string)
					if !ok {
						return nil, noAttribute(name, "lower")
					}
					if pyvalue.Lower(s) != want {
						continue
					}
					dob, err := subscript(c, "date_of_birth")
					if err != nil {
						return nil, err
					}
					if dob == p.DOB {
						matches = append(matches, c)
					}
				}
				return matches, nil
			})
		}, nil)
}

func newGetDetailsByID(b binding) (tool.Tool, error) {
	return newTool(b, NameGetDetailsByID,
		func(_ context.Context, st *state.Shared, p GetDetailsByIDParams) (any, error) {
			return agentRead(st, func(db map[string]any) (any, error) {
				var table, key string
				switch {
				case len(p.ID) > 0 && p.ID[0] == 'L':
					table, key = tableLines, "line_id"
				case len(p.ID) > 0 && p.ID[0] == 'D':
					table, key = tableDevices, "device_id"
				case len(p.ID) > 0 && p.ID[0] == 'B':
					table, key = tableBills, "bill_id"
				case len(p.ID) > 0 && p.ID[0] == 'C':
					table, key = tableCustomers, "customer_id"
				case len(p.ID) > 0 && p.ID[0] == 'P':
					table, key = tablePlans, "plan_id"
				default:
					return toolError("Unknown ID format or type: %s", p.ID), nil
				}
				rec, err := find(db, table, key, p.ID)
				if err != nil {
					return nil, err
				}
				if rec == nil {
					return toolError("Object with ID %s not found", p.ID), nil
				}
				return rec, nil
			})
		}, nil)
}

func newGetBillsForCustomer(b binding) (tool.Tool, error) {
	t, err := newTool(b, NameGetBillsForCustomer,
		func(_ context.Context, st *state.Shared, p GetBillsForCustomerParams) (any, error) {
			limit := 12
			if p.Limit != nil {
				limit = *p.Limit
			}
			return readCustomer(st, p.CustomerID, func(db, c map[string]any) (any, error) {
				bills, err := customerBills(db, c)
				if err != nil {
					return nil, err
				}
				if err := sortByIssueDate(bills); err != nil {
					return nil, err
				}
				bills = bills[:pySliceEnd(len(bills), limit)]
				out := make([]any, len(bills))
				for i, bill := range bills {
					out[i] = bill
				}
				return out, nil
			})
		}, nil)
	if t != nil {
		t.nonNull = []tool.Issue{{Field: "limit", Error: "Input should be a valid integer", Type: "int_type"}}
	}
	return t, err
}

// customerBills returns the customer's bills that exist, in the order of
// its bill_ids.
func customerBills(db map[string]any, customer map[string]any) ([]map[string]any, error) {
	billIDs, err := iterateItem(customer, "bill_ids")
	if err != nil {
		return nil, err
	}
	var bills []map[string]any
	for _, id := range billIDs {
		bill, err := find(db, tableBills, "bill_id", id)
		if err != nil {
			return nil, err
		}
		if bill != nil {
			bills = append(bills, bill)
		}
	}
	return bills, nil
}

// sortByIssueDate sorts bills newest first by their issue_date strings,
// keeping the order of equal dates, as Python's sort(reverse=True) does.
// Issue dates that are not all strings cannot be ordered (Python's
// TypeError).
func sortByIssueDate(bills []map[string]any) error {
	keys := make([]string, len(bills))
	for i, bill := range bills {
		v, err := subscript(bill, "issue_date")
		if err != nil {
			return err
		}
		s, ok := v.(string)
		if !ok && len(bills) > 1 {
			return pyvalue.Raise("TypeError", "'<' not supported between instances of '%s' and 'str'", pyvalue.TypeName(v))
		}
		keys[i] = s
	}
	idx := make([]int, len(bills))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(keys[b], keys[a]) })
	sorted := make([]map[string]any, len(bills))
	for i, j := range idx {
		sorted[i] = bills[j]
	}
	copy(bills, sorted)
	return nil
}

// pySliceEnd is the end of Python's s[:limit] on a sequence of n items.
func pySliceEnd(n, limit int) int {
	if limit < 0 {
		limit += n
	}
	return max(0, min(limit, n))
}

// DataUsage is the result of get_data_usage. The amounts are the DB's
// values as they are; the cycle ends on the last day of the current month.
type DataUsage struct {
	LineID          string `json:"line_id"`
	DataUsedGB      any    `json:"data_used_gb"`
	DataLimitGB     any    `json:"data_limit_gb"`
	DataRefuelingGB any    `json:"data_refueling_gb"`
	CycleEndDate    string `json:"cycle_end_date"`
}

func newGetDataUsage(b binding) (tool.Tool, error) {
	return newTool(b, NameGetDataUsage,
		func(_ context.Context, st *state.Shared, p LineParams) (any, error) {
			today := b.today()
			return agentRead(st, func(db map[string]any) (any, error) {
				line, plan, refused, err := targetLinePlan(db, p.CustomerID, p.LineID, func(planID any) string {
					return "Plan " + pyvalue.Str(planID) + " not found for line " + p.LineID
				})
				if refused != nil || err != nil {
					return refused, err
				}
				used, err := subscript(line, "data_used_gb")
				if err != nil {
					return nil, err
				}
				limit, err := subscript(plan, "data_limit_gb")
				if err != nil {
					return nil, err
				}
				refueled, err := subscript(line, "data_refueling_gb")
				if err != nil {
					return nil, err
				}
				return DataUsage{
					LineID:          p.LineID,
					DataUsedGB:      used,
					DataLimitGB:     limit,
					DataRefuelingGB: refueled,
					CycleEndDate:    isoDate(lastOfMonth(today, 0)),
				}, nil
			})
		}, nil)
}

// writeLine runs an agent-side write on one line of a customer, resolved
// as targetLine does (a refusal is the tool_error result). fn gets the
// line as the DB holds it, to check, and own, which returns the write's
// copy of it to change (state.Writer.OwnRow).
func writeLine(ctx context.Context, st *state.Shared, customerID, lineID string,
	fn func(line map[string]any, own func() (map[string]any, error)) (any, state.Action, error)) (any, error) {
	return agentSide.WriteRecords(ctx, st, linesOnly, func(w *state.Writer) (any, state.Action, error) {
		line, refusal, err := targetLine(w.DB, customerID, lineID)
		if err != nil {
			return nil, nil, err
		}
		if line == nil {
			return toolError("%s", refusal), nil, nil
		}
		res, action, err := fn(line, func() (map[string]any, error) { return w.OwnRow(tableLines, line) })
		return w.Order().Copy(res), action, err // the line in its key order
	})
}

// LineResult is the result of suspend_line and resume_line: a message and
// the line's record after the change (an ordered copy: state.Order.Copy).
type LineResult struct {
	Message string `json:"message"`
	Line    any    `json:"line"`
}

func newSuspendLine(b binding) (tool.Tool, error) {
	return newTool(b, NameSuspendLine,
		func(ctx context.Context, st *state.Shared, p SuspendLineParams) (any, error) {
			today := isoDate(b.today())
			return writeLine(ctx, st, p.CustomerID, p.LineID, func(line map[string]any, own func() (map[string]any, error)) (any, state.Action, error) {
				status, err := subscript(line, "status")
				if err != nil {
					return nil, nil, err
				}
				if status != lineStatusActive {
					return toolError("Line must be active to suspend"), nil, nil
				}
				if line, err = own(); err != nil {
					return nil, nil, err
				}
				line["status"] = lineStatusSuspended
				line["suspension_start_date"] = today
				action := state.NewAction(NameSuspendLine,
					map[string]any{"customer_id": p.CustomerID, "line_id": p.LineID, "reason": p.Reason},
					map[string]any{"line_id": p.LineID, "status": lineStatusSuspended})
				return LineResult{"Line suspended successfully. $5/month holding fee will apply.", line}, action, nil
			})
		}, nil)
}

func newResumeLine(b binding) (tool.Tool, error) {
	return newTool(b, NameResumeLine,
		func(ctx context.Context, st *state.Shared, p LineParams) (any, error) {
			return writeLine(ctx, st, p.CustomerID, p.LineID, func(line map[string]any, own func() (map[string]any, error)) (any, state.Action, error) {
				status, err := subscript(line, "status")
				if err != nil {
					return nil, nil, err
				}
				if status != lineStatusSuspended && status != lineStatusPendingActivation {
					return toolError("Line must be suspended to resume"), nil, nil
				}
				if line, err = own(); err != nil {
					return nil, nil, err
				}
				line["status"] = lineStatusActive
				line["suspension_start_date"] = nil
				action := state.NewAction(NameResumeLine,
					map[string]any{"customer_id": p.CustomerID, "line_id": p.LineID},
					map[string]any{"line_id": p.LineID, "status": lineStatusActive})
				return LineResult{"Line resumed successfully", line}, action, nil
			})
		}, nil)
}

func newSetRoaming(b binding, name string, on bool) (tool.Tool, error) {
	done, already := "Roaming enabled successfully", "Roaming was already enabled"
	if !on {
		done, already = "Roaming disabled successfully", "Roaming was already disabled"
	}
	return newTool(b, name,
		func(ctx context.Context, st *state.Shared, p LineParams) (any, error) {
			return writeLine(ctx, st, p.CustomerID, p.LineID, func(line map[string]any, own func() (map[string]any, error)) (any, state.Action, error) {
				current, err := subscript(line, "roaming_enabled")
				if err != nil {
					return nil, nil, err
				}
				if pyvalue.Truthy(current) == on {
					return already, nil, nil
				}
				if line, err = own(); err != nil {
					return nil, nil, err
				}
				line["roaming_enabled"] = on
				return done, state.NewAction(name,
					map[string]any{"customer_id": p.CustomerID, "line_id": p.LineID},
					map[string]any{"roaming_enabled": on}), nil
			})
		}, nil)
}

func newEnableRoaming(b binding) (tool.Tool, error) { return newSetRoaming(b, NameEnableRoaming, true) }

func newDisableRoaming(b binding) (tool.Tool, error) {
	return newSetRoaming(b, NameDisableRoaming, false)
}

func newSendPaymentRequest(b binding) (tool.Tool, error) {
	return newTool(b, NameSendPaymentRequest,
		func(ctx context.Context, st *state.Shared, p SendPaymentRequestParams) (any, error) {
			return agentSide.WriteRecords(ctx, st, billsOnly, func(w *state.Writer) (any, state.Action, error) {
				db := w.DB
				c, err := find(db, tableCustomers, "customer_id", p.CustomerID)
				if err != nil {
					return nil, nil, err
				}
				if c == nil {
					return toolError("Customer %s not found", p.CustomerID), nil, nil
				}
				bills, err := customerBills(db, c)
				if err != nil {
					return nil, nil, err
				}
				for _, bill := range bills {
					status, err := subscript(bill, "status")
					if err != nil {
						return nil, nil, err
					}
					if status == billStatusAwaitingPayment {
						return toolError("A bill is already awaiting payment for this customer"), nil, nil
					}
				}
				ids, err := subscript(c, "bill_ids")
				if err != nil {
					return nil, nil, err
				}
				if ok, err := pyvalue.Contains(p.BillID, ids); err != nil || !ok {
					return toolError("Bill %s not found for customer %s", p.BillID, p.CustomerID), nil, err
				}
				bill, err := find(db, tableBills, "bill_id", p.BillID)
				if err != nil {
					return nil, nil, err
				}
				if bill == nil {
					return nil, nil, pyvalue.Raise("TypeError", "'NoneType' object does not support item assignment")
				}
				if bill, err = w.OwnRow(tableBills, bill); err != nil {
					return nil, nil, err
				}
				bill["status"] = billStatusAwaitingPayment
				action := state.NewAction(NameSendPaymentRequest,
					map[string]any{"customer_id": p.CustomerID, "bill_id": p.BillID},
					map[string]any{"bill_id": p.BillID, "status": billStatusAwaitingPayment})
				return "Payment request sent to the customer for bill " + p.BillID, action, nil
			})
		}, nil)
}

// RefuelResult is the result of refuel_data.
type RefuelResult struct {
	Message            string `json:"message"`
	NewDataRefuelingGB any    `json:"new_data_refueling_gb"`
	Charge             any    `json:"charge"`
}

func newRefuelData(b binding) (tool.Tool, error) {
	return newTool(b, NameRefuelData,
		func(ctx context.Context, st *state.Shared, p RefuelDataParams) (any, error) {
			today := b.today()
			return agentSide.WriteRecords(ctx, st, chargeTables, func(w *state.Writer) (any, state.Action, error) {
				db := w.DB
				if !(p.GBAmount > 0) {
					return toolError("Refuel amount must be positive"), nil, nil
				}
				line, plan, refused, err := targetLinePlan(db, p.CustomerID, p.LineID, func(any) string {
					return "Plan not found for this line"
				})
				if refused != nil || err != nil {
					return refused, nil, err
				}
				price, err := subscript(plan, "data_refueling_price_per_gb")
				if err != nil {
					return nil, nil, err
				}
				charge, err := floatOp(price, "*", p.GBAmount, pyvalue.Num.Mul)
				if err != nil {
					return nil, nil, err
				}
				current, _ := get(line, "data_refueling_gb", 0.0)
				refueled, err := floatOp(current, "+", p.GBAmount, pyvalue.Num.Add)
				if err != nil {
					return nil, nil, err
				}
				description := "Data refueling: " + pyvalue.Repr(p.GBAmount) + " GB at $" + pyvalue.Str(price) + "/GB"
				apply, err := chargeOnce(w, p.CustomerID, charge, description, today, b.newBillID)
				if err != nil {
					return nil, nil, err
				}
				if line, err = w.OwnRow(tableLines, line); err != nil {
					return nil, nil, err
				}
				if err := apply(); err != nil { // the first change: nothing has changed when it fails
					return nil, nil, err
				}
				line["data_refueling_gb"] = floatValue(refueled)
				action := state.NewAction(NameRefuelData,
					map[string]any{"customer_id": p.CustomerID, "line_id": p.LineID, "gb_amount": floatValue(p.GBAmount)},
					map[string]any{"new_data_refueling_gb": floatValue(refueled), "charge": floatValue(charge)})
				return RefuelResult{
					Message: "Successfully added " + pyvalue.Repr(p.GBAmount) + " GB of data for line " + p.LineID +
						" for $" + format2(charge),
					NewDataRefuelingGB: floatValue(refueled),
					Charge:             floatValue(charge),
				}, action, nil
			})
		}, nil)
}

// chargeOnce prepares a one-time charge on the customer's first Draft bill
// — or, when the customer has none, on a new Draft bill for next month —
// and returns the function that applies it, so that every check is made
// before anything changes. The rows it will change are w's own copies
// already (equal to the originals until the charge is applied).
func chargeOnce(w *state.Writer, customerID string, amount float64, description string, today time.Time, newID func() string) (func() error, error) {
	db := w.DB
	customer, err := find(db, tableCustomers, "customer_id", customerID)
	if err != nil {
		return nil, err
	}
	if customer == nil {
		return nil, pyvalue.Raise("ValueError", "Customer %s not found", customerID)
	}
	bills, err := customerBills(db, customer)
	if err != nil {
		return nil, err
	}
	var draft map[string]any
	for _, bill := range bills {
		if len(bill) == 0 {
			continue
		}
		status, err := subscript(bill, "status")
		if err != nil {
			return nil, err
		}
		if status == billStatusDraft {
			draft = bill
			break
		}
	}
	var addBill func() error
	if draft != nil {
		if draft, err = w.OwnRow(tableBills, draft); err != nil {
			return nil, err
		}
	} else {
		v, err := subscript(db, tableBills)
		if err != nil {
			return nil, err
		}
		if _, err := appendable(v); err != nil {
			return nil, err
		}
		if customer, err = w.OwnRow(tableCustomers, customer); err != nil {
			return nil, err
		}
		ids, err := appendable(customer["bill_ids"]) // customerBills read it
		if err != nil {
			return nil, err
		}
		next := firstOfMonth(today, 1)
		id := newID()
		draft = w.Order().Keep(map[string]any{
			"bill_id":      id,
			"customer_id":  customerID,
			"period_start": isoDate(next),
			"period_end":   isoDate(lastOfMonth(today, 1)),
			"issue_date":   isoDate(next),
			"total_due":    json0,
			"due_date":     isoDate(next.AddDate(0, 0, 14)),
			"line_items":   []any{},
			"status":       billStatusDraft,
		}, "bill_id", "customer_id", "period_start", "period_end", "issue_date", "total_due", "due_date", "line_items", "status")
		addBill = func() error {
			if err := w.Append(tableBills, draft); err != nil {
				return err
			}
			customer["bill_ids"] = append(ids, id)
			return nil
		}
	}
	items, err := subscript(draft, "line_items")
	if err != nil {
		return nil, err
	}
	lineItems, err := appendable(items)
	if err != nil {
		return nil, err
	}
	total, _ := get(draft, "total_due", json0)
	due, err := pyvalue.Float(total)
	if err != nil {
		return nil, err
	}
	itemType := "Charge"
	if amount < 0 {
		itemType = "Credit"
	}
	return func() error {
		if addBill != nil {
			if err := addBill(); err != nil {
				return err
			}
		}
		draft["line_items"] = append(lineItems, w.Order().Keep(map[string]any{
			"description": description,
			"amount":      floatValue(amount),
			"date":        isoDate(today),
			"item_type":   itemType,
		}, "description", "amount", "date", "item_type"))
		draft["total_due"] = floatValue(due + amount)
		return nil
	}, nil
}

func newTransferToHumanAgents(b binding) (tool.Tool, error) {
	return newTool(b, NameTransferToHumanAgents,
		func(ctx context.Context, st *state.Shared, p TransferParams) (any, error) {
			agentSide.Recorder.Record(ctx, st, state.NewAction(NameTransferToHumanAgents,
				map[string]any{"summary": p.Summary}, map[string]any{"transferred": true}))
			return messageTransferSuccessful, nil
		},
		func(ctx context.Context, st *state.Shared, _ any) error {
			tool.SendExit(ctx, st, "Transfer complete.", nil)
			return nil
		})
}

const messageTransferSuccessful = "Transfer successful"

// json0 is the int 0 as a DB value.
const json0 = json.Number("0")
