package registry_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/registry"
	"github.com/voiceeval/schematools/tool"
)

type base struct {
	Source string `json:"source,omitempty"`
}

type keywordOptions struct {
	base
	Items  []string `json:"items,omitempty"`
	Plain  string
	Hidden string `json:"-"`
	Limit  *struct {
		Max int `json:"max"`
	} `json:"limit,omitempty"`
	Lines []struct {
		SKU string `json:"sku"`
	} `json:"lines,omitempty"`
	Any map[string]any `json:"any,omitempty"`
}

// decodeWith runs a Configured factory on args and returns the options it
// decoded.
func decodeWith(args map[string]any) (keywordOptions, error) {
	var got keywordOptions
	_, err := registry.Configured(func(_ registry.Deps, o keywordOptions) (tool.Tool, error) {
		got = o
		return nil, nil
	})(registry.Deps{Args: args})
	return got, err
}

// Keyword names match exactly, as Python's keyword arguments do: a
// miscased or unknown one is refused, not bound case-insensitively.
func TestConfiguredKeywordsAreExact(t *testing.T) {
	for name, tt := range map[string]struct {
		args map[string]any
		want string
	}{
		"miscased":         {map[string]any{"ITEMS": []any{"latte"}}, `got an unexpected keyword argument 'ITEMS' (keyword names are case-sensitive: did you mean 'items'?)`},
		"both casings":     {map[string]any{"Items": []any{"a"}, "items": []any{"b"}}, `got an unexpected keyword argument 'Items'`},
		"untagged":         {map[string]any{"plain": "x"}, `got an unexpected keyword argument 'plain' (keyword names are case-sensitive: did you mean 'Plain'?)`},
		"hidden":           {map[string]any{"Hidden": "x"}, `got an unexpected keyword argument 'Hidden'`},
		"several":          {map[string]any{"b": 1, "a": 2, "items": []any{}}, `got unexpected keyword arguments 'a', 'b'`},
		"embedded":         {map[string]any{"Source": "x"}, `did you mean 'source'?`},
		"nested":           {map[string]any{"limit": map[string]any{"MAX": 3}}, `argument "limit": unexpected key 'MAX' (keys are case-sensitive: did you mean 'max'?)`},
		"nested in a list": {map[string]any{"lines": []any{map[string]any{"sku": "1"}, map[string]any{"Sku": "2"}}}, `argument "lines.1": unexpected key 'Sku'`},
	} {
		_, err := decodeWith(tt.args)
		assert.ErrorIs(t, err, registry.ErrBadOptions, name)
		assert.ErrorContains(t, err, tt.want, name)
	}

	got, err := decodeWith(map[string]any{
		"items": []any{"latte"}, "Plain": "p", "source": "s",
		"limit": map[string]any{"max": 3}, "lines": []any{map[string]any{"sku": "1"}},
		"any": map[string]any{"Whatever": 1},
	})
	require.NoError(t, err)
	assert.Equal(t, []string{"latte"}, got.Items)
	assert.Equal(t, "p", got.Plain)
	assert.Equal(t, "s", got.Source)
	assert.Equal(t, 3, got.Limit.Max)
	assert.Equal(t, "1", got.Lines[0].SKU)
	assert.Equal(t, map[string]any{"Whatever": 1.0}, got.Any, "a map's keys are data, not keyword names")
}

// A spec read from JSON text keeps the last of a repeated key, as
// json.loads does (and a Python call cannot repeat a keyword at all).
func TestConfiguredRepeatedKeyInJSON(t *testing.T) {
	args, err := tool.DecodeArgs([]byte(`{"items": ["a"], "items": ["b"]}`))
	require.NoError(t, err)
	got, err := decodeWith(args)
	require.NoError(t, err)
	assert.Equal(t, []string{"b"}, got.Items)
}
