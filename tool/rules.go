package tool

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/invopop/jsonschema"
)

// One declaration per rule. A parameters struct may state a rule in either
// tag language; the rule then reaches both the schema the model sees and
// the checks:
//
//   - a `validate` rule JSON Schema can express (oneof, min, max, gte, lte,
//     gt, lt, len, required; before and after one `dive` into a list) is
//     written into the schema by [applyValidate]; validator/v10 checks it;
//   - a `jsonschema` rule (the keywords of [checkedKeywords]) is in the
//     schema already (invopop) and is checked by the binder
//     ([rules.check]), with pydantic's issue types; any other keyword is
//     refused ([checkTags]), so the schema never promises a rule the
//     checks do not enforce.
//
// A rule stated both ways must say the same thing, or the parameters type
// is refused.

// rules are the checkable JSON Schema keywords of one value, as declared by
// `jsonschema` tags. The binder enforces them on the bound value.
type rules struct {
	enum                 []any // strings and json.Numbers
	minimum, maximum     json.Number
	exclMin, exclMax     json.Number
	minLength, maxLength *uint64
	minItems, maxItems   *uint64
	pattern              *regexp.Regexp
	// multipleOf is the keyword's text (for messages); multipleFloat its
	// value, and multipleInt too when the value is an integer (int64,
	// uint64) and is checked by exact remainder.
	multipleOf    json.Number
	multipleFloat float64
	multipleInt   int64
	unique        bool // uniqueItems
}

func (r *rules) empty() bool {
	return r.enum == nil && r.minimum == "" && r.maximum == "" && r.exclMin == "" && r.exclMax == "" &&
		r.minLength == nil && r.maxLength == nil && r.minItems == nil && r.maxItems == nil && r.pattern == nil &&
		r.multipleOf == "" && !r.unique
}

// rulesOf reads the checkable keywords of sc, the schema of a value bound
// as k, or nil if it has none.
func rulesOf(sc *jsonschema.Schema, k kind) (*rules, error) {
	if sc == nil {
		return nil, nil
	}
	r := &rules{
		enum:    slices.Clone(sc.Enum),
		minimum: sc.Minimum, maximum: sc.Maximum, exclMin: sc.ExclusiveMinimum, exclMax: sc.ExclusiveMaximum,
		minLength: sc.MinLength, maxLength: sc.MaxLength, minItems: sc.MinItems, maxItems: sc.MaxItems,
		unique: sc.UniqueItems,
	}
	if sc.Pattern != "" {
		re, err := regexp.Compile(sc.Pattern)
		if err != nil {
			return nil, fmt.Errorf("pattern %q: %w", sc.Pattern, err)
		}
		r.pattern = re
	}
	if sc.MultipleOf != "" {
		if err := r.setMultipleOf(sc.MultipleOf, k); err != nil {
			return nil, err
		}
	}
	if r.empty() {
		return nil, nil
	}
	return r, nil
}

// setMultipleOf reads multipleOf=m for a value bound as k. JSON Schema
// wants a number above zero; pydantic refuses a multiple_of an integer
// field cannot be checked against exactly ("'multiple_of' must be
// coercible to an integer").
func (r *rules) setMultipleOf(m json.Number, k kind) error {
	f, err := strconv.ParseFloat(string(m), 64)
	if err != nil || !(f > 0) || math.IsInf(f, 0) {
		return fmt.Errorf("multipleOf must be a positive number, got %s", m)
	}
	r.multipleOf, r.multipleFloat = m, f
	if k == kindInt || k == kindUint {
		if f != math.Trunc(f) || f >= 1<<63 {
			return fmt.Errorf("multipleOf of an integer must be an integer below 2^63, got %s", m)
		}
		r.multipleInt = int64(f)
	}
	return nil
}

// attachRules gives every value of plan s the jsonschema-tag rules of its
// schema sc (a pointer's rules go to the value it points to, a list's
// items' to its element).
func attachRules(s *spec, sc *jsonschema.Schema) error {
	if s == nil || sc == nil {
		return nil
	}
	switch s.kind {
	case kindPtr:
		return attachRules(s.elem, sc)
	case kindSlice:
		if err := attachRules(s.elem, sc.Items); err != nil {
			return err
		}
	case kindMap:
		return attachRules(s.elem, sc.AdditionalProperties)
	case kindStruct:
		for i := range s.fields {
			f := &s.fields[i]
			var child *jsonschema.Schema
			if sc.Properties != nil {
				child, _ = sc.Properties.Get(f.name)
			}
			if err := checkTags(s.typ.FieldByIndex(f.index), child); err != nil {
				return fmt.Errorf("field %s: %w", f.name, err)
			}
			if child != nil {
				if err := attachRules(f.spec, child); err != nil {
					return fmt.Errorf("field %s: %w", f.name, err)
				}
			}
		}
		return nil
	}
	r, err := rulesOf(sc, s.kind)
	if err != nil {
		return err
	}
	s.rules = r
	return nil
}

