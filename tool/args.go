package tool

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/voiceeval/schematools/internal/pyjson"
)

// kind is how a Go type is bound from a decoded JSON value.
type kind uint8

const (
	kindAny kind = iota // empty interface: any JSON value
	kindString
	kindBool
	kindInt
	kindUint
	kindFloat
	kindNumber // encoding/json.Number
	kindSlice
	kindMap
	kindStruct
	kindPtr
	kindUnmarshaler // implements json.Unmarshaler through a pointer
	kindBytes       // []byte: a base64 string
)

var (
	numberType      = reflect.TypeFor[json.Number]()
	unmarshalerType = reflect.TypeFor[json.Unmarshaler]()
)

// spec is the compiled binding plan of one Go type: what JSON it accepts
// and where each object key goes. It is built once per tool.
type spec struct {
	typ    reflect.Type
	kind   kind
	elem   *spec          // slice, map and pointer element
	fields []field        // struct fields in declaration order
	index  map[string]int // JSON name -> position in fields
	// validated reports whether any field at or below this type carries a
	// `validate` tag, so the validator can be skipped entirely when none does.
	validated bool
	// rules are the jsonschema-tag rules the bound value must meet (nil
	// when there are none); see rules.go.
	rules *rules
}

// field is one struct field bound from the JSON key name.
type field struct {
	name     string
	index    []int
	required bool
	spec     *spec
}

// errUnsupported is wrapped by compile errors.
var errUnsupported = errors.New("unsupported type")

// compileSpec builds the binding plan of t. Recursive types and types that
// have no JSON form (channels, functions, complex numbers, non-empty
// interfaces, maps with non-string keys) are errors.
func compileSpec(t reflect.Type) (*spec, error) {
	return compile(t, map[reflect.Type]bool{})
}

func compile(t reflect.Type, active map[reflect.Type]bool) (*spec, error) {
	if active[t] {
		return nil, fmt.Errorf("%w %s: recursive types are not supported", errUnsupported, t)
	}
	active[t] = true
	defer delete(active, t)
	s := &spec{typ: t}
	switch {
	case t == numberType:
		s.kind = kindNumber
		return s, nil
	case t.Kind() != reflect.Pointer && t.Kind() != reflect.Interface && reflect.PointerTo(t).Implements(unmarshalerType):
		s.kind = kindUnmarshaler
		return s, nil
	}
	switch t.Kind() {
	case reflect.Interface:
		if t.NumMethod() != 0 {
			return nil, fmt.Errorf("%w %s: only the empty interface can hold a JSON value", errUnsupported, t)
		}
		s.kind = kindAny
	case reflect.String:
		s.kind = kindString
	case reflect.Bool:
		s.kind = kindBool
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		s.kind = kindInt
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		s.kind = kindUint
	case reflect.Float32, reflect.Float64:
		s.kind = kindFloat
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			s.kind = kindBytes // base64 text, as encoding/json and the schema have it
			return s, nil
		}
		elem, err := compile(t.Elem(), active)
		if err != nil {
			return nil, err
		}
		s.kind, s.elem, s.validated = kindSlice, elem, elem.validated
	case reflect.Map:
		if t.Key().Kind() != reflect.String {
			return nil, fmt.Errorf("%w %s: map keys must be strings", errUnsupported, t)
		}
		elem, err := compile(t.Elem(), active)
		if err != nil {
			return nil, err
		}
		s.kind, s.elem, s.validated = kindMap, elem, elem.validated
	case reflect.Pointer:
		elem, err := compile(t.Elem(), active)
		if err != nil {
			return nil, err
		}
		s.kind, s.elem, s.validated = kindPtr, elem, elem.validated
	case reflect.Struct:
		s.kind = kindStruct
		s.index = map[string]int{}
		if err := s.addFields(t, nil, active); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("%w %s: it has no JSON form", errUnsupported, t)
	}
	return s, nil
}

