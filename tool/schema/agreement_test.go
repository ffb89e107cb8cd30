package schema_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/tool"
	"github.com/voiceeval/schematools/tool/schema"
)

// compile validates an exported schema against draft 2020-12 and compiles
// it.
func compile(t *testing.T, name string, doc map[string]any) *jsonschema.Schema {
	t.Helper()
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	url := "mem://" + name + ".json"
	require.NoError(t, c.AddResource(url, roundTrip(t, doc)))
	s, err := c.Compile(url)
	require.NoError(t, err, "the exported schema of %s is not valid draft 2020-12", name)
	return s
}

// roundTrip re-reads a JSON tree the way the validator wants it.
func roundTrip(t *testing.T, v any) any {
	t.Helper()
	text := mustJSON(t, v)
	out, err := jsonschema.UnmarshalJSON(strings.NewReader(text))
	require.NoError(t, err)
	return out
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := jsonMarshal(v)
	require.NoError(t, err)
	return string(b)
}

// Every schema of every dialect that keeps JSON Schema is valid draft 2020-12.
func TestExportedSchemasAreValid(t *testing.T) {
	tools := coffeeSet(t).Tools()
	plain, err := schema.OpenAI(tools, nil)
	require.NoError(t, err)
	strict, err := schema.OpenAI(tools, &schema.Options{Strict: true})
	require.NoError(t, err)
	for i, tl := range tools {
		compile(t, tl.Name()+"_openai", tree(t, plain[i])["function"].(map[string]any)["parameters"].(map[string]any))
		compile(t, tl.Name()+"_strict", tree(t, strict[i])["function"].(map[string]any)["parameters"].(map[string]any))
		compile(t, tl.Name()+"_anthropic", anthropicSchema(t, tl))
	}
}