// valueSpec is the plan of the value a pointer finally points to.
func valueSpec(s *spec) *spec {
	for s != nil && s.kind == kindPtr {
		s = s.elem
	}
	return s
}

// applyValidate writes the validate rules of every field of struct plan s
// into its schema sc, at every nesting level the validator reaches: nested
// structs and pointers to them always, list and map elements only through
// a `dive`. A rule also declared by a jsonschema tag must agree with it; it
// is then left to the validator. Keys the rules make required join the
// required list in field order.
func applyValidate(s *spec, sc *jsonschema.Schema) error {
	s = valueSpec(s)
	if s == nil || sc == nil || s.kind != kindStruct || sc.Properties == nil {
		return nil
	}
	required := map[string]bool{}
	for _, r := range sc.Required {
		required[r] = true
	}
	for i := range s.fields {
		f := &s.fields[i]
		child, ok := sc.Properties.Get(f.name)
		if !ok {
			continue
		}
		parts := strings.Split(s.typ.FieldByIndex(f.index).Tag.Get("validate"), ",")
		req, err := validateIntoSchema(parts, f.spec, child)
		if err != nil {
			return fmt.Errorf("field %s: %w", f.name, err)
		}
		if req {
			required[f.name] = true
		}
		// Descend where the validator does: one level of list or map
		// per dive, structs always.
		fs, fsc := valueSpec(f.spec), child
		for _, p := range parts {
			if p != "dive" || fs == nil || (fs.kind != kindSlice && fs.kind != kindMap) {
				continue
			}
			if fs.kind == kindSlice {
				fsc = fsc.Items
			} else {
				fsc = fsc.AdditionalProperties
			}
			fs = valueSpec(fs.elem)
			if fsc == nil {
				break
			}
		}
		if err := applyValidate(fs, fsc); err != nil {
			return fmt.Errorf("field %s: %w", f.name, err)
		}
	}
	if len(required) > len(sc.Required) {
		sc.Required = sc.Required[:0]
		for i := range s.fields {
			if required[s.fields[i].name] {
				sc.Required = append(sc.Required, s.fields[i].name)
			}
		}
	}
	return nil
}

// validateIntoSchema writes the validate rules parts (one field's tag, split
// on commas) of a value with plan s into its schema sc. It reports whether
// the tag makes the key required.
func validateIntoSchema(parts []string, s *spec, sc *jsonschema.Schema) (required bool, err error) {
	s = valueSpec(s)
	for i, part := range parts {
		name, param, _ := strings.Cut(part, "=")
		switch {
		case name == "dive":
			if s.kind == kindSlice && sc.Items != nil {
				_, err := validateIntoSchema(parts[i+1:], s.elem, sc.Items)
				return required, err
			}
			return required, nil
		case name == "required":
			required = true
		case strings.Contains(part, "|"):
			// an or-rule: no single JSON Schema keyword says it
		default:
			if err := validateRule(name, param, s, sc); err != nil {
				return required, err
			}
		}
	}
	return required, nil
}

// sizeKind is what a validate size rule (min, max, len…) measures on a
// value with plan s: "number", "length" (string characters), "items" or "".
func sizeKind(s *spec) string {
	switch s.kind {
	case kindInt, kindUint, kindFloat:
		return "number"
	case kindString:
		return "length"
	case kindSlice:
		return "items"
	}
	return ""
}