// addFields adds the exported fields of struct type t, flattening embedded
// structs without a JSON name as encoding/json does.
func (s *spec) addFields(t reflect.Type, prefix []int, active map[reflect.Type]bool) error {
	for i := range t.NumField() {
		sf := t.Field(i)
		tag := sf.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		index := append(slices.Clone(prefix), i)
		if sf.Anonymous && name == "" {
			ft := sf.Type
			if ft.Kind() == reflect.Pointer {
				return fmt.Errorf("%w %s: embedded pointer %s is not supported", errUnsupported, t, ft)
			}
			if ft.Kind() == reflect.Struct {
				if err := s.addFields(ft, index, active); err != nil {
					return err
				}
				continue
			}
		}
		if !sf.IsExported() {
			continue
		}
		if name == "" {
			name = sf.Name
		}
		fs, err := compile(sf.Type, active)
		if err != nil {
			return fmt.Errorf("field %s: %w", sf.Name, err)
		}
		if _, dup := s.index[name]; dup {
			return fmt.Errorf("%w %s: two fields map to the JSON name %q", errUnsupported, t, name)
		}
		if sf.Tag.Get("validate") != "" {
			s.validated = true
		}
		s.validated = s.validated || fs.validated
		s.index[name] = len(s.fields)
		s.fields = append(s.fields, field{name: name, index: index, spec: fs})
	}
	return nil
}

// Issue type codes and messages, worded like pydantic's so that results read
// the same as the Python original's.
const (
	issueMissing  = "missing"
	issueExtra    = "extra_forbidden"
	msgMissing    = "Field required"
	msgExtra      = "Extra inputs are not permitted"
	msgFractional = "Input should be a valid integer, got a number with a fractional part"
	msgOverflow   = "Input should be a valid integer, the number is out of range"
)

// typeIssue returns the type code and message for a value of the wrong JSON
// type where k was expected.
func typeIssue(k kind) (code, msg string) {
	switch k {
	case kindString:
		return "string_type", "Input should be a valid string"
	case kindBool:
		return "bool_type", "Input should be a valid boolean"
	case kindInt, kindUint:
		return "int_type", "Input should be a valid integer"
	case kindFloat, kindNumber:
		return "float_type", "Input should be a valid number"
	case kindSlice:
		return "list_type", "Input should be a valid list"
	case kindBytes:
		return "string_type", "Input should be a valid string"
	default:
		return "dict_type", "Input should be a valid dictionary"
	}
}

// binder collects issues while binding one argument object. Issues are kept
// in three groups so the result lists unknown keys first, then missing keys,
// then type mismatches. In lax mode missing keys and type mismatches share
// one list, in declaration order, and unknown keys come last, as pydantic
// orders them.
type binder struct {
	allowExtra bool
	lax        bool
	depth      int // object nesting: 0 is the arguments object itself
	path       []string
	extra      []Issue
	missing    []Issue
	types      []Issue
	// broken holds the jsonschema-tag rules the bound values fail; they
	// count, like validate rules, only once every value is bound.
	broken []Issue
}

func (b *binder) issues() []Issue {
	n := len(b.extra) + len(b.missing) + len(b.types)
	if n == 0 {
		return nil
	}
	out := make([]Issue, 0, n)
	if b.lax {
		out = append(out, b.types...)
		return append(out, b.extra...)
	}
	out = append(out, b.extra...)
	out = append(out, b.missing...)
	return append(out, b.types...)
}

// at returns the dotted path of the current position plus last.
func (b *binder) at(last string) string {
	if len(b.path) == 0 {
		return last
	}
	p := strings.Join(b.path, ".")
	if last == "" {
		return p
	}
	return p + "." + last
}

// bindObject binds the JSON object m into the struct dst described by s.
func (b *binder) bindObject(dst reflect.Value, m map[string]any, s *spec) {
	present := 0
	for i := range s.fields {
		f := &s.fields[i]
		raw, ok := m[f.name]
		if !ok {
			if f.required {
				is := Issue{Field: b.at(f.name), Error: msgMissing, Type: issueMissing}
				if b.lax {
					b.types = append(b.types, is)
				} else {
					b.missing = append(b.missing, is)
				}
			}
			continue
		}
		present++
		if raw == nil && !f.required {
			// An optional argument sent as null is absent: OpenAI's strict
			// mode makes every property required and optional ones nullable.
			continue
		}
		b.path = append(b.path, f.name)
		b.bindValue(dst.FieldByIndex(f.index), raw, f.spec)
		b.path = b.path[:len(b.path)-1]
	}
	if present == len(m) || b.allowExtra || (b.lax && b.depth > 0) {
		return
	}
	var unknown []string
	for k := range m {
		if _, ok := s.index[k]; !ok {
			unknown = append(unknown, k)
		}
	}
	slices.Sort(unknown)
	for _, k := range unknown {
		b.extra = append(b.extra, Issue{Field: b.at(k), Error: msgExtra, Type: issueExtra})
	}
}

// bindValue binds one decoded JSON value into dst, then checks the
// jsonschema-tag rules of s on it.
func (b *binder) bindValue(dst reflect.Value, raw any, s *spec) {
	if s.rules == nil {
		b.bindRaw(dst, raw, s)
		return
	}
	n := len(b.types)
	b.bindRaw(dst, raw, s)
	if len(b.types) == n && raw != nil {
		s.rules.check(b, dst)
	}
}

