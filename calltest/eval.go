package calltest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/voiceeval/schematools/internal/pyjson"
	"github.com/voiceeval/schematools/internal/pyvalue"
)

// The eval types of [ParamCheck.Type]. The first four are ElevenLabs';
// the others are native.
const (
	evalAnything   = "anything"    // the argument is present, any value
	evalExact      = "exact"       // the argument equals a value
	evalRegex      = "regex"       // the argument matches a pattern
	evalLLM        = "llm"         // a Judge decides against a criterion
	evalOneOf      = "one_of"      // the argument equals one of several values
	evalNumber     = "number"      // the argument is a number, within tolerance or bounds
	evalCustom     = "custom"      // a Go function decides
	evalJSONSchema = "json_schema" // the argument validates against a JSON Schema
)

// ParamCheck is a check on the argument at Path (dot notation, numeric
// segments index lists: "items.0.sku"). Type says how it is checked, and
// which other fields it reads:
//
//   - "anything": the argument is present (null counts) — [Present];
//   - "exact": ExpectedValue, a string compared with the argument's
//     canonical text ([ExactText]), or with Native any value compared by
//     type and value ([Equals]);
//   - "regex": Pattern, RE2, searched unless FullMatch — [Matches];
//   - "llm": Description, the criterion handed to the [Judge] — [Judged];
//   - "one_of": Values, compared as Native exact values — [AnyOf];
//   - "number": within max(Abs, Rel*|Target|) of Target when Target is
//     set, and within Min and Max when set — [Near];
//   - "json_schema": Schema — [Validates];
//   - "custom": Func — [Satisfies].
//
// The first four are ElevenLabs'; the fields are named as in its JSON.
type ParamCheck struct {
	Path string `json:"path"`
	Type string `json:"type"`
	// ExpectedValue is the value of an exact check. In ElevenLabs'
	// compatible mode (the default) it is a string compared with the
	// argument's canonical text; with Native it is any Go value
	// encoding/json can write, compared by JSON type and value as the
	// JSON it writes.
	ExpectedValue any  `json:"expected_value,omitempty"`
	Native        bool `json:"native,omitempty"`
	// Pattern is an RE2 regular expression; it matches anywhere in the
	// argument's text unless FullMatch is set.
	Pattern   string `json:"pattern,omitempty"`
	FullMatch bool   `json:"full_match,omitempty"`
	// Description is the criterion an llm check hands to the Judge.
	Description string `json:"description,omitempty"`
	// Values are the accepted values of a one_of check, each compared as
	// a Native ExpectedValue is.
	Values []any `json:"values,omitempty"`
	// Target, Abs and Rel make a number check "within max(Abs, Rel*|Target|)
	// of Target"; Min and Max bound it. All optional.
	Target *float64 `json:"target,omitempty"`
	Abs    float64  `json:"abs,omitempty"`
	Rel    float64  `json:"rel,omitempty"`
	Min    *float64 `json:"min,omitempty"`
	Max    *float64 `json:"max,omitempty"`
	// Func decides a custom check: whether the value passes, and why not.
	// It must be safe for concurrent use when [Repeat] has several workers.
	Func func(value any) (bool, string) `json:"-"`
	// Schema is the JSON Schema of a json_schema check (see [Validates]).
	Schema map[string]any `json:"schema,omitempty"`

	re *regexp.Regexp
}

// Constructors for Go tests.

// Present checks that the argument at path is present.
func Present(path string) ParamCheck { return ParamCheck{Path: path, Type: evalAnything} }

// Equals checks that the argument at path equals value by type and value
// (native exact): 6 and 6.0 are equal, 6 and "6" are not. value is any Go
// value encoding/json can write, compared as that JSON: []string{"a", "b"}
// equals ["a","b"], uint(6) equals 6, a struct the object of its json
// tags. One it cannot write (a channel, a func, NaN) makes the test
// invalid.
func Equals(path string, value any) ParamCheck {
	return ParamCheck{Path: path, Type: evalExact, ExpectedValue: value, Native: true}
}

// ExactText checks that the argument's canonical text is text, as
// ElevenLabs' exact check does: 6 matches "6", true matches "true".
func ExactText(path, text string) ParamCheck {
	return ParamCheck{Path: path, Type: evalExact, ExpectedValue: text}
}

// Matches checks the argument's text against an RE2 pattern (anywhere in
// the text).
func Matches(path, pattern string) ParamCheck {
	return ParamCheck{Path: path, Type: evalRegex, Pattern: pattern}
}

