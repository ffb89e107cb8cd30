package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sort"

	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

// Options configures an export; a nil *Options is the zero value.
type Options struct {
	// Strict turns on OpenAI's strict mode, tool by tool: each tool whose
	// schema can be made strict is exported with "strict": true and its
	// schema rewritten (every object closed, every property required,
	// optional ones nullable, the keywords strict mode does not support
	// dropped); a tool whose schema cannot be (an open object, an untyped
	// value, a list without an item schema) is exported as the non-strict
	// export writes it, with "strict": false. The "strict" member of each
	// definition says which. A strict model sends null for an optional
	// argument it leaves out: dispatch its calls with
	// [tool.CallOptions].NullAsAbsent. [Anthropic] ignores it.
	Strict bool
	// Report, if not nil, makes the export append to *Report what it
	// changed in the tools' schemas so that the provider accepts them, one
	// "tool: path.keyword (what)" line each, sorted: the type names JSON
	// Schema lacks that it mapped, the item schemas it added, and (with
	// Strict) the keywords strict mode does not support that it dropped.
	// [Gemini] returns its own list instead.
	Report *[]string
}

type config struct {
	strict, sayNotStrict bool
	report               *[]string // see Options.Report
}

func newConfig(opts *Options) config {
	var c config
	if opts != nil {
		c.strict, c.report = opts.Strict, opts.Report
	}
	return c
}

