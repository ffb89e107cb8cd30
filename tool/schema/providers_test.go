package schema_test

import (
	"context"
	"encoding/json"
	"slices"

	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/domains"
	"github.com/voiceeval/schematools/domains/tau2/telecom"
	"github.com/voiceeval/schematools/registry"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
	"github.com/voiceeval/schematools/tool/schema"
)

// domainTools builds every tool of every domain of domains, by
// domain, each with a private state and no DB.
func domainTools(t *testing.T) map[string][]tool.Tool {
	t.Helper()
	reg := new(registry.Tools)
	require.NoError(t, domains.Register(reg))
	out := map[string][]tool.Tool{}
	for _, domain := range domains.Names() {
		for _, name := range reg.Names(domain) {
			tl, err := reg.New(domain, name, registry.Deps{})
			require.NoError(t, err, "%s/%s", domain, name)
			out[domain] = append(out[domain], tl)
		}
	}
	return out
}

// Strict export is per tool: telecom's set_apn_settings (an open map)
// cannot be strict and is exported as it is, with "strict": false; the
// other 42 tools are strict. (Before, the whole export failed.)
func TestStrictIsPerTool(t *testing.T) {
	tools := domainTools(t)[telecom.Domain]
	require.Len(t, tools, 43)
	plain, err := schema.OpenAI(tools, nil)
	require.NoError(t, err)
	for _, f := range []func([]tool.Tool, *schema.Options) ([]json.RawMessage, error){schema.OpenAI, schema.OpenAIResponses} {
		out, err := f(tools, &schema.Options{Strict: true})
		require.NoError(t, err)
		var notStrict []string
		for i, raw := range out {
			def := tree(t, raw)
			if fn, ok := def["function"].(map[string]any); ok {
				def = fn
			}
			if def["strict"] != true {
				assert.Equal(t, false, def["strict"], "a non-strict tool says so")
				notStrict = append(notStrict, tools[i].Name())
				assert.Equal(t, tree(t, plain[i])["function"].(map[string]any)["parameters"], def["parameters"], "exported as it is")
			}
		}
		assert.Equal(t, []string{"set_apn_settings"}, notStrict)
	}
}

// NeMo's PlaceOrderTool presents "list" and "float": its exports write
// "array" and "number" (see TestPythonTypeNamesMapped), but its list has
// no item schema, which strict mode requires, so it is exported with
// "strict": false. (At first it was exported with "strict": true and the
// Python names, which strict mode refuses.)
func TestStrictRefusesTypesJSONSchemaLacks(t *testing.T) {
	for _, domain := range []string{"default", "restaurant"} {
		tools := domainTools(t)[domain]
		strict, err := schema.OpenAI(tools, &schema.Options{Strict: true})
		require.NoError(t, err)
		found := false
		for i, tl := range tools {
			if tl.Name() == "PlaceOrderTool" {
				found = true
				fn := tree(t, strict[i])["function"].(map[string]any)
				assert.Equal(t, false, fn["strict"], domain)
				props := fn["parameters"].(map[string]any)["properties"].(map[string]any)
				assert.Equal(t, "array", props["items"].(map[string]any)["type"], domain)
				assert.Equal(t, "number", props["total_price"].(map[string]any)["type"], domain)
			}
		}
		assert.True(t, found, domain)
	}
}

// Non-strict Responses exports say "strict": false: the API treats
// a function without it as strict where it can, making optional
// parameters required. (Before, "strict" was omitted.)
func TestNonStrictSaysStrictFalse(t *testing.T) {
	tools := coffeeSet(t).Tools()
	responses, err := schema.OpenAIResponses(tools, nil)
	require.NoError(t, err)
	chat, err := schema.OpenAI(tools, nil)
	require.NoError(t, err)
	for i := range tools {
		assert.Equal(t, false, tree(t, responses[i])["strict"], tools[i].Name())
		assert.NotContains(t, tree(t, chat[i])["function"], "strict", "Chat Completions defaults to false")
	}
}