// Judged asks the Judge whether the argument meets criterion.
func Judged(path, criterion string) ParamCheck {
	return ParamCheck{Path: path, Type: evalLLM, Description: criterion}
}

// AnyOf checks that the argument equals one of values (native equality,
// each value compared as the JSON it writes, as with [Equals]).
func AnyOf(path string, values ...any) ParamCheck {
	return ParamCheck{Path: path, Type: evalOneOf, Values: values}
}

// Near checks that the argument is a number within tol of target.
func Near(path string, target, tol float64) ParamCheck {
	return ParamCheck{Path: path, Type: evalNumber, Target: &target, Abs: tol}
}

// Satisfies checks the argument with fn.
func Satisfies(path string, fn func(value any) (bool, string)) ParamCheck {
	return ParamCheck{Path: path, Type: evalCustom, Func: fn}
}

// compile validates a check and prepares it (regexes are compiled once).
func (p *ParamCheck) compile() error {
	if err := checkPath(p.Path); err != nil {
		return err
	}
	e := p
	switch e.Type {
	case evalAnything:
	case evalExact:
		if _, isStr := e.ExpectedValue.(string); !isStr && !e.Native {
			return fmt.Errorf("path %q: exact check needs expected_value as a string in ElevenLabs mode (set Native, or use Equals, to compare typed values)", p.Path)
		}
		if e.Native {
			v, err := expectedJSON(e.ExpectedValue)
			if err != nil {
				return fmt.Errorf("path %q: the expected value is not a JSON value: %w", p.Path, err)
			}
			e.ExpectedValue = v
		}
	case evalRegex:
		if e.Pattern == "" {
			return fmt.Errorf("path %q: regex check without pattern", p.Path)
		}
		pat := e.Pattern
		if e.FullMatch {
			pat = `^(?:` + pat + `)$`
		}
		re, err := regexp.Compile(pat)
		if err != nil {
			return fmt.Errorf("path %q: invalid pattern: %w", p.Path, err)
		}
		e.re = re
	case evalLLM:
		if strings.TrimSpace(e.Description) == "" {
			return fmt.Errorf("path %q: llm check without description", p.Path)
		}
	case evalOneOf:
		if len(e.Values) == 0 {
			return fmt.Errorf("path %q: one_of check without values", p.Path)
		}
		values := make([]any, len(e.Values)) // the caller's slice is not written to
		for i, v := range e.Values {
			n, err := expectedJSON(v)
			if err != nil {
				return fmt.Errorf("path %q: one_of value %d is not a JSON value: %w", p.Path, i, err)
			}
			values[i] = n
		}
		e.Values = values
	case evalNumber:
		switch {
		case e.Target == nil && (e.Abs != 0 || e.Rel != 0):
			return fmt.Errorf("path %q: number check has a tolerance but no target", p.Path)
		case e.Abs < 0 || e.Rel < 0:
			return fmt.Errorf("path %q: number check has a negative tolerance", p.Path)
		case e.Min != nil && e.Max != nil && *e.Min > *e.Max:
			return fmt.Errorf("path %q: number check has min %v above max %v", p.Path, *e.Min, *e.Max)
		}
	case evalCustom:
		if e.Func == nil {
			return fmt.Errorf("path %q: custom check without a function", p.Path)
		}
	case evalJSONSchema:
		if e.Schema == nil {
			return fmt.Errorf("path %q: json_schema check without schema", p.Path)
		}
		if err := checkSchema(e.Schema, p.Path, 0); err != nil {
			return fmt.Errorf("path %q: %w", p.Path, err)
		}
	default:
		return fmt.Errorf("path %q: unknown eval type %q (want anything, exact, regex, llm, one_of, number, json_schema or custom)", p.Path, e.Type)
	}
	return nil
}

// Status is the outcome of a check, an expectation or a test.
type Status string

// Outcomes. Unknown means a judge was needed and none answered; it never
// counts as a pass.
const (
	Pass    Status = "pass"
	Fail    Status = "fail"
	Unknown Status = "unknown"
)

// The reason codes of [ParamResult.Code].
const (
	codeOK         = "ok"
	codeMissing    = "missing"
	codeMismatch   = "mismatch"
	codeNoMatch    = "no_match"
	codeNotNumber  = "not_number"
	codeOutOfRange = "out_of_range"
	codeNoJudge    = "no_judge"
	codeJudgeError = "judge_error"
	codeSchema     = "schema"
)

