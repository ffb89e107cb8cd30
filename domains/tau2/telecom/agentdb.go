package telecom

import "github.com/voiceeval/schematools/internal/pyvalue"

// The agent DB holds five tables, each a list of records: plans,
// customers, lines, bills, devices. Records are found by scanning a table
// in order, first match wins, as the Python original does. Three flavours
// of scan exist because the Python code has three: the tools index
// strictly (db["lines"], line["line_id"]), the initialisation functions and
// predicates tolerate missing tables (db.get("lines") or []), and the sync
// tolerates missing fields too (line.get("phone_number")).

// Tables of the agent DB, and the key of each one's records.
const (
	tablePlans     = "plans"
	tableCustomers = "customers"
	tableLines     = "lines"
	tableBills     = "bills"
	tableDevices   = "devices"
)

// The tables the agent-side writes change, row by row
// (state.Writer).
var (
	linesOnly    = []string{tableLines}
	billsOnly    = []string{tableBills}
	chargeTables = []string{tableLines, tableBills, tableCustomers}
)

// find returns the first record of db[table] whose record[key] == want,
// or nil: Python's for r in db[table]: if r[key] == want: return r. The
// values compare as those of one json.loads do (pyvalue.EqualLoaded: a NaN
// inside a list equals a NaN inside a list), as the DB's own do in Python.
func find(db map[string]any, table, key string, want any) (map[string]any, error) {
	rows, err := iterateItem(db, table)
	if err != nil {
		return nil, err
	}
	for _, r := range rows {
		v, err := subscript(r, key)
		if err != nil {
			return nil, err
		}
		if pyvalue.EqualLoaded(v, want) {
			return r.(map[string]any), nil // only a dict takes a string index
		}
	}
	return nil, nil
}

// findOr is find over (db.get(table) or []), the initialisation
// functions' and predicates' scan.
func findOr(db map[string]any, table, key string, want any) (map[string]any, error) {
	t := db[table]
	if !pyvalue.Truthy(t) {
		return nil, nil
	}
	return find(map[string]any{table: t}, table, key, want)
}

// findGet is the sync's scan: for r in db.get(table, []): if
// r.get(key) == want: return r.
func findGet(db map[string]any, table, key string, want any) (map[string]any, error) {
	t, ok := db[table]
	if !ok {
		return nil, nil
	}
	rows, err := pyvalue.Iter(t)
	if err != nil {
		return nil, err
	}
	for _, r := range rows {
		v, err := get(r, key, nil)
		if err != nil {
			return nil, err
		}
		if pyvalue.EqualLoaded(v, want) {
			return r.(map[string]any), nil
		}
	}
	return nil, nil
}

// targetLine resolves a line of a customer as the agent tools do: the
// customer must exist, list the line among its line_ids, and the line must
// exist. A refusal is returned as the tool_error message.
func targetLine(db map[string]any, customerID, lineID string) (line map[string]any, refusal string, err error) {
	customer, err := find(db, tableCustomers, "customer_id", customerID)
	if err != nil || customer == nil {
		return nil, "Customer with ID " + customerID + " not found", err
	}
	ids, err := subscript(customer, "line_ids")
	if err != nil {
		return nil, "", err
	}
	if ok, err := pyvalue.Contains(lineID, ids); err != nil || !ok {
		return nil, "Line " + lineID + " not found for customer " + customerID, err
	}
	line, err = find(db, tableLines, "line_id", lineID)
	if err != nil || line == nil {
		return nil, "Line with ID " + lineID + " not found", err
	}
	return line, "", nil
}

// targetLinePlan is targetLine followed by the line's plan, as the tools
// that price a line start: refused (a tool_error result) when the line is
// not the customer's or its plan is missing, the latter with the text
// planMissing gives for the line's plan_id.
func targetLinePlan(db map[string]any, customerID, lineID string, planMissing func(planID any) string) (line, plan map[string]any, refused any, err error) {
	line, refusal, err := targetLine(db, customerID, lineID)
	if err != nil {
		return nil, nil, nil, err
	}
	if line == nil {
		return nil, nil, toolError("%s", refusal), nil
	}
	planID, err := subscript(line, "plan_id")
	if err != nil {
		return nil, nil, nil, err
	}
	if plan, err = find(db, tablePlans, "plan_id", planID); err != nil {
		return nil, nil, nil, err
	}
	if plan == nil {
		return nil, nil, toolError("%s", planMissing(planID)), nil
	}
	return line, plan, nil, nil
}

// customerLine resolves a line of a customer as the initialisation
// functions and predicates do: nil when the customer, its claim on the
// line or the line is missing.
func customerLine(db map[string]any, customerID, lineID any) (map[string]any, error) {
	customer, err := findOr(db, tableCustomers, "customer_id", customerID)
	if err != nil || customer == nil {
		return nil, err
	}
	ids := customer["line_ids"]
	if !pyvalue.Truthy(ids) {
		return nil, nil
	}
	if ok, err := pyvalue.Contains(lineID, ids); err != nil || !ok {
		return nil, err
	}
	return findOr(db, tableLines, "line_id", lineID)
}
