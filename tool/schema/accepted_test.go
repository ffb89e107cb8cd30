package schema_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/domains/tau2/telecom"
	"github.com/voiceeval/schematools/internal/pyjson"
	"github.com/voiceeval/schematools/tool"
	"github.com/voiceeval/schematools/tool/schema"
)

// jsonDialects are the exports that keep JSON Schema, each returning the
// parameters schema of every tool.
var jsonDialects = map[string]func(t *testing.T, tools []tool.Tool, changed *[]string) []map[string]any{
	"openai": func(t *testing.T, tools []tool.Tool, changed *[]string) []map[string]any {
		out, err := schema.OpenAI(tools, &schema.Options{Report: changed})
		require.NoError(t, err)
		return paramsOf(t, out, func(d map[string]any) any { return d["function"].(map[string]any)["parameters"] })
	},
	"openai_strict": func(t *testing.T, tools []tool.Tool, changed *[]string) []map[string]any {
		out, err := schema.OpenAI(tools, &schema.Options{Strict: true, Report: changed})
		require.NoError(t, err)
		return paramsOf(t, out, func(d map[string]any) any { return d["function"].(map[string]any)["parameters"] })
	},
	"responses": func(t *testing.T, tools []tool.Tool, changed *[]string) []map[string]any {
		out, err := schema.OpenAIResponses(tools, &schema.Options{Report: changed})
		require.NoError(t, err)
		return paramsOf(t, out, func(d map[string]any) any { return d["parameters"] })
	},
	"responses_strict": func(t *testing.T, tools []tool.Tool, changed *[]string) []map[string]any {
		out, err := schema.OpenAIResponses(tools, &schema.Options{Strict: true, Report: changed})
		require.NoError(t, err)
		return paramsOf(t, out, func(d map[string]any) any { return d["parameters"] })
	},
	"anthropic": func(t *testing.T, tools []tool.Tool, changed *[]string) []map[string]any {
		out, err := schema.Anthropic(tools, &schema.Options{Report: changed})
		require.NoError(t, err)
		return paramsOf(t, out, func(d map[string]any) any { return d["input_schema"] })
	},
}

func paramsOf(t *testing.T, defs []json.RawMessage, pick func(map[string]any) any) []map[string]any {
	t.Helper()
	out := make([]map[string]any, 0, len(defs))
	for _, raw := range defs {
		out = append(out, pick(tree(t, raw)).(map[string]any))
	}
	return out
}

// Every parameters schema of every JSON Schema dialect, for every tool of
// every domain, is valid draft 2020-12 and gives every array an item
// schema (OpenAI answers 400 "array schema missing items" otherwise).
// NeMo's PlaceOrderTool presents "list" and "float": the exports write
// "array" (with items {}) and "number" and report it. (Before, its schema
// was exported as it is and no validator took it.)
func TestJSONDialectsAreJSONSchemaForEveryDomain(t *testing.T) {
	all := domainTools(t)
	compiled := 0
	for _, dialect := range []string{"openai", "openai_strict", "responses", "responses_strict", "anthropic"} {
		for domain, tools := range all {
			var changed []string
			for i, p := range jsonDialects[dialect](t, tools, &changed) {
				name := fmt.Sprintf("%s_%s_%s", dialect, domain, tools[i].Name())
				compile(t, name, p)
				walkJSONSchema(t, name, p)
				compiled++
			}
			if domain == "default" || domain == "restaurant" {
				assert.Subset(t, changed, []string{
					"PlaceOrderTool: items.type (list; written array)",
					"PlaceOrderTool: items.items (none; written {}, any value)",
					"PlaceOrderTool: total_price.type (float; written number)",
				}, "%s %s", dialect, domain)
			}
		}
	}
	assert.Greater(t, compiled, 500)
}

