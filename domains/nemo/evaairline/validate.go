package evaairline

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"math/big"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/voiceeval/schematools/internal/pyvalue"
	"github.com/voiceeval/schematools/tool"
)

// This file reproduces what the original does with a model's arguments:
// pydantic v2 validates them (lax mode, extra keys ignored) against the
// tool's parameter model, and eva's validation_error_response turns the
// first error it can name into the tool's result.

// kind is the Python type of a model field.
type kind int

const (
	kindStr     kind = iota // str (with an optional pattern)
	kindEnum                // a StrEnum
	kindInt                 // int (with optional ge / le)
	kindFloat               // float (with gt=0)
	kindBool                // bool
	kindStrList             // list[str] (with an item pattern)
)

// field is one field of a parameter model, in the model's order.
type field struct {
	name     string
	kind     kind
	pattern  *regexp.Regexp
	source   string   // the pattern as pydantic shows it
	desc     string   // the field's description ("" when pydantic has none)
	examples []string // the field's examples
	enum     []string
	optional bool // X | None = None
	ge, le   *int64
	gtZero   bool
}

// annotated is one of eva's annotated string types.
type annotated struct {
	source, desc string
	examples     []string
	re           *regexp.Regexp
}

// pyRegexp compiles a pattern as pydantic's Rust engine reads it: \d is
// any Unicode decimal digit.
func pyRegexp(source string) *regexp.Regexp {
	return regexp.MustCompile(strings.ReplaceAll(source, `\d`, `\p{Nd}`))
}

func newAnnotated(source, desc string, examples ...string) annotated {
	return annotated{source: source, desc: desc, examples: examples, re: pyRegexp(source)}
}

// eva's annotated types.
var (
	confirmationNumber = newAnnotated(`^[A-Za-z0-9]{6}$`, "6 alphanumeric characters")
	flightNumberStr    = newAnnotated(`^[A-Za-z]{2,3}\d{1,4}$`, "2-3 letters followed by 1-4 digits", "SK621")
	dateStr            = newAnnotated(`^\d{4}-\d{2}-\d{2}$`, "YYYY-MM-DD")
	journeyIDStr       = newAnnotated(`^FL_(?:[A-Za-z]{2,3}\d{1,4}_)+\d{8}$`, "FL_<flight>_<YYYYMMDD>", "FL_SK621_20260320")
	passengerIDStr     = newAnnotated(`^PAX\d+$`, "PAX<digits>", "PAX001")
	airportCode        = newAnnotated(`^[A-Za-z]{3}$`, "3-letter airport code", "JFK")
)

// req is a required field of an annotated type: pydantic knows its
// description and examples.
func req(name string, a annotated) field {
	return field{name: name, kind: kindStr, pattern: a.re, source: a.source, desc: a.desc, examples: a.examples}
}

// opt is an optional field (A | None = None) of an annotated type: the
// description sits inside the union, so pydantic's field has none.
func opt(name string, a annotated) field {
	return field{name: name, kind: kindStr, pattern: a.re, source: a.source, optional: true}
}

func str(name string) field { return field{name: name, kind: kindStr} }

func enum(name string, values ...string) field {
	return field{name: name, kind: kindEnum, enum: values}
}

func integer(name string, ge, le *int64) field {
	return field{name: name, kind: kindInt, ge: ge, le: le}
}

func positive(name string) field { return field{name: name, kind: kindFloat, gtZero: true} }

func boolean(name string) field { return field{name: name, kind: kindBool} }

func passengerList(name string) field {
	return field{name: name, kind: kindStrList, pattern: passengerIDStr.re, source: passengerIDStr.source}
}

func i64(v int64) *int64 { return &v }