// parameters returns t's parameters object as a fresh, plain JSON tree
// (hand-written schemas may hold []string and other Go types; a round
// trip through JSON turns them into []any, map[string]any and
// json.Number), and the order of its properties.
func parameters(t tool.Tool) (map[string]any, []string, error) {
	s := tool.Schema(t)
	data, err := json.Marshal(s.Parameters)
	if err != nil {
		return nil, nil, fmt.Errorf("schema: tool %s: %w", t.Name(), err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var out map[string]any
	if err := dec.Decode(&out); err != nil {
		return nil, nil, fmt.Errorf("schema: tool %s: %w", t.Name(), err)
	}
	return out, s.Parameters.Order, nil
}

// jsonParameters is t's parameters object as the JSON Schema dialects
// write it: [parameters] with the rewrites of toJSONSchema, reported to r.
func jsonParameters(t tool.Tool, r *reporter) (map[string]any, []string, error) {
	p, order, err := parameters(t)
	if err != nil {
		return nil, nil, err
	}
	toJSONSchema(p, t.Name(), "", r)
	return p, order, nil
}

// object is a JSON object whose members are written in the order given.
// Exports are JSON text for a model to read, so they keep the order of a
// definition's keys and of a tool's parameters.
type object []member

type member struct {
	key   string
	value any
}

// MarshalJSON writes the members in order.
func (o object) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, err := json.Marshal(m.key)
		if err != nil {
			return nil, err
		}
		v, err := json.Marshal(m.value)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// ordered returns the parameters object p as an object: "type",
// "properties" (in order, then any others sorted), "required", then the
// other keywords sorted.
func ordered(p map[string]any, order []string) object {
	out := object{}
	for _, k := range []string{"type", "properties", "required"} {
		v, ok := p[k]
		if !ok {
			continue
		}
		if props, isMap := v.(map[string]any); isMap && k == "properties" {
			v = inOrder(props, order)
		}
		out = append(out, member{k, v})
	}
	for _, k := range slices.Sorted(maps.Keys(p)) {
		if k != "type" && k != "properties" && k != "required" {
			out = append(out, member{k, p[k]})
		}
	}
	return out
}

// inOrder returns m with the keys order lists first, in that order, then
// the others sorted.
func inOrder(m map[string]any, order []string) object {
	out := make(object, 0, len(m))
	seen := map[string]bool{}
	for _, k := range order {
		if v, ok := m[k]; ok && !seen[k] {
			seen[k] = true
			out = append(out, member{k, v})
		}
	}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if !seen[k] {
			out = append(out, member{k, m[k]})
		}
	}
	return out
}

func encode(v object) (json.RawMessage, error) {
	data, err := json.Marshal(v)
	return json.RawMessage(data), err
}

// mainType is a schema's type, or the first non-null type of a list.
func mainType(s map[string]any) any {
	if list, ok := s["type"].([]any); ok {
		for _, t := range list {
			if t != "null" {
				return t
			}
		}
		return "null"
	}
	return s["type"]
}

// OpenAI returns the tools as Chat Completions function tools, one JSON
// object each: {"type": "function", "function": {"name", "description",
// "parameters"[, "strict"]}}.
func OpenAI(tools []tool.Tool, opts *Options) ([]json.RawMessage, error) {
	return openAITools(tools, newConfig(opts), func(fn object) object {
		return object{{"type", "function"}, {"function", fn}}
	})
}

// OpenAIResponses returns the tools in the Responses API's flat shape:
// {"type": "function", "name", "description", "parameters", "strict"}.
// "strict" is always written, false unless [Options].Strict made the tool strict:
// the Responses API reads a function without it as strict where it can,
// which turns optional parameters into required ones.
func OpenAIResponses(tools []tool.Tool, opts *Options) ([]json.RawMessage, error) {
	c := newConfig(opts)
	c.sayNotStrict = true
	return openAITools(tools, c, func(fn object) object {
		return append(object{{"type", "function"}}, fn...)
	})
}

// openAITools builds each tool's function definition and wraps it in the
// API's envelope.
func openAITools(tools []tool.Tool, c config, wrap func(fn object) object) ([]json.RawMessage, error) {
	out := make([]json.RawMessage, 0, len(tools))
	var r reporter
	for _, t := range tools {
		fn, err := openAIFunction(t, c, &r)
		if err != nil {
			return nil, err
		}
		data, err := encode(wrap(fn))
		if err != nil {
			return nil, fmt.Errorf("schema: tool %s: %w", t.Name(), err)
		}
		out = append(out, data)
	}
	r.flush(c.report)
	return out, nil
}

// openAIFunction builds t's function definition. With Options.Strict, a tool
// whose schema cannot be made strict is exported as it is, with "strict":
// false. Without it, "strict": false is written when c.sayNotStrict (the
// Responses API treats a function without "strict" as strict where it
// can, which would make optional parameters required); Chat Completions
// defaults to false, so its definitions leave it out.
func openAIFunction(t tool.Tool, c config, r *reporter) (object, error) {
	params, order, err := jsonParameters(t, r)
	if err != nil {
		return nil, err
	}
	if c.strict {
		var dropped reporter // kept only when the tool is strict
		if strict, err := makeStrict(params, t.Name(), "", &dropped); err == nil {
			r.lines = append(r.lines, dropped.lines...)
			return object{{"name", t.Name()}, {"description", t.Description()}, {"parameters", ordered(strict, order)}, {"strict", true}}, nil
		}
	}
	fn := object{{"name", t.Name()}, {"description", t.Description()}, {"parameters", ordered(params, order)}}
	if c.strict || c.sayNotStrict {
		fn = append(fn, member{"strict", false})
	}
	return fn, nil
}

// strictUnsupported are the JSON Schema keywords OpenAI's strict mode does
// not support (its "supported schemas" list: strings take pattern and
// format, numbers their bounds, arrays minItems and maxItems, objects
// nothing beyond properties, required and additionalProperties). The
// strict export drops them; the tool still checks them, and the non-strict
// exports keep them.
var strictUnsupported = []string{"minLength", "maxLength", "minProperties", "maxProperties", "patternProperties",
	"propertyNames", "unevaluatedProperties", "unevaluatedItems", "uniqueItems", "contains", "minContains", "maxContains"}

// makeStrict rewrites an object schema for OpenAI strict mode: closed,
// every property required, formerly optional ones nullable.
func makeStrict(s map[string]any, toolName, at string, r *reporter) (map[string]any, error) {
	out := state.Clone(s).(map[string]any)
	for _, k := range strictUnsupported {
		if _, ok := out[k]; ok {
			delete(out, k)
			r.add(toolName, at, k+" (strict mode does not support it)")
		}
	}
	switch mainType(out) {
	case "object":
		props, _ := out["properties"].(map[string]any)
		if len(props) == 0 && at != "" {
			return nil, fmt.Errorf("%s is an open object (a map); strict mode needs declared properties", at)
		}
		if ap, ok := out["additionalProperties"]; ok && ap != false {
			return nil, fmt.Errorf("%s allows additional properties; strict mode forbids them", label(at))
		}
		required := map[string]bool{}
		if req, ok := out["required"].([]any); ok {
			for _, r := range req {
				required[fmt.Sprint(r)] = true
			}
		}
		names := make([]string, 0, len(props))
		for k := range props {
			names = append(names, k)
		}
		sort.Strings(names)
		all := make([]any, 0, len(names))
		for _, k := range names {
			sub, ok := props[k].(map[string]any)
			if !ok {
				return nil, fmt.Errorf("%s has no schema", path(at, k))
			}
			strictSub, err := makeStrict(sub, toolName, path(at, k), r)
			if err != nil {
				return nil, err
			}
			if !required[k] {
				strictSub = nullable(strictSub)
			}
			props[k] = strictSub
			all = append(all, k)
		}
		if props == nil {
			props = map[string]any{}
		}
		out["properties"], out["required"], out["additionalProperties"] = props, all, false
	case "array":
		items, ok := out["items"].(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%s is a list without an item schema", label(at))
		}
		strictItems, err := makeStrict(items, toolName, path(at, "items"), r)
		if err != nil {
			return nil, err
		}
		out["items"] = strictItems
	case nil:
		return nil, fmt.Errorf("%s has no type (any value); strict mode needs one", label(at))
	}
	for _, t := range typeNames(out["type"]) {
		if !slices.Contains(jsonTypes, t) {
			return nil, fmt.Errorf("%s has type %q, which is not a JSON Schema type", label(at), t)
		}
	}
	return out, nil
}

// jsonTypes are JSON Schema's type names.
var jsonTypes = []string{"string", "number", "integer", "boolean", "object", "array", "null"}

// typeNames lists a "type" value's names (one, or a list's).
func typeNames(t any) []string {
	switch t := t.(type) {
	case string:
		return []string{t}
	case []any:
		out := make([]string, 0, len(t))
		for _, x := range t {
			out = append(out, fmt.Sprint(x))
		}
		return out
	}
	return nil
}

// nullable makes a schema accept null too, in its type and in its enum.
func nullable(s map[string]any) map[string]any {
	switch t := s["type"].(type) {
	case string:
		if t != "null" {
			s["type"] = []any{t, "null"}
		}
	case []any:
		if !slices.Contains(t, any("null")) {
			s["type"] = append(t, "null")
		}
	}
	if enum, ok := s["enum"].([]any); ok && !slices.Contains(enum, nil) {
		s["enum"] = append(enum, nil)
	}
	return s
}

func path(at, k string) string {
	if at == "" {
		return k
	}
	return at + "." + k
}

func label(at string) string {
	if at == "" {
		return "the parameters object"
	}
	return at
}

// Anthropic returns the tools as Messages API tools, one JSON object
// each: {"name", "description", "input_schema"}: the shape of MCP's
// tools/list too (cmd/mcpserver serves tool.Schema's text instead,
// the originals' word for word). Of the options only Report applies.
func Anthropic(tools []tool.Tool, opts *Options) ([]json.RawMessage, error) {
	c := newConfig(opts)
	var r reporter
	out := make([]json.RawMessage, 0, len(tools))
	for _, t := range tools {
		params, order, err := jsonParameters(t, &r)
		if err != nil {
			return nil, err
		}
		data, err := encode(object{{"name", t.Name()}, {"description", t.Description()}, {"input_schema", ordered(params, order)}})
		if err != nil {
			return nil, fmt.Errorf("schema: tool %s: %w", t.Name(), err)
		}
		out = append(out, data)
	}
	r.flush(c.report)
	return out, nil
}