// bindRaw binds one decoded JSON value into dst.
func (b *binder) bindRaw(dst reflect.Value, raw any, s *spec) {
	if raw == nil {
		if s.kind == kindAny || s.kind == kindPtr {
			return // stays nil
		}
		b.mismatch(s.kind)
		return
	}
	switch s.kind {
	case kindAny:
		dst.Set(reflect.ValueOf(raw))
	case kindString:
		v, ok := raw.(string)
		if !ok {
			b.mismatch(s.kind)
			return
		}
		dst.SetString(v)
	case kindBool:
		v, ok := raw.(bool)
		if !ok && b.lax {
			if v, ok = laxBool(raw); !ok {
				if _, isStr := raw.(string); isStr {
					b.fail("bool_parsing", "Input should be a valid boolean, unable to interpret input")
					return
				}
			}
		}
		if !ok {
			b.mismatch(s.kind)
			return
		}
		dst.SetBool(v)
	case kindInt:
		if b.lax && !b.laxNumber(&raw, true) {
			return
		}
		b.bindInt(dst, raw)
	case kindUint:
		if b.lax && !b.laxNumber(&raw, true) {
			return
		}
		b.bindUint(dst, raw)
	case kindFloat:
		if b.lax && !b.laxNumber(&raw, false) {
			return
		}
		f, ok := toFloat(raw)
		if !ok {
			b.mismatch(s.kind)
			return
		}
		if math.IsInf(f, 0) || math.IsNaN(f) || dst.OverflowFloat(f) {
			b.fail("finite_number", "Input should be a finite number")
			return
		}
		dst.SetFloat(f)
	case kindNumber:
		n, ok := toNumber(raw)
		if !ok {
			b.mismatch(s.kind)
			return
		}
		dst.SetString(string(n))
	case kindSlice:
		b.bindSlice(dst, raw, s)
	case kindBytes:
		text, ok := raw.(string)
		if !ok {
			b.mismatch(s.kind)
			return
		}
		data, err := base64.StdEncoding.DecodeString(text)
		if err != nil {
			b.fail("bytes_type", "Input should be base64-encoded bytes")
			return
		}
		dst.SetBytes(data)
	case kindMap:
		m, ok := raw.(map[string]any)
		if !ok {
			b.mismatch(s.kind)
			return
		}
		out := reflect.MakeMapWithSize(s.typ, len(m))
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			ev := reflect.New(s.elem.typ).Elem()
			b.path = append(b.path, k)
			b.bindValue(ev, m[k], s.elem)
			b.path = b.path[:len(b.path)-1]
			out.SetMapIndex(reflect.ValueOf(k).Convert(s.typ.Key()), ev)
		}
		dst.Set(out)
	case kindStruct:
		m, ok := raw.(map[string]any)
		if !ok {
			b.mismatch(s.kind)
			return
		}
		b.depth++
		b.bindObject(dst, m, s)
		b.depth--
	case kindPtr:
		p := reflect.New(s.elem.typ)
		b.bindValue(p.Elem(), raw, s.elem)
		dst.Set(p)
	case kindUnmarshaler:
		data, err := json.Marshal(raw)
		if err == nil {
			err = dst.Addr().Interface().(json.Unmarshaler).UnmarshalJSON(data)
		}
		if err != nil {
			b.fail("value_error", "Value error, "+err.Error())
		}
	}
}

// fail records a type-level issue at the current path.
func (b *binder) fail(code, msg string) {
	b.types = append(b.types, Issue{Field: b.at(""), Error: msg, Type: code})
}

// failRule records a broken jsonschema-tag rule at the current path.
func (b *binder) failRule(code, msg string) {
	b.broken = append(b.broken, Issue{Field: b.at(""), Error: msg, Type: code})
}

// mismatch records a value of the wrong JSON type where k was expected.
func (b *binder) mismatch(k kind) {
	code, msg := typeIssue(k)
	b.fail(code, msg)
}

func (b *binder) bindSlice(dst reflect.Value, raw any, s *spec) {
	var n int
	var get func(int) any
	switch v := raw.(type) {
	case []any:
		n, get = len(v), func(i int) any { return v[i] }
	default:
		rv := reflect.ValueOf(raw)
		if rv.Kind() != reflect.Slice && rv.Kind() != reflect.Array {
			b.mismatch(s.kind)
			return
		}
		n, get = rv.Len(), func(i int) any { return rv.Index(i).Interface() }
	}
	out := reflect.MakeSlice(s.typ, n, n)
	for i := range n {
		b.path = append(b.path, strconv.Itoa(i))
		b.bindValue(out.Index(i), get(i), s.elem)
		b.path = b.path[:len(b.path)-1]
	}
	dst.Set(out)
}