// validateRule writes one validate rule into sc, unless JSON Schema has no
// keyword for it. A keyword sc already has (from a jsonschema tag) must
// have the same value; it is then dropped from the binder's rules, as the
// validator checks it.
func validateRule(name, param string, s *spec, sc *jsonschema.Schema) error {
	what := sizeKind(s)
	if name == "oneof" {
		vals := splitOneOf(param)
		enum := make([]any, 0, len(vals))
		for _, v := range vals {
			switch what {
			case "length":
				enum = append(enum, v)
			case "number":
				if _, err := strconv.ParseFloat(v, 64); err != nil {
					return nil // the validator refuses it when New runs the rules
				}
				enum = append(enum, json.Number(v))
			default:
				return nil
			}
		}
		if sc.Enum != nil {
			if !sameSet(sc.Enum, enum) {
				return conflict("enum", sc.Enum, "oneof="+param)
			}
			if s.rules != nil {
				s.rules.enum = nil
			}
			return nil
		}
		sc.Enum = enum
		return nil
	}
	if what == "" {
		return nil
	}
	if what == "number" {
		if _, err := strconv.ParseFloat(param, 64); err != nil {
			return nil
		}
		n := json.Number(param)
		var kw string
		var dst *json.Number
		var tagged *json.Number
		switch name {
		case "min", "gte":
			kw, dst = "minimum", &sc.Minimum
		case "max", "lte":
			kw, dst = "maximum", &sc.Maximum
		case "gt":
			kw, dst = "exclusiveMinimum", &sc.ExclusiveMinimum
		case "lt":
			kw, dst = "exclusiveMaximum", &sc.ExclusiveMaximum
		default:
			return nil
		}
		if s.rules != nil {
			tagged = map[string]*json.Number{"minimum": &s.rules.minimum, "maximum": &s.rules.maximum,
				"exclusiveMinimum": &s.rules.exclMin, "exclusiveMaximum": &s.rules.exclMax}[kw]
		}
		if *dst != "" {
			if !sameNumber(*dst, n) {
				return conflict(kw, *dst, name+"="+param)
			}
			if tagged != nil {
				*tagged = ""
			}
			return nil
		}
		*dst = n
		return nil
	}
	u, err := strconv.ParseUint(param, 10, 64)
	if err != nil {
		return nil
	}
	var lo, hi *uint64
	switch name {
	case "min", "gte":
		lo = &u
	case "max", "lte":
		hi = &u
	case "gt":
		lo = ptr(u + 1)
	case "lt":
		if u == 0 {
			return nil
		}
		hi = ptr(u - 1)
	case "len":
		lo, hi = &u, &u
	default:
		return nil
	}
	minKw, maxKw := "minLength", "maxLength"
	minDst, maxDst := &sc.MinLength, &sc.MaxLength
	var minTag, maxTag **uint64
	if s.rules != nil {
		minTag, maxTag = &s.rules.minLength, &s.rules.maxLength
	}
	if what == "items" {
		minKw, maxKw = "minItems", "maxItems"
		minDst, maxDst = &sc.MinItems, &sc.MaxItems
		if s.rules != nil {
			minTag, maxTag = &s.rules.minItems, &s.rules.maxItems
		}
	}
	set := func(kw string, dst **uint64, tagged **uint64, v *uint64) error {
		if v == nil {
			return nil
		}
		if *dst != nil {
			if **dst != *v {
				return conflict(kw, **dst, name+"="+param)
			}
			if tagged != nil {
				*tagged = nil
			}
			return nil
		}
		*dst = ptr(*v)
		return nil
	}
	if err := set(minKw, minDst, minTag, lo); err != nil {
		return err
	}
	return set(maxKw, maxDst, maxTag, hi)
}

func ptr[T any](v T) *T { return &v }

func conflict(kw string, tagged any, rule string) error {
	return fmt.Errorf("%w: the jsonschema tag says %s=%v but the validate tag says %s; write the rule once",
		ErrInvalidParams, kw, tagged, rule)
}

// sameSet reports whether two enums hold the same values, in any order.
func sameSet(a, b []any) bool {
	if len(a) != len(b) {
		return false
	}
	key := func(vs []any) []string {
		out := make([]string, len(vs))
		for i, v := range vs {
			out[i] = fmt.Sprint(v)
		}
		slices.Sort(out)
		return out
	}
	return slices.Equal(key(a), key(b))
}

func sameNumber(a, b json.Number) bool {
	x, err1 := a.Float64()
	y, err2 := b.Float64()
	return err1 == nil && err2 == nil && x == y
}