// walkJSONSchema checks that every type is a JSON Schema type and every
// array has items.
func walkJSONSchema(t *testing.T, at string, s map[string]any) {
	t.Helper()
	types := []any{s["type"]}
	if list, ok := s["type"].([]any); ok {
		types = list
	}
	for _, typ := range types {
		if typ != nil {
			assert.Contains(t, []any{"string", "number", "integer", "boolean", "object", "array", "null"}, typ, at)
		}
		if typ == "array" {
			assert.Contains(t, s, "items", "%s: an array without items", at)
		}
	}
	if props, ok := s["properties"].(map[string]any); ok {
		for k, sub := range props {
			walkJSONSchema(t, at+"."+k, sub.(map[string]any))
		}
	}
	if items, ok := s["items"].(map[string]any); ok {
		walkJSONSchema(t, at+".items", items)
	}
	for i, alt := range asList(s["anyOf"]) {
		walkJSONSchema(t, fmt.Sprintf("%s.anyOf.%d", at, i), alt.(map[string]any))
	}
}

// The model-facing text of NeMo's own harness — tool.Schema, what a bot's
// ToolInstaller presents after update_system_prompt, vLLM's input — keeps
// the original's "list" and "float": only the provider exports map them.
func TestOriginalTextKeepsPythonTypes(t *testing.T) {
	for _, domain := range []string{"default", "restaurant"} {
		order := findTool(t, domainTools(t)[domain], "PlaceOrderTool")
		text, err := json.Marshal(tool.Schema(order))
		require.NoError(t, err)
		assert.Contains(t, string(text), `"type":"list"`, domain)
		assert.Contains(t, string(text), `"type":"float"`, domain)
	}
}

// A type list and the other Python names are mapped too; a name that is
// neither JSON Schema's nor Python's is removed (any value) and reported.
func TestPythonTypeNamesMapped(t *testing.T) {
	rt := rawTool{props: map[string]any{
		"a": map[string]any{"type": "str"},
		"b": map[string]any{"type": []any{"int", "NoneType"}},
		"c": map[string]any{"type": "bool"},
		"d": map[string]any{"type": "dict", "properties": map[string]any{"e": map[string]any{"type": "tuple", "items": map[string]any{"type": "str"}}}},
		"f": map[string]any{"type": "datetime", "description": "When."},
		"g": map[string]any{"type": "array"},
	}, required: []string{"a"}}
	var changed []string
	out, err := schema.Anthropic([]tool.Tool{rt}, &schema.Options{Report: &changed})
	require.NoError(t, err)
	p := tree(t, out[0])["input_schema"].(map[string]any)["properties"].(map[string]any)
	assert.Equal(t, map[string]any{"type": "string"}, p["a"])
	assert.Equal(t, map[string]any{"type": []any{"integer", "null"}}, p["b"])
	assert.Equal(t, map[string]any{"type": "boolean"}, p["c"])
	assert.Equal(t, map[string]any{"type": "object", "properties": map[string]any{"e": map[string]any{"type": "array", "items": map[string]any{"type": "string"}}}}, p["d"])
	assert.Equal(t, map[string]any{"description": "When."}, p["f"])
	assert.Equal(t, map[string]any{"type": "array", "items": map[string]any{}}, p["g"])
	assert.Equal(t, []string{
		"raw: a.type (str; written string)",
		"raw: b.type (NoneType; written null)",
		"raw: b.type (int; written integer)",
		"raw: c.type (bool; written boolean)",
		"raw: d.e.items.type (str; written string)",
		"raw: d.e.type (tuple; written array)",
		"raw: d.type (dict; written object)",
		"raw: f.type (datetime; removed: not a JSON Schema type)",
		"raw: g.items (none; written {}, any value)",
	}, changed)

	strict, err := schema.OpenAI([]tool.Tool{rawTool{props: map[string]any{
		"items": map[string]any{"type": "list", "items": map[string]any{"type": "string"}},
		"price": map[string]any{"type": "float"},
	}, required: []string{"items"}}}, &schema.Options{Strict: true})
	require.NoError(t, err)
	fn := tree(t, strict[0])["function"].(map[string]any)
	assert.Equal(t, true, fn["strict"], "mapped to JSON Schema types, the schema can be strict")
	assert.Equal(t, []any{"number", "null"}, fn["parameters"].(map[string]any)["properties"].(map[string]any)["price"].(map[string]any)["type"])
}

