package tool

import (
	"cmp"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/go-playground/validator/v10"
)

// rulesValidator applies the validate tags of every typed tool. It is the
// package's only validator: validator.Validate caches struct metadata and
// is safe for concurrent use, and nothing reconfigures it after creation.
// Field names come from the json tag, so that issue fields read
// "items.0.name", as the model wrote them.
var rulesValidator = sync.OnceValue(func() *validator.Validate {
	v := validator.New(validator.WithRequiredStructEnabled())
	v.RegisterTagNameFunc(func(f reflect.StructField) string {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch name {
		case "-":
			return ""
		case "":
			return f.Name
		}
		return name
	})
	return v
})

// bindMode says how strictly arguments are bound.
type bindMode struct {
	allowExtra bool // ignore unknown keys at every level
	lax        bool // pydantic lax coercions and error order; nested unknown keys dropped
}

// decode binds args into a P following plan s, then checks the rules: the
// jsonschema-tag rules the binder found broken and the validate tags, in
// field order.
func decode[P any](s *spec, args map[string]any, mode bindMode, errorType string) (P, *ValidationResult) {
	var p, zero P
	b := binder{allowExtra: mode.allowExtra, lax: mode.lax}
	b.bindObject(reflect.ValueOf(&p).Elem(), args, s)
	if issues := b.issues(); issues != nil {
		return zero, newValidationResult(errorType, issues)
	}
	if !s.validated {
		if b.broken != nil {
			return zero, newValidationResult(errorType, b.broken)
		}
		return p, nil
	}
	issues, err := runValidator(rulesValidator(), &p)
	if err != nil {
		issues = []Issue{{Field: "", Error: "Validator error: " + err.Error(), Type: "validator_error"}}
	}
	if mode.lax {
		for i := range issues {
			if issues[i].Type == "oneof" {
				issues[i].Type = "enum" // what pydantic calls a failed Enum
			}
		}
	}
	if b.broken != nil {
		issues = mergeIssues(s, b.broken, issues)
	}
	if issues != nil {
		return zero, newValidationResult(errorType, issues)
	}
	return p, nil
}

// mergeIssues merges two lists of issues, each in field order, into one in
// field order (a's first on a tie).
func mergeIssues(s *spec, a, b []Issue) []Issue {
	out := append(slices.Clone(a), b...)
	slices.SortStableFunc(out, func(x, y Issue) int {
		return slices.CompareFunc(fieldKey(s, x.Field), fieldKey(s, y.Field), compareStep)
	})
	return out
}

// fieldKey locates an issue's dotted path in plan s: field positions for
// struct fields, indexes for list items, names for map keys.
func fieldKey(s *spec, path string) []any {
	var key []any
	for _, part := range strings.Split(path, ".") {
		s = valueSpec(s)
		if s == nil {
			key = append(key, part)
			continue
		}
		switch s.kind {
		case kindStruct:
			i, ok := s.index[part]
			if !ok {
				return append(key, part)
			}
			key = append(key, i)
			s = s.fields[i].spec
		case kindSlice:
			i, _ := strconv.Atoi(part)
			key = append(key, i)
			s = s.elem
		default:
			key = append(key, part)
			if s.kind == kindMap {
				s = s.elem
			}
		}
	}
	return key
}

func compareStep(x, y any) int {
	xi, xok := x.(int)
	yi, yok := y.(int)
	switch {
	case xok && yok:
		return cmp.Compare(xi, yi)
	case xok:
		return -1
	case yok:
		return 1
	}
	return cmp.Compare(x.(string), y.(string))
}