// ParamResult is the outcome of one check on one call.
type ParamResult struct {
	Path   string `json:"path"`
	Type   string `json:"type"` // the check's [ParamCheck.Type]
	Status Status `json:"status"`
	// Code says why, in a word that does not vary with the values: "ok";
	// "missing" (no argument at the path); "mismatch" (exact, one_of,
	// custom, or a judge's no); "no_match" (regex); "not_number" and
	// "out_of_range" (number); "schema" (json_schema); "no_judge" and
	// "judge_error" (llm, Unknown).
	Code    string `json:"code"`
	Message string `json:"message,omitempty"`
}

// Judge decides llm checks: whether the value meets q's criterion, and
// why. Implementations call a model. An error makes the check Unknown,
// never a pass. A Judge given to [Repeat] with several workers must be
// safe for concurrent use.
type Judge interface {
	Judge(ctx context.Context, q Question) (pass bool, rationale string, err error)
}

// JudgeFunc adapts a function to [Judge].
type JudgeFunc func(ctx context.Context, q Question) (pass bool, rationale string, err error)

// Judge calls f.
func (f JudgeFunc) Judge(ctx context.Context, q Question) (bool, string, error) { return f(ctx, q) }

// Question is what a Judge is asked about one argument.
type Question struct {
	Criterion string // the check's Description: what the value must meet
	Path      string // the argument's path in the call ("items.0.sku")
	// Value is the argument at Path, as decoded (numbers as json.Number).
	Value   any
	Call    Call   // the whole call the argument belongs to
	History []Turn // the test's conversation before the call
}

// checker carries what a check needs beyond the value.
type checker struct {
	ctx     context.Context
	judge   Judge
	history []Turn
	types   func(tool, path string) string // the schema type at path, or ""
}

// run applies one check to a call.
func (k *checker) run(p *ParamCheck, call Call) ParamResult {
	r := ParamResult{Path: p.Path, Type: p.Type, Status: Pass, Code: codeOK}
	fail := func(code, format string, args ...any) ParamResult {
		r.Status, r.Code, r.Message = Fail, code, fmt.Sprintf(format, args...)
		return r
	}
	v, ok := resolve(call.Arguments, p.Path)
	if !ok {
		return fail(codeMissing, "%s is missing", p.Path)
	}
	e := p
	switch e.Type {
	case evalAnything:
	case evalExact:
		if e.Native {
			want := e.ExpectedValue
			if s, isStr := want.(string); isStr && k.types != nil {
				want = coerce(s, k.types(call.Name, p.Path))
			}
			if !typedEqual(want, v) {
				return fail(codeMismatch, "expected exact %s, got %s", describe(want), describe(v))
			}
		} else if got, want := canonicalText(v), e.ExpectedValue.(string); got != want {
			if _, isStr := v.(string); isStr {
				return fail(codeMismatch, "expected exact %q, got %q", want, got)
			}
			return fail(codeMismatch, "expected exact %q, got %s (text %q)", want, describe(v), got)
		}
	case evalRegex:
		if !e.re.MatchString(canonicalText(v)) {
			return fail(codeNoMatch, "%s does not match /%s/", describe(v), e.Pattern)
		}
	case evalOneOf:
		for _, w := range e.Values {
			if typedEqual(w, v) {
				return r
			}
		}
		return fail(codeMismatch, "expected one of %s, got %s", describeAll(e.Values), describe(v))
	case evalNumber:
		f, ok := number(v)
		if !ok {
			return fail(codeNotNumber, "expected a number, got %s", describe(v))
		}
		if e.Target != nil {
			tol := math.Max(e.Abs, e.Rel*math.Abs(*e.Target))
			if math.Abs(f-*e.Target) > tol {
				return fail(codeOutOfRange, "expected %v ± %v, got %v", *e.Target, tol, f)
			}
		}
		if e.Min != nil && f < *e.Min {
			return fail(codeOutOfRange, "expected at least %v, got %v", *e.Min, f)
		}
		if e.Max != nil && f > *e.Max {
			return fail(codeOutOfRange, "expected at most %v, got %v", *e.Max, f)
		}
	case evalCustom:
		if ok, why := e.Func(v); !ok {
			return fail(codeMismatch, "%s", why)
		}
	case evalJSONSchema:
		if why := validateSchema(e.Schema, v, p.Path); why != "" {
			return fail(codeSchema, "%s", why)
		}
	case evalLLM:
		if k.judge == nil {
			r.Status, r.Code, r.Message = Unknown, codeNoJudge, "no judge configured for the llm check"
			return r
		}
		pass, rationale, err := k.judge.Judge(k.ctx, Question{Criterion: e.Description, Path: p.Path, Value: v, Call: call, History: k.history})
		switch {
		case err != nil:
			r.Status, r.Code, r.Message = Unknown, codeJudgeError, "judge failed: "+err.Error()
		case !pass:
			return fail(codeMismatch, "judge: %s", rationale)
		default:
			r.Message = rationale
		}
	}
	return r
}