// check applies r to the bound value v and records what fails, with the
// type codes and wording pydantic uses for the same constraints.
func (r *rules) check(b *binder, v reflect.Value) {
	switch v.Kind() {
	case reflect.String:
		if v.Type() == numberType {
			f, err := json.Number(v.String()).Float64()
			if err == nil {
				r.checkNumber(b, f, r.notMultipleFloat)
			}
			return
		}
		s := v.String()
		if r.enum != nil && !slices.ContainsFunc(r.enum, func(e any) bool { return e == s }) {
			b.failRule("enum", "Input should be "+orList(enumText(r.enum)))
			return
		}
		n := uint64(utf8.RuneCountInString(s))
		if r.minLength != nil && n < *r.minLength {
			b.failRule("string_too_short", sizeMessage(reflect.String, strconv.FormatUint(*r.minLength, 10), "at least", ""))
		}
		if r.maxLength != nil && n > *r.maxLength {
			b.failRule("string_too_long", sizeMessage(reflect.String, strconv.FormatUint(*r.maxLength, 10), "at most", ""))
		}
		if r.pattern != nil && !r.pattern.MatchString(s) {
			b.failRule("string_pattern_mismatch", fmt.Sprintf("String should match pattern '%s'", r.pattern))
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		r.checkNumber(b, float64(v.Int()), func(float64) bool { return v.Int()%r.multipleInt != 0 })
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		r.checkNumber(b, float64(v.Uint()), func(float64) bool { return v.Uint()%uint64(r.multipleInt) != 0 })
	case reflect.Float32:
		// The float32 nearest the JSON number, read back as the double
		// Python holds: 0.3 stays 0.3, not 0.30000001192092896.
		f, _ := strconv.ParseFloat(strconv.FormatFloat(v.Float(), 'g', -1, 32), 64)
		r.checkNumber(b, f, r.notMultipleFloat)
	case reflect.Float64:
		r.checkNumber(b, v.Float(), r.notMultipleFloat)
	case reflect.Slice:
		n := uint64(v.Len())
		if r.minItems != nil && n < *r.minItems {
			b.failRule("too_short", sizeMessage(reflect.Slice, strconv.FormatUint(*r.minItems, 10), "at least", ""))
		}
		if r.maxItems != nil && n > *r.maxItems {
			b.failRule("too_long", sizeMessage(reflect.Slice, strconv.FormatUint(*r.maxItems, 10), "at most", ""))
		}
		if r.unique {
			if i, j, dup := firstRepeat(v); dup {
				b.failRule("unique_items", fmt.Sprintf("List should have unique items; item %d repeats item %d", j, i))
			}
		}
	}
}

// notMultipleFloat is pydantic-core's multiple_of check of a float: the
// value is a multiple when it is within 1e-9 of the nearest multiple
// (round(f/m)*m, halves away from zero).
func (r *rules) notMultipleFloat(f float64) bool {
	m := r.multipleFloat
	return math.Abs(f-math.Round(f/m)*m) > 1e-9
}

// checkNumber applies the number rules to f in pydantic's order: the
// enum, multipleOf (through notMultiple), then the bounds; a broken enum
// or multipleOf is the value's only issue, as pydantic reports one.
func (r *rules) checkNumber(b *binder, f float64, notMultiple func(float64) bool) {
	if r.enum != nil && !slices.ContainsFunc(r.enum, func(e any) bool {
		n, ok := e.(json.Number)
		if !ok {
			return false
		}
		x, err := n.Float64()
		return err == nil && x == f
	}) {
		b.failRule("enum", "Input should be "+orList(enumText(r.enum)))
		return
	}
	if r.multipleOf != "" && notMultiple(f) {
		b.failRule("multiple_of", "Input should be a multiple of "+string(r.multipleOf))
		return
	}
	bound := func(n json.Number, fails func(x float64) bool, code, word string) {
		if n == "" {
			return
		}
		if x, err := n.Float64(); err == nil && !math.IsNaN(x) && fails(x) {
			b.failRule(code, fmt.Sprintf("Input should be %s %s", word, n))
		}
	}
	bound(r.minimum, func(x float64) bool { return f < x }, "greater_than_equal", "greater than or equal to")
	bound(r.exclMin, func(x float64) bool { return f <= x }, "greater_than", "greater than")
	bound(r.maximum, func(x float64) bool { return f > x }, "less_than_equal", "less than or equal to")
	bound(r.exclMax, func(x float64) bool { return f >= x }, "less_than", "less than")
}

func enumText(vals []any) []string {
	out := make([]string, len(vals))
	for i, v := range vals {
		out[i] = fmt.Sprint(v)
	}
	return out
}
