package schema_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/domains/coffee"
	"github.com/voiceeval/schematools/internal/golden"
	"github.com/voiceeval/schematools/registry"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
	"github.com/voiceeval/schematools/tool/schema"
)

// coffeeSet is every coffee and harness tool.
func coffeeSet(t *testing.T) *tool.Set {
	t.Helper()
	reg := new(registry.Tools)
	require.NoError(t, registry.RegisterHarness(reg))
	require.NoError(t, coffee.Register(reg))
	var spec []registry.ToolSpec
	for _, n := range append(reg.Names(coffee.Domain), reg.Names(state.DefaultDomain)...) {
		spec = append(spec, registry.ToolSpec{Name: n})
	}
	st := state.New()
	st.SetDB(coffee.DB())
	set, err := reg.NewSet(coffee.Domain, spec, registry.Deps{State: st})
	require.NoError(t, err)
	return set
}

func checkGolden(t *testing.T, name string, v any) {
	t.Helper()
	got, err := json.MarshalIndent(v, "", "  ")
	require.NoError(t, err)
	golden.Check(t, filepath.Join("testdata", name+".golden.json"), append(got, '\n'))
}

func TestExportGoldens(t *testing.T) {
	tools := coffeeSet(t).Tools()
	openai, err := schema.OpenAI(tools, nil)
	require.NoError(t, err)
	checkGolden(t, "openai", openai)
	strict, err := schema.OpenAI(tools, &schema.Options{Strict: true})
	require.NoError(t, err)
	checkGolden(t, "openai_strict", strict)
	responses, err := schema.OpenAIResponses(tools, nil)
	require.NoError(t, err)
	checkGolden(t, "openai_responses", responses)
	responses, err = schema.OpenAIResponses(tools, &schema.Options{Strict: true})
	require.NoError(t, err)
	checkGolden(t, "openai_responses_strict", responses)
	anthropic, err := schema.Anthropic(tools, nil)
	require.NoError(t, err)
	checkGolden(t, "anthropic", anthropic)
	gemini, removed, err := schema.Gemini(tools)
	require.NoError(t, err)
	checkGolden(t, "gemini", map[string]any{"tool": gemini, "removed": removed})
}

func TestStrictRewrite(t *testing.T) {
	type params struct {
		City string `json:"city"`
		Days int    `json:"days,omitempty"`
	}
	tl, err := tool.New("forecast", "Forecast.", func(context.Context, *state.Shared, params) (any, error) { return "", nil }, nil)
	require.NoError(t, err)
	out, err := schema.OpenAI([]tool.Tool{tl}, &schema.Options{Strict: true})
	require.NoError(t, err)
	fn := tree(t, out[0])["function"].(map[string]any)
	assert.Equal(t, true, fn["strict"])
	p := fn["parameters"].(map[string]any)
	assert.Equal(t, []any{"city", "days"}, p["required"])
	assert.Equal(t, false, p["additionalProperties"])
	assert.Equal(t, []any{"integer", "null"}, p["properties"].(map[string]any)["days"].(map[string]any)["type"])

	type open struct {
		Extra map[string]any `json:"extra"`
	}
	bad, err := tool.New("open", "Open.", func(context.Context, *state.Shared, open) (any, error) { return "", nil }, nil)
	require.NoError(t, err)
	// A tool that cannot be strict (an open object) is exported as it is,
	// with "strict": false; the others in the same call stay strict.
	mixed, err := schema.OpenAI([]tool.Tool{bad, tl}, &schema.Options{Strict: true})
	require.NoError(t, err)
	plain, err := schema.OpenAI([]tool.Tool{bad}, nil)
	require.NoError(t, err, "non-strict export takes anything")
	assert.Equal(t, tree(t, plain[0])["function"].(map[string]any)["parameters"], tree(t, mixed[0])["function"].(map[string]any)["parameters"])
	assert.Equal(t, false, tree(t, mixed[0])["function"].(map[string]any)["strict"])
	assert.Equal(t, true, tree(t, mixed[1])["function"].(map[string]any)["strict"])
}

// A hand-written tool with any schema it likes.
type rawTool struct {
	props    map[string]any
	required []string
}

func (r rawTool) Name() string                                         { return "raw" }
func (r rawTool) Description() string                                  { return "Raw." }
func (r rawTool) Properties() map[string]any                           { return r.props }
func (r rawTool) Required() []string                                   { return r.required }
func (r rawTool) Execute(context.Context, map[string]any) (any, error) { return "ok", nil }

func TestStrictEdgeCases(t *testing.T) {
	rt := rawTool{props: map[string]any{
		"level": map[string]any{"type": "string", "enum": []string{"a", "b"}},
		"box": map[string]any{"type": []string{"object", "null"}, "properties": map[string]any{
			"x": map[string]any{"type": "integer"},
		}, "required": []string{"x"}},
	}}
	out, err := schema.OpenAI([]tool.Tool{rt}, &schema.Options{Strict: true})
	require.NoError(t, err)
	props := tree(t, out[0])["function"].(map[string]any)["parameters"].(map[string]any)["properties"].(map[string]any)
	assert.Equal(t, []any{"a", "b", nil}, props["level"].(map[string]any)["enum"], "a nullable enum lists null")
	box := props["box"].(map[string]any)
	assert.Equal(t, false, box["additionalProperties"], "an object typed with a list is made strict too")
	assert.Equal(t, []any{"x"}, box["required"])
	assert.Equal(t, "integer", box["properties"].(map[string]any)["x"].(map[string]any)["type"], "a required field stays non-nullable")
}

func TestGeminiEdgeCases(t *testing.T) {
	rt := rawTool{props: map[string]any{
		"lvl":   map[string]any{"type": "integer", "enum": []any{1, 2}},
		"mail":  map[string]any{"type": "string", "format": "email"},
		"when":  map[string]any{"type": "string", "format": "date-time"},
		"multi": map[string]any{"type": []any{"string", "integer"}},
		"none":  map[string]any{"type": "null"},
		"alt":   map[string]any{"anyOf": []any{map[string]any{"type": "object", "additionalProperties": false, "properties": map[string]any{}}}},
		"free":  true,
	}, required: []string{"free", "lvl"}}
	raw, removed, err := schema.Gemini([]tool.Tool{rt})
	require.NoError(t, err)
	g := tree(t, raw)
	assert.Equal(t, []string{
		"raw: alt.anyOf.0 (an object without properties; written STRING holding JSON text)", // Gemini refuses an OBJECT without properties
		"raw: free (schema without a type)",
		"raw: lvl.enum (Gemini takes enums on strings only)",
		"raw: mail.format (email)",
		"raw: multi.type (a list; kept string)",
		"raw: none.type (null)",
	}, removed)
	params := g["functionDeclarations"].([]any)[0].(map[string]any)["parameters"].(map[string]any)
	assert.Equal(t, []any{"lvl"}, params["required"], "a dropped property leaves required")
	assert.Equal(t, "date-time", params["properties"].(map[string]any)["when"].(map[string]any)["format"])
}

func jsonMarshal(v any) ([]byte, error) { return json.Marshal(v) }

// tree decodes one exported JSON object.
func tree(t *testing.T, raw json.RawMessage) map[string]any {
	t.Helper()
	var out map[string]any
	require.NoError(t, json.Unmarshal(raw, &out))
	return out
}