// The enums of the parameter models, in their declaration order.
var (
	fareClasses               = []string{"basic_economy", "main_cabin", "premium_economy", "business", "first"}
	fareClassesOrAny          = append(slices.Clone(fareClasses), "any")
	rebookingTypes            = []string{"voluntary", "same_day", "irrops_cancellation", "irrops_delay", "irrops_schedule_change", "missed_flight_passenger_fault", "missed_connection_airline_fault"}
	seatPreferences           = []string{"window", "aisle", "middle", "no_preference"}
	mealTypes                 = []string{"vegetarian", "vegan", "kosher", "halal", "gluten_free", "diabetic", "low_sodium", "child", "hindu", "none", "standard"}
	creditReasons             = []string{"cancellation_non_refundable", "fare_difference_negative", "service_recovery", "goodwill", "downgrade_compensation"}
	voucherReasons            = []string{"delay_over_2_hours", "delay_over_4_hours", "cancellation_wait_same_day", "irrops_overnight"}
	refundTypes               = []string{"full_fare", "partial_fare", "taxes_only", "ancillary_fees"}
	cancelReasons             = []string{"voluntary", "irrops_refund", "24_hour_rule", "schedule_unacceptable", "medical", "bereavement"}
	fieldErrorTypes           = map[string]string{"rebooking_type": "invalid_rebooking_type", "new_fare_class": "invalid_fare_class", "fare_class": "invalid_fare_class", "meal_type": "invalid_meal_type", "credit_reason": "invalid_credit_reason", "voucher_reason": "invalid_voucher_reason", "refund_type": "invalid_refund_type", "seat_preference": "invalid_seat_preference", "cancellation_reason": "invalid_cancellation_reason", "confirmation_number": "invalid_confirmation_number_format", "flight_number": "invalid_flight_number_format", "flight_date": "invalid_date_format", "date": "invalid_date_format", "journey_id": "invalid_journey_id_format", "new_journey_id": "invalid_journey_id_format", "passenger_id": "invalid_passenger_id_format", "passenger_ids": "invalid_passenger_id_format", "origin": "invalid_airport_code_format", "destination": "invalid_airport_code_format", "num_bags": "invalid_bag_count"}
	errorTypeInvalidParameter = "invalid_parameter"
)

// pyError is one pydantic error: the field (loc[0]), the message and
// the input it is about.
type pyError struct {
	field string
	msg   string
	input any
}

// values are validated arguments: strings (enums included) as string,
// int as pyvalue.Num, float as float64, bool as bool, list[str] as
// []string, and nil for an omitted optional field or None.
type values map[string]any

func (v values) str(name string) string {
	s, _ := v[name].(string)
	return s
}

func (v values) num(name string) pyvalue.Num {
	switch x := v[name].(type) {
	case pyvalue.Num:
		return x
	case float64:
		return pyvalue.FloatNum(x)
	}
	return pyvalue.IntNum(0)
}

func (v values) strs(name string) []string {
	s, _ := v[name].([]string)
	return s
}

// validate validates args against model as pydantic's model_validate does:
// fields in order, every error collected, unknown keys ignored.
func validate(ctx context.Context, model []field, args map[string]any) (values, []pyError) {
	out := values{}
	var errs []pyError
	for _, f := range model {
		v, ok := args[f.name]
		if !ok {
			if f.optional {
				out[f.name] = nil
				continue
			}
			errs = append(errs, pyError{f.name, "Field required", argsDict(ctx, model, args)})
			continue
		}
		if v == nil && f.optional {
			out[f.name] = nil
			continue
		}
		val, fe := f.check(v)
		if len(fe) > 0 {
			errs = append(errs, fe...)
			continue
		}
		out[f.name] = val
	}
	return out, errs
}

// argsDict is the argument dict as Python holds it: in the order the
// model wrote it (tool.ArgumentKeys, for arguments tool.CallJSON decoded),
// else the model's fields in its order, then the other keys sorted (a Go
// map keeps no order; a model sends the properties in the schema's
// order).
func argsDict(ctx context.Context, model []field, args map[string]any) pyvalue.Dict {
	if keys, ok := tool.ArgumentKeys(ctx, args); ok {
		d := make(pyvalue.Dict, len(keys))
		for i, k := range keys {
			d[i] = pyvalue.Item{Key: k, Value: orderedArg(ctx, args[k])}
		}
		return d
	}
	d := make(pyvalue.Dict, 0, len(args))
	seen := map[string]bool{}
	for _, f := range model {
		if v, ok := args[f.name]; ok {
			d = append(d, pyvalue.Item{Key: f.name, Value: v})
			seen[f.name] = true
		}
	}
	var rest []string
	for k := range args {
		if !seen[k] {
			rest = append(rest, k)
		}
	}
	slices.Sort(rest)
	for _, k := range rest {
		d = append(d, pyvalue.Item{Key: k, Value: args[k]})
	}
	return d
}