// The strict exports report the keywords strict mode drops, and only for
// tools exported strict.
func TestStrictReportsDroppedKeywords(t *testing.T) {
	var changed []string
	_, err := schema.OpenAI(coffeeSet(t).Tools(), &schema.Options{Strict: true, Report: &changed})
	require.NoError(t, err)
	assert.Equal(t, []string{
		"place_order: customer.maxLength (strict mode does not support it)",
		"place_order: customer.minLength (strict mode does not support it)",
	}, changed)
	changed = nil
	_, err = schema.OpenAI(domainTools(t)[telecom.Domain], &schema.Options{Strict: true, Report: &changed})
	require.NoError(t, err)
	for _, c := range changed {
		assert.NotContains(t, c, "set_apn_settings", "not exported strict: nothing changed")
	}
}

// geminiOf decodes one Gemini export.
func geminiOf(t *testing.T, raw json.RawMessage) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, d := range tree(t, raw)["functionDeclarations"].([]any) {
		out = append(out, d.(map[string]any))
	}
	return out
}

// No Gemini schema of any domain is an OBJECT with empty properties or an
// ARRAY without items, at any level (Gemini answers 400 "properties:
// should be non-empty for OBJECT type" and "items: missing field").
// Telecom's apn_settings, an open map, is a STRING holding JSON text, so
// the model can still call set_apn_settings; PlaceOrderTool's items (a
// list of unknown items) likewise. (Before: an OBJECT without properties,
// an ARRAY without items.)
func TestGeminiHasNoOpaqueObjectsOrArrays(t *testing.T) {
	for domain, tools := range domainTools(t) {
		for _, export := range []func([]tool.Tool) (json.RawMessage, []string, error){schema.Gemini, schema.GeminiGo} {
			raw, removed, err := export(tools)
			require.NoError(t, err)
			for _, decl := range geminiOf(t, raw) {
				if p, ok := decl["parameters"].(map[string]any); ok {
					walkGeminiShapes(t, domain+"/"+decl["name"].(string), p)
				}
			}
			switch domain {
			case telecom.Domain:
				assert.Contains(t, removed, "set_apn_settings: apn_settings (an object without properties; written STRING holding JSON text)")
			case "default", "restaurant":
				assert.Contains(t, removed, "PlaceOrderTool: items (an array without items; written STRING holding JSON text)")
			}
		}
	}
	raw, _, err := schema.Gemini(domainTools(t)[telecom.Domain])
	require.NoError(t, err)
	for _, decl := range geminiOf(t, raw) {
		if decl["name"] == "set_apn_settings" {
			apn := decl["parameters"].(map[string]any)["properties"].(map[string]any)["apn_settings"].(map[string]any)
			assert.Equal(t, "STRING", apn["type"])
			assert.Contains(t, apn["description"], "APN settings dict.")
			assert.Contains(t, apn["description"], "JSON object")
		}
	}
}

func walkGeminiShapes(t *testing.T, at string, s map[string]any) {
	t.Helper()
	switch s["type"] {
	case "OBJECT":
		assert.NotEmpty(t, s["properties"], "%s: an OBJECT without properties", at)
	case "ARRAY":
		assert.NotEmpty(t, s["items"], "%s: an ARRAY without items", at)
	case nil:
		if _, alts := s["anyOf"]; !alts {
			t.Errorf("%s: no type", at)
		}
	}
	if props, ok := s["properties"].(map[string]any); ok {
		for k, sub := range props {
			walkGeminiShapes(t, at+"."+k, sub.(map[string]any))
		}
	}
	if items, ok := s["items"].(map[string]any); ok {
		walkGeminiShapes(t, at+".items", items)
	}
	for i, alt := range asList(s["anyOf"]) {
		walkGeminiShapes(t, fmt.Sprintf("%s.anyOf.%d", at, i), alt.(map[string]any))
	}
}