// runValidator applies the validate rules to the bound struct pointed to by
// ptr and converts failures into issues. An error means the validator
// itself could not run (a programmer error), not that the arguments failed.
func runValidator(v *validator.Validate, ptr any) (issues []Issue, err error) {
	defer func() {
		// validator/v10 panics on tags that do not fit the value's kind (a
		// oneof on an interface holding a bool, a misspelled tag): a
		// programmer error, reported as an error rather than a crash.
		if r := recover(); r != nil {
			issues, err = nil, fmt.Errorf("validate tags cannot be applied: %v", r)
		}
	}()
	err = v.Struct(ptr)
	if err == nil {
		return nil, nil
	}
	var verrs validator.ValidationErrors
	if !errors.As(err, &verrs) {
		return nil, err
	}
	out := make([]Issue, 0, len(verrs))
	for _, fe := range verrs {
		out = append(out, Issue{Field: issuePath(fe.Namespace()), Error: ruleMessage(fe), Type: fe.Tag()})
	}
	return out, nil
}

// issuePath turns validator's "Params.items[0].name" into "items.0.name".
func issuePath(ns string) string {
	if _, rest, ok := strings.Cut(ns, "."); ok {
		ns = rest
	}
	ns = strings.ReplaceAll(ns, "[", ".")
	return strings.ReplaceAll(ns, "]", "")
}

// ruleMessage words a failed rule the way pydantic words the equivalent
// constraint, so models see one style of message.
func ruleMessage(fe validator.FieldError) string {
	p := fe.Param()
	k := fe.Kind()
	switch fe.Tag() {
	case "required", "required_if", "required_unless", "required_with", "required_without":
		return "Field required"
	case "oneof":
		return "Input should be " + orList(splitOneOf(p))
	case "oneofci":
		return "Input should be " + orList(splitOneOf(p)) + " (any case)"
	case "min", "gte":
		return sizeMessage(k, p, "at least", "greater than or equal to")
	case "max", "lte":
		return sizeMessage(k, p, "at most", "less than or equal to")
	case "gt":
		return sizeMessage(k, p, "more than", "greater than")
	case "lt":
		return sizeMessage(k, p, "fewer than", "less than")
	case "len":
		return sizeMessage(k, p, "exactly", "equal to")
	case "eq":
		return "Input should be " + p
	case "ne":
		return "Input should not be " + p
	case "email":
		return "Input should be a valid email address"
	case "url", "http_url", "uri":
		return "Input should be a valid URL"
	case "uuid", "uuid4", "datetime", "e164", "iso3166_1_alpha2", "alpha", "alphanum", "numeric", "number", "lowercase", "uppercase":
		return "Input should be a valid " + fe.Tag() + " value"
	}
	if p != "" {
		return fmt.Sprintf("Input failed the rule %s=%s", fe.Tag(), p)
	}
	return fmt.Sprintf("Input failed the rule %s", fe.Tag())
}

// sizeMessage words a bound: a length for strings and collections, a value
// for numbers.
func sizeMessage(k reflect.Kind, p, lengthWord, valueWord string) string {
	unit := ""
	switch k {
	case reflect.String:
		unit = "character"
	case reflect.Slice, reflect.Array:
		unit = "item"
	case reflect.Map:
		unit = "entry"
	default:
		return fmt.Sprintf("Input should be %s %s", valueWord, p)
	}
	what := map[string]string{"character": "String", "item": "List", "entry": "Dictionary"}[unit]
	if p != "1" {
		if unit == "entry" {
			unit = "entries"
		} else {
			unit += "s"
		}
	}
	return fmt.Sprintf("%s should have %s %s %s", what, lengthWord, p, unit)
}

// splitOneOf splits a oneof parameter the way validator does: on spaces,
// with single-quoted values kept whole.
func splitOneOf(p string) []string {
	var out []string
	for p = strings.TrimSpace(p); p != ""; p = strings.TrimSpace(p) {
		if p[0] == '\'' {
			if end := strings.IndexByte(p[1:], '\''); end >= 0 {
				out = append(out, p[1:end+1])
				p = p[end+2:]
				continue
			}
		}
		word, rest, _ := strings.Cut(p, " ")
		out = append(out, word)
		p = rest
	}
	return out
}

// orList renders values like pydantic's enum message: 'a', 'b' or 'c'.
func orList(vals []string) string {
	q := make([]string, len(vals))
	for i, v := range vals {
		q[i] = "'" + v + "'"
	}
	switch len(q) {
	case 0:
		return "one of no values"
	case 1:
		return q[0]
	}
	return strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1]
}