// canonicalText is how ElevenLabs-compatible exact and regex checks see a
// value: strings as they are, whole numbers without ".0" (6.0 is "6";
// integers of any size stay exact), other numbers in their shortest form,
// booleans as "true"/"false", null as "null", objects and lists as compact
// JSON with sorted keys and numbers written the same way.
func canonicalText(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	var b strings.Builder
	writeCanonical(&b, v)
	return b.String()
}

func writeCanonical(b *strings.Builder, v any) {
	switch x := v.(type) {
	case string:
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		_ = enc.Encode(x)
		b.WriteString(strings.TrimSuffix(buf.String(), "\n"))
	case bool:
		b.WriteString(strconv.FormatBool(x))
	case nil:
		b.WriteString("null")
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			writeCanonical(b, k)
			b.WriteByte(':')
			writeCanonical(b, x[k])
		}
		b.WriteByte('}')
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			writeCanonical(b, e)
		}
		b.WriteByte(']')
	case json.Number:
		if isInt, ok := pyjson.Classify(string(x)); ok && isInt {
			b.WriteString(pyjson.IntText(string(x)))
			return
		}
		f, _ := x.Float64()
		b.WriteString(numberText(f))
	default:
		if f, ok := number(v); ok {
			if out, isInt := pyjson.AppendInteger(nil, v); isInt {
				b.Write(out)
				return
			}
			b.WriteString(numberText(f))
			return
		}
		data, err := json.Marshal(v)
		if err != nil {
			fmt.Fprint(b, v)
			return
		}
		b.Write(data)
	}
}

// numberText writes a float: whole values as integers, others shortest.
func numberText(f float64) string {
	if f == math.Trunc(f) && math.Abs(f) < 1e21 {
		return strconv.FormatFloat(f, 'f', 0, 64)
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// number reads a JSON number (not a numeric string, not a bool).
func number(v any) (float64, bool) {
	switch x := v.(type) {
	case json.Number:
		f, err := x.Float64()
		return f, err == nil
	case float64:
		return x, true
	case float32:
		return float64(x), true
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	case int32:
		return float64(x), true
	case uint64:
		return float64(x), true
	}
	return 0, false
}

// typedEqual is equality by JSON type and value: numbers by value
// (6 == 6.0), but a number never equals a string or a bool.
func typedEqual(a, b any) bool {
	if kind(a) != kind(b) {
		return false
	}
	switch x := a.(type) {
	case map[string]any:
		y := b.(map[string]any)
		if len(x) != len(y) {
			return false
		}
		for k, xv := range x {
			yv, ok := y[k]
			if !ok || !typedEqual(xv, yv) {
				return false
			}
		}
		return true
	case []any:
		y := b.([]any)
		if len(x) != len(y) {
			return false
		}
		for i := range x {
			if !typedEqual(x[i], y[i]) {
				return false
			}
		}
		return true
	}
	return pyvalue.EqualLoaded(a, b)
}

// kind is the JSON type of a value.
func kind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case map[string]any:
		return "object"
	case []any:
		return "array"
	}
	if _, ok := number(v); ok {
		return "number"
	}
	return fmt.Sprintf("%T", v)
}

// coerce turns an expected string into the schema's type, when it reads
// as one; otherwise the string stays.
func coerce(s, schemaType string) any {
	switch schemaType {
	case "integer", "number":
		if _, err := strconv.ParseFloat(s, 64); err == nil {
			return json.Number(s)
		}
	case "boolean":
		if b, err := strconv.ParseBool(s); err == nil {
			return b
		}
	}
	return s
}

// describe renders a value with its JSON type: "6" (string), 6 (number).
func describe(v any) string {
	text := canonicalText(v)
	if s, ok := v.(string); ok {
		text = strconv.Quote(s)
	}
	return text + " (" + kind(v) + ")"
}

func describeAll(vs []any) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = describe(v)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}
