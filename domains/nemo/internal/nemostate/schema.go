package nemostate

import (
	"fmt"
	"reflect"
	"strings"
	"sync"

	"github.com/voiceeval/schematools/domains/nemo/nemodata"
	"github.com/voiceeval/schematools/internal/pyschema"
	"github.com/voiceeval/schematools/state"
)

// schemas reads the shipped tool_schemas.jsonl once.
var schemas = sync.OnceValues(func() ([]pyschema.Schema, error) {
	return pyschema.ParseFS(nemodata.FS, "tool_schemas.jsonl")
})

// Schemas returns every schema of tool_schemas.jsonl.
func Schemas() ([]pyschema.Schema, error) { return schemas() }

// Presented returns what the original presents for the tool name of
// domain: its schema when every recorded construction presents the same
// one, else an error.
func Presented(domain, name string) (pyschema.Schema, error) {
	all, err := schemas()
	if err != nil {
		return pyschema.Schema{}, err
	}
	var found *pyschema.Schema
	for i := range all {
		s := &all[i]
		if s.Domain != domain || s.Tool != name {
			continue
		}
		if found == nil {
			found = s
			continue
		}
		if s.Name != found.Name || s.Description != found.Description ||
			!reflect.DeepEqual(s.Properties, found.Properties) || !reflect.DeepEqual(s.Required, found.Required) {
			return pyschema.Schema{}, fmt.Errorf("nemostate: %s/%s is presented in several ways", domain, name)
		}
	}
	if found == nil {
		return pyschema.Schema{}, fmt.Errorf("nemostate: no schema for %s/%s", domain, name)
	}
	out := *found
	out.Properties, _ = state.Clone(found.Properties).(map[string]any)
	return out, nil
}

// Refill returns text with the one occurrence of recorded (the part the
// original fills in from a construction argument) replaced by fill.
func Refill(text, recorded, fill string) (string, error) {
	if recorded == "" || strings.Count(text, recorded) != 1 {
		return "", fmt.Errorf("nemostate: %q does not hold %q exactly once", text, recorded)
	}
	return strings.Replace(text, recorded, fill, 1), nil
}

// SpecOf starts a Spec from the original's presented schema, with the
// description replaced when override is not empty (the original's
// "description or default").
func SpecOf(s pyschema.Schema, override string) Spec {
	desc := s.Description
	if override != "" {
		desc = override
	}
	return Spec{
		Name:        s.Name,
		Description: desc,
		Properties:  s.Properties,
		Order:       s.Order,
		Required:    s.Required,
	}
}