// orderedArg is an argument value with its objects in the order the
// model wrote them, where that is known (see argsDict).
func orderedArg(ctx context.Context, v any) any {
	switch x := v.(type) {
	case map[string]any:
		keys, ok := tool.ArgumentKeys(ctx, x)
		if !ok {
			return x
		}
		d := make(pyvalue.Dict, len(keys))
		for i, k := range keys {
			d[i] = pyvalue.Item{Key: k, Value: orderedArg(ctx, x[k])}
		}
		return d
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = orderedArg(ctx, e)
		}
		return out
	}
	return v
}

func (f field) check(v any) (any, []pyError) {
	fail := func(msg string) (any, []pyError) { return nil, []pyError{{f.name, msg, v}} }
	switch f.kind {
	case kindStr:
		s, ok := v.(string)
		if !ok {
			return fail("Input should be a valid string")
		}
		if f.pattern != nil && !f.pattern.MatchString(s) {
			return fail("String should match pattern '" + f.source + "'")
		}
		return s, nil
	case kindEnum:
		if s, ok := v.(string); ok && slices.Contains(f.enum, s) {
			return s, nil
		}
		return fail("Input should be " + orList(f.enum))
	case kindInt:
		n, msg := laxInt(v)
		if msg != "" {
			return fail(msg)
		}
		if f.le != nil {
			if c, _ := n.Cmp(pyvalue.IntNum(*f.le)); c > 0 {
				return fail("Input should be less than or equal to " + strconv.FormatInt(*f.le, 10))
			}
		}
		if f.ge != nil {
			if c, _ := n.Cmp(pyvalue.IntNum(*f.ge)); c < 0 {
				return fail("Input should be greater than or equal to " + strconv.FormatInt(*f.ge, 10))
			}
		}
		return n, nil
	case kindFloat:
		x, msg := laxFloat(v)
		if msg != "" {
			return fail(msg)
		}
		if f.gtZero && !(x > 0) {
			return fail("Input should be greater than 0")
		}
		return x, nil
	case kindBool:
		b, msg := laxBool(v)
		if msg != "" {
			return fail(msg)
		}
		return b, nil
	case kindStrList:
		list, ok := v.([]any)
		if !ok {
			return fail("Input should be a valid list")
		}
		out := make([]string, 0, len(list))
		var errs []pyError
		for _, item := range list {
			s, ok := item.(string)
			switch {
			case !ok:
				errs = append(errs, pyError{f.name, "Input should be a valid string", item})
			case !f.pattern.MatchString(s):
				errs = append(errs, pyError{f.name, "String should match pattern '" + f.source + "'", item})
			default:
				out = append(out, s)
			}
		}
		if errs != nil {
			return nil, errs
		}
		return out, nil
	}
	return fail("unsupported field")
}

// orList is pydantic's enum expectation: 'a', 'b' or 'c'.
func orList(vals []string) string {
	q := make([]string, len(vals))
	for i, v := range vals {
		q[i] = "'" + v + "'"
	}
	if len(q) == 1 {
		return q[0]
	}
	return strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1]
}

const (
	msgIntType       = "Input should be a valid integer"
	msgIntParsing    = "Input should be a valid integer, unable to parse string as an integer"
	msgIntFraction   = "Input should be a valid integer, got a number with a fractional part"
	msgFinite        = "Input should be a finite number"
	msgFloatType     = "Input should be a valid number"
	msgFloatParsing  = "Input should be a valid number, unable to parse string as a number"
	msgBoolType      = "Input should be a valid boolean"
	msgBoolParsing   = "Input should be a valid boolean, unable to interpret input"
	msgIntTooLong    = "Unable to parse input string as an integer, exceeded maximum size"
	maxIntTextLength = 4300
)

// laxInt is pydantic's lax int: ints and bools as they are, floats without
// a fractional part, strings of an integer (decimal zeros allowed).
func laxInt(v any) (pyvalue.Num, string) {
	switch x := v.(type) {
	case bool:
		if x {
			return pyvalue.IntNum(1), ""
		}
		return pyvalue.IntNum(0), ""
	case json.Number, float64, float32, int, int64:
		n, ok := pyvalue.NumOf(x)
		if !ok {
			return n, msgIntType
		}
		if !n.IsFloat() {
			return n, ""
		}
		f, _ := n.Float64()
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return n, msgFinite
		}
		if f != math.Trunc(f) {
			return n, msgIntFraction
		}
		i, err := pyvalue.Int(f)
		if err != nil {
			return n, msgIntType
		}
		return i, ""
	case string:
		s := strings.TrimSpace(x)
		if len(s) > maxIntTextLength {
			return pyvalue.Num{}, msgIntTooLong
		}
		if n, ok := parseIntText(s); ok {
			return n, ""
		}
		if before, after, ok := strings.Cut(s, "."); ok && strings.Trim(after, "0") == "" {
			if n, ok := parseIntText(before); ok {
				return n, ""
			}
		}
		return pyvalue.Num{}, msgIntParsing
	}
	return pyvalue.Num{}, msgIntType
}