// Every Gemini object with properties carries propertyOrdering, equal to
// the order in which the tool's own schema (tool.Schema's JSON text, what
// a model reads) lists them — at the top level the tool's parameter order,
// nested objects too. (Before: no propertyOrdering, so the Go SDK, whose
// Properties is a map, lost the order.)
func TestGeminiPropertyOrderingIsTheToolsOrder(t *testing.T) {
	checked, nested := 0, 0
	for domain, tools := range domainTools(t) {
		raw, _, err := schema.Gemini(tools)
		require.NoError(t, err)
		for i, decl := range geminiOf(t, raw) {
			p, ok := decl["parameters"].(map[string]any)
			if !ok {
				continue
			}
			text, err := json.Marshal(tool.Schema(tools[i]).Parameters)
			require.NoError(t, err)
			want := keyOrders(t, text)
			got := map[string][]string{}
			collectOrdering(p, "", got)
			for at, order := range got {
				assert.Equal(t, want[at], order, "%s/%s at %q", domain, tools[i].Name(), at)
				checked++
				if at != "" {
					nested++
				}
			}
			assert.Equal(t, want[""], got[""], "%s/%s: the parameter order", domain, tools[i].Name())
		}
	}
	assert.Greater(t, checked, 80)
	assert.Greater(t, nested, 5, "nested objects (tau2's lists of objects) are checked too")
}

// collectOrdering records each object's propertyOrdering by its path (the
// property names and "items" leading to it).
func collectOrdering(s map[string]any, at string, out map[string][]string) {
	props, ok := s["properties"].(map[string]any)
	if !ok {
		return
	}
	var order []string
	for _, k := range asList(s["propertyOrdering"]) {
		order = append(order, k.(string))
	}
	out[at] = order
	for k, sub := range props {
		collectProps(sub.(map[string]any), joinPath(at, k), out)
	}
}

func collectProps(s map[string]any, at string, out map[string][]string) {
	collectOrdering(s, at, out)
	if items, ok := s["items"].(map[string]any); ok {
		collectProps(items, joinPath(at, "items"), out)
	}
}

func joinPath(at, k string) string {
	if at == "" {
		return k
	}
	return at + "." + k
}

// Gemini's export writes int64 keywords as strings (@google/genai's
// Schema type); GeminiGo writes them as numbers (google.golang.org/genai's
// Schema has *int64 fields) and is otherwise the same. (Before: no
// Go-SDK export; json.Unmarshal into genai.Schema failed on "minItems": "1".)
func TestGeminiGoWritesIntegersAsNumbers(t *testing.T) {
	tools := coffeeSet(t).Tools()
	js, jsRemoved, err := schema.Gemini(tools)
	require.NoError(t, err)
	goExport, goRemoved, err := schema.GeminiGo(tools)
	require.NoError(t, err)
	assert.Contains(t, string(js), `"maxLength":"80","minLength":"1"`)
	assert.Contains(t, string(goExport), `"maxLength":80,"minLength":1`)
	assert.Contains(t, string(goExport), `"maxItems":20,"minItems":1`)
	assert.Equal(t, jsRemoved, goRemoved)
	for _, k := range []string{"minItems", "maxItems", "minLength", "maxLength"} {
		for _, n := range []string{"1", "20", "80"} {
			js = bytes.ReplaceAll(js, []byte(`"`+k+`":"`+n+`"`), []byte(`"`+k+`":`+n))
		}
	}
	assert.JSONEq(t, string(js), string(goExport))
}

