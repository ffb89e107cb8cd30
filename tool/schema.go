package tool

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"

	"github.com/invopop/jsonschema"
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
}

// OpenAIFunction is a tool definition in OpenAI's chat-completions shape:
// {"type": "function", "function": {...}}.
type OpenAIFunction struct {
	Type     string         `json:"type"`
	Function FunctionSchema `json:"function"`
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
	return FunctionSchema{
		Name:        t.Name(),
		Description: t.Description(),
		Parameters:  Parameters{Type: "object", Properties: props, Required: req},
	}
}

// OpenAISchema returns the definition of t in OpenAI's
// {"type": "function", "function": {...}} shape.
func OpenAISchema(t Tool) OpenAIFunction {
	return OpenAIFunction{Type: "function", Function: Schema(t)}
}

// paramSchema is what reflecting a parameters struct yields.
type paramSchema struct {
	properties map[string]any
	required   []string
}

// reflectParams derives the properties and required list of struct type t
// with invopop/jsonschema (no $ref, no $schema/$id), and marks the required
// fields of s, at every nesting level, from the same schema, so validation
// and the schema the LLM sees can never disagree.
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
