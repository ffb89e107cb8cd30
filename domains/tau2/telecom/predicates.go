package telecom

import (
	"slices"

	"github.com/voiceeval/schematools/hooks"
	"github.com/voiceeval/schematools/internal/pyvalue"
)

// predicateHooks returns the six DB-state predicates of the telecom
// tasks, by their tau2 names. Four read the user's phone:
//
//   - assert_mobile_data_status(expected_status): mobile data works (no
//     airplane mode, a signal, service, roaming allowed on the line and on
//     the phone when abroad, data on, the allowance not exceeded) as
//     expected;
//   - assert_internet_speed(expected_speed, expected_desc=None): the
//     simulated speed test gives at least expected_speed Mbps (0 without
//     mobile data) and, when expected_desc is given, that verdict ("very
//     poor", "poor", "fair", "good", "excellent"; case does not matter);
//   - assert_service_status(expected_status): the connection status is
//     expected_status, one of "connected", "searching", "no_service",
//     "emergency_only" (anything else raises ValueError);
//   - assert_can_send_mms(expected_status): the messaging app can send MMS
//     as expected.
//
// Two read the agent DB:
//
//   - assert_data_refueling_amount(customer_id, line_id, expected_amount):
//     the customer's line has data_refueling_gb within 1e-6 of
//     expected_amount (false when there is no such line);
//   - assert_no_overdue_bill(overdue_bill_id): the bill is gone or Paid.
//
// Values compare with Python's ==, so expected_status 1 means true. A
// predicate that cannot read its DB, or is called with wrong arguments,
// fails with "<Type>: <message>", which replay.Evaluate reports after
// "Predicate raised: ".
func predicateHooks() map[string]hooks.Predicate {
	m := map[string]hooks.Predicate{}
	for _, p := range predicates() {
		m[p.name] = func(db map[string]any, args map[string]any) (bool, error) {
			bound, err := bindArgs(p.name, args, p.params...)
			if err != nil {
				return false, err
			}
			ok, err := p.check(db, bound)
			return ok, err
		}
	}
	return m
}

// PredicateNames returns the names of the six predicates.
func PredicateNames() []string {
	ps := predicates()
	names := make([]string, len(ps))
	for i, p := range ps {
		names[i] = p.name
	}
	return names
}

type predicate struct {
	name   string
	params []param
	check  func(db, args map[string]any) (bool, error)
}

func predicates() []predicate {
	return []predicate{
		{"assert_mobile_data_status", []param{req("expected_status")}, func(db, a map[string]any) (bool, error) {
			working, err := mobileDataWorking(db, false)
			return err == nil && pyvalue.EqualLoaded(working, a["expected_status"]), err
		}},
		{"assert_internet_speed", []param{req("expected_speed"), opt("expected_desc")}, assertInternetSpeed},
		{"assert_service_status", []param{req("expected_status")}, func(db, a map[string]any) (bool, error) {
			want := a["expected_status"]
			if !slices.ContainsFunc(networkStatuses[:], func(s string) bool { return want == s }) {
				return false, pyvalue.Raise("ValueError", "%s is not a valid NetworkStatus", pyvalue.Repr(want))
			}
			status, err := deviceField(db, "network_connection_status")
			return err == nil && pyvalue.EqualLoaded(status, want), err
		}},
		{"assert_can_send_mms", []param{req("expected_status")}, func(db, a map[string]any) (bool, error) {
			can, err := canSendMMS(db, false)
			return err == nil && pyvalue.EqualLoaded(can, a["expected_status"]), err
		}},
		{"assert_data_refueling_amount", []param{req("customer_id"), req("line_id"), req("expected_amount")},
			func(db, a map[string]any) (bool, error) {
				line, err := customerLine(db, a["customer_id"], a["line_id"])
				if err != nil || line == nil {
					return false, err
				}
				have, err := subscript(line, "data_refueling_gb")
				if err != nil {
					return false, err
				}
				return closeTo(have, a["expected_amount"])
			}},
		{"assert_no_overdue_bill", []param{req("overdue_bill_id")}, func(db, a map[string]any) (bool, error) {
			bill, err := findOr(db, tableBills, "bill_id", a["overdue_bill_id"])
			if err != nil || bill == nil {
				return err == nil, err
			}
			status, err := subscript(bill, "status")
			return err == nil && status == billStatusPaid, err
		}},
	}
}

func assertInternetSpeed(db, a map[string]any) (bool, error) {
	speed, verdict, _, err := speedTest(db)
	if err != nil {
		return false, err
	}
	want, isNum := pyvalue.NumOf(a["expected_speed"])
	if !isNum {
		return false, pyvalue.Raise("TypeError", "'>=' not supported between instances of 'float' and '%s'", pyvalue.TypeName(a["expected_speed"]))
	}
	c, ok := pyvalue.FloatNum(speed).Cmp(want)
	if !ok {
		return false, nil // NaN: every comparison is false
	}
	desc, given := a["expected_desc"]
	if !given || desc == nil {
		return c >= 0, nil
	}
	if c < 0 {
		return false, nil
	}
	s, isStr := desc.(string)
	if !isStr {
		return false, noAttribute(desc, "lower")
	}
	return pyvalue.Lower(verdict) == pyvalue.Lower(s), nil
}

// closeTo is Python's abs(have - want) < 1e-6 for two numbers.
func closeTo(have, want any) (bool, error) {
	h, okH := pyvalue.NumOf(have)
	w, okW := pyvalue.NumOf(want)
	if !okH || !okW {
		return false, operandError("-", have, want)
	}
	d, err := h.Sub(w)
	if err != nil {
		return false, err
	}
	if d.Sign() < 0 {
		d = d.Neg()
	}
	c, ok := d.Cmp(pyvalue.FloatNum(1e-6))
	return ok && c < 0, nil
}