// OpenAI's strict mode does not support minLength and maxLength: the
// strict export drops them at every level; the non-strict one keeps them.
// (Before, strict exports kept them.)
func TestStrictDropsUnsupportedKeywords(t *testing.T) {
	type item struct {
		Code string `json:"code" jsonschema:"minLength=2,maxLength=4"`
	}
	type params struct {
		Name  string `json:"name" jsonschema:"minLength=1,maxLength=80,pattern=^[A-Z]"`
		Items []item `json:"items" jsonschema:"minItems=1"`
	}
	tl, err := tool.New("lengths", "Lengths.", func(context.Context, *state.Shared, params) (any, error) { return "", nil }, nil)
	require.NoError(t, err)
	strict, err := schema.OpenAI([]tool.Tool{tl}, &schema.Options{Strict: true})
	require.NoError(t, err)
	text := string(strict[0])
	assert.NotContains(t, text, "minLength")
	assert.NotContains(t, text, "maxLength")
	assert.Contains(t, text, `"pattern":"^[A-Z]"`, "pattern is supported")
	assert.Contains(t, text, `"minItems":1`, "minItems is supported")
	plain, err := schema.OpenAI([]tool.Tool{tl}, nil)
	require.NoError(t, err)
	assert.Contains(t, string(plain[0]), `"maxLength":80,"minLength":1`)
	assert.Contains(t, string(plain[0]), `"minLength":2`)
}

// geminiTypes are the names of @google/genai's Type enum.
var geminiTypes = []string{"STRING", "NUMBER", "INTEGER", "BOOLEAN", "ARRAY", "OBJECT", "NULL"}

// Gemini's exports: a tool with no parameters has no "parameters" (the API
// refuses an OBJECT with empty properties), a nested object without
// properties has no empty "properties" either, and types are the Type
// enum's names, int64 keywords strings. (Before: empty properties
// everywhere, lowercase types, numbers.)
func TestGeminiHasNoEmptyObjectsAndEnumTypes(t *testing.T) {
	all := domainTools(t)
	noParams := 0
	for _, domain := range domains.Names() {
		raw, _, err := schema.Gemini(all[domain])
		require.NoError(t, err)
		decls := tree(t, raw)["functionDeclarations"].([]any)
		for i, d := range decls {
			decl := d.(map[string]any)
			if len(all[domain][i].Properties()) == 0 {
				noParams++
				assert.NotContains(t, decl, "parameters", "%s/%s", domain, decl["name"])
				continue
			}
			walkGemini(t, domain+"/"+decl["name"].(string), decl["parameters"].(map[string]any))
		}
	}
	assert.GreaterOrEqual(t, noParams, 29, "telecom's user tools alone take no parameters")

	coffee, _, err := schema.Gemini(coffeeSet(t).Tools())
	require.NoError(t, err)
	assert.Contains(t, string(coffee), `"maxLength":"80","minLength":"1"`)

	raw, _, err := schema.Gemini(all[telecom.Domain])
	require.NoError(t, err)
	var apn map[string]any
	for _, d := range tree(t, raw)["functionDeclarations"].([]any) {
		if d.(map[string]any)["name"] == "set_apn_settings" {
			apn = d.(map[string]any)["parameters"].(map[string]any)["properties"].(map[string]any)["apn_settings"].(map[string]any)
		}
	}
	// Gemini refuses an OBJECT without properties at any level ("properties:
	// should be non-empty for OBJECT type"): the open map is JSON text.
	assert.Equal(t, "STRING", apn["type"])
	assert.NotContains(t, apn, "properties")
}

func walkGemini(t *testing.T, at string, s map[string]any) {
	t.Helper()
	if typ, ok := s["type"]; ok {
		assert.Contains(t, geminiTypes, typ, at)
	}
	for _, k := range []string{"minItems", "maxItems", "minLength", "maxLength"} {
		if v, ok := s[k]; ok {
			assert.IsType(t, "", v, "%s.%s: an int64, written as a string", at, k)
		}
	}
	if props, ok := s["properties"]; ok {
		assert.NotEmpty(t, props, "%s: empty properties", at)
		for k, sub := range props.(map[string]any) {
			walkGemini(t, at+"."+k, sub.(map[string]any))
		}
	} else {
		assert.NotContains(t, s, "required", at)
	}
	if items, ok := s["items"].(map[string]any); ok {
		walkGemini(t, at+".items", items)
	}
	for i, alt := range asList(s["anyOf"]) {
		walkGemini(t, at+".anyOf."+string(rune('0'+i)), alt.(map[string]any))
	}
}

