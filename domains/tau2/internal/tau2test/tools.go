package tau2test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/registry"
	"github.com/voiceeval/schematools/replay"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

// RequireToolSet checks a domain's two ways to its tools against names
// (tau2 key -> model-facing name): tools (the replay.ToolBuilder) builds
// exactly those tools, keyed by tau2 key and named for the model; register
// registers them in a registry under domain by those names, a set built
// from it holds them all, keyword arguments are refused, and registering
// twice fails with registry.ErrDuplicate. It returns a set of every tool
// built on st, for calls on the live path.
func RequireToolSet(t *testing.T, domain string, tools replay.ToolBuilder, register func(*registry.Tools) error, names map[string]string, st *state.Shared) *tool.Set {
	t.Helper()
	m, err := tools(replay.Env{Domain: domain, Agent: st})
	require.NoError(t, err)
	require.Len(t, m, len(names))
	for key, name := range names {
		require.Contains(t, m, key)
		assert.Equal(t, name, m[key].Name(), key)
	}

	reg := new(registry.Tools)
	require.NoError(t, register(reg))
	assert.Len(t, reg.Names(domain), len(names))
	spec := []registry.ToolSpec{}
	for _, name := range names {
		spec = append(spec, registry.ToolSpec{Name: name})
	}
	set, err := reg.NewSet(domain, spec, registry.Deps{State: st})
	require.NoError(t, err)
	assert.Len(t, set.Names(), len(names))
	_, err = reg.NewSet(domain, []registry.ToolSpec{{Name: "CalculateTool", Args: map[string]any{"x": 1}}}, registry.Deps{State: st})
	assert.Error(t, err, "keyword arguments must be refused")
	assert.True(t, errors.Is(register(reg), registry.ErrDuplicate))
	return set
}

// RequireSchemas pins what the model sees of each tool of m: for each tau2
// key, the properties in order, all of them required, a description for
// the tool and for every property.
func RequireSchemas(t *testing.T, m replay.ToolMap, order map[string][]string) {
	t.Helper()
	require.Len(t, order, len(m))
	for key, want := range order {
		require.Contains(t, m, key)
		s := tool.Schema(m[key])
		assert.Equal(t, want, s.Parameters.Order, key)
		assert.Equal(t, want, s.Parameters.Required, key)
		assert.NotEmpty(t, s.Description, key)
		for _, p := range want {
			prop, ok := s.Parameters.Properties[p].(map[string]any)
			require.True(t, ok, "%s.%s", key, p)
			assert.NotEmpty(t, prop["description"], "%s.%s", key, p)
		}
	}
}