// The schema a model sees and the tool's own argument checks agree on
// argument objects, except for the deliberate differences named in each
// case: unknown top-level keys, which the schema leaves open (the Python
// original's shape) while the tool refuses them. Rules written once in a
// validate tag (quantity 1-10, customer 1-80 characters, at least one item)
// reach the schema too.
func TestSchemaAgreesWithArgumentChecks(t *testing.T) {
	set := coffeeSet(t)
	item := func(fields string) string { return `{"item_id":"latte","size":"large","quantity":2` + fields + `}` }
	type argCase struct {
		tool, args, diff string
	}
	cases := []argCase{
		{"place_order", `{"customer":"Ada","items":[` + item("") + `]}`, ""},
		{"place_order", `{"customer":"Ada","items":[` + item("") + `,` + item("") + `]}`, ""},
		{"place_order", `{"customer":"Ada","items":[{"item_id":"latte","size":"small","quantity":1}]}`, ""},
		{"place_order", `{"customer":"Ada","items":[{"item_id":"latte","size":"medium","quantity":10}]}`, ""},
		{"place_order", `{"customer":"Ada","items":[{"item_id":"latte","size":"large","quantity":2.0}]}`, ""},
		{"place_order", `{"customer":"Ada","items":[{"item_id":"latte","size":"huge","quantity":2}]}`, ""},
		{"place_order", `{"customer":"Ada","items":[{"item_id":"latte","size":"LARGE","quantity":2}]}`, ""},
		{"place_order", `{"customer":"Ada","items":[{"item_id":"latte","size":"large","quantity":2.5}]}`, ""},
		{"place_order", `{"customer":"Ada","items":[{"item_id":"latte","size":"large","quantity":"2"}]}`, ""},
		{"place_order", `{"customer":"Ada","items":[{"item_id":"latte","size":"large"}]}`, ""},
		{"place_order", `{"customer":"Ada","items":[{"item_id":"latte","quantity":2}]}`, ""},
		{"place_order", `{"customer":"Ada","items":[{"size":"large","quantity":2}]}`, ""},
		{"place_order", `{"customer":"Ada","items":[{"item_id":7,"size":"large","quantity":2}]}`, ""},
		{"place_order", `{"customer":"Ada","items":[` + item(`,"extra":1`) + `]}`, ""},
		{"place_order", `{"customer":"Ada","items":[null]}`, ""},
		{"place_order", `{"customer":"Ada","items":["latte"]}`, ""},
		{"place_order", `{"customer":"Ada","items":{"item_id":"latte"}}`, ""},
		{"place_order", `{"customer":"Ada","items":"latte"}`, ""},
		{"place_order", `{"customer":"Ada","items":null}`, ""},
		{"place_order", `{"customer":"Ada"}`, ""},
		{"place_order", `{"items":[` + item("") + `]}`, ""},
		{"place_order", `{}`, ""},
		{"place_order", `{"customer":7,"items":[` + item("") + `]}`, ""},
		{"place_order", `{"customer":null,"items":[` + item("") + `]}`, ""},
		{"place_order", `{"customer":true,"items":[` + item("") + `]}`, ""},
		{"place_order", `{"customer":["Ada"],"items":[` + item("") + `]}`, ""},
		{"place_order", `{"customer":{"name":"Ada"},"items":[` + item("") + `]}`, ""},
		{"place_order", `{"customer":"Ada","items":[{"item_id":"latte","size":"large","quantity":0}]}`, ""},
		{"place_order", `{"customer":"Ada","items":[{"item_id":"latte","size":"large","quantity":11}]}`, ""},
		{"place_order", `{"customer":"Ada","items":[{"item_id":"latte","size":"large","quantity":-3}]}`, ""},
		{"place_order", `{"customer":"","items":[` + item("") + `]}`, ""},
		{"place_order", `{"customer":"` + strings.Repeat("a", 81) + `","items":[` + item("") + `]}`, ""},
		{"place_order", `{"customer":"Ada","items":[]}`, ""},
		{"place_order", `{"customer":"Ada","items":[` + item("") + `],"tip":1}`, "unknown top-level key: the schema is open there"},
		{"cancel_order", `{"order_id":"ORD-001","reason":"changed my mind"}`, ""},
		{"cancel_order", `{"order_id":"ORD-001","reason":"ordered by mistake"}`, ""},
		{"cancel_order", `{"order_id":"ORD-001","reason":"took too long"}`, ""},
		{"cancel_order", `{"order_id":"ORD-001","reason":"because"}`, ""},
		{"cancel_order", `{"order_id":"ORD-001","reason":"Changed my mind"}`, ""},
		{"cancel_order", `{"order_id":"ORD-001","reason":""}`, ""},
		{"cancel_order", `{"order_id":"ORD-001","reason":null}`, ""},
		{"cancel_order", `{"order_id":"ORD-001"}`, ""},
		{"cancel_order", `{"reason":"took too long"}`, ""},
		{"cancel_order", `{"order_id":1,"reason":"took too long"}`, ""},
		{"cancel_order", `{"order_id":"ORD-001","reason":["took too long"]}`, ""},
		{"cancel_order", `{"order_id":"ORD-001","reason":"took too long","why":"x"}`, "unknown top-level key: the schema is open there"},
		{"order_status", `{"order_id":"ORD-001"}`, ""},
		{"order_status", `{"order_id":""}`, ""},
		{"order_status", `{"order_id":null}`, ""},
		{"order_status", `{"order_id":12}`, ""},
		{"order_status", `{}`, ""},
		{"order_status", `{"order_id":"ORD-001","verbose":true}`, "unknown top-level key: the schema is open there"},
		{"get_menu", `{}`, ""},
		{"get_menu", `{"items":["latte"]}`, "unknown top-level key: the schema is open there"},
		{"EndConversationTool", `{}`, ""},
		{"EndConversationTool", `{"anything":"goes"}`, ""},
	}
	require.GreaterOrEqual(t, len(cases), 50)
	schemas := map[string]*jsonschema.Schema{}
	byName := map[string]tool.Tool{}
	for _, tl := range set.Tools() {
		byName[tl.Name()] = tl
		schemas[tl.Name()] = compile(t, tl.Name(), anthropicSchema(t, tl))
	}
	for i, c := range cases {
		t.Run(fmt.Sprintf("%d_%s", i, c.tool), func(t *testing.T) {
			inst, err := jsonschema.UnmarshalJSON(strings.NewReader(c.args))
			require.NoError(t, err)
			schemaOK := schemas[c.tool].Validate(inst) == nil
			tl := byName[c.tool]
			args, err := tool.DecodeArgs([]byte(c.args))
			require.NoError(t, err)
			res, err := tl.Execute(context.Background(), args)
			require.NoError(t, err)
			_, refused := res.(tool.ValidationResult)
			if c.diff == "" {
				assert.Equal(t, schemaOK, !refused, "schema and tool disagree on %s", c.args)
			} else {
				assert.True(t, schemaOK && refused, "listed difference (%s) no longer holds for %s", c.diff, c.args)
			}
		})
	}
}

// anthropicSchema is the input schema Anthropic's export gives tl.
func anthropicSchema(t *testing.T, tl tool.Tool) map[string]any {
	t.Helper()
	defs, err := schema.Anthropic([]tool.Tool{tl}, nil)
	require.NoError(t, err)
	return tree(t, defs[0])["input_schema"].(map[string]any)
}