func asList(v any) []any { l, _ := v.([]any); return l }

// A strict model sends null for every optional argument it leaves out;
// with tool.CallOptions.NullAsAbsent every strictly exported tool of every domain
// answers such a call as it answers the call without them. Without the
// option, telecom's get_bills_for_customer still refuses a null limit as
// pydantic does. (Before, there was no way to read them as absent.)
func TestStrictNullsReadAsAbsent(t *testing.T) {
	ctx := context.Background()
	call := func(tl tool.Tool, args map[string]any, opts *tool.CallOptions) string {
		var got any
		require.NoError(t, tool.Call(ctx, tl, args, func(v any) error { got = v; return nil }, opts))
		text, err := json.Marshal(got)
		require.NoError(t, err)
		return string(text)
	}
	checked := 0
	for domain, tools := range domainTools(t) {
		strict, err := schema.OpenAI(tools, &schema.Options{Strict: true})
		require.NoError(t, err)
		for i, tl := range tools {
			if tree(t, strict[i])["function"].(map[string]any)["strict"] != true {
				continue
			}
			for name := range tl.Properties() {
				if slices.Contains(tl.Required(), name) {
					continue
				}
				checked++
				want := call(tl, map[string]any{}, nil)
				got := call(tl, map[string]any{name: nil}, &tool.CallOptions{NullAsAbsent: true})
				assert.Equal(t, want, got, "%s/%s: null %s", domain, tl.Name(), name)
			}
		}
	}
	assert.GreaterOrEqual(t, checked, 6)

	bills := findTool(t, domainTools(t)[telecom.Domain], "get_bills_for_customer")
	refused := call(bills, map[string]any{"customer_id": "C1", "limit": nil}, nil)
	assert.Contains(t, refused, "int_type", "pydantic's refusal stays on the default path")
	assert.NotContains(t, call(bills, map[string]any{"customer_id": "C1", "limit": nil}, &tool.CallOptions{NullAsAbsent: true}), "int_type")
}

// NullAsAbsent follows the schema into nested objects and list items, and
// leaves nulls the schema allows or requires to the tool.
func TestNullAsAbsentNested(t *testing.T) {
	rt := &echoTool{rawTool: rawTool{props: map[string]any{
		"keep": map[string]any{"type": []any{"string", "null"}},
		"need": map[string]any{"type": "string"},
		"drop": map[string]any{"type": "integer"},
		"box": map[string]any{"type": "object", "required": []string{"x"}, "properties": map[string]any{
			"x": map[string]any{"type": "integer"}, "y": map[string]any{"type": "integer"},
		}},
		"list": map[string]any{"type": "array", "items": map[string]any{"type": "object", "properties": map[string]any{
			"z": map[string]any{"type": "string"},
		}}},
	}, required: []string{"need"}}}
	args := map[string]any{"keep": nil, "need": nil, "drop": nil,
		"box": map[string]any{"x": nil, "y": nil}, "list": []any{map[string]any{"z": nil}, "s"}}
	before := mustJSON(t, args)
	require.NoError(t, tool.Call(context.Background(), rt, args, func(any) error { return nil }, &tool.CallOptions{NullAsAbsent: true}))
	assert.Equal(t, map[string]any{"keep": nil, "need": nil, "box": map[string]any{"x": nil}, "list": []any{map[string]any{}, "s"}}, rt.got)
	assert.Equal(t, before, mustJSON(t, args), "the caller's arguments are not modified")
}

// echoTool records the arguments Execute sees.
type echoTool struct {
	rawTool
	got map[string]any
}

func (e *echoTool) Execute(_ context.Context, args map[string]any) (any, error) {
	e.got = args
	return "ok", nil
}

func findTool(t *testing.T, tools []tool.Tool, name string) tool.Tool {
	t.Helper()
	for _, tl := range tools {
		if tl.Name() == name {
			return tl
		}
	}
	t.Fatalf("no tool %s", name)
	return nil
}
