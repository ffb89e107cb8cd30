// Package pyschema reads what a Python original's tools show the model —
// each tool's name, description, JSON Schema properties and required list,
// recorded by running the original and shipped as JSON lines beside the
// ports' data — so that a Go port presents the very same texts.
//
//   - [Parse] reads the lines; [Find] picks one tool's schema by domain
//     and name (and by construction arguments, where one tool is shown
//     differently per scenario).
//   - [Schema.Options] are the tool options that present the original's
//     properties; the description is [Schema.Description], given to
//     tool.New. The checks stay the Go declaration's.
//   - [Compare] reports where a built tool's presented schema differs from
//     the original's: name, description, property names and order,
//     properties (types, enums, texts) and required list. The ports' tests
//     call it for every tool; internal/schemacheck shows that each tool's
//     checks accept and refuse what the presented schema does.
package pyschema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"reflect"
	"slices"

	"github.com/voiceeval/schematools/internal/pyjson"
	"github.com/voiceeval/schematools/tool"
)

// Schema is one line of a tool_schemas.jsonl file.
type Schema struct {
	Domain          string         `json:"domain"`           // the domain the tool was recorded in
	RegistryDomain  string         `json:"registry_domain"`  // the registry domain it is registered under
	Tool            string         `json:"tool"`             // the registry name
	Class           string         `json:"class"`            // the Python class
	ConstructedWith map[string]any `json:"constructed_with"` // the keyword arguments it was built with
	Scenarios       []string       `json:"scenarios"`        // the scenarios that build it so (NeMo only)
	Name            string         `json:"name"`             // the LLM-visible name
	Description     string         `json:"description"`      // verbatim, leading newlines and indentation included
	Properties      map[string]any `json:"properties"`       // JSON Schema properties
	Required        []string       `json:"required"`         // required argument names, in order
	// Order is the order of Properties in the file.
	Order []string `json:"-"`
}

// Parse reads JSON lines of schemas, keeping each one's property order.
func Parse(data []byte) ([]Schema, error) {
	var out []Schema
	for n, line := range bytes.Split(data, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var s Schema
		if err := json.Unmarshal(line, &s); err != nil {
			return nil, fmt.Errorf("pyschema: line %d: %w", n+1, err)
		}
		var raw struct {
			Properties json.RawMessage `json:"properties"`
		}
		if err := json.Unmarshal(line, &raw); err != nil {
			return nil, fmt.Errorf("pyschema: line %d: %w", n+1, err)
		}
		var order []string
		if len(raw.Properties) > 0 && string(raw.Properties) != "null" {
			var err error
			if order, err = pyjson.ObjectKeys(raw.Properties); err != nil {
				return nil, fmt.Errorf("pyschema: line %d: properties: %w", n+1, err)
			}
		}
		s.Order = order
		if s.Properties == nil {
			s.Properties = map[string]any{}
		}
		if s.Required == nil {
			s.Required = []string{}
		}
		out = append(out, s)
	}
	return out, nil
}

// ParseFS reads the schema file at path in fsys.
func ParseFS(fsys fs.FS, path string) ([]Schema, error) {
	data, err := fs.ReadFile(fsys, path)
	if err != nil {
		return nil, fmt.Errorf("pyschema: %w", err)
	}
	return Parse(data)
}

// Find returns the schema of the tool name in domain; with constructedWith
// not nil, the one built with those keyword arguments.
func Find(schemas []Schema, domain, name string, constructedWith map[string]any) (Schema, error) {
	var found []Schema
	for _, s := range schemas {
		if s.Domain == domain && (s.Tool == name || s.Name == name) {
			if constructedWith == nil || reflect.DeepEqual(jsonTree(s.ConstructedWith), jsonTree(constructedWith)) {
				found = append(found, s)
			}
		}
	}
	switch len(found) {
	case 0:
		return Schema{}, fmt.Errorf("pyschema: no schema for %s/%s", domain, name)
	case 1:
		return found[0], nil
	}
	return Schema{}, fmt.Errorf("pyschema: %d schemas for %s/%s: say which construction", len(found), domain, name)
}

// Compare reports how tl's presented schema differs from s, or nil.
func Compare(tl tool.Tool, s Schema) error {
	got := tool.Schema(tl)
	var diffs []string
	if got.Name != s.Name {
		diffs = append(diffs, fmt.Sprintf("name %q, the original's %q", got.Name, s.Name))
	}
	if got.Description != s.Description {
		diffs = append(diffs, fmt.Sprintf("description %q, the original's %q", got.Description, s.Description))
	}
	order := got.Parameters.Order
	if len(order) == 0 {
		for k := range got.Parameters.Properties {
			order = append(order, k)
		}
		slices.Sort(order)
	}
	if want := s.Order; !slices.Equal(order, want) && !(len(order) == 0 && len(want) == 0) {
		diffs = append(diffs, fmt.Sprintf("properties %q, the original's %q", order, want))
	}
	for _, k := range s.Order {
		g, w := jsonTree(got.Parameters.Properties[k]), jsonTree(s.Properties[k])
		if !reflect.DeepEqual(g, w) {
			diffs = append(diffs, fmt.Sprintf("property %s: %s, the original's %s", k, text(g), text(w)))
		}
	}
	if !slices.Equal(got.Parameters.Required, s.Required) {
		diffs = append(diffs, fmt.Sprintf("required %q, the original's %q", got.Parameters.Required, s.Required))
	}
	if diffs == nil {
		return nil
	}
	return fmt.Errorf("pyschema: %s/%s: %v", s.Domain, s.Name, diffs)
}

// jsonTree is v as encoding/json reads it back (numbers as float64).
func jsonTree(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		return v
	}
	var out any
	if json.Unmarshal(b, &out) != nil {
		return v
	}
	return out
}

func text(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