// GeminiArguments decodes the JSON text a Gemini model sends for the
// parameters the export wrote as strings, at any level, and leaves every
// other argument — and a string that is not JSON of the right kind — to
// the tool.
func TestGeminiArgumentsDecodesJSONText(t *testing.T) {
	rt := rawTool{props: map[string]any{
		"settings": map[string]any{"type": "object"},
		"list":     map[string]any{"type": "list"},
		"name":     map[string]any{"type": "string"},
		"box": map[string]any{"type": "object", "properties": map[string]any{
			"inner": map[string]any{"type": "dict"},
		}},
		"rows": map[string]any{"type": "array", "items": map[string]any{"type": "object", "properties": map[string]any{
			"meta": map[string]any{"type": "object"},
		}}},
	}}
	cases := []struct{ in, want string }{
		{`{"settings":"{\"apn_name\":\"internet\",\"mms_port\":1e3}","name":"{\"x\":1}"}`,
			`{"settings":{"apn_name":"internet","mms_port":1e3},"name":"{\"x\":1}"}`},
		{`{"list":"[{\"name\":\"a\",\"quantity\":2}]"}`, `{"list":[{"name":"a","quantity":2}]}`},
		{`{"box":{"inner":"{\"a\":[1]}"},"rows":[{"meta":"{}"},{"meta":{"b":2}}]}`,
			`{"box":{"inner":{"a":[1]}},"rows":[{"meta":{}},{"meta":{"b":2}}]}`},
		{`{"settings":{"apn_name":"internet"}}`, `{"settings":{"apn_name":"internet"}}`},
		{`{"settings":"not json"}`, `{"settings":"not json"}`},
		{`{"settings":"{} x"}`, `{"settings":"{} x"}`},
		{`{"settings":"[1,2]"}`, `{"settings":"[1,2]"}`},
		{`{"list":"{\"a\":1}"}`, `{"list":"{\"a\":1}"}`},
		{`{"settings":null,"extra":"{\"a\":1}"}`, `{"settings":null,"extra":"{\"a\":1}"}`},
		{`{}`, `{}`},
	}
	for _, c := range cases {
		got, err := schema.GeminiArguments(rt, c.in)
		require.NoError(t, err, c.in)
		assert.JSONEq(t, c.want, got, c.in)
	}
	_, err := schema.GeminiArguments(rt, `[1]`)
	assert.ErrorContains(t, err, "not a JSON object")
	_, err = schema.GeminiArguments(rt, `{"a":`)
	assert.Error(t, err)
	_, err = schema.GeminiArguments(rt, `{}}0`) // found by FuzzGeminiArguments: text after the object was ignored
	assert.ErrorContains(t, err, "text after the JSON value")

	apn := findTool(t, domainTools(t)[telecom.Domain], "set_apn_settings")
	got, err := schema.GeminiArguments(apn, `{"apn_settings":"{\"apn_name\":\"internet\"}"}`)
	require.NoError(t, err)
	assert.JSONEq(t, `{"apn_settings":{"apn_name":"internet"}}`, got)
	unchanged := `{"apn_settings": {"apn_name": "internet"}}`
	got, err = schema.GeminiArguments(apn, unchanged)
	require.NoError(t, err)
	assert.Equal(t, unchanged, got, "nothing to decode: the text as it was")
	assert.True(t, slices.Contains(apn.Required(), "apn_settings"))

	// The decoded call is answered as the call with the object is.
	answer := func(args string) string {
		m, err := tool.DecodeArgs([]byte(args))
		require.NoError(t, err)
		var got any
		require.NoError(t, tool.Call(context.Background(), apn, m, func(v any) error { got = v; return nil }, nil))
		return mustJSON(t, got)
	}
	decoded, err := schema.GeminiArguments(apn, `{"apn_settings":"{\"apn_name\":\"internet\",\"bogus\":1}"}`)
	require.NoError(t, err)
	assert.Equal(t, answer(`{"apn_settings":{"apn_name":"internet","bogus":1}}`), answer(decoded))
}

// keyOrders reads, from a schema's JSON text, the order in which each
// object lists its properties, by path (as collectOrdering names them).
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
			require.NoError(t, err)
			if len(keys) > 0 {
				out[at] = keys
			}
			var m map[string]json.RawMessage
			require.NoError(t, json.Unmarshal(props, &m))
			for k, sub := range m {
				walk(sub, joinPath(at, k))
			}
		}
		if items, ok := s["items"]; ok {
			walk(items, joinPath(at, "items"))
		}
	}
	walk(text, "")
	return out
}