// parseIntText reads an optionally signed run of ASCII digits.
func parseIntText(s string) (pyvalue.Num, bool) {
	digits := strings.TrimLeft(s, "+-")
	if len(s)-len(digits) > 1 || digits == "" {
		return pyvalue.Num{}, false
	}
	for _, c := range digits {
		if c < '0' || c > '9' {
			return pyvalue.Num{}, false
		}
	}
	if i, err := strconv.ParseInt(s, 10, 64); err == nil {
		return pyvalue.IntNum(i), true
	}
	b, ok := new(big.Int).SetString(s, 10)
	if !ok {
		return pyvalue.Num{}, false
	}
	return pyvalue.BigNum(b), true
}

// laxFloat is pydantic's lax float: numbers and bools, and strings of a
// number (inf and nan included).
func laxFloat(v any) (float64, string) {
	switch x := v.(type) {
	case bool:
		if x {
			return 1, ""
		}
		return 0, ""
	case json.Number, float64, float32, int, int64:
		f, err := pyvalue.Float(x)
		if err != nil {
			return 0, msgFloatType
		}
		return f, ""
	case string:
		s := strings.TrimSpace(x)
		body := strings.TrimLeft(s, "+-")
		if strings.ContainsAny(s, "_xXpP") || len(s)-len(body) > 1 {
			return 0, msgFloatParsing
		}
		f, err := strconv.ParseFloat(s, 64)
		if err != nil && !errors.Is(err, strconv.ErrRange) {
			return 0, msgFloatParsing
		}
		return f, ""
	}
	return 0, msgFloatType
}

// laxBool is pydantic's lax bool: bools, the ints 0 and 1 (and floats
// equal to them), and the strings it knows.
func laxBool(v any) (bool, string) {
	switch x := v.(type) {
	case bool:
		return x, ""
	case string:
		switch strings.ToLower(x) {
		case "0", "f", "n", "no", "off", "false":
			return false, ""
		case "1", "t", "y", "on", "yes", "true":
			return true, ""
		}
		return false, msgBoolParsing
	case json.Number, float64, float32, int, int64:
		n, ok := pyvalue.NumOf(x)
		if !ok {
			return false, msgBoolType
		}
		if n.IsFloat() {
			f, _ := n.Float64()
			if math.IsNaN(f) || math.IsInf(f, 0) || f != math.Trunc(f) {
				return false, msgBoolType
			}
		}
		switch {
		case n.Equal(pyvalue.IntNum(0)):
			return false, ""
		case n.Equal(pyvalue.IntNum(1)):
			return true, ""
		}
		return false, msgBoolParsing
	}
	return false, msgBoolType
}

// validationResult is eva's validation_error_response: the first error
// whose field is in eva's field table, worded with the field's description
// and examples when pydantic has them; otherwise the first error, as an
// invalid_parameter.
func validationResult(model []field, errs []pyError) tool.FailureResult {
	for _, e := range errs {
		errorType, ok := fieldErrorTypes[e.field]
		if !ok {
			continue
		}
		msg := "Invalid " + e.field + " '" + pyvalue.Str(e.input) + "'"
		f := modelField(model, e.field)
		switch {
		case f.desc != "":
			msg += ": must be " + f.desc
			if len(f.examples) > 0 {
				msg += " (e.g. " + strings.Join(f.examples, ", ") + ")"
			}
		case e.msg != "":
			msg += ": " + e.msg
		}
		return tool.Failure(errorType, msg)
	}
	first := errs[0]
	return tool.Failure(errorTypeInvalidParameter, "Invalid or missing parameter '"+first.field+"': "+first.msg)
}

func modelField(model []field, name string) field {
	for _, f := range model {
		if f.name == name {
			return f
		}
	}
	return field{}
}
