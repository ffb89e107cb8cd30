package tool

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"

	"github.com/invopop/jsonschema"
	"github.com/voiceeval/schematools/state"
)

// FunctionSchema is the function definition an LLM sees for a tool:
// {"name", "description", "parameters": {"type": "object", "properties",
// "required"}}, with keys in that order.
type FunctionSchema struct {
	Name        string     `json:"name"`
	Description string     `json:"description"`
	Parameters  Parameters `json:"parameters"`
}

// Parameters is the JSON Schema object of a tool's arguments.
type Parameters struct {
	Type       string         `json:"type"`
	Properties map[string]any `json:"properties"`
	Required   []string       `json:"required"`
	// Order, when set, is the order in which Properties are written as
	// JSON (keys it does not list follow, sorted). Models read schemas as
	// text, so the declaration order of a parameters struct is kept.
	Order []string `json:"-"`
}

// PropertyOrderer is implemented by tools whose properties have a natural
// order, such as typed tools (their struct's field order). [Schema] carries
// it into [Parameters.Order].
type PropertyOrderer interface {
	PropertyOrder() []string
}

// MarshalJSON writes {"type", "properties", "required"}, with properties
// in Order.
func (p Parameters) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(`{"type":`)
	if err := writeJSON(&b, p.Type); err != nil {
		return nil, err
	}
	b.WriteString(`,"properties":{`)
	seen := make(map[string]bool, len(p.Order))
	keys := make([]string, 0, len(p.Properties))
	for _, k := range p.Order {
		if _, ok := p.Properties[k]; ok && !seen[k] {
			seen[k] = true
			keys = append(keys, k)
		}
	}
	rest := make([]string, 0, len(p.Properties)-len(keys))
	for k := range p.Properties {
		if !seen[k] {
			rest = append(rest, k)
		}
	}
	slices.Sort(rest)
	for i, k := range append(keys, rest...) {
		if i > 0 {
			b.WriteByte(',')
		}
		if err := writeJSON(&b, k); err != nil {
			return nil, err
		}
		b.WriteByte(':')
		if err := writeJSON(&b, p.Properties[k]); err != nil {
			return nil, err
		}
	}
	b.WriteString(`},"required":`)
	req := p.Required
	if req == nil {
		req = []string{}
	}
	if err := writeJSON(&b, req); err != nil {
		return nil, err
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

func writeJSON(b *bytes.Buffer, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	b.Write(data)
	return nil
}

// Schema returns the function definition of t. Properties and Required are
// never nil, so they marshal as {} and [].
func Schema(t Tool) FunctionSchema {
	props := t.Properties()
	if props == nil {
		props = map[string]any{}
	}
	req := t.Required()
	if req == nil {
		req = []string{}
	}
	var order []string
	if o, ok := t.(PropertyOrderer); ok {
		order = o.PropertyOrder()
	}
	return FunctionSchema{
		Name:        t.Name(),
		Description: t.Description(),
		Parameters:  Parameters{Type: "object", Properties: props, Required: req, Order: order},
	}
}

// paramSchema is what reflecting a parameters struct yields.
type paramSchema struct {
	properties map[string]any
	required   []string
	order      []string // property names in field order
}

// reflectParams derives the properties and required list of struct type t
// with invopop/jsonschema (no $ref, no $schema/$id), writes the validate
// rules into it and gives the plan s the jsonschema rules to check
// (rules.go), and marks the required fields of s, at every nesting level,
// from the same schema, so validation and the schema the LLM sees can
// never disagree.
//
// A field is required unless its json tag has omitempty or omitzero;
// `jsonschema:"required"` forces it.
func reflectParams(t reflect.Type, s *spec, allowExtra bool) (ps paramSchema, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%w: generating the schema of %s: %v", ErrInvalidParams, t, r)
		}
	}()
	r := jsonschema.Reflector{DoNotReference: true, Anonymous: true, AllowAdditionalProperties: allowExtra, Mapper: mapType}
	root := r.ReflectFromType(t)
	if root.Type != "object" {
		return ps, fmt.Errorf("%w: %s does not reflect to a JSON object", ErrInvalidParams, t)
	}
	if err := attachRules(s, root); err != nil {
		return ps, fmt.Errorf("%w: %s: %w", ErrInvalidParams, t, err)
	}
	if err := applyValidate(s, root); err != nil {
		return ps, fmt.Errorf("%s: %w", t, err)
	}
	markRequired(s, root)

	ps.properties = map[string]any{}
	if root.Properties != nil && root.Properties.Len() > 0 {
		data, err := json.Marshal(root.Properties)
		if err != nil {
			return ps, fmt.Errorf("%w: encoding the schema of %s: %w", ErrInvalidParams, t, err)
		}
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		if err := dec.Decode(&ps.properties); err != nil {
			return ps, fmt.Errorf("%w: decoding the schema of %s: %w", ErrInvalidParams, t, err)
		}
		for k, v := range ps.properties {
			ps.properties[k] = openSchemas(v)
		}
		for pr := root.Properties.Oldest(); pr != nil; pr = pr.Next() {
			ps.order = append(ps.order, pr.Key)
		}
	}
	ps.required = slices.Clone(root.Required)
	if ps.required == nil {
		ps.required = []string{}
	}
	return ps, nil
}

// mapType overrides invopop's schema for types it gets wrong for tool
// arguments: json.Number is a number, not a string.
func mapType(t reflect.Type) *jsonschema.Schema {
	if t == numberType {
		return &jsonschema.Schema{Type: "number"}
	}
	return nil
}

// markRequired copies the schema's required lists onto the binding plan.
func markRequired(s *spec, sc *jsonschema.Schema) {
	if s == nil || sc == nil {
		return
	}
	switch s.kind {
	case kindStruct:
		for i := range s.fields {
			f := &s.fields[i]
			f.required = slices.Contains(sc.Required, f.name)
			if sc.Properties != nil {
				if child, ok := sc.Properties.Get(f.name); ok {
					markRequired(f.spec, child)
				}
			}
		}
	case kindSlice:
		markRequired(s.elem, sc.Items)
	case kindMap:
		markRequired(s.elem, sc.AdditionalProperties)
	case kindPtr:
		markRequired(s.elem, sc)
	}
}

// openSchemas replaces the boolean schema `true` (what invopop emits for an
// interface field) by the equivalent empty object, which every LLM provider
// accepts, in property and item positions.
func openSchemas(v any) any {
	if b, ok := v.(bool); ok && b {
		return map[string]any{}
	}
	m, ok := v.(map[string]any)
	if !ok {
		return v
	}
	if props, ok := m["properties"].(map[string]any); ok {
		for k, p := range props {
			props[k] = openSchemas(p)
		}
	}
	if items, ok := m["items"]; ok {
		m["items"] = openSchemas(items)
	}
	return m
}

// withProperties returns ps presenting props instead of its own
// properties.
func withProperties(ps paramSchema, props map[string]any) (paramSchema, error) {
	own := slices.Sorted(maps.Keys(ps.properties))
	given := slices.Sorted(maps.Keys(props))
	if !slices.Equal(own, given) {
		return ps, fmt.Errorf("%w: Options.Properties names %v, the parameters %v", ErrInvalidParams, given, own)
	}
	ps.properties = state.Clone(props).(map[string]any)
	return ps, nil
}
