package genaicheck

import (
	"bytes"
	"encoding/json"
	"slices"
	"testing"

	"github.com/voiceeval/schematools/domains"
	"github.com/voiceeval/schematools/internal/pyjson"
	"github.com/voiceeval/schematools/registry"
	"github.com/voiceeval/schematools/tool"
	"github.com/voiceeval/schematools/tool/schema"
	"google.golang.org/genai"
)

// domainTools builds every tool of every domain of domains, by
// domain, each with a private state and no DB.
func domainTools(t *testing.T) map[string][]tool.Tool {
	t.Helper()
	reg := new(registry.Tools)
	if err := domains.Register(reg); err != nil {
		t.Fatal(err)
	}
	out := map[string][]tool.Tool{}
	for _, domain := range domains.Names() {
		for _, name := range reg.Names(domain) {
			tl, err := reg.New(domain, name, registry.Deps{})
			if err != nil {
				t.Fatalf("%s/%s: %v", domain, name, err)
			}
			out[domain] = append(out[domain], tl)
		}
	}
	return out
}

// unmarshalTool reads an export into the SDK's Tool, refusing any key the
// SDK's types lack (it would be dropped silently otherwise).
func unmarshalTool(raw json.RawMessage) (*genai.Tool, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	var out genai.Tool
	if err := dec.Decode(&out); err != nil {
		return nil, err
	}
	return &out, nil
}

var sdkTypes = []genai.Type{genai.TypeString, genai.TypeNumber, genai.TypeInteger, genai.TypeBoolean,
	genai.TypeArray, genai.TypeObject, genai.TypeNULL}

// Every domain's GeminiGo export unmarshals into genai.Tool, one
// declaration per tool in order; every schema the SDK then holds is one
// Gemini accepts, and every object's PropertyOrdering is the order in
// which the tool's own schema lists its properties — at the top level the
// tool's parameter order. (Before, the export wrote int64 keywords as
// strings, which the SDK's *int64 fields refuse, and no propertyOrdering.)
func TestGeminiGoUnmarshalsIntoTheSDKsTool(t *testing.T) {
	tools, orderings := 0, 0
	for domain, set := range domainTools(t) {
		raw, _, err := schema.GeminiGo(set)
		if err != nil {
			t.Fatalf("%s: %v", domain, err)
		}
		gt, err := unmarshalTool(raw)
		if err != nil {
			t.Fatalf("%s: the export does not unmarshal into genai.Tool: %v", domain, err)
		}
		if len(gt.FunctionDeclarations) != len(set) {
			t.Fatalf("%s: %d declarations for %d tools", domain, len(gt.FunctionDeclarations), len(set))
		}
		for i, decl := range gt.FunctionDeclarations {
			tl := set[i]
			at := domain + "/" + tl.Name()
			tools++
			if decl.Name != tl.Name() || decl.Description != tl.Description() {
				t.Errorf("%s: declaration %q", at, decl.Name)
			}
			if len(tl.Properties()) == 0 {
				if decl.Parameters != nil {
					t.Errorf("%s: parameters for a tool without any", at)
				}
				continue
			}
			if decl.Parameters == nil {
				t.Errorf("%s: no parameters", at)
				continue
			}
			text, err := json.Marshal(tool.Schema(tl).Parameters)
			if err != nil {
				t.Fatal(err)
			}
			want := keyOrders(t, text)
			if len(want[""]) == 0 {
				t.Fatalf("%s: no parameter order read", at)
			}
			orderings += checkSchema(t, at, "", decl.Parameters, want)
		}
	}
	if tools < 100 || orderings < 80 {
		t.Errorf("only %d tools, %d orderings checked", tools, orderings)
	}
}

// checkSchema checks one SDK schema and those below it, and returns how
// many PropertyOrderings it compared.
func checkSchema(t *testing.T, tool, at string, s *genai.Schema, want map[string][]string) int {
	t.Helper()
	where := tool + " at " + at
	if s.Type == "" && len(s.AnyOf) == 0 {
		t.Errorf("%s: no type", where)
	}
	if s.Type != "" && !slices.Contains(sdkTypes, s.Type) {
		t.Errorf("%s: type %q is not one of the SDK's", where, s.Type)
	}
	n := 0
	switch s.Type {
	case genai.TypeObject:
		if len(s.Properties) == 0 {
			t.Errorf("%s: an OBJECT without properties", where)
		}
		if !slices.Equal(s.PropertyOrdering, want[at]) {
			t.Errorf("%s: propertyOrdering %q, the tool's order %q", where, s.PropertyOrdering, want[at])
		}
		n++
	case genai.TypeArray:
		if s.Items == nil {
			t.Errorf("%s: an ARRAY without items", where)
		}
	}
	for name, sub := range s.Properties {
		if !slices.Contains(s.PropertyOrdering, name) {
			t.Errorf("%s: property %s missing from propertyOrdering", where, name)
		}
		n += checkSchema(t, tool, join(at, name), sub, want)
	}
	if s.Items != nil {
		n += checkSchema(t, tool, join(at, "items"), s.Items, want)
	}
	for _, alt := range s.AnyOf {
		n += checkSchema(t, tool, at, alt, want)
	}
	return n
}

// The @google/genai export (schema.Gemini) writes int64 keywords as JSON
// strings, which the Go SDK's Schema refuses: the reason GeminiGo exists.
func TestGeminiJSExportIsNotForTheGoSDK(t *testing.T) {
	refused := 0
	for _, set := range domainTools(t) {
		raw, _, err := schema.Gemini(set)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := unmarshalTool(raw); err != nil {
			refused++
		}
	}
	if refused == 0 {
		t.Error("every @google/genai export unmarshalled into genai.Tool: GeminiGo has no reason to exist")
	}
}

// keyOrders reads, from a schema's JSON text, the order in which each
// object lists its properties, by path (the property names and "items"
// leading to it, "" for the top level).
func keyOrders(t *testing.T, text []byte) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	var walk func(raw json.RawMessage, at string)
	walk = func(raw json.RawMessage, at string) {
		var s map[string]json.RawMessage
		if json.Unmarshal(raw, &s) != nil {
			return
		}
		if props, ok := s["properties"]; ok {
			keys, err := pyjson.ObjectKeys(props)
			if err != nil {
				t.Fatal(err)
			}
			out[at] = keys
			var m map[string]json.RawMessage
			if err := json.Unmarshal(props, &m); err != nil {
				t.Fatal(err)
			}
			for k, sub := range m {
				walk(sub, join(at, k))
			}
		}
		if items, ok := s["items"]; ok {
			walk(items, join(at, "items"))
		}
	}
	walk(text, "")
	return out
}

func join(at, k string) string {
	if at == "" {
		return k
	}
	return at + "." + k
}
