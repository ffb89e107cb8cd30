package schema_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
	"github.com/voiceeval/schematools/tool/schema"
)

// Every export keeps the order of the parameters struct's fields, as
// tool.Schema does, and writes each definition's keys in the API's order.
func TestExportsKeepFieldOrder(t *testing.T) {
	type params struct {
		Zulu  string `json:"zulu"`
		Alpha int    `json:"alpha,omitempty"`
		Mike  bool   `json:"mike"`
	}
	tl, err := tool.New("ordered", "Ordered.", func(context.Context, *state.Shared, params) (any, error) { return "", nil }, nil)
	require.NoError(t, err)
	tools := []tool.Tool{tl}
	want := `"properties":{"zulu":{"type":"string"},"alpha":{"type":"integer"},"mike":{"type":"boolean"}}`
	text := func(raw json.RawMessage) string { return string(raw) }

	base, err := json.Marshal(tool.Schema(tl))
	require.NoError(t, err)
	assert.Contains(t, string(base), want)

	openai, err := schema.OpenAI(tools, nil)
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(text(openai[0]), `{"type":"function","function":{"name":"ordered","description":"Ordered.","parameters":{"type":"object",`+want), text(openai[0]))
	responses, err := schema.OpenAIResponses(tools, nil)
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(text(responses[0]), `{"type":"function","name":"ordered","description":"Ordered.","parameters":{"type":"object",`+want), text(responses[0]))
	anthropic, err := schema.Anthropic(tools, nil)
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(text(anthropic[0]), `{"name":"ordered","description":"Ordered.","input_schema":{"type":"object",`+want), text(anthropic[0]))
	gemini, _, err := schema.Gemini(tools)
	require.NoError(t, err)
	assert.Contains(t, text(gemini), `"parameters":{"type":"OBJECT","properties":{"zulu":{"type":"STRING"},"alpha":{"type":"INTEGER"},"mike":{"type":"BOOLEAN"}}`)

	strictWant := `"properties":{"zulu":{"type":"string"},"alpha":{"type":["integer","null"]},"mike":{"type":"boolean"}}`
	for _, f := range []func(tools []tool.Tool, opts *schema.Options) ([]json.RawMessage, error){schema.OpenAI, schema.OpenAIResponses} {
		strict, err := f(tools, &schema.Options{Strict: true})
		require.NoError(t, err)
		assert.Contains(t, text(strict[0]), `"parameters":{"type":"object",`+strictWant+`,"required":["alpha","mike","zulu"],"additionalProperties":false},"strict":true}`)
	}
	{
		plain, err := schema.OpenAIResponses(tools, nil)
		require.NoError(t, err)
		assert.Contains(t, text(plain[0]), `,"required":["zulu","mike"]},"strict":false}`)
	}
}