func (b *binder) bindInt(dst reflect.Value, raw any) {
	i, code := toInt(raw)
	switch {
	case code == intFractional:
		b.fail("int_from_float", msgFractional)
	case code == intNotNumber:
		b.mismatch(kindInt)
	case code == intOverflow || dst.OverflowInt(i):
		b.fail("int_overflow", msgOverflow)
	default:
		dst.SetInt(i)
	}
}

func (b *binder) bindUint(dst reflect.Value, raw any) {
	i, code := toInt(raw)
	switch {
	case code == intFractional:
		b.fail("int_from_float", msgFractional)
	case code == intNotNumber:
		b.mismatch(kindUint)
	case code == intOverflow && isPositiveNumber(raw):
		u, err := strconv.ParseUint(numberText(raw), 10, 64)
		if err != nil || dst.OverflowUint(u) {
			b.fail("int_overflow", msgOverflow)
			return
		}
		dst.SetUint(u)
	case code == intOverflow || i < 0:
		b.fail("greater_than_equal", "Input should be greater than or equal to 0")
	case dst.OverflowUint(uint64(i)):
		b.fail("int_overflow", msgOverflow)
	default:
		dst.SetUint(uint64(i))
	}
}

type intCode uint8

const (
	intOK intCode = iota
	intNotNumber
	intFractional
	intOverflow
)

// toInt converts a decoded JSON number to int64. Whole floats (2.0) are
// accepted; fractional ones and non-numbers are not.
func toInt(raw any) (int64, intCode) {
	switch v := raw.(type) {
	case json.Number:
		if i, err := strconv.ParseInt(string(v), 10, 64); err == nil {
			return i, intOK
		}
		f, err := pyjson.ParseFloat(string(v))
		if err != nil && !errors.Is(err, strconv.ErrRange) {
			return 0, intNotNumber
		}
		return floatToInt(f)
	case float64:
		return floatToInt(v)
	case float32:
		return floatToInt(float64(v))
	case int:
		return int64(v), intOK
	case int8:
		return int64(v), intOK
	case int16:
		return int64(v), intOK
	case int32:
		return int64(v), intOK
	case int64:
		return v, intOK
	case uint, uint8, uint16, uint32, uint64:
		u := reflect.ValueOf(v).Uint()
		if u > math.MaxInt64 {
			return 0, intOverflow
		}
		return int64(u), intOK
	}
	return 0, intNotNumber
}

func floatToInt(f float64) (int64, intCode) {
	switch {
	case math.IsNaN(f):
		return 0, intNotNumber
	case math.IsInf(f, 0):
		return 0, intOverflow
	case f != math.Trunc(f):
		return 0, intFractional
	case f < -(1<<63) || f >= 1<<63:
		return 0, intOverflow
	}
	return int64(f), intOK
}

// isPositiveNumber and numberText let uint fields take values above
// math.MaxInt64.
func isPositiveNumber(raw any) bool {
	switch v := raw.(type) {
	case json.Number:
		return !strings.HasPrefix(string(v), "-")
	case uint, uint64:
		return true
	}
	return false
}

func numberText(raw any) string {
	if n, ok := raw.(json.Number); ok {
		return string(n)
	}
	return fmt.Sprint(raw)
}

// toFloat converts a decoded JSON number to float64.
func toFloat(raw any) (float64, bool) {
	switch v := raw.(type) {
	case json.Number:
		f, err := pyjson.ParseFloat(string(v))
		if err != nil && !errors.Is(err, strconv.ErrRange) {
			return 0, false
		}
		return f, true
	case float64:
		return v, true
	case float32:
		return float64(v), true
	case int, int8, int16, int32, int64:
		return float64(reflect.ValueOf(v).Int()), true
	case uint, uint8, uint16, uint32, uint64:
		return float64(reflect.ValueOf(v).Uint()), true
	}
	return 0, false
}

// toNumber converts a decoded JSON number to json.Number, keeping its text.
func toNumber(raw any) (json.Number, bool) {
	switch v := raw.(type) {
	case json.Number:
		if _, err := pyjson.ParseFloat(string(v)); err != nil && !errors.Is(err, strconv.ErrRange) {
			return "", false
		}
		return v, true
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return "", false
		}
		return json.Number(strconv.FormatFloat(v, 'g', -1, 64)), true
	case float32, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
		return json.Number(fmt.Sprint(v)), true
	}
	return "", false
}

