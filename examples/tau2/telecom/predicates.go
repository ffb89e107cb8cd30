package telecom

import (
	"math"
	"slices"

	"github.com/voiceeval/schematools/examples/tau2/tau2tools"
	"github.com/voiceeval/schematools/replay"
)

// Predicates returns the six DB-state predicates of the telecom tasks,
// registered under Domain by their tau2 names. Four read the user's phone:
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
func Predicates() *replay.Predicates {
	r := replay.NewPredicates()
	for _, p := range predicates() {
		_ = r.Register(Domain, p.name, func(db map[string]any, args map[string]any) (bool, error) {
			bound, err := bindArgs(p.name, args, p.params...)
			if err != nil {
				return false, typed(err)
			}
			ok, err := p.check(db, bound)
			return ok, typed(err)
		}) // names are valid and unique: Register cannot fail
	}
	return r
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
			return err == nil && pyEqual(working, a["expected_status"]), err
		}},
		{"assert_internet_speed", []param{req("expected_speed"), opt("expected_desc")}, assertInternetSpeed},
		{"assert_service_status", []param{req("expected_status")}, func(db, a map[string]any) (bool, error) {
			want := a["expected_status"]
			if !slices.ContainsFunc(networkStatuses[:], func(s string) bool { return tau2tools.IsStr(want, s) }) {
				return false, raise("ValueError", "%s is not a valid NetworkStatus", pyRepr(want))
			}
			status, err := deviceField(db, "network_connection_status")
			return err == nil && pyEqual(status, want), err
		}},
		{"assert_can_send_mms", []param{req("expected_status")}, func(db, a map[string]any) (bool, error) {
			can, err := canSendMMS(db, false)
			return err == nil && pyEqual(can, a["expected_status"]), err
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
			return err == nil && tau2tools.IsStr(status, billStatusPaid), err
		}},
	}
}

func assertInternetSpeed(db, a map[string]any) (bool, error) {
	speed, verdict, _, err := speedTest(db)
	if err != nil {
		return false, err
	}
	c, ok := compare(floatValue(speed), a["expected_speed"])
	if !ok {
		if _, isNum := bigOf(a["expected_speed"]); !isNum && !isNaN(a["expected_speed"]) {
			return false, raise("TypeError", "'>=' not supported between instances of 'float' and '%s'", tau2tools.PyTypeName(a["expected_speed"]))
		}
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
		return false, raise("AttributeError", "'%s' object has no attribute 'lower'", tau2tools.PyTypeName(desc))
	}
	return pyLower(verdict) == pyLower(s), nil
}

// closeTo is Python's abs(have - want) < 1e-6 for two numbers.
func closeTo(have, want any) (bool, error) {
	h, err := number(have, "-", tau2tools.PyTypeName(want))
	if err != nil {
		return false, err
	}
	w, err := number(want, "-", tau2tools.PyTypeName(have))
	if err != nil {
		return false, raise("TypeError", "unsupported operand type(s) for -: '%s' and '%s'", tau2tools.PyTypeName(have), tau2tools.PyTypeName(want))
	}
	return math.Abs(h-w) < 1e-6, nil
}

func isNaN(v any) bool {
	f, ok := v.(float64)
	return ok && math.IsNaN(f)
}