// laxNumber applies pydantic's lax coercions for an integer (integer true)
// or number field to *raw: booleans become 0 or 1, numeric strings (spaces
// around them allowed) become numbers. It reports false, having recorded
// the issue, for a string that is not a number.
func (b *binder) laxNumber(raw *any, integer bool) bool {
	switch v := (*raw).(type) {
	case bool:
		if v {
			*raw = json.Number("1")
		} else {
			*raw = json.Number("0")
		}
	case string:
		t := strings.TrimSpace(v)
		if integer {
			if _, err := strconv.ParseInt(strings.TrimPrefix(t, "+"), 10, 64); err != nil || t == "" {
				b.fail("int_parsing", "Input should be a valid integer, unable to parse string as an integer")
				return false
			}
		} else if _, err := pyjson.ParseFloat(t); err != nil || strings.ContainsAny(t, "_xXpP") {
			b.fail("float_parsing", "Input should be a valid number, unable to parse string as a number")
			return false
		}
		*raw = json.Number(strings.TrimPrefix(t, "+"))
	}
	return true
}

// laxBool is pydantic's lax boolean: 0 and 1, and the strings it accepts
// in any case.
func laxBool(raw any) (bool, bool) {
	switch v := raw.(type) {
	case string:
		switch strings.ToLower(strings.TrimSpace(v)) {
		case "0", "off", "f", "false", "n", "no":
			return false, true
		case "1", "on", "t", "true", "y", "yes":
			return true, true
		}
	default:
		if i, code := toInt(raw); code == intOK && (i == 0 || i == 1) {
			if f, ok := toFloat(raw); ok && f == float64(i) {
				return i == 1, true
			}
		}
	}
	return false, false
}

// dropOptionalNulls returns v, bound by the schema s, without the nulls
// OpenAI's strict mode sends for the arguments a model leaves out: at
// every object level s declares properties for (nested objects and list
// items too), a member that is null, not required, and whose schema does
// not itself accept null is removed. v is not modified: the objects and
// lists on the way to a removal are copied. It reports whether anything
// was removed.
func dropOptionalNulls(v any, s map[string]any) (any, bool) {
	switch x := v.(type) {
	case map[string]any:
		props, _ := s["properties"].(map[string]any)
		if len(props) == 0 {
			return v, false
		}
		required := stringList(s["required"])
		var out map[string]any
		for k, val := range x {
			sub, ok := props[k].(map[string]any)
			if !ok {
				continue
			}
			if val == nil {
				if slices.Contains(required, k) || acceptsNull(sub) {
					continue
				}
				if out == nil {
					out = maps.Clone(x)
				}
				delete(out, k)
				continue
			}
			if nv, changed := dropOptionalNulls(val, sub); changed {
				if out == nil {
					out = maps.Clone(x)
				}
				out[k] = nv
			}
		}
		if out == nil {
			return v, false
		}
		return out, true
	case []any:
		items, ok := s["items"].(map[string]any)
		if !ok {
			return v, false
		}
		var out []any
		for i, val := range x {
			if nv, changed := dropOptionalNulls(val, items); changed {
				if out == nil {
					out = slices.Clone(x)
				}
				out[i] = nv
			}
		}
		if out == nil {
			return v, false
		}
		return out, true
	}
	return v, false
}

// acceptsNull reports whether the schema s lets null through: no type,
// a null type (alone or in a list), nullable, null among its enum values,
// or an anyOf/oneOf alternative that accepts null.
func acceptsNull(s map[string]any) bool {
	if s["nullable"] == true {
		return true
	}
	if enum, ok := s["enum"].([]any); ok && slices.Contains(enum, nil) {
		return true
	}
	for _, k := range []string{"anyOf", "oneOf"} {
		if alts, ok := s[k].([]any); ok {
			for _, a := range alts {
				if m, ok := a.(map[string]any); ok && acceptsNull(m) {
					return true
				}
			}
		}
	}
	switch t := s["type"].(type) {
	case nil:
		_, alts := s["anyOf"]
		_, one := s["oneOf"]
		return !alts && !one
	case string:
		return t == "null"
	default:
		return slices.Contains(stringList(t), "null")
	}
}

// stringList reads a list of strings a schema holds as []string or []any.
func stringList(v any) []string {
	switch l := v.(type) {
	case []string:
		return l
	case []any:
		out := make([]string, 0, len(l))
		for _, x := range l {
			if s, ok := x.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}
